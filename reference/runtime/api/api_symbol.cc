// Copyright mxcts authors.
//
// The symbol entry points [api.memory.symbol]: copies to and from device
// variables named by their host shadow, and their address and size. The
// image registry resolves the shadow to the current device's instance
// (loading the image for the device if needed); the copy itself is an
// ordinary checked copy (memory_copy.h), since the instance is registered
// as device memory, queued in the default stream (the per-thread one for
// the `_ptds` forms) or the given one and timed as mcMemcpy or
// mcMemcpyAsync.
// This is also the way the host writes a __constant__ variable
// [lang.variable.constant.host-writes-with-symbol-api].
//
// Tested by api_symbol_test.cc.

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/memory/memory_copy.h"
#include "reference/runtime/process/runtime.h"

using mxcts::runtime::CallKind;
using mxcts::runtime::CopyPlan;
using mxcts::runtime::Device;
using mxcts::runtime::ImageRegistry;
using mxcts::runtime::McStatus;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::VariableHandle;

namespace {

enum class Direction { kToSymbol, kFromSymbol };

// The checks and the copy shared by the four copy calls: `device` is the
// device whose instance is used, `stream` where the copy is queued (a
// default stream for the synchronous calls).
absl::Status SymbolCopy(Direction direction, void* other, const void* symbol,
                        size_t count, size_t offset, mcMemcpyKind kind,
                        Device& device, mcStream_t stream, CallKind call,
                        const char* api) {
  // [api.memory.symbol.not-a-symbol]
  // [api.memory.symbol.takes-variable-not-string]
  MX_ASSIGN_OR_RETURN(
      VariableHandle variable,
      ImageRegistry::Get().ResolveVariable(symbol, device.ordinal()));
  int k = static_cast<int>(kind);
  mcMemcpyKind host_side_kind = direction == Direction::kToSymbol
                                    ? mcMemcpyHostToDevice
                                    : mcMemcpyDeviceToHost;
  if (k != host_side_kind && k != mcMemcpyDeviceToDevice &&
      k != mcMemcpyDefault) {
    // [api.memory.symbol.to-symbol-wrong-kind]
    // [api.memory.symbol.from-symbol-wrong-kind]
    return McStatus(mcErrorInvalidMemcpyDirection,
                    absl::StrFormat("%s: copy kind %d", api, k));
  }
  if (offset > variable.size || count > variable.size - offset) {
    // [api.memory.symbol.past-end]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: offset %u + count %u exceed the "
                                    "variable's %u bytes",
                                    api, offset, count, variable.size));
  }
  void* at = static_cast<unsigned char*>(variable.address) + offset;
  MX_ASSIGN_OR_RETURN(
      CopyPlan plan,
      direction == Direction::kToSymbol
          ? mxcts::runtime::PlanLinearCopy(at, other, count, k, api)
          : mxcts::runtime::PlanLinearCopy(other, at, count, k, api));
  if (call == CallKind::kAsynchronous) {
    MX_ASSIGN_OR_RETURN(
        bool captured, mxcts::runtime::CaptureIfCapturing(stream, [&] {
          return direction == Direction::kToSymbol
                     ? mxcts::runtime::NodeParams::Memcpy1D(at, other, count, k)
                     : mxcts::runtime::NodeParams::Memcpy1D(other, at, count,
                                                            k);
        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.symbol.synchronous-as-memcpy] [api.memory.symbol.async-forms]
  return mxcts::runtime::SubmitCopy(plan, stream, call, api);
}

// The synchronous symbol copies, in `default_stream`: 0 (the legacy default
// stream) for the plain calls, mcStreamPerThread for their `_ptds` forms
// [api.sync.per-thread.renamed-entry-points]. `other` is the source of a
// copy to the symbol, the destination of a copy from it.
mcError_t SynchronousSymbolCopy(Direction direction, mcStream_t default_stream,
                                void* other, const void* symbol, size_t count,
                                size_t offset, mcMemcpyKind kind,
                                const char* api) {
  return RunApi(
      [&]() -> absl::Status {
        // [api.memory.symbol.to-symbol-copies]
        // [api.memory.symbol.from-symbol-copies]
        MX_ASSIGN_OR_RETURN(
            Device * device,
            mxcts::runtime::StreamDeviceForWork(default_stream));
        return SymbolCopy(direction, other, symbol, count, offset, kind,
                          *device, default_stream, CallKind::kSynchronous, api);
      },
      api);
}

}  // namespace

extern "C" {

mcError_t mcMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                           size_t offset, mcMemcpyKind kind) {
  return SynchronousSymbolCopy(Direction::kToSymbol, nullptr,
                               const_cast<void*>(src), symbol, count, offset,
                               kind, "mcMemcpyToSymbol");
}

mcError_t mcMemcpyToSymbol_ptds(const void* symbol, const void* src,
                                size_t count, size_t offset,
                                mcMemcpyKind kind) {
  return SynchronousSymbolCopy(Direction::kToSymbol, mcStreamPerThread,
                               const_cast<void*>(src), symbol, count, offset,
                               kind, "mcMemcpyToSymbol");
}

mcError_t mcMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                             size_t offset, mcMemcpyKind kind) {
  return SynchronousSymbolCopy(Direction::kFromSymbol, nullptr, dst, symbol,
                               count, offset, kind, "mcMemcpyFromSymbol");
}

mcError_t mcMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count,
                                  size_t offset, mcMemcpyKind kind) {
  return SynchronousSymbolCopy(Direction::kFromSymbol, mcStreamPerThread, dst,
                               symbol, count, offset, kind,
                               "mcMemcpyFromSymbol");
}

mcError_t mcMemcpyToSymbolAsync(const void* symbol, const void* src,
                                size_t count, size_t offset, mcMemcpyKind kind,
                                mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.symbol.async-forms] [api.memory.symbol.async-invalid-stream]
    MX_ASSIGN_OR_RETURN(Device * device,
                        mxcts::runtime::StreamDeviceForWork(stream));
    return SymbolCopy(Direction::kToSymbol, const_cast<void*>(src), symbol,
                      count, offset, kind, *device, stream,
                      CallKind::kAsynchronous, "mcMemcpyToSymbolAsync");
  });
}

mcError_t mcMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                  size_t offset, mcMemcpyKind kind,
                                  mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * device,
                        mxcts::runtime::StreamDeviceForWork(stream));
    return SymbolCopy(Direction::kFromSymbol, dst, symbol, count, offset, kind,
                      *device, stream, CallKind::kAsynchronous,
                      "mcMemcpyFromSymbolAsync");
  });
}

mcError_t mcGetSymbolAddress(void** devPtr, const void* symbol) {
  return RunApi([&]() -> absl::Status {
    // [api.memory.symbol.get-address-null-out]
    if (devPtr == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcGetSymbolAddress: devPtr is null");
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    // [api.memory.symbol.get-address]
    MX_ASSIGN_OR_RETURN(
        VariableHandle variable,
        ImageRegistry::Get().ResolveVariable(symbol, device->ordinal()));
    *devPtr = variable.address;
    return absl::OkStatus();
  });
}

mcError_t mcGetSymbolSize(size_t* size, const void* symbol) {
  return RunApi([&]() -> absl::Status {
    if (size == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcGetSymbolSize: size is null");
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
    // [api.memory.symbol.get-size]
    MX_ASSIGN_OR_RETURN(
        VariableHandle variable,
        ImageRegistry::Get().ResolveVariable(symbol, device->ordinal()));
    *size = variable.size;
    return absl::OkStatus();
  });
}

}  // extern "C"
