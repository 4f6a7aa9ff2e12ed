// Copyright mxcts authors.
//
// The peer access table: a set of peers per device behind one mutex. The
// table knows nothing of device ordinals beyond the numbers it is given;
// the entry points (api_peer.cc) validate them first. Its lock is a leaf:
// nothing is called while it is held, so it may be taken under the
// execution lock (peer_protection.cc reads the table when a grid starts).
//
// Tested by peer_access_test.cc.

#include "reference/runtime/peer/peer_access.h"

#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {

PeerAccessTable& PeerAccessTable::Get() {
  static PeerAccessTable* table = new PeerAccessTable;
  return *table;
}

bool PeerAccessTable::CanAccess(int device, int peer) const {
  // [api.peer.can-access.reference-every-pair]
  // [api.peer.can-access.same-device]
  return device != peer;
}

absl::Status PeerAccessTable::Enable(int device, int peer) {
  absl::MutexLock lock(&mu_);
  std::set<int>& peers = enabled_[device];
  if (peers.count(peer) != 0) {  // [api.peer.enable.already-enabled]
    return McStatus(mcErrorPeerAccessAlreadyEnabled,
                    absl::StrFormat("peer access from device %d to device %d "
                                    "is already enabled",
                                    device, peer));
  }
  if (static_cast<int>(peers.size()) >= kMaxPeersPerDevice) {
    // [api.peer.enable.too-many-peers]
    return McStatus(mcErrorTooManyPeers,
                    absl::StrFormat("device %d already has the most peers "
                                    "a device may have (%d)",
                                    device, kMaxPeersPerDevice));
  }
  peers.insert(peer);
  return absl::OkStatus();
}

absl::Status PeerAccessTable::Disable(int device, int peer) {
  absl::MutexLock lock(&mu_);
  auto found = enabled_.find(device);
  if (found == enabled_.end() || found->second.erase(peer) == 0) {
    // [api.peer.disable.not-enabled]
    return McStatus(mcErrorPeerAccessNotEnabled,
                    absl::StrFormat("peer access from device %d to device %d "
                                    "is not enabled",
                                    device, peer));
  }
  return absl::OkStatus();
}

bool PeerAccessTable::IsEnabled(int device, int peer) const {
  absl::MutexLock lock(&mu_);
  auto found = enabled_.find(device);
  return found != enabled_.end() && found->second.count(peer) != 0;
}

std::vector<int> PeerAccessTable::EnabledPeers(int device) const {
  absl::MutexLock lock(&mu_);
  auto found = enabled_.find(device);
  if (found == enabled_.end()) return {};
  return std::vector<int>(found->second.begin(), found->second.end());
}

void PeerAccessTable::Forget(int device) {
  absl::MutexLock lock(&mu_);
  enabled_.erase(device);
  for (auto& [other, peers] : enabled_) peers.erase(device);
}

void ResetPeerAccess(int device) { PeerAccessTable::Get().Forget(device); }

}  // namespace mxcts::runtime
