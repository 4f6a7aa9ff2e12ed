// Copyright mxcts authors.
//
// PrintedParamName: the test-name generator of value-parameterized tests
// whose parameter has a PrintTo, so each instance is named by its printed
// parameter ("Block96x1x1", "Tile16") rather than by its index.
//
//   INSTANTIATE_TEST_SUITE_P(Shapes, ShuffleTest, testing::ValuesIn(kShapes),
//                            mxcts::conformance::PrintedParamName());

#ifndef MXCTS_CONFORMANCE_TESTING_PRINTED_PARAM_NAME_H_
#define MXCTS_CONFORMANCE_TESTING_PRINTED_PARAM_NAME_H_

#include <gtest/gtest.h>

#include <string>

namespace mxcts::conformance {

struct PrintedParamName {
  template <class P>
  std::string operator()(const testing::TestParamInfo<P>& info) const {
    return testing::PrintToString(info.param);
  }
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_PRINTED_PARAM_NAME_H_
