// Copyright mxcts authors.
//
// The device runtime API as device code reaches it. Errors are kept per
// device thread in the calling grid's NestedGrid: every failing call and
// launch records its error, mcGetLastError returns and clears it,
// mcPeekAtLastError only returns it [api.devrt.api.get-last-error-optional].
//
// Parameter buffers belong to the launch tree: mcGetParameterBuffer hands
// out zeroed, aligned storage that the launch consuming it releases (the
// arguments are copied at the launch); one never launched is released
// with the tree. A V2 buffer also records its kernel and configuration.
// The layout is that of a structure of the parameters
// [api.devrt.launch.parameter-buffer-layout]: each at the next multiple of
// its alignment, in declaration order.
//
// Streams and events created in device code are handles of the launch
// tree (device_streams.h), usable by the block that created them only. The
// calls validate their arguments as the host's do: a null out-pointer or a
// flag device code does not accept is mcErrorInvalidValue, a handle the
// calling block may not use is mcErrorInvalidResourceHandle.
//
// Tested by conformance/api/dynamic_parallelism.

#include "reference/device/nested/device_runtime_calls.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "reference/device/device_runtime.h"
#include "reference/device/nested/nested_grids.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/scheduling/thread_context.h"

namespace mxcts::device_internal {
namespace {

NestedGrid& CallingNode(const char* what) {
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->block == nullptr || grid->nested == nullptr) {
    DieOutsideGrid(what, nullptr, 0);
  }
  return *grid->nested;
}

mcError_t Fail(NestedGrid& node, mcError_t error) {
  node.RecordError(error);
  return error;
}

bool IsPowerOfTwo(size_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

// The offsets of `record`'s parameters in a parameter buffer, and its size
// and alignment.
struct Layout {
  std::vector<size_t> offsets;
  size_t size = 0;
  size_t alignment = 1;
};

Layout LayoutOf(const __mc_internal::KernelRecord& record) {
  Layout layout;
  for (unsigned i = 0; i < record.param_count; ++i) {
    const size_t alignment = record.param_alignments[i];
    layout.size = (layout.size + alignment - 1) / alignment * alignment;
    layout.offsets.push_back(layout.size);
    layout.size += record.param_sizes[i];
    if (alignment > layout.alignment) layout.alignment = alignment;
  }
  return layout;
}

void* NewBuffer(LaunchTree& tree, size_t alignment, size_t size) {
  ParameterBuffer buffer;
  buffer.storage.reset(new unsigned char[size + alignment]());
  const uintptr_t raw = reinterpret_cast<uintptr_t>(buffer.storage.get());
  void* aligned =
      buffer.storage.get() + (alignment - raw % alignment) % alignment;
  tree.parameter_buffers.emplace(aligned, std::move(buffer));
  return aligned;
}

}  // namespace

void PushDeviceLaunchConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                                   mcStream_t stream) {
  NestedGrid& node = CallingNode("a device-side kernel launch");
  ActiveGrid* active = node.grid();
  node.tree().pushed.push_back(PushedConfiguration{
      active, active->block, active->block->current_thread(), grid, block,
      shared_bytes, stream});
}

int LaunchFromKernel(const void* kernel, void** args) {
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->nested == nullptr || grid->block == nullptr) {
    return 0;
  }
  std::vector<PushedConfiguration>& pushed = grid->nested->tree().pushed;
  if (pushed.empty()) return 2;
  const PushedConfiguration top = pushed.back();
  // A thread that starts while another waits between its push and its call
  // (a barrier in the launch's arguments) is no launch.
  if (top.grid != grid || top.block != grid->block ||
      top.thread != grid->block->current_thread()) {
    return 0;
  }
  pushed.pop_back();
  LaunchChild(kernel, top.grid_dim, top.block_dim, top.shared_bytes, top.stream,
              args);
  return 1;
}

int LaunchDevice(const void* kernel, void* parameters, dim3 grid, dim3 block,
                 unsigned shared_bytes, mcStream_t stream) {
  NestedGrid& node = CallingNode("mcLaunchDevice");
  LaunchTree& tree = node.tree();
  const device::DeviceRuntimeServices* services =
      CurrentDeviceRuntimeServices();
  if (services == nullptr) return Fail(node, mcErrorNotSupported);
  auto buffer = tree.parameter_buffers.find(parameters);
  if (parameters == nullptr || buffer == tree.parameter_buffers.end()) {
    return Fail(node, mcErrorInvalidValue);
  }
  const __mc_internal::KernelRecord* record = services->find_kernel(kernel);
  if (record == nullptr) return Fail(node, mcErrorInvalidDeviceFunction);
  const Layout layout = LayoutOf(*record);
  std::vector<void*> pointers(record->param_count + 1, nullptr);
  for (unsigned i = 0; i < record->param_count; ++i) {
    pointers[i] = static_cast<unsigned char*>(parameters) + layout.offsets[i];
  }
  const mcError_t error =
      LaunchChild(kernel, grid, block, shared_bytes, stream, pointers.data());
  // The arguments are copied; the buffer is spent.
  tree.parameter_buffers.erase(parameters);
  return error;
}

void* GetParameterBuffer(size_t alignment, size_t size) {
  NestedGrid& node = CallingNode("mcGetParameterBuffer");
  if (alignment == 0) alignment = 1;
  if (!IsPowerOfTwo(alignment) ||
      alignment > device::kMaxParameterBufferBytes ||
      size > device::kMaxParameterBufferBytes) {
    node.RecordError(mcErrorInvalidValue);
    return nullptr;
  }
  return NewBuffer(node.tree(), alignment, size);
}

void* GetParameterBufferV2(const void* kernel, dim3 grid, dim3 block,
                           unsigned shared_bytes) {
  NestedGrid& node = CallingNode("mcGetParameterBufferV2");
  const device::DeviceRuntimeServices* services =
      CurrentDeviceRuntimeServices();
  const __mc_internal::KernelRecord* record =
      services != nullptr ? services->find_kernel(kernel) : nullptr;
  if (record == nullptr) {
    node.RecordError(mcErrorInvalidDeviceFunction);
    return nullptr;
  }
  const Layout layout = LayoutOf(*record);
  void* buffer = NewBuffer(node.tree(), layout.alignment, layout.size);
  ParameterBuffer& entry = node.tree().parameter_buffers[buffer];
  entry.kernel = kernel;
  entry.grid_dim = grid;
  entry.block_dim = block;
  entry.shared_bytes = shared_bytes;
  return buffer;
}

int LaunchDeviceV2(void* parameters, mcStream_t stream) {
  NestedGrid& node = CallingNode("mcLaunchDeviceV2");
  auto buffer = node.tree().parameter_buffers.find(parameters);
  if (parameters == nullptr || buffer == node.tree().parameter_buffers.end() ||
      buffer->second.kernel == nullptr) {
    return Fail(node, mcErrorInvalidValue);
  }
  const ParameterBuffer& entry = buffer->second;
  return LaunchDevice(entry.kernel, parameters, entry.grid_dim, entry.block_dim,
                      entry.shared_bytes, stream);
}

int DeviceSynchronize() {
  NestedGrid& node = CallingNode("mcDeviceSynchronize");
  // [api.devrt.limit.sync-depth-exceeded]
  if (node.depth() > node.tree().limits().sync_depth) {
    return Fail(node, mcErrorSyncDepthExceeded);
  }
  // [api.devrt.sync.device-synchronize-supported-in-device-code]
  // [api.devrt.sync.device-synchronize-covers-block-launches] Every child
  // of the grid launched so far, by any of its threads.
  ActiveGrid& grid = *node.grid();
  if (!RunPendingChildren(grid)) grid.block->AbandonToHost();
  return mcSuccess;
}

int DeviceLastError(int reset) {
  return CallingNode("mcGetLastError").LastError(reset != 0);
}

void RecordDeviceError(int error) {
  CallingNode("the device runtime").RecordError(static_cast<mcError_t>(error));
}

int DeviceGetLimit(size_t* value, int limit) {
  NestedGrid& node = CallingNode("mcDeviceGetLimit");
  const device::DeviceRuntimeServices* services =
      CurrentDeviceRuntimeServices();
  if (value == nullptr) return Fail(node, mcErrorInvalidValue);
  if (services == nullptr) return Fail(node, mcErrorNotSupported);
  // [api.devrt.launch.configuration-inherited-from-parent] The tree's own
  // device-runtime limits; the others as the device has them.
  if (limit == mcLimitDevRuntimeSyncDepth) {
    *value = node.tree().limits().sync_depth;
    return mcSuccess;
  }
  if (limit == mcLimitDevRuntimePendingLaunchCount) {
    *value = node.tree().limits().pending_launch_count;
    return mcSuccess;
  }
  return Fail(node,
              services->get_limit(node.tree().limits().device, value, limit));
}

int DeviceGetDevice(int* device) {
  NestedGrid& node = CallingNode("mcGetDevice");
  if (device == nullptr) return Fail(node, mcErrorInvalidValue);
  // [api.devrt.api.device-queries-optional]
  *device = node.tree().limits().device;
  return mcSuccess;
}

int DeviceGetAttribute(int* value, int attribute, int device) {
  NestedGrid& node = CallingNode("mcDeviceGetAttribute");
  const device::DeviceRuntimeServices* services =
      CurrentDeviceRuntimeServices();
  if (value == nullptr) return Fail(node, mcErrorInvalidValue);
  if (services == nullptr) return Fail(node, mcErrorNotSupported);
  return Fail(node, services->get_attribute(value, attribute, device));
}

const char* DeviceErrorText(int error, int name) {
  const device::DeviceRuntimeServices* services =
      CurrentDeviceRuntimeServices();
  if (services == nullptr) return "unknown error";
  const mcError_t e = static_cast<mcError_t>(error);
  return name != 0 ? services->error_name(e) : services->error_string(e);
}

int IsGlobalPointer(const void* pointer) {
  // [api.devrt.memory.isglobal-intrinsic]
  return IsSharedOrPrivate(pointer) ? 0 : 1;
}

namespace {

// The live handle `value` of `kind` that the calling block may use, or null.
DeviceHandle* CallerHandle(NestedGrid& node, const void* value,
                           DeviceHandle::Kind kind) {
  if (value == nullptr) return nullptr;
  std::string problem;
  return node.tree().handles.Find(value, kind, node.grid(),
                                  node.CallingThread().first, &problem);
}

}  // namespace

int DeviceStreamCreate(mcStream_t* stream, unsigned flags) {
  NestedGrid& node = CallingNode("mcStreamCreateWithFlags");
  // [api.devrt.stream.create-requires-non-blocking]
  if (stream == nullptr || flags != mcStreamNonBlocking) {
    return Fail(node, mcErrorInvalidValue);
  }
  ActiveGrid& grid = *node.grid();
  *stream = static_cast<mcStream_t>(node.tree().handles.Create(
      DeviceHandle::Kind::kStream, &grid, node.CallingThread().first,
      CallingBlockName(grid)));
  return mcSuccess;
}

int DeviceStreamDestroy(mcStream_t stream) {
  NestedGrid& node = CallingNode("mcStreamDestroy");
  // [api.devrt.stream.destroy-returns-at-once] Its launches stay pending
  // and run as every child does.
  DeviceHandle* handle =
      CallerHandle(node, stream, DeviceHandle::Kind::kStream);
  if (handle == nullptr) return Fail(node, mcErrorInvalidResourceHandle);
  handle->destroyed = true;
  return mcSuccess;
}

int DeviceEventCreate(mcEvent_t* event, unsigned flags) {
  NestedGrid& node = CallingNode("mcEventCreateWithFlags");
  // [api.devrt.event.create-requires-disable-timing]
  if (event == nullptr || flags != mcEventDisableTiming) {
    return Fail(node, mcErrorInvalidValue);
  }
  ActiveGrid& grid = *node.grid();
  *event = static_cast<mcEvent_t>(node.tree().handles.Create(
      DeviceHandle::Kind::kEvent, &grid, node.CallingThread().first,
      CallingBlockName(grid)));
  return mcSuccess;
}

int DeviceEventRecord(mcEvent_t event, mcStream_t stream) {
  NestedGrid& node = CallingNode("mcEventRecord");
  DeviceHandle* handle = CallerHandle(node, event, DeviceHandle::Kind::kEvent);
  std::string problem;
  StreamOrder* order = CallerStream(node, stream, &problem);
  if (handle == nullptr || order == nullptr) {
    return Fail(node, mcErrorInvalidResourceHandle);
  }
  // [api.devrt.event.wait-orders-later-work] The stream's work so far.
  handle->recorded = order->Work();
  return mcSuccess;
}

int DeviceStreamWaitEvent(mcStream_t stream, mcEvent_t event, unsigned flags) {
  NestedGrid& node = CallingNode("mcStreamWaitEvent");
  // [api.devrt.event.wait-flags-zero]
  if (flags != 0) return Fail(node, mcErrorInvalidValue);
  DeviceHandle* handle = CallerHandle(node, event, DeviceHandle::Kind::kEvent);
  std::string problem;
  StreamOrder* order = CallerStream(node, stream, &problem);
  if (handle == nullptr || order == nullptr) {
    return Fail(node, mcErrorInvalidResourceHandle);
  }
  // [api.devrt.event.wait-orders-later-work]
  order->Wait(handle->recorded, node.unfinished);
  return mcSuccess;
}

int DeviceEventDestroy(mcEvent_t event) {
  NestedGrid& node = CallingNode("mcEventDestroy");
  DeviceHandle* handle = CallerHandle(node, event, DeviceHandle::Kind::kEvent);
  if (handle == nullptr) return Fail(node, mcErrorInvalidResourceHandle);
  // Waits already made keep what it captured.
  handle->destroyed = true;
  return mcSuccess;
}

int DeviceStreamOrderWork(mcStream_t stream) {
  NestedGrid& node = CallingNode("a device-side copy or fill");
  std::string problem;
  StreamOrder* order = CallerStream(node, stream, &problem);
  if (order == nullptr) return Fail(node, mcErrorInvalidResourceHandle);
  // [api.devrt.stream.copies-follow-earlier-work] The NULL stream orders
  // nothing before a copy; a named stream, its launches and waits. A child
  // waits only for children launched before it, so running every pending
  // child up to the latest serial of the stream's work is a valid order.
  if (stream == nullptr) return mcSuccess;
  const std::vector<ChildSerial> work = order->Work();
  ChildSerial last = 0;
  bool any = false;
  for (ChildSerial serial : work) {
    if (node.unfinished.count(serial) == 0) continue;
    last = std::max(last, serial);
    any = true;
  }
  ActiveGrid& grid = *node.grid();
  if (any && !RunPendingChildrenThrough(grid, last)) {
    grid.block->AbandonToHost();
  }
  return mcSuccess;
}

}  // namespace mxcts::device_internal
