// Conformance-style sources for the side-by-side spec_coverage tests.
TEST(StreamCreate, ReturnsDistinctHandles) {
  MX_SPEC("api.stream.create.returns-distinct-handles");
}
TEST(StreamCreate, NullPointerIsInvalidValue) {
  MX_SPEC("api.stream.create.null-pointer-is-invalid-value");
}
TEST(StreamCreate, FlagsAreKept) {
  MX_SPEC("api.stream.create.flags-are-kept");
}
TEST(StreamCreate, PriorityIsClamped) {
  MX_SPEC("api.stream.create.priority-is-clamped");
}
TEST(StreamCreate, OnEachDevice) {
  MX_SPEC("api.stream.create.on-each-device");
}
TEST(StreamWait, WaitsForEvent) { MX_SPEC("api.stream.wait.waits-for-event"); }
