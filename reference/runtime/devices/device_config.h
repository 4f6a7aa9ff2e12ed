// Copyright mxcts authors.
//
// reference/runtime/devices/device_config.h: every limit and property of the
// reference's simulated devices, in one place.
//
// The default profile is the MetaX C500's, as a real one reports it
// (shared/MXMACA-API.md); values the C500 report does not give are chosen
// for the reference and say so. Each value names the spec clause that gives
// it meaning; related values are tied together by static_asserts below, so
// that changing one without the other fails to compile.
//
//   mcDeviceProp_t prop = mxcts::runtime::config::DefaultDeviceProperties(1);
//   // prop.pciBusID == kPciBusIdBase + 1
//
// MXCTS_DEVICE_CONFIG changes the profile of some or all simulated devices
// within the bounds the engine supports (device_profile.h).

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_CONFIG_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_CONFIG_H_

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
// [api.device.props.compute-capability]
inline constexpr int kComputeMajor = 10;
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

// The most shared memory a block can opt in to: the same as the default,
// the C500 has no larger opt-in size. [api.device.props.occupancy-limits]
inline constexpr size_t kSharedMemPerBlockOptin = kSharedMemPerBlock;
// Shared memory the system reserves in each block (none).
inline constexpr size_t kReservedSharedMemPerBlock = 0;
// Persisting L2 cache lines are not supported: mcLimitPersistingL2CacheSize
// is an unsupported limit. [api.device.limit.unsupported-limit-on-set]
inline constexpr int kPersistingL2CacheMaxSize = 0;
// The largest access policy window a stream attribute may name: the
// attribute is a cache hint, accepted up to 128 MiB.
// [api.stream.attribute.bad-access-policy-is-invalid-value]
inline constexpr int kAccessPolicyMaxWindowSize = 128 << 20;

// Every allocation address is a multiple of this.
// [api.memory.malloc.alignment-256]
inline constexpr size_t kAllocationAlignment = 256;

// --- Multiprocessors and clocks. [api.device.props.execution-limits] ---

inline constexpr int kMultiProcessorCount = 104;
inline constexpr int kMaxThreadsPerMultiProcessor = 2048;
// Resident blocks per multiprocessor (reference choice).
// [api.device.props.occupancy-limits]
inline constexpr int kMaxBlocksPerMultiProcessor = 32;
// [api.device.props.clocks-and-bus]
inline constexpr int kClockRateKhz = 1600000;
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
// [api.device.props.compute-mode-field]
inline constexpr int kComputeMode = mcComputeModeDefault;
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
// [api.device.props.cache-and-host-flags] L1 caches global and local
// memory; device atomics on host memory are not atomic with the host's (a
// PCIe device); mcHostRegister works.
inline constexpr int kGlobalL1CacheSupported = 1;
inline constexpr int kLocalL1CacheSupported = 1;
inline constexpr int kHostNativeAtomicSupported = 0;
inline constexpr int kHostRegisterSupported = 1;

// --- Textures and surfaces. [api.device.props.texture-and-surface-limits] ---
//
// The reference has no texture or surface objects; these limits describe
// the device profile, so that programs that print or compare them work.
// Reference choices, the sizes current GPUs of the C500's class report:
// widths, heights, depths and layer counts in texels or elements.

// Pitched memory bound to a 2D texture must have a pitch that is a
// multiple of this; every mcMallocPitch pitch is (kAllocationAlignment).
inline constexpr size_t kTexturePitchAlignment = 32;
inline constexpr size_t kSurfaceAlignment = 512;
inline constexpr int kMaxTexture1D = 131072;
inline constexpr int kMaxTexture1DMipmap = 32768;
inline constexpr int kMaxTexture1DLinear = 268435456;  // 2^28 elements
inline constexpr int kMaxTexture2DWidth = 131072;
inline constexpr int kMaxTexture2DHeight = 65536;
inline constexpr int kMaxTexture2DMipmap = 32768;  // width and height
inline constexpr int kMaxTexture2DLinearWidth = 131072;
inline constexpr int kMaxTexture2DLinearHeight = 65000;
inline constexpr int kMaxTexture2DLinearPitch = 2097120;  // bytes
inline constexpr int kMaxTexture2DGather = 32768;         // width and height
inline constexpr int kMaxTexture3D = 16384;               // each dimension
inline constexpr int kMaxTexture3DAltWidth = 8192;
inline constexpr int kMaxTexture3DAltHeight = 8192;
inline constexpr int kMaxTexture3DAltDepth = 32768;
inline constexpr int kMaxTextureCubemap = 32768;
inline constexpr int kMaxTextureLayers = 2048;
inline constexpr int kMaxTextureCubemapLayers = 2046;  // 341 cubes of 6 faces
inline constexpr int kMaxTexture1DLayeredWidth = 32768;
inline constexpr int kMaxTexture2DLayered = 32768;  // width and height
inline constexpr int kMaxSurface1D = 32768;
inline constexpr int kMaxSurface2DWidth = 131072;
inline constexpr int kMaxSurface2DHeight = 65536;
inline constexpr int kMaxSurface3D = 16384;  // each dimension
inline constexpr int kMaxSurfaceLayeredWidth = 32768;
inline constexpr int kMaxSurfaceLayers = 2048;
inline constexpr int kMaxSurfaceCubemap = 32768;
inline constexpr int kMaxSurfaceCubemapLayers = 2046;

// --- Platform and finer capabilities (reference choices). ---
// [api.device.props.platform-and-capability-flags]

// Not a Windows TCC device; no Windows LUID (zero bytes, mask 0).
inline constexpr int kTccDriver = 0;
// Stream priorities are recorded (0 to -5), mcStreamCreateWithPriority
// works. [api.stream.create-with-priority.records-priority]
inline constexpr int kStreamPrioritiesSupported = 1;
// Single precision runs at twice the double precision rate.
inline constexpr int kSingleToDoublePrecisionPerfRatio = 2;
// One host thread runs all device work, grid after grid: a running grid is
// never preempted.
inline constexpr int kComputePreemptionSupported = 0;
// Page-locked memory is mapped for every device at its host address.
// [api.memory.host-register.flags]
inline constexpr int kCanUseHostPointerForRegisteredMem = 1;
// Pageable memory is not device-accessible (kPageableMemoryAccess), so no
// page tables are shared for it.
inline constexpr int kPageableMemoryAccessUsesHostPageTables = 0;
// Managed memory is host memory: the host reaches it without migration.
inline constexpr int kDirectManagedMemAccessFromHost = 1;
// No arrays of any kind. [api.memory.memcpy-3d.copies-box]
inline constexpr int kSparseMcArraySupported = 0;
inline constexpr int kDeferredMappingMcArraySupported = 0;
// mcHostRegisterReadOnly is accepted. [api.memory.host-register.flags]
inline constexpr int kHostRegisterReadOnlySupported = 1;
// No external semaphores, GPUDirect RDMA, clusters, MPS.
inline constexpr int kTimelineSemaphoreInteropSupported = 0;
inline constexpr int kGpuDirectRdmaSupported = 0;
inline constexpr unsigned kGpuDirectRdmaFlushWritesOptions = 0;
inline constexpr int kGpuDirectRdmaWritesOrdering = 0;  // none
inline constexpr int kClusterLaunch = 0;
inline constexpr int kMpsEnabled = 0;
// The handle types memory pools export: a POSIX file descriptor
// (pools/pool_sharing.h).
inline constexpr unsigned kMemoryPoolSupportedHandleTypes = 1;
// Interprocess events are supported [api.ipc.event.get-handle].
inline constexpr int kIpcEventSupported = 1;
// Host and device function addresses differ.
inline constexpr int kUnifiedFunctionPointers = 0;
// The device's memory is no NUMA node; the host is one NUMA node, 0 (the
// only host NUMA node mcMemLocationTypeHostNuma accepts).
// [api.memory.location.types]
inline constexpr int kDeviceNumaConfig = 0;
inline constexpr int kDeviceNumaId = -1;
inline constexpr int kHostNumaId = 0;
inline constexpr int kHostNumaMultinodeIpcSupported = 0;
// PCI identity of the simulated board, as CUDA packs it (device id in the
// high 16 bits, vendor id in the low): vendor 0x9999 and device 0x4000 are
// reference choices; the subsystem is the same pair.
inline constexpr unsigned kGpuPciVendorId = 0x9999;
inline constexpr unsigned kGpuPciDeviceId = (0x4000u << 16) | kGpuPciVendorId;
inline constexpr unsigned kGpuPciSubsystemId =
    (0x4000u << 16) | kGpuPciVendorId;

// --- Identity of the simulated hardware (reference choices). ---

// The UUID of system device i: these 16 bytes with the last two replaced
// by i, big-endian; as text, "GPU-6d786374-7300-4000-8000-000000000001" for
// device 1. [api.device.uuid.distinct-per-device]
inline constexpr unsigned char kUuidTemplate[16] = {
    0x6d, 0x78, 0x63, 0x74, 0x73, 0x00, 0x40, 0x00,
    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

// --- Device runtime limits (defaults). ---

inline constexpr int kDevRuntimeSyncDepth = 2;  // [api.device.limit.sync-depth]
// [api.device.limit.pending-launch-count]
inline constexpr int kDevRuntimePendingLaunchCount = 2048;
// mcLimitMaxL2FetchGranularity: a hint, in bytes, 0 to 128 and a power of
// two. [api.device.limit.l2-fetch-granularity-range]
inline constexpr int kDefaultL2FetchGranularity = 64;
inline constexpr int kMaxL2FetchGranularity = 128;

// --- Kernels (mcFuncGetAttributes, occupancy). ---

// Kernels compile to host code: they use no device registers, no local
// memory, no constant bank of their own.
// [api.device.func.attributes-reference-values]
inline constexpr int kKernelRegisters = 0;
inline constexpr int kKernelLocalBytes = 0;
// The architecture version kernels are built for (major * 10 + minor).
inline constexpr int kKernelBinaryVersion = 100;
// Occupancy counts threads in whole waves. [api.device.occupancy.model]
inline constexpr int kOccupancyThreadGranularity = 64;

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
static_assert(kSharedMemPerBlockOptin >= kSharedMemPerBlock &&
                  kSharedMemPerBlockOptin <= kSharedMemPerMultiprocessor,
              "[api.device.props.occupancy-limits] opt-in shared memory");
static_assert(kMaxBlocksPerMultiProcessor * kWaveSize >=
                  kMaxThreadsPerMultiProcessor,
              "a multiprocessor can be filled with one-wave blocks");
static_assert(kOccupancyThreadGranularity == kWaveSize,
              "[api.device.occupancy.model] whole waves");
static_assert(kComputeMajor * 10 + kComputeMinor == kKernelBinaryVersion,
              "kernels are built for the device's architecture");
static_assert(kDefaultL2FetchGranularity <= kMaxL2FetchGranularity &&
                  (kDefaultL2FetchGranularity &
                   (kDefaultL2FetchGranularity - 1)) == 0,
              "[api.device.limit.l2-fetch-granularity-range]");
static_assert(kSharedMemPerBlock < kTotalGlobalMem &&
                  kTotalConstMem < kTotalGlobalMem,
              "on-chip memories are smaller than device memory");
static_assert((kAllocationAlignment & (kAllocationAlignment - 1)) == 0 &&
                  kAllocationAlignment >= 256,
              "[api.memory.malloc.alignment-256]");
static_assert(kTextureAlignment <= kAllocationAlignment,
              "every allocation is aligned for textures");
static_assert(kAllocationAlignment % kTexturePitchAlignment == 0 &&
                  kSurfaceAlignment % kAllocationAlignment == 0,
              "[api.device.props.texture-and-surface-limits] every "
              "mcMallocPitch pitch suits a texture");
static_assert(kMaxTexture1DMipmap <= kMaxTexture1D &&
                  kMaxTexture2DMipmap <= kMaxTexture2DWidth &&
                  kMaxTexture2DMipmap <= kMaxTexture2DHeight &&
                  kMaxTexture2DGather <= kMaxTexture2DHeight &&
                  kMaxTexture2DLinearWidth <= kMaxTexture2DWidth &&
                  kMaxTexture2DLinearHeight <= kMaxTexture2DHeight &&
                  kMaxTexture1DLayeredWidth <= kMaxTexture1D &&
                  kMaxTexture2DLayered <= kMaxTexture2DHeight &&
                  kMaxTextureCubemapLayers % 6 == 0 &&
                  kMaxTextureCubemapLayers <= kMaxTextureLayers &&
                  kMaxSurfaceCubemapLayers % 6 == 0 &&
                  kMaxSurface1D <= kMaxTexture1D &&
                  kMaxSurface2DWidth <= kMaxTexture2DWidth &&
                  kMaxSurface3D <= kMaxTexture3D,
              "[api.device.props.texture-and-surface-limits] mipmapped, "
              "gathered, linear and layered textures and surfaces are no "
              "larger than plain textures");
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

// The properties of system device `system_index` in the default profile
// (the C500's), before MXCTS_DEVICE_CONFIG (device_profile.h) applies.
mcDeviceProp_t DefaultDeviceProperties(int system_index);

// The UUID of system device `system_index` (kUuidTemplate and the index).
mcUuid_t DeviceUuid(int system_index);

}  // namespace mxcts::runtime::config

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_CONFIG_H_
