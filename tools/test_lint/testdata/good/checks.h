// A helper that asserts, included by good_test.cc.
inline void ExpectSuccess(mcError_t error) { EXPECT_EQ(error, mcSuccess); }
