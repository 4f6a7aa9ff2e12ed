// Copyright mxcts authors.
//
// reference/runtime/peer/peer_access.h: which devices' memory the kernels of
// each device may access, as mcDeviceEnablePeerAccess and
// mcDeviceDisablePeerAccess set it.
//
// Peer access is a property of a device (its primary context), shared by
// every host thread of the process, and it has a direction: an entry
// (device, peer) lets kernels running on `device` access the device memory
// of `peer`, and says nothing about kernels on `peer`
// [api.peer.enable.one-directional] [api.peer.enable.process-wide]. Entries
// last until disabled or until either device is reset
// [api.peer.enable.persists-until-disabled].
//
// Every pair of distinct simulated devices can access each other (all
// device memory is memory of the one host process), so CanAccess is true for
// every pair of distinct devices [api.peer.can-access.reference-every-pair],
// unless MXCTS_PEER_ACCESS=none makes it false for every pair, so that what
// happens without peer access can be seen [api.peer.enable.unsupported].
// A device may have at most kMaxPeersPerDevice peers enabled at once
// [api.peer.enable.too-many-peers].
//
// In checked mode the table decides which device memory a grid may touch
// (peer_protection.h).
//
//   PeerAccessTable& peers = PeerAccessTable::Get();
//   peers.Enable(/*device=*/0, /*peer=*/1);   // OK
//   peers.Enable(0, 1);                       //
//   mcErrorPeerAccessAlreadyEnabled peers.IsEnabled(1, 0); // false: one
//   direction only ResetPeerAccess(1);                       // what
//   mcDeviceReset(1) does peers.IsEnabled(0, 1);                    // false

#ifndef MXCTS_REFERENCE_RUNTIME_PEER_PEER_ACCESS_H_
#define MXCTS_REFERENCE_RUNTIME_PEER_PEER_ACCESS_H_

#include <map>
#include <set>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::runtime {

// The most peers one device may have enabled at once (CUDA's documented
// limit, kept by the reference although its devices could do more).
// [api.peer.enable.too-many-peers]
inline constexpr int kMaxPeersPerDevice = 8;

class PeerAccessTable {
 public:
  // The process's table.
  static PeerAccessTable& Get();

  // Whether kernels on `device` could access the memory of `peer` once
  // enabled: true for distinct ordinals, false for `device == peer` (a
  // device is not its own peer). The ordinals must be valid.
  // [api.peer.can-access.reports-capability] [api.peer.can-access.same-device]
  bool CanAccess(int device, int peer) const;

  // Lets kernels on `device` access the memory of `peer` (distinct, valid
  // ordinals). mcErrorPeerAccessAlreadyEnabled if they already may
  // [api.peer.enable.already-enabled]; mcErrorTooManyPeers if `device`
  // already has kMaxPeersPerDevice peers. Changes nothing on error.
  absl::Status Enable(int device, int peer);

  // Revokes what Enable granted. mcErrorPeerAccessNotEnabled if it was not
  // granted [api.peer.disable.not-enabled]; changes nothing then.
  absl::Status Disable(int device, int peer);

  // Whether kernels on `device` may access the memory of `peer` now.
  bool IsEnabled(int device, int peer) const;

  // The peers `device` has enabled, in increasing order.
  std::vector<int> EnabledPeers(int device) const;

  // Forgets every entry in which `device` is either side.
  void Forget(int device);

 private:
  PeerAccessTable() = default;

  mutable absl::Mutex mu_;
  // device -> the peers whose memory its kernels may access.
  std::map<int, std::set<int>> enabled_ ABSL_GUARDED_BY(mu_);
};

// What mcDeviceReset of `device` does to peer access: access from `device`
// to its peers and from every other device to `device` ends, so that after
// the reset mcDeviceEnablePeerAccess succeeds again in either direction
// [api.peer.enable.persists-until-disabled]. The caller is the reset code
// (Runtime::ResetDevice).
void ResetPeerAccess(int device);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_PEER_PEER_ACCESS_H_
