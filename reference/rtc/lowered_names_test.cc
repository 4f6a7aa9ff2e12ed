// Copyright mxcts authors.
//
// Tests of the name expression probes: the text appended to a program and
// how a probe's symbol is recognized. Lowering itself, which needs a
// compiled image, is tested by conformance/api/compilation.

#include "reference/rtc/lowered_names.h"

#include <gtest/gtest.h>

namespace mxcts::rtc {
namespace {

TEST(ProbeSource, OneInstantiationPerExpression) {
  EXPECT_EQ(ProbeSource({}), "");
  std::string text = ProbeSource({"&kernel<int>", " kernel<float> "});
  EXPECT_NE(text.find("template struct __mcrtc_lowered<0, (&kernel<int>)>;"),
            std::string::npos);
  text = ProbeSource({"(void (*)(int*))&f", "static_cast<void (*)(int*)>(f)"});
  EXPECT_NE(text.find("<0, ((void (*)(int*))&f)>"), std::string::npos);
  EXPECT_NE(text.find("<1, (static_cast<void (*)(int*)>(f))>"),
            std::string::npos);
  text = ProbeSource({"&kernel<int>", " kernel<float> "});
  EXPECT_NE(text.find("template struct __mcrtc_lowered<0, (&kernel<int>)>;"),
            std::string::npos);
  EXPECT_NE(text.find("template struct __mcrtc_lowered<1, &(kernel<float>)>;"),
            std::string::npos);
  EXPECT_NE(text.find("#line 1 \"<mcrtc name expressions>\""),
            std::string::npos);
}

TEST(IsProbe, RecognizesTheProbeOfItsIndexOnly) {
  const char* probe = "_ZN15__mcrtc_loweredILi10EXadL_Z1fvEEE3tagE";
  EXPECT_TRUE(IsProbe(probe, 10));
  EXPECT_FALSE(IsProbe(probe, 1));
  EXPECT_TRUE(IsProbe(
      "__mcdev__ZN15__mcrtc_loweredILi0EXadL_Z5scaleIiEvPT_S1_EEE3tagE", 0));
  EXPECT_FALSE(IsProbe("_Z6kernelIiEvPT_", 0));
}

TEST(LowerNames, NoExpressionsNeedNoImage) {
  absl::StatusOr<std::vector<std::string>> names = LowerNames(nullptr, 0, 0);
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty());
  EXPECT_FALSE(LowerNames(nullptr, 0, 1).ok());
}

}  // namespace
}  // namespace mxcts::rtc
