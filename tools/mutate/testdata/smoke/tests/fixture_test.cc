// The smoke fixture's tests, in the shape the clause scanner reads (TEST and
// MX_SPEC), with a main of their own so that they build with plain c++.
// Clamp's test is strong; Halve's names its clause but only checks an even
// value, so the mutant that removes the odd case survives; Cap has none.

#include <cstdio>
#include <cstdlib>

int Clamp(int v);
int Halve(int v);

#define MX_SPEC(...)
#define TEST(suite, name) void suite##_##name()

static int failures = 0;
static void Expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

TEST(Clamp, NegativeIsZero) {
  MX_SPEC("smoke.fixture.negative-is-zero");
  Expect(Clamp(-5) == 0, "Clamp(-5) == 0");
  Expect(Clamp(5) == 5, "Clamp(5) == 5 (control)");
}

TEST(Halve, OddRoundsDown) {
  MX_SPEC("smoke.fixture.odd-rounds-down");
  Expect(Halve(10) == 5, "Halve(10) == 5");
}

int main() {
  Clamp_NegativeIsZero();
  Halve_OddRoundsDown();
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
