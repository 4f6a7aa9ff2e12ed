// The second test names a clause that does not exist.
TEST(StreamCreate, ReturnsDistinctHandles) {
  MX_SPEC("api.stream.create.returns-distinct-handles");
}

TEST(StreamCreate, Misspelled) {
  MX_SPEC("api.stream.create.retruns-distinct-handles");
}
