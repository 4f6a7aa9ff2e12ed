// Copyright mxcts authors.
//
// The bandwidth of synchronous mcMemcpy between host and device memory,
// host to device and device to host, with pageable host memory (the
// program's own, from aligned_alloc) and with page-locked memory
// (mcMallocHost), for 4 B to 256 MiB in powers of 4.
//
// The physical limit is plain memcpy of the same size, measured in the same
// run just before, between the benchmark's host buffer and a second
// page-aligned host buffer in the device buffer's place: host code cannot
// reach device memory on every backend (on a GPU it is the device's own),
// so the limit is the host's copy bandwidth for the same host pages. Each
// benchmark reports its bandwidth, memcpy's, and their ratio (1 is as fast
// as memcpy; small copies measure the call's fixed cost instead).
//
// A copy from pageable memory may return before it ran
// [api.sync.host.memcpy-host-to-device-source-reusable], so the device is
// synchronized after the loop, inside the timed span. Sizes from 16 MiB up
// run a fixed number of iterations (about 2 GiB copied), which keeps the
// whole set near a minute; smaller ones run for the usual minimum time.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

using mxcts::perf::RequireMc;

constexpr size_t kSmallestBytes = 4;
constexpr size_t kLargestBytes = size_t{256} << 20;
constexpr size_t kFixedIterationsFrom = size_t{16} << 20;
constexpr size_t kBytesPerFixedRun = size_t{2} << 30;
constexpr size_t kPage = 4096;

constexpr unsigned char kSourceByte = 0x5a;
constexpr unsigned char kStaleByte = 0x00;

enum class Direction { kHostToDevice, kDeviceToHost };
enum class HostMemory { kPageable = 0, kPageLocked = 1 };

// A host buffer of either kind, written once so that no page fault is
// timed; page aligned, as mcMallocHost and mcMalloc memory is.
class HostBuffer {
 public:
  HostBuffer(HostMemory memory, size_t bytes) : memory_(memory) {
    const size_t rounded = (bytes + kPage - 1) / kPage * kPage;
    if (memory == HostMemory::kPageLocked) {
      RequireMc(mcMallocHost(&data_, rounded), "mcMallocHost");
    } else {
      data_ = std::aligned_alloc(kPage, rounded);
      if (data_ == nullptr) {
        std::fprintf(stderr, "aligned_alloc of %zu bytes failed\n", rounded);
        std::exit(1);
      }
    }
    std::memset(data_, kStaleByte, rounded);
  }
  ~HostBuffer() {
    if (memory_ == HostMemory::kPageLocked) {
      mcFreeHost(data_);
    } else {
      std::free(data_);
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  unsigned char* data() const { return static_cast<unsigned char*>(data_); }

 private:
  HostMemory memory_;
  void* data_ = nullptr;
};

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) {
    RequireMc(mcMalloc(&data_, bytes), "mcMalloc");
    RequireMc(mcMemset(data_, kStaleByte, bytes), "mcMemset");
    RequireMc(mcDeviceSynchronize(), "mcDeviceSynchronize");
  }
  ~DeviceBuffer() { mcFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  unsigned char* data() const { return static_cast<unsigned char*>(data_); }

 private:
  void* data_ = nullptr;
};

// The last byte of `bytes` at `ptr` (device or host memory), read through
// the runtime so that the check does not rely on what it checks.
unsigned char LastByte(const unsigned char* ptr, size_t bytes) {
  unsigned char last = 0;
  RequireMc(mcMemcpy(&last, ptr + bytes - 1, 1, mcMemcpyDefault),
            "mcMemcpy of the last byte");
  return last;
}

void BM_Memcpy(benchmark::State& state, Direction direction) {
  const HostMemory memory = static_cast<HostMemory>(state.range(0));
  const size_t bytes = static_cast<size_t>(state.range(1));
  HostBuffer host(memory, bytes);
  DeviceBuffer device(bytes);
  const bool to_device = direction == Direction::kHostToDevice;
  unsigned char* dst = to_device ? device.data() : host.data();
  unsigned char* src = to_device ? host.data() : device.data();
  const mcMemcpyKind kind =
      to_device ? mcMemcpyHostToDevice : mcMemcpyDeviceToHost;

  HostBuffer stand_in(HostMemory::kPageable, bytes);
  const double memcpy_ns =
      to_device ? mxcts::perf::MemcpyNanoseconds(stand_in.data(), src, bytes)
                : mxcts::perf::MemcpyNanoseconds(dst, stand_in.data(), bytes);
  // Now the source holds new bytes, so that the check after the loop sees
  // the copies' work (the limit only copied stale bytes over stale ones).
  if (to_device) {
    std::memset(src, kSourceByte, bytes);
  } else {
    RequireMc(mcMemset(src, kSourceByte, bytes), "mcMemset");
    RequireMc(mcDeviceSynchronize(), "mcDeviceSynchronize");
  }

  const double copy_ns = mxcts::perf::MeanNanosPerIteration(
      state, [&] { RequireMc(mcMemcpy(dst, src, bytes, kind), "mcMemcpy"); },
      [] { RequireMc(mcDeviceSynchronize(), "mcDeviceSynchronize"); });
  if (LastByte(dst, bytes) != kSourceByte) {
    state.SkipWithError("mcMemcpy did not copy the source's bytes");
    return;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["copy_bytes_per_second"] = bytes / copy_ns * 1e9;
  state.counters["memcpy_bytes_per_second"] = bytes / memcpy_ns * 1e9;
  // copy bandwidth / memcpy bandwidth: 1 means as fast as memcpy.
  state.counters["ratio_to_memcpy"] = memcpy_ns / copy_ns;
}

// One benchmark per direction, host memory and size, so that the large
// sizes can have a fixed iteration count of their own.
void RegisterCopies(const char* name, Direction direction) {
  for (HostMemory memory : {HostMemory::kPageable, HostMemory::kPageLocked}) {
    for (size_t bytes = kSmallestBytes; bytes <= kLargestBytes; bytes *= 4) {
      benchmark::internal::Benchmark* benchmark =
          benchmark::RegisterBenchmark(name, BM_Memcpy, direction)
              ->ArgNames({"pinned", "bytes"})
              ->Args(
                  {static_cast<int64_t>(memory), static_cast<int64_t>(bytes)})
              ->UseRealTime();
      if (bytes >= kFixedIterationsFrom) {
        benchmark->Iterations(kBytesPerFixedRun / bytes)
            ->Unit(benchmark::kMillisecond);
      } else if (bytes >= (size_t{64} << 10)) {
        benchmark->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

const bool kRegistered = [] {
  RegisterCopies("BM_MemcpyHostToDevice", Direction::kHostToDevice);
  RegisterCopies("BM_MemcpyDeviceToHost", Direction::kDeviceToHost);
  return true;
}();

}  // namespace
