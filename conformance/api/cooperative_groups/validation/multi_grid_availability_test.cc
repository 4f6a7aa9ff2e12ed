// Conformance: whether cooperative_groups::this_multi_grid() exists
// (docs/spec/api-cooperative-groups.md, api.coop.multi-grid.availability,
// implementation-defined). A backend documents its choice by its manifest's
// cooperative_multi_device claim: the test checks that the header provides
// this_multi_grid() exactly when the backend claims multi-device
// cooperative launches (the reference claims neither), and that the device
// attribute agrees.

#include <maca_cooperative_groups.h>

#include <type_traits>

#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

// What unqualified lookup finds when cooperative_groups declares no
// this_multi_grid(): a template, which loses to a real declaration.
struct NoMultiGrid {};
template <class Unused = void>
NoMultiGrid this_multi_grid();

// The type a call of this_multi_grid() has: the using-directive makes
// cooperative_groups' names visible beside the global fallback, as if
// declared in the global namespace, so overload resolution picks a real
// declaration when there is one.
namespace multi_grid_probe {
using namespace cooperative_groups;
using Result = decltype(this_multi_grid());
}  // namespace multi_grid_probe

namespace {

constexpr bool kHeaderProvidesMultiGrid =
    !std::is_same<multi_grid_probe::Result, NoMultiGrid>::value;

bool ClaimsMultiDevice() {
  return mxcts::conformance::Claimed("cooperative_multi_device");
}

TEST(MultiGrid, ProvidedExactlyWhenTheBackendClaimsMultiDeviceLaunches) {
  MX_SPEC("api.coop.multi-grid.availability");
  EXPECT_EQ(kHeaderProvidesMultiGrid, ClaimsMultiDevice());
}

TEST(MultiGrid, TheDeviceAttributeAgreesWithTheClaim) {
  MX_SPEC("api.coop.multi-grid.availability",
          "api.coop.multi-device.unsupported");
  int value = -1;
  ASSERT_EQ(mcDeviceGetAttribute(
                &value, mcDeviceAttributeCooperativeMultiDeviceLaunch, 0),
            mcSuccess);
  EXPECT_EQ(value != 0, ClaimsMultiDevice());
}

}  // namespace
