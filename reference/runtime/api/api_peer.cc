// Copyright mxcts authors.
//
// The peer access entry points [api.peer]: the capability query, the link
// attributes (peer_link.h), enabling and disabling access from the current
// device to a peer (the table is peer_access.h), and copies between the
// memory of two devices.
//
// A peer copy validates everything before it submits work: the device
// ordinals, then the count (0 succeeds and copies nothing), then each
// pointer, whose whole range must be device memory (an mcMalloc allocation
// or a device variable) of the device named for it. The work captures the
// pointers and the count by value and checks the ranges again when it runs,
// so a range freed between submission and execution is reported by the
// next synchronizing call instead of being touched.
//
// mcMemcpyPeer is synchronous with respect to all three devices involved
// [api.peer.copy.sync-serialized-with-devices]: it waits for the work
// already issued to the source and destination devices (and the current
// one), then runs in the current device's legacy default stream (the
// calling thread's per-thread default stream for mcMemcpyPeer_ptds) and
// waits for it, so that nothing issued afterwards can start before it is
// done.
// mcMemcpyPeerAsync is ordered in its stream only
// [api.peer.copy.async-ordered-in-stream-only].
//
// Tested by api_peer_test.cc.

#include <optional>
#include <set>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/allocation_table.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/peer/peer_access.h"
#include "reference/runtime/peer/peer_link.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"

using mxcts::runtime::Allocation;
using mxcts::runtime::Device;
using mxcts::runtime::HostWait;
using mxcts::runtime::IsPeerLinkAttribute;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryKind;
using mxcts::runtime::MemoryKindName;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::PeerAccessTable;
using mxcts::runtime::PeerLinkAttribute;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::ToMcError;

namespace {

// The device `peer_device` as the peer of the current device `current`:
// mcErrorInvalidDevice unless it is a device ordinal other than `current`.
// [api.peer.enable.invalid-ordinal] [api.peer.enable.self]
// [api.peer.disable.invalid-device] [api.peer.disable.self]
absl::Status CheckPeerOrdinal(const Device& current, int peer_device,
                              const char* api) {
  MX_RETURN_IF_ERROR(Runtime::Get().DeviceAt(peer_device).status());
  if (peer_device == current.ordinal()) {
    return McStatus(mcErrorInvalidDevice,
                    absl::StrFormat("%s: device %d is the current device, "
                                    "not a peer of it",
                                    api, peer_device));
  }
  return absl::OkStatus();
}

// One side of a peer copy: [ptr, ptr + count) must lie in device memory of
// device `device`. [api.memory.memcpy-peer.pointer-not-on-device]
// [api.peer.copy.device-memory-only]
absl::Status CheckPeerRange(const void* ptr, int device, size_t count,
                            const char* what, const char* api) {
  if (ptr == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: the %s is null", api, what));
  }
  MX_ASSIGN_OR_RETURN(std::optional<Allocation> allocation,
                      MemoryManager::Get().CheckRange(ptr, count, what, api));
  if (!allocation.has_value()) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: the %s %p is not device memory (it "
                                    "is not memory of the runtime)",
                                    api, what, ptr));
  }
  if (allocation->kind != MemoryKind::kDevice &&
      allocation->kind != MemoryKind::kDeviceVariable) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s %p is %s, not device memory", api, what,
                        ptr, MemoryKindName(allocation->kind)));
  }
  if (allocation->device != device) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s %p is memory of device %d, "
                        "not of device %d",
                        api, what, ptr, allocation->device, device));
  }
  return absl::OkStatus();
}

// The pointers of a peer copy of `count` (> 0) bytes, destination first.
absl::Status CheckPeerCopy(void* dst, int dst_device, const void* src,
                           int src_device, size_t count, const char* api) {
  MX_RETURN_IF_ERROR(
      CheckPeerRange(dst, dst_device, count, "destination", api));
  return CheckPeerRange(src, src_device, count, "source", api);
}

// The devices a peer copy reads and writes must be usable: their sticky
// error otherwise. [api.peer.copy.faulted-device-returns-sticky-error]
absl::Status CheckCopyDevicesUsable(const Device& dst, const Device& src) {
  MX_RETURN_IF_ERROR(src.CheckUsable());
  return dst.CheckUsable();
}

// The work of a peer copy: the ranges are checked again when it runs.
mxcts::runtime::DeviceWork PeerCopyWork(void* dst, const void* src,
                                        size_t count, const char* api) {
  return [dst, src, count, api]() -> mcError_t {
    return ToMcError(MemoryManager::Get().Copy(dst, src, count,
                                               mcMemcpyDeviceToDevice, api));
  };
}

std::string CopyDescription(const char* api, size_t count, int src_device,
                            int dst_device) {
  return absl::StrFormat("%s of %u bytes from device %d to device %d", api,
                         count, src_device, dst_device);
}

// mcMemcpyPeer, in `default_stream`: 0 (the legacy default stream) for
// the plain call, mcStreamPerThread for its `_ptds` form
// [api.sync.per-thread.renamed-entry-points]. Either way it first waits for
// the three devices, so the stream only decides where the copy is queued.
mcError_t SynchronousPeerCopy(mcStream_t default_stream, void* dst,
                              int dst_device, const void* src, int src_device,
                              size_t count) {
  return RunApi(
      [&]() -> absl::Status {
        constexpr char kApi[] = "mcMemcpyPeer";
        Runtime& runtime = Runtime::Get();
        // [api.memory.memcpy-peer.invalid-device]
        MX_ASSIGN_OR_RETURN(Device * to, runtime.DeviceAt(dst_device));
        MX_ASSIGN_OR_RETURN(Device * from, runtime.DeviceAt(src_device));
        // [api.memory.memcpy-peer.count-zero]
        if (count == 0) return absl::OkStatus();
        MX_ASSIGN_OR_RETURN(Device * current, runtime.CurrentDeviceForWork());
        MX_RETURN_IF_ERROR(
            CheckPeerCopy(dst, dst_device, src, src_device, count, kApi));
        MX_RETURN_IF_ERROR(CheckCopyDevicesUsable(*to, *from));
        // [api.peer.copy.sync-serialized-with-devices]: the work issued before
        // to each device involved has run before the copy starts.
        for (int device :
             std::set<int>{current->ordinal(), src_device, dst_device}) {
          MX_RETURN_IF_ERROR(mxcts::runtime::SynchronizeDevice(device));
        }
        // [api.memory.memcpy-peer.copies] [api.peer.copy.no-peer-access-needed]
        return mxcts::runtime::SubmitWork(
            default_stream,
            CopyDescription(kApi, count, src_device, dst_device),
            PeerCopyWork(dst, src, count, kApi), HostWait::kUntilDone);
      },
      "mcMemcpyPeer");
}

}  // namespace

extern "C" {

mcError_t mcDeviceCanAccessPeer(int* canAccessPeer, int device,
                                int peerDevice) {
  return RunApi([&]() -> absl::Status {
    if (canAccessPeer == nullptr) {  // [api.peer.can-access.null-result]
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceCanAccessPeer: canAccessPeer is null");
    }
    Runtime& runtime = Runtime::Get();
    // [api.peer.can-access.invalid-device]
    MX_RETURN_IF_ERROR(runtime.DeviceAt(device).status());
    MX_RETURN_IF_ERROR(runtime.DeviceAt(peerDevice).status());
    // [api.peer.can-access.reports-capability]
    // [api.peer.can-access.same-device]
    *canAccessPeer =
        PeerAccessTable::Get().CanAccess(device, peerDevice) ? 1 : 0;
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetP2PAttribute(int* value, mcDeviceP2PAttr attr,
                                  int srcDevice, int dstDevice) {
  return RunApi([&]() -> absl::Status {
    // [api.peer.p2p-attribute.null-is-invalid-value]
    if (value == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceGetP2PAttribute: value is null");
    }
    // [api.peer.p2p-attribute.invalid-attribute-is-invalid-value]
    if (!IsPeerLinkAttribute(attr)) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcDeviceGetP2PAttribute: %d is not an "
                                      "mcDeviceP2PAttr",
                                      static_cast<int>(attr)));
    }
    // [api.peer.p2p-attribute.invalid-device]
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.DeviceAt(srcDevice).status());
    MX_RETURN_IF_ERROR(runtime.DeviceAt(dstDevice).status());
    if (srcDevice == dstDevice) {
      return McStatus(mcErrorInvalidDevice,
                      absl::StrFormat("mcDeviceGetP2PAttribute: device %d "
                                      "has no link to itself",
                                      srcDevice));
    }
    // [api.peer.p2p-attribute.values]
    // [api.peer.p2p-attribute.access-supported-agrees-with-can-access]
    *value = PeerLinkAttribute(attr, srcDevice, dstDevice);
    return absl::OkStatus();
  });
}

mcError_t mcDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * current,
                        Runtime::Get().CurrentDeviceForWork());
    MX_RETURN_IF_ERROR(
        CheckPeerOrdinal(*current, peerDevice, "mcDeviceEnablePeerAccess"));
    if (flags != 0) {  // [api.peer.enable.flags-must-be-zero]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcDeviceEnablePeerAccess: flags %#x "
                                      "are not 0",
                                      flags));
    }
    PeerAccessTable& peers = PeerAccessTable::Get();
    if (!peers.CanAccess(current->ordinal(), peerDevice)) {
      // [api.peer.enable.unsupported]
      return McStatus(mcErrorPeerAccessUnsupported,
                      absl::StrFormat("device %d cannot access device %d",
                                      current->ordinal(), peerDevice));
    }
    // [api.peer.enable.grants-access] [api.peer.enable.one-directional]
    // [api.peer.enable.already-enabled] [api.peer.enable.too-many-peers]
    return peers.Enable(current->ordinal(), peerDevice);
  });
}

mcError_t mcDeviceDisablePeerAccess(int peerDevice) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * current,
                        Runtime::Get().CurrentDeviceForWork());
    MX_RETURN_IF_ERROR(
        CheckPeerOrdinal(*current, peerDevice, "mcDeviceDisablePeerAccess"));
    // [api.peer.disable.revokes-access] [api.peer.disable.not-enabled]
    return PeerAccessTable::Get().Disable(current->ordinal(), peerDevice);
  });
}

mcError_t mcMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                       size_t count) {
  return SynchronousPeerCopy(nullptr, dst, dstDevice, src, srcDevice, count);
}

mcError_t mcMemcpyPeer_ptds(void* dst, int dstDevice, const void* src,
                            int srcDevice, size_t count) {
  return SynchronousPeerCopy(mcStreamPerThread, dst, dstDevice, src, srcDevice,
                             count);
}

mcError_t mcMemcpyPeerAsync(void* dst, int dstDevice, const void* src,
                            int srcDevice, size_t count, mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    constexpr char kApi[] = "mcMemcpyPeerAsync";
    Runtime& runtime = Runtime::Get();
    // [api.memory.memcpy-peer.invalid-device]
    MX_ASSIGN_OR_RETURN(Device * to, runtime.DeviceAt(dstDevice));
    MX_ASSIGN_OR_RETURN(Device * from, runtime.DeviceAt(srcDevice));
    // [api.memory.memcpy-peer.invalid-stream]
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    // [api.memory.memcpy-peer.count-zero]
    if (count == 0) return absl::OkStatus();
    MX_RETURN_IF_ERROR(
        CheckPeerCopy(dst, dstDevice, src, srcDevice, count, kApi));
    MX_RETURN_IF_ERROR(CheckCopyDevicesUsable(*to, *from));
    // [api.memory.memcpy-peer.async-stream-ordered]
    // [api.peer.copy.async-ordered-in-stream-only]
    return mxcts::runtime::SubmitWork(
        stream, CopyDescription(kApi, count, srcDevice, dstDevice),
        PeerCopyWork(dst, src, count, kApi), HostWait::kNone);
  });
}

}  // extern "C"
