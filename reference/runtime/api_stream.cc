// Copyright mxcts authors.
//
// The stream entry points [api.stream]. Execution is eager, so a stream
// never has pending work: creating and destroying streams only changes the
// stream table, and synchronizing waits for work other threads are running
// (the execution lock), writes pending device printf output and reports the
// stream's device's sticky error.
//
// Tested by api_stream_test.cc.

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api_entry.h"
#include "reference/runtime/runtime.h"
#include "reference/runtime/status_macros.h"
#include "reference/runtime/stream.h"

namespace mxcts::runtime {

absl::StatusOr<Device*> StreamDeviceForWork(mcStream_t stream) {
  Runtime& runtime = Runtime::Get();
  MX_ASSIGN_OR_RETURN(Device * current, runtime.CurrentDeviceForWork());
  MX_ASSIGN_OR_RETURN(int ordinal,
                      StreamTable::Get().DeviceOf(stream, current->ordinal()));
  MX_ASSIGN_OR_RETURN(Device * device, runtime.DeviceAt(ordinal));
  MX_RETURN_IF_ERROR(device->CheckUsable());
  return device;
}

namespace {

absl::Status CreateStream(mcStream_t* stream, unsigned flags, const char* api) {
  if (stream == nullptr) {  // [api.stream.create.null-pointer-is-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: stream is null", api));
  }
  if ((flags & ~unsigned{mcStreamNonBlocking}) != 0) {
    // [api.stream.create-with-flags.invalid-flags-is-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: unknown flags %#x", api, flags));
  }
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
  // [api.stream.model.stream-bound-to-device]
  MX_ASSIGN_OR_RETURN(*stream,
                      StreamTable::Get().Create(device->ordinal(), flags));
  return absl::OkStatus();
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::Device;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::StreamTable;

extern "C" {

mcError_t mcStreamCreate(mcStream_t* stream) {
  return RunApi([&] {  // [api.stream.create.returns-new-stream]
    return mxcts::runtime::CreateStream(stream, mcStreamDefault,
                                        "mcStreamCreate");
  });
}

mcError_t mcStreamCreateWithFlags(mcStream_t* stream, unsigned int flags) {
  return RunApi([&] {
    return mxcts::runtime::CreateStream(stream, flags,
                                        "mcStreamCreateWithFlags");
  });
}

mcError_t mcStreamDestroy(mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    MX_RETURN_IF_ERROR(Runtime::Get().CurrentDeviceForWork().status());
    // [api.stream.destroy.default-stream-is-invalid-resource-handle]
    // [api.stream.destroy.twice-is-invalid-resource-handle]
    return StreamTable::Get().Destroy(stream);
  });
}

mcError_t mcStreamSynchronize(mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_ASSIGN_OR_RETURN(Device * current, runtime.CurrentDevice());
    // [api.stream.synchronize.other-device-stream]
    MX_ASSIGN_OR_RETURN(
        int ordinal, StreamTable::Get().DeviceOf(stream, current->ordinal()));
    MX_ASSIGN_OR_RETURN(Device * device, runtime.DeviceAt(ordinal));
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.stream.synchronize.waits-for-prior-work]
    Runtime::SynchronizationPoint();
    // [api.stream.synchronize.reports-async-errors]
    return device->CheckUsable();
  });
}

}  // extern "C"
