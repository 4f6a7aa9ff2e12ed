// Copyright mxcts authors.
//
// The kept device and kernel attributes (fixed_attributes.h).

#include "backends/cuda/runtime/fixed_attributes.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

namespace mxcts::cuda_backend {
namespace {

// The attributes kept per device, and how many devices have slots; a
// device beyond them is asked every time.
constexpr cudaDeviceAttr kKeptAttributes[] = {
    cudaDevAttrMaxGridDimX,        cudaDevAttrMaxGridDimY,
    cudaDevAttrMaxGridDimZ,        cudaDevAttrMaxBlockDimX,
    cudaDevAttrMaxBlockDimY,       cudaDevAttrMaxBlockDimZ,
    cudaDevAttrMaxThreadsPerBlock, cudaDevAttrMemoryPoolsSupported,
};
constexpr int kKeptCount = sizeof(kKeptAttributes) / sizeof(kKeptAttributes[0]);
constexpr int kKeptDevices = 64;

// Each slot holds the value plus one, or 0 while not yet read: a read
// that races another stores the same value.
std::atomic<int64_t> device_slots[kKeptDevices][kKeptCount];

int SlotOf(cudaDeviceAttr attribute) {
  for (int i = 0; i < kKeptCount; ++i) {
    if (kKeptAttributes[i] == attribute) return i;
  }
  return -1;
}

struct KernelRecord {
  std::mutex mutex;
  std::map<std::pair<const void*, int>, cudaFuncAttributes> kept;
  // Bumped by each forgetting, so that attributes read from CUDA before
  // one are not kept after it.
  uint64_t forgettings = 0;
};

KernelRecord& Kernels() {
  static KernelRecord* record = new KernelRecord();
  return *record;
}

}  // namespace

bool FixedDeviceAttribute(cudaDeviceAttr attribute, int device, int* value) {
  const int slot = SlotOf(attribute);
  const bool keeps = slot >= 0 && device >= 0 && device < kKeptDevices;
  if (keeps) {
    const int64_t kept =
        device_slots[device][slot].load(std::memory_order_relaxed);
    if (kept != 0) {
      *value = static_cast<int>(kept - 1);
      return true;
    }
  }
  if (cudaDeviceGetAttribute(value, attribute, device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (keeps) {
    device_slots[device][slot].store(int64_t{*value} + 1,
                                     std::memory_order_relaxed);
  }
  return true;
}

bool KernelAttributes(const void* func, cudaFuncAttributes* attributes) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  KernelRecord& record = Kernels();
  const std::pair<const void*, int> key(func, device);
  uint64_t forgettings = 0;
  {
    std::lock_guard<std::mutex> lock(record.mutex);
    auto it = record.kept.find(key);
    if (it != record.kept.end()) {
      *attributes = it->second;
      return true;
    }
    forgettings = record.forgettings;
  }
  if (cudaFuncGetAttributes(attributes, func) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  std::lock_guard<std::mutex> lock(record.mutex);
  if (record.forgettings == forgettings) record.kept[key] = *attributes;
  return true;
}

void ForgetKernelAttributes() {
  KernelRecord& record = Kernels();
  std::lock_guard<std::mutex> lock(record.mutex);
  record.kept.clear();
  ++record.forgettings;
}

}  // namespace mxcts::cuda_backend
