// Every test names existing clauses.
TEST(StreamCreate, ReturnsDistinctHandles) {
  MX_SPEC("api.stream.create.returns-distinct-handles");
}

TEST(StreamCreate, NullIsInvalid) {
  MX_SPEC("api.stream.create.null-pointer-is-invalid-value");
}
