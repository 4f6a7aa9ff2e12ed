// Copyright mxcts authors.
//
// Tests of compute_mode.h: the default mode allows a context, the
// prohibited mode refuses it, and the exclusive-process mode refuses it
// while another open file description holds the device's lock (as another
// process would), and grants and keeps it otherwise.

#include "reference/runtime/devices/compute_mode.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

mcDeviceProp_t WithMode(int mode, int bus) {
  mcDeviceProp_t p = config::DefaultDeviceProperties(0);
  p.computeMode = mode;
  p.pciBusID = bus;
  return p;
}

mcError_t ErrorOf(const absl::Status& status) { return ToMcError(status); }

TEST(ComputeMode, DefaultAllowsAContext) {
  EXPECT_EQ(ErrorOf(ClaimContext(WithMode(mcComputeModeDefault, 0x40), 0)),
            mcSuccess);
}

TEST(ComputeMode, ProhibitedRefusesEveryContext) {
  const mcDeviceProp_t p = WithMode(mcComputeModeProhibited, 0x41);
  EXPECT_EQ(ErrorOf(ClaimContext(p, 1)), mcErrorDevicesUnavailable);
  EXPECT_EQ(ErrorOf(ClaimContext(p, 1)), mcErrorDevicesUnavailable);
}

TEST(ComputeMode, ExclusiveProcessIsRefusedWhileAnotherHoldsTheLock) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  ASSERT_EQ(setenv("TMPDIR", tmp, 1), 0);
  const mcDeviceProp_t p = WithMode(mcComputeModeExclusiveProcess, 0x42);
  const std::string path =
      absl::StrFormat("%s/mxcts-device-%04x-%02x-%02x.lock", tmp, p.pciDomainID,
                      p.pciBusID, p.pciDeviceID);
  // Another holder: a separate open file description, as another process
  // has.
  const int other = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  ASSERT_GE(other, 0);
  ASSERT_EQ(flock(other, LOCK_EX | LOCK_NB), 0);
  EXPECT_EQ(ErrorOf(ClaimContext(p, 1)), mcErrorDevicesUnavailable);
  // Once it lets go, this process gets the device and keeps it.
  close(other);
  EXPECT_EQ(ErrorOf(ClaimContext(p, 1)), mcSuccess);
  EXPECT_EQ(ErrorOf(ClaimContext(p, 1)), mcSuccess);
  const int late = open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(late, 0);
  EXPECT_NE(flock(late, LOCK_EX | LOCK_NB), 0);  // held by the claim
  close(late);
}

}  // namespace
}  // namespace mxcts::runtime
