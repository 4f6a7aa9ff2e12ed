// Conformance-style sources for the spec_coverage command test.
TEST(StreamCreate, ReturnsDistinctHandles) {
  MX_SPEC("api.stream.create.returns-distinct-handles");
}
