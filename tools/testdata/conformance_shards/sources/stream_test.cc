// Conformance-style sources for conformance_shards_test.sh: one test per
// case of its results.
TEST(StreamCreate, ReturnsHandle) {
  MX_SPEC("api.stream.create.returns-handle");
}
TEST(StreamCreate, ReturnsAnotherHandle) {
  MX_SPEC("api.stream.create.returns-handle");
}
TEST(StreamDestroy, ReleasesHandle) {
  MX_SPEC("api.stream.destroy.releases-handle");
}
TEST(StreamQuery, ReportsIdle) { MX_SPEC("api.stream.query.reports-idle"); }
TEST(StreamSync, WaitsForWork) { MX_SPEC("api.stream.sync.waits-for-work"); }
TEST(StreamSync, WaitsForTwoKernels) {
  MX_SPEC("api.stream.sync.waits-for-work");
}
TEST(StreamSync, NullIsDefault) { MX_SPEC("api.stream.sync.null-is-default"); }
TEST(StreamPriority, RangeIsOrdered) {
  MX_SPEC("api.stream.priority.range-is-ordered");
}
TEST(StreamFlags, NonBlockingIsKept) {
  MX_SPEC("api.stream.flags.non-blocking-is-kept");
}
