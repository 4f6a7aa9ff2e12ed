// A fuzzer of the smoke library: its check verifies a clause, tagged like
// the library's own, but it is a test program, so tools/mutate skips the
// `fuzz` directory and never mutates it.

int Clamp(int v);

bool ClampIsNonNegative(int v) {
  if (Clamp(v) < 0) {  // [smoke.fixture.negative-is-zero]
    return false;
  }
  return true;
}
