// Tests that pass every rule: a clause each, assertions (one through a
// helper of an included header), a trap test with its control.
#include "checks.h"

TEST(Stream, Creates) {
  MX_SPEC("api.stream.create.returns-distinct-handles");
  ExpectSuccess(mcStreamCreate(&stream));
}

TEST(Memory, OutOfBoundsTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global");
  MX_EXPECT_TRAP(Access(kPastTheEnd), mcErrorIllegalAddress, "out-of-bounds");
}

TEST(Memory, LastElementIsInBounds) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global");
  MX_EXPECT_NO_TRAP(Access(kLast));
}
