// Copyright mxcts authors.
//
// Conformance: mcSetDevice with an ordinal that names no device
// (docs/spec/api-multi-device.md, "The current device"): below 0, the
// device count and above, each returns mcErrorInvalidDevice and leaves the
// calling thread's current device as it was. The control selects the last
// valid ordinal, which succeeds.

#include <mc_runtime.h>

#include <climits>
#include <string>

#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

int DeviceCount() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return 0;
  return count;
}

// An invalid ordinal: below 0 as given, or `count + offset` for offset >= 0.
class SetDeviceInvalid : public testing::TestWithParam<int> {
 protected:
  int ordinal() const {
    if (GetParam() < 0) return GetParam();
    if (GetParam() == INT_MAX) return INT_MAX;
    return DeviceCount() + GetParam();
  }
};

TEST_P(SetDeviceInvalid, IsInvalidDeviceAndKeepsTheCurrentDevice) {
  MX_SPEC("api.peer.current.set-device-invalid",
          "api.peer.current.valid-ordinals");
  const int last = DeviceCount() - 1;
  ASSERT_GE(last, 0);
  ASSERT_EQ(mcSetDevice(last), mcSuccess);  // control: the last ordinal
  EXPECT_EQ(mcSetDevice(ordinal()), mcErrorInvalidDevice) << ordinal();
  int current = -1;
  ASSERT_EQ(mcGetDevice(&current), mcSuccess);
  EXPECT_EQ(current, last);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ordinals, SetDeviceInvalid,
                         testing::Values(-1, INT_MIN, 0, 1, INT_MAX),
                         [](const testing::TestParamInfo<int>& info) {
                           switch (info.param) {
                             case -1:
                               return std::string("MinusOne");
                             case INT_MIN:
                               return std::string("IntMin");
                             case 0:
                               return std::string("Count");
                             case 1:
                               return std::string("CountPlusOne");
                             default:
                               return std::string("IntMax");
                           }
                         });

}  // namespace
}  // namespace mxcts::conformance
