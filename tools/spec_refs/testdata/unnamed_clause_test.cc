// A test that names no clause.
TEST(StreamCreate, NamesNothing) {}
