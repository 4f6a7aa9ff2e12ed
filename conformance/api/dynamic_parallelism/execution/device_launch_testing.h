// Copyright mxcts authors.
//
// Helpers of the dynamic parallelism tests: device buffers that free
// themselves and read back to the host, and the linear ids of the running
// thread. Public API only, so that the tests certify any backend.
//
//   DeviceArray<int> out(64);
//   Parent<<<1, 1>>>(out.get());
//   ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
//   std::vector<int> values = out.ToHost();

#ifndef CONFORMANCE_API_DYNAMIC_PARALLELISM_EXECUTION_DEVICE_LAUNCH_TESTING_H_
#define CONFORMANCE_API_DYNAMIC_PARALLELISM_EXECUTION_DEVICE_LAUNCH_TESTING_H_

#include <mc_runtime.h>

#include <cstddef>
#include <vector>

namespace dp_testing {

// `count` zeroed elements of device memory, freed at scope end.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t count) : count_(count) {
    if (mcMalloc(&data_, count * sizeof(T) + 1) == mcSuccess) {
      mcMemset(data_, 0, count * sizeof(T) + 1);
    }
  }
  ~DeviceArray() { mcFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* get() const { return data_; }
  // The elements, after the device work that wrote them.
  std::vector<T> ToHost() const {
    std::vector<T> host(count_);
    mcMemcpy(host.data(), data_, count_ * sizeof(T), mcMemcpyDeviceToHost);
    return host;
  }
  T At(size_t index) const {
    T value{};
    mcMemcpy(&value, data_ + index, sizeof(T), mcMemcpyDeviceToHost);
    return value;
  }

 private:
  T* data_ = nullptr;
  size_t count_;
};

// The running thread's block and thread as linear ids (x fastest).
__device__ inline unsigned LinearBlock() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
__device__ inline unsigned LinearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned ThreadsPerBlock() {
  return blockDim.x * blockDim.y * blockDim.z;
}
__device__ inline unsigned GlobalThread() {
  return LinearBlock() * ThreadsPerBlock() + LinearThread();
}

inline unsigned Volume(dim3 d) { return d.x * d.y * d.z; }

// A child that stores base + its global thread id at that index of `out`.
__global__ void FillChild(int* out, int base) {
  out[GlobalThread()] = base + static_cast<int>(GlobalThread());
}

}  // namespace dp_testing

#endif  // CONFORMANCE_API_DYNAMIC_PARALLELISM_EXECUTION_DEVICE_LAUNCH_TESTING_H_
