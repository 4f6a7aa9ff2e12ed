// Copyright mxcts authors.
//
// reference/device/engine.h: the device engine of the reference
// implementation, as the host runtime sees it.
//
// The engine runs one grid at a time on the calling OS thread, sequentially
// and deterministically: blocks in linear order, the threads of a block in
// linear order, switching between threads only where a thread waits in a
// collective (a block barrier). Each device thread runs on a fiber; a trap
// (device assert, barrier misuse, deadlock, explicit trap) abandons the grid,
// writes one diagnostic naming the kernel, block, thread and call site to
// stderr, and makes RunGrid return the trap's error. Device printf output is
// buffered until the runtime flushes it; the device heap lives across grids.
// Device code may launch child grids (dynamic parallelism, device_runtime.h):
// they run on the same OS thread inside their top-level grid's RunGrid, and
// a trap in one is the trap of the whole launch tree.
//
//   void* args[] = {&in, &out, &n};
//   mxcts::device::GridLaunch launch{"vector_add(float const*, float*, int)",
//                                    record->entry, args, dim3(4), dim3(256),
//                                    0};
//   mcError_t err = mxcts::device::RunGrid(launch);
//   mxcts::device::FlushDevicePrintf();
//
// Thread safety: every function here may be called from any host thread;
// grids run one at a time (RunGrid holds the engine while it runs).

#ifndef REFERENCE_DEVICE_ENGINE_H_
#define REFERENCE_DEVICE_ENGINE_H_

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "mcr/mc_runtime_types.h"
#include "reference/device/image/image_abi.h"

namespace mxcts::device {

// One grid to run. `args` and everything it points at must stay valid until
// RunGrid returns.
struct GridLaunch {
  // For diagnostics, e.g. "vector_add(float const*, float*, int)". Not
  // copied: the text must stay valid until RunGrid returns.
  std::string_view kernel_name;
  void (*entry)(void** args);  // from a KernelRecord
  void** args;                 // pointers to the arguments
  dim3 grid;
  dim3 block;
  size_t dynamic_shared_bytes;
  // The kernel's thread loop (KernelRecord::run_threads), or null: the
  // engine then calls `entry` once per thread. Both run the same threads in
  // the same order; the loop is faster.
  void (*run_threads)(void** args, __mc_thread_walk* walk) = nullptr;
  // A cooperative launch (mcLaunchCooperativeKernel): every block stays
  // alive until all its threads exit, so that grid_group::sync() (the grid
  // barrier) can complete; blocks that wait there are suspended while the
  // others run. [api.coop.launch.all-blocks-co-resident]
  bool cooperative = false;
};

// The most bytes of shared memory (static plus dynamic) one block may use.
// [api.device.props.execution-limits] sharedMemPerBlock.
inline constexpr size_t kSharedBytesPerBlock = 65536;
// The most threads in one block. [api.device.props.execution-limits]
inline constexpr unsigned kMaxThreadsPerBlock = 1024;

// Runs every block and thread of the grid on the calling thread, blocks in
// linear order, threads in linear order, switching only at collectives.
// Returns mcSuccess, or the error a trap makes (mcErrorAssert for a device
// assert, mcErrorLaunchFailure for barrier misuse, deadlock or an explicit
// trap; later traps such as mcErrorIllegalAddress follow the same path); the
// diagnostic naming kernel, block and thread has been written to stderr by
// then, one line:
//
//   mxmaca trap: kernel 'k(int*)' block (1,0,0) thread (3,0,0): <what>
//
// Traps and their errors:
//   - failed device assert: mcErrorAssert, "<file>:<line>: <function>:
//     Assertion '<expression>' failed.";
//   - threads of a block at different __syncthreads() call sites, a barrier
//     that exited threads skip (a grid barrier of a cooperative grid
//     included), grid_group::sync() in a grid not launched cooperatively,
//     a cooperative group's collective that a member skipped, a deadlock, an
//     explicit trap (abort(), a pure virtual call), free() of a pointer that is
//     not a live heap block: mcErrorLaunchFailure;
//   - static __shared__ variables plus the dynamic bytes beyond
//     kSharedBytesPerBlock (found when the variable is first used):
//     mcErrorInvalidConfiguration;
//   - no memory for a device thread's stack: mcErrorLaunchOutOfResources;
//   - a memory fault, stack overflow, floating-point exception (policy 2),
//     illegal instruction or kernel timeout: see fault_traps.h and the
//     trap settings below (mcErrorIllegalAddress, mcErrorLaunchFailure,
//     mcErrorIllegalInstruction, mcErrorLaunchTimeout).
// After a trap no further thread or block of the grid runs; device threads
// that were waiting are abandoned without unwinding.
//
// Shared memory: each block has kSharedBytesPerBlock bytes; static
// __shared__ variables take offsets from the bottom in the order the grid
// first reaches them (the same in every block), the dynamic area (the
// launch's dynamic_shared_bytes rounded up to 16) ends the arena. Both start
// each block with indeterminate (garbage) contents.
//
// The runtime validates launches; as a defence the engine returns
// mcErrorInvalidConfiguration, without running anything, for a null entry, a
// zero extent, a block of more than kMaxThreadsPerBlock threads or more than
// kSharedBytesPerBlock dynamic shared bytes, and mcErrorNotSupported when
// called on an OS thread that is running a grid already. Device code
// launches child grids through the device runtime instead
// (device_runtime.h): they run inside the grid's RunGrid, which returns
// only when they have completed, and a trap in one is the grid's.
mcError_t RunGrid(const GridLaunch& launch);

// The table passed to every device image's __mc_image_bind. Its entries are
// the unprefixed functions of mcr/detail/device_abi.h and the engine's
// printf, heap and trap services. Valid for the life of the process.
const __mc_image_runtime* ImageRuntimeTable();

// Writes the buffered device printf output to stdout (in the order the device
// threads printed it), flushes stdout, and empties the buffer. If records were
// dropped because the buffer was full, also writes one line to stderr saying
// how many, and resets that count.
void FlushDevicePrintf();

// Returns the buffered device printf output and empties the buffer, without
// writing it anywhere; the dropped-record count is reset too.
std::string TakeDevicePrintfOutput();

// The number of device printf records dropped, since the last flush or take,
// because they did not fit in the buffer.
size_t DroppedDevicePrintfRecords();

// Whether device printf was called since the process started or the last
// ResetDeviceState (for [lang.printf.fifo.resize-after-use-is-invalid-value]).
bool DevicePrintfWasUsed();

// Whether device malloc or free was called since the process started or the
// last ResetDeviceState ([lang.malloc.heap.resize-after-use-is-invalid-value]).
bool DeviceHeapWasUsed();

// Whether `pointer` points into the device heap (device malloc memory, which
// the host must not free). [lang.malloc.host.mcfree-of-heap-pointer-is-error]
bool IsDeviceHeapAddress(const void* pointer);

// Device reset: discards the buffered printf output (flush it first to keep
// it), frees every device heap block, and forgets that either was used.
// Settings keep their values. No grid may be running.
// [lang.malloc.lifetime.released-by-device-reset]
void ResetDeviceState();

// --- Engine settings. ---
//
// Each setter returns false, and changes nothing, for a value out of range.
// A setting applies to grids started after the call.

// The stack of each fiber (one device thread while it runs): the device
// code's frames plus the engine's and the C library's (printf formatting).
// Rounded up to whole pages; each stack also gets a guard page below it,
// or a canary (SetGuardedStackBudget).
// A runtime that offers mcLimitStackSize (the device code's own share) can
// set it to that value plus kFiberStackReserveBytes.
inline constexpr size_t kDefaultFiberStackBytes = 256 * 1024;
inline constexpr size_t kMinFiberStackBytes = 16 * 1024;
inline constexpr size_t kMaxFiberStackBytes = 64 * 1024 * 1024;
inline constexpr size_t kFiberStackReserveBytes = 64 * 1024;
size_t FiberStackBytes();
bool SetFiberStackBytes(size_t bytes);

// How many fiber stacks may have a guard page of their own; stacks beyond
// come from slabs and carry a canary instead (fibers/stack_pool.h).
// kGuardedStacksFromSystem, the default, is what the system's limit on
// memory mappings allows; tests of the slab stacks set a small number.
// Each call gives the next grid a new pool of stacks.
inline constexpr size_t kGuardedStacksFromSystem = ~size_t{0};
void SetGuardedStackBudget(size_t budget);

// The order in which grids started from now on run their blocks and
// threads (reference/device/scheduling/schedule_order.h): "linear" (the
// default) or "shuffle:<seed>". Until set, the value of the environment
// variable MXCTS_ENGINE_ORDER (an invalid value is reported once on stderr and
// the linear order used). Every trap diagnostic of a shuffled grid names the
// order.
std::string ScheduleOrderSetting();
bool SetScheduleOrder(const std::string& setting);

// The device printf buffer (mcLimitPrintfFifoSize): the bytes of formatted
// output kept between flushes. A record that does not fit is dropped whole.
// Changing the size keeps the records already buffered if they fit, else
// returns false. [api.device.limit.printf-fifo-size]
inline constexpr size_t kDefaultPrintfBufferBytes = 1024 * 1024;
inline constexpr size_t kMinPrintfBufferBytes = 64;
inline constexpr size_t kMaxPrintfBufferBytes = size_t{1} << 30;
size_t PrintfBufferBytes();
bool SetPrintfBufferBytes(size_t bytes);

// The device heap (mcLimitMallocHeapSize) from which device malloc and
// operator new allocate; exhaustion makes malloc return NULL. The size cannot
// change while device allocations are live (returns false).
// [api.device.limit.malloc-heap-size]
inline constexpr size_t kDefaultDeviceHeapBytes = 8 * 1024 * 1024;
inline constexpr size_t kMinDeviceHeapBytes = 0;
inline constexpr size_t kMaxDeviceHeapBytes = size_t{16} << 30;
size_t DeviceHeapBytes();
bool SetDeviceHeapBytes(size_t bytes);

// Which exceptions of device code trap (MACA_TRAP_HANDLER, which the runtime
// reads at start and sets here). [api.env.trap-handler.values]
enum class TrapPolicy {
  // [api.trap.policy.zero-disables-reporting] A failed assert or an
  // explicit trap (abort(), a pure virtual call) ends its thread without a
  // diagnostic and the rest of the grid runs on. Exceptions the engine
  // cannot continue past (memory faults, stack overflow, barrier misuse,
  // deadlock, timeout, misaligned atomics) trap, print and make their error
  // sticky as under kFatal: the grid cannot run to completion, and reporting
  // success for results that were never computed would mislead.
  kOff = 0,
  // [api.trap.policy.default-reports-fatal] Fatal exceptions trap;
  // floating-point exceptions are masked (IEEE results).
  kFatal = 1,
  // [api.trap.policy.two-reports-numeric] Also division by zero, invalid
  // operation and overflow in floating-point arithmetic trap, with
  // mcErrorLaunchFailure.
  kFatalAndNumeric = 2,
};
TrapPolicy GetTrapPolicy();
void SetTrapPolicy(TrapPolicy policy);

// The kernel timeout (MACA_KERNEL_TIMEOUT) in milliseconds of wall-clock
// time from the start of a grid; 0: none. A grid still running after it
// traps with mcErrorLaunchTimeout, "kernel ran longer than
// MACA_KERNEL_TIMEOUT=N ms". [api.env.kernel-timeout.values]
// [api.trap.error.timeout]
inline constexpr unsigned kMaxKernelTimeoutMilliseconds = 60000;
unsigned KernelTimeoutMilliseconds();
bool SetKernelTimeoutMilliseconds(unsigned milliseconds);

// The hang monitor (MACA_MONITOR_HANG_TIMEOUT) in seconds of wall-clock
// time from the start of a grid; 0: off. A grid still running after it
// traps as a timed-out one does, with mcErrorLaunchTimeout and "hang
// monitor: kernel still running after MACA_MONITOR_HANG_TIMEOUT=N s"; with
// both set, the earlier one traps. [api.env.monitor-hang-timeout.values]
// [api.env.monitor-hang-timeout.reference-monitor]
inline constexpr unsigned kMaxHangTimeoutSeconds = 0xFFFF;
unsigned HangTimeoutSeconds();
bool SetHangTimeoutSeconds(unsigned seconds);

// --- Faults of device code (reference/device/scheduling/fault_traps.h). ---

// Registers [begin, begin + size) as device code (a loaded image's
// executable segment): an otherwise unexplained memory fault, an integer
// division fault or an illegal instruction there traps instead of ending
// the process, and an expired kernel timeout traps there at once. Returns
// false (and registers nothing) for an empty range or when the engine's
// table of ranges is full. Thread-safe.
bool RegisterDeviceCode(const void* begin, size_t size);
// Forgets the range registered at `begin`, if any.
void UnregisterDeviceCode(const void* begin);

// What a classifier says about a faulting address.
struct FaultDescription {
  mcError_t error = mcErrorIllegalAddress;
  std::string message;  // for the diagnostic: "use of freed device memory..."
};

// Recognizes a faulting address of memory the engine does not own (the
// runtime's allocations, its __constant__ variables): returns true and
// fills `description`, or returns false. Called on the OS thread that runs
// the grid, inside its fault handler, while device code is interrupted; it
// may take locks that device code never holds, allocate and format.
using FaultClassifier = bool (*)(uintptr_t address,
                                 FaultDescription* description);
// Makes `classifier` (null: none) the one the engine asks.
void SetFaultClassifier(FaultClassifier classifier);

// Lays out shared memory for finding misuse (the runtime's checked mode):
// every __shared__ variable, and the dynamic area, ends at inaccessible
// memory, so an access past its end traps with mcErrorIllegalAddress and a
// diagnostic naming the variable. Takes effect at the next grid.
// [lang.ub.memory.out-of-bounds-shared]
void SetSharedMemoryChecked(bool checked);

}  // namespace mxcts::device

#endif  // REFERENCE_DEVICE_ENGINE_H_
