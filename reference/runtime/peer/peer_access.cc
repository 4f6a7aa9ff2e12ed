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

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_format.h"
#include "reference/logging/log.h"
#include "reference/logging/setting_messages.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {

PeerAccessTable& PeerAccessTable::Get() {
  static PeerAccessTable* table = new PeerAccessTable;
  return *table;
}

namespace {

// MXCTS_PEER_ACCESS, read once: `all` (the default) or `none`, which makes
// no pair of devices peers, so that programs and tests can see what a
// system without peer access does. Another value is a warning and `all`.
bool PeersConfigured() {
  static const bool configured = [] {
    const char* value = std::getenv("MXCTS_PEER_ACCESS");
    if (value == nullptr || std::strcmp(value, "all") == 0) return true;
    if (std::strcmp(value, "none") == 0) return false;
    // [api.env.general.invalid-value-warns]
    MCR_LOGW("%s", mxcts::logging::InvalidSettingWarning(
                       "MXCTS_PEER_ACCESS", value, "all, none", "all")
                       .c_str());
    return true;
  }();
  return configured;
}

}  // namespace

bool PeerAccessTable::CanAccess(int device, int peer) const {
  // [api.peer.can-access.reference-every-pair]
  // [api.peer.can-access.same-device]
  return device != peer && PeersConfigured();
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
