// Copyright mxcts authors.
//
// reference/runtime/device_config.h: every limit and property of the
// reference's simulated devices, in one place.
//
// The default profile is the MetaX C500's, as a real one reports it
// (shared/MXMACA-API.md); values the C500 report does not give are chosen
// for the reference and say so. Each value names the spec clause that gives
// it meaning; related values are tied together by static_asserts below, so
// that changing one without the other fails to compile.
//
//   mcDeviceProp_t prop = mxcts::runtime::DefaultDeviceProperties(1);
//   // prop.pciBusID == kPciBusIdBase + 1

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICE_CONFIG_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICE_CONFIG_H_

#include <stddef.h>

#include <cstdint>

#include "mc_runtime_api.h"
#include "reference/device/engine.h"

namespace mxcts::runtime::config {

// --- The simulated system. ---

// Devices the reference simulates when MXCTS_DEVICE_COUNT is unset: two, so
// that multi-device rules are testable.
// [api.env.visible-devices.unset-all-visible]
inline constexpr int kDefaultDeviceCount = 2;
// The most devices MXCTS_DEVICE_COUNT may ask for.
inline constexpr int kMaxDeviceCount = 16;

// The simulated driver reports the runtime's own version.
// [api.device.version.runtime] [api.device.version.driver]
inline constexpr int kRuntimeVersion = MACART_VERSION;
inline constexpr int kDriverVersion = MACART_VERSION;

// --- Identity. ---

inline constexpr char kDeviceName[] = "MetaX C500";  // [api.device.props.name]
inline constexpr int kComputeMajor =
    10;  // [api.device.props.compute-capability]
inline constexpr int kComputeMinor = 0;
// PCI location of system device i: domain 0, bus kPciBusIdBase + i, device
// 0 (reference choice). Ascending with i, so FASTEST_FIRST and PCI_BUS_ID
// orders agree. [api.device.props.pci-location]
inline constexpr int kPciDomainId = 0;
inline constexpr int kPciBusIdBase = 0x1b;
inline constexpr int kPciDeviceId = 0;

// --- The wave. ---

inline constexpr int kWaveSize = 64;  // [api.device.props.wave-size-is-64]
inline constexpr int kHalfWaveSize = 32;

// --- Launch shape. ---

// [lang.launch.limit.block-threads-exceed-max]
inline constexpr int kMaxThreadsPerBlock = 1024;
// [lang.launch.limit.block-dimension-exceeds-max]
inline constexpr int kMaxBlockDimX = 1024;
inline constexpr int kMaxBlockDimY = 1024;
inline constexpr int kMaxBlockDimZ = 1024;
// [lang.launch.limit.grid-dimension-exceeds-max]
inline constexpr int kMaxGridDimX = 2147483647;
inline constexpr int kMaxGridDimY = 2147483647;
inline constexpr int kMaxGridDimZ = 2147483647;

// --- Memory sizes. [api.device.props.memory-sizes] ---

// 64 GiB of device memory (the C500's HBM; reference choice).
inline constexpr size_t kTotalGlobalMem = size_t{64} << 30;
// [lang.launch.limit.shared-memory-exceeds-max]
inline constexpr size_t kSharedMemPerBlock = 65536;
// [api.device.attribute.memory-sizes] (reference choice: one block's worth)
inline constexpr size_t kSharedMemPerMultiprocessor = 65536;
inline constexpr size_t kTotalConstMem = 2147483647;
inline constexpr size_t kMemPitch = 1073741823;
inline constexpr size_t kTextureAlignment = 256;
inline constexpr int kL2CacheSize = 8388608;
inline constexpr int kRegsPerBlock = 131072;
inline constexpr int kRegsPerMultiprocessor = 131072;  // reference choice

// Every allocation address is a multiple of this.
// [api.memory.malloc.alignment-256]
inline constexpr size_t kAllocationAlignment = 256;

// --- Multiprocessors and clocks. [api.device.props.execution-limits] ---

inline constexpr int kMultiProcessorCount = 104;
inline constexpr int kMaxThreadsPerMultiProcessor = 2048;
inline constexpr int kClockRateKhz =
    1600000;  // [api.device.props.clocks-and-bus]
inline constexpr int kMemoryClockRateKhz = 1800000;
inline constexpr int kMemoryBusWidthBits = 4096;

// --- Capabilities (0 or 1). [api.device.props.capability-flags] ---

inline constexpr int kDeviceOverlap = 1;
inline constexpr int kKernelExecTimeoutEnabled = 0;
inline constexpr int kIntegrated = 0;
inline constexpr int kCanMapHostMemory = 1;
inline constexpr int kConcurrentKernels = 1;
inline constexpr int kEccEnabled = 1;
inline constexpr int kIsMultiGpuBoard = 0;
inline constexpr int kComputeMode =
    mcComputeModeDefault;  // [api.device.props.compute-mode-field]
// [api.memory.uva.device-supports-unified-addressing]
inline constexpr int kUnifiedAddressing = 1;
// [api.device.attribute.async-engine-count] (reference choice)
inline constexpr int kAsyncEngineCount = 2;
// [api.device.attribute.feature-flags]
inline constexpr int kManagedMemory = 1;
inline constexpr int kConcurrentManagedAccess = 1;
inline constexpr int kPageableMemoryAccess = 0;
inline constexpr int kCooperativeLaunch = 1;
inline constexpr int kCooperativeMultiDeviceLaunch = 0;
inline constexpr int kMemoryPoolsSupported = 1;

// --- Device runtime limits (defaults). ---

inline constexpr int kDevRuntimeSyncDepth = 2;  // [api.device.limit.sync-depth]
// [api.device.limit.pending-launch-count]
inline constexpr int kDevRuntimePendingLaunchCount = 2048;

// --- Ties between values. ---

static_assert(kWaveSize == 2 * kHalfWaveSize, "a half wave is half a wave");
static_assert(kMaxThreadsPerBlock % kWaveSize == 0,
              "a full block is a whole number of waves");
static_assert(kMaxBlockDimX <= kMaxThreadsPerBlock &&
                  kMaxBlockDimY <= kMaxThreadsPerBlock &&
                  kMaxBlockDimZ <= kMaxThreadsPerBlock,
              "no block dimension exceeds the block's thread limit");
static_assert(kMaxThreadsPerMultiProcessor >= kMaxThreadsPerBlock,
              "one full block fits on a multiprocessor");
static_assert(kSharedMemPerBlock <= kSharedMemPerMultiprocessor,
              "[api.device.attribute.memory-sizes] per-block shared memory "
              "does not exceed the multiprocessor's");
static_assert(kRegsPerBlock <= kRegsPerMultiprocessor,
              "one block's registers fit on a multiprocessor");
static_assert(kSharedMemPerBlock < kTotalGlobalMem &&
                  kTotalConstMem < kTotalGlobalMem,
              "on-chip memories are smaller than device memory");
static_assert((kAllocationAlignment & (kAllocationAlignment - 1)) == 0 &&
                  kAllocationAlignment >= 256,
              "[api.memory.malloc.alignment-256]");
static_assert(kTextureAlignment <= kAllocationAlignment,
              "every allocation is aligned for textures");
static_assert(kDefaultDeviceCount >= 2 &&
                  kDefaultDeviceCount <= kMaxDeviceCount,
              "two devices by default, so that peer rules are testable");
static_assert(kPciBusIdBase + kMaxDeviceCount <= 0xff, "bus ids fit a byte");
static_assert(kRuntimeVersion / 1000 >= 1 && kRuntimeVersion % 1000 / 10 < 100,
              "[api.device.version.runtime] encoding");

// The engine enforces the same block limits as a defence.
static_assert(kSharedMemPerBlock == mxcts::device::kSharedBytesPerBlock,
              "runtime and engine agree on shared memory per block");
static_assert(kMaxThreadsPerBlock == mxcts::device::kMaxThreadsPerBlock,
              "runtime and engine agree on threads per block");

// The properties of system device `system_index` in the default profile.
mcDeviceProp_t DefaultDeviceProperties(int system_index);

}  // namespace mxcts::runtime::config

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICE_CONFIG_H_
