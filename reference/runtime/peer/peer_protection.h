// Copyright mxcts authors.
//
// reference/runtime/peer/peer_protection.h: in checked mode (MXCTS_MEMCHECK=1),
// keeping a grid away from the device memory of devices its device has no
// peer access to.
//
// All simulated device memory is memory of one process, so a kernel on
// device A could read device B's memory whether or not A enabled peer
// access to B. Real hardware without peer access faults instead, and the
// program is wrong [lang.ub.memory.peer-pointer-without-access]. In checked
// mode the reference finds such programs: while a grid of device A runs,
// the pages of every live mcMalloc allocation of each device B that A has
// no peer access to are inaccessible, so the access faults, and the fault
// is explained by DescribePeerFault:
//
//   mxmaca trap: kernel 'Read(int*)' block (0,0,0) thread (0,0,0): device
//     memory of device 1 accessed from a kernel on device 0 without peer
//     access (0x7f0000000100, byte 256 of the 1024-byte allocation at
//     0x7f0000000000)
//
// Stream-ordered allocations follow their pool's access instead
// (mcMemPoolSetAccess): while the grid runs, those of pools that give its
// device no access are inaccessible [api.pool.access.set-grants-peer].
// Managed memory, page-locked host memory, device variables and the grid's
// own device's memory stay accessible. Outside checked mode nothing is
// protected: programs then run as on hardware where every device can reach
// every other's memory.
//
//   {
//     PeerProtection protection(device->ordinal());   // around the grid
//     result = runner(grid);
//   }

#ifndef MXCTS_REFERENCE_RUNTIME_PEER_PEER_PROTECTION_H_
#define MXCTS_REFERENCE_RUNTIME_PEER_PEER_PROTECTION_H_

#include <stdint.h>

#include <optional>
#include <string>
#include <vector>

namespace mxcts::runtime {

// From construction to destruction, in checked mode, the device memory of
// every device that `device` has no peer access to is inaccessible;
// destruction makes what is still allocated accessible again. Does nothing
// outside checked mode. Construct it with the execution lock held, on the
// OS thread that runs the grid, right around the grid; one at a time.
class PeerProtection {
 public:
  explicit PeerProtection(int device);
  ~PeerProtection();
  PeerProtection(const PeerProtection&) = delete;
  PeerProtection& operator=(const PeerProtection&) = delete;

 private:
  int device_;
  std::vector<int> protected_devices_;
  bool protects_pools_ = false;  // checked mode: the constructor protected
};

// If a PeerProtection is in force and `address` lies in a live mcMalloc
// allocation of a device it protects, the diagnostic text ("device memory
// of device 1 accessed from a kernel on device 0 without peer access ...");
// nullopt otherwise. For the fault classifier (fault_classifier.h): called
// in the engine's fault handler; takes only the allocation table's lock.
std::optional<std::string> DescribePeerFault(uintptr_t address);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_PEER_PEER_PROTECTION_H_
