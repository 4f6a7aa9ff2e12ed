// The library tools/mutate's smoke test mutates: three tagged checks and
// one untagged one.

int Clamp(int v) {
  if (v < 0) {  // [smoke.fixture.negative-is-zero]
    return 0;
  }
  return v;
}

int Halve(int v) {
  // [smoke.fixture.odd-rounds-down]
  if (v % 2 != 0) {
    v -= 1;
  }
  return v / 2;
}

int Cap(int v) {
  if (v > 100) {  // [smoke.fixture.large-is-capped]
    return 100;
  }
  return v;
}

int Double(int v) {
  if (v > 1000) {
    return 2000;
  }
  return 2 * v;
}
