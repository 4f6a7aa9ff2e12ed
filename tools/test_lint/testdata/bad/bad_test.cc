// Tests breaking the rules: no clause, no assertion, a trap without control.

TEST(Stream, NamesNothing) { EXPECT_EQ(mcStreamCreate(&stream), mcSuccess); }

TEST(Stream, AssertsNothing) {
  MX_SPEC("api.stream.create.returns-distinct-handles");
  mcStreamCreate(&stream);
}

TEST(Memory, OutOfBoundsTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global");
  MX_EXPECT_TRAP(Access(kPastTheEnd), mcErrorIllegalAddress, "out-of-bounds");
}
