// Copyright mxcts authors.
//
// Conformance: stream attributes: their defaults, set-then-get round
// trips of every value, and mcStreamCopyAttribute, on every kind of stream
// (docs/spec/api-stream.md, "Stream attributes").
//
// The default streams' attributes live as long as the process, so every
// test that sets one restores the defaults afterwards (TearDown); the
// defaults test then holds whatever ran before it.

#include <mc_runtime.h>

#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/testing/stream_attributes.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

char window_memory[4096];

mcAccessPolicyWindow WindowOf(mcStream_t stream) {
  mcStreamAttrValue value;
  value.accessPolicyWindow =
      mcAccessPolicyWindow{&value, 77, 0.25f, mcAccessPropertyPersisting,
                           mcAccessPropertyPersisting};
  EXPECT_EQ(
      mcStreamGetAttribute(stream, mcStreamAttributeAccessPolicyWindow, &value),
      mcSuccess);
  return value.accessPolicyWindow;
}

mcSynchronizationPolicy PolicyOf(mcStream_t stream) {
  mcStreamAttrValue value;
  value.syncPolicy = mcSyncPolicyYield;
  EXPECT_EQ(mcStreamGetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                                 &value),
            mcSuccess);
  return value.syncPolicy;
}

// A stream of the parameter's kind; the default streams get their
// default attributes back afterwards.
template <typename Param>
class AttributeTest : public testing::TestWithParam<Param> {
 protected:
  void TearDown() override {
    for (mcStream_t stream :
         {mcStream_t{nullptr}, mcStreamLegacy, mcStreamPerThread}) {
      RestoreDefaultAttributes(stream);
    }
  }
};

class AttributeDefaults : public AttributeTest<StreamKind> {};

TEST_P(AttributeDefaults, NeverSetAttributesHaveTheirDefaults) {
  MX_SPEC("api.stream.attribute.defaults");
  TestStream stream(GetParam());
  ASSERT_EQ(stream.status(), mcSuccess);
  EXPECT_TRUE(SameWindow(WindowOf(stream.get()), DefaultWindow()));
  EXPECT_EQ(PolicyOf(stream.get()), mcSyncPolicyAuto);
}

TEST_P(AttributeDefaults, SettingOneAttributeKeepsTheOther) {
  MX_SPEC("api.stream.attribute.set-then-get-round-trips",
          "api.stream.attribute.defaults");
  TestStream stream(GetParam());
  ASSERT_EQ(stream.status(), mcSuccess);
  ASSERT_EQ(SetPolicy(stream.get(), mcSyncPolicySpin), mcSuccess);
  EXPECT_TRUE(SameWindow(WindowOf(stream.get()), DefaultWindow()));
  const mcAccessPolicyWindow window{window_memory, 1024, 0.5f,
                                    mcAccessPropertyPersisting,
                                    mcAccessPropertyStreaming};
  ASSERT_EQ(SetWindow(stream.get(), window), mcSuccess);
  EXPECT_EQ(PolicyOf(stream.get()), mcSyncPolicySpin);
  EXPECT_TRUE(SameWindow(WindowOf(stream.get()), window));
}

INSTANTIATE_TEST_SUITE_P(Kinds, AttributeDefaults,
                         testing::ValuesIn(kAllStreamKinds), KindName);

using PolicyCase = std::tuple<StreamKind, mcSynchronizationPolicy>;

std::string PolicyCaseName(const testing::TestParamInfo<PolicyCase>& info) {
  static const char* const kNames[] = {"", "Auto", "Spin", "Yield",
                                       "BlockingSync"};
  return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
         kNames[std::get<1>(info.param)];
}

class SyncPolicyRoundTrip : public AttributeTest<PolicyCase> {};

TEST_P(SyncPolicyRoundTrip, GetReportsWhatWasSet) {
  MX_SPEC("api.stream.attribute.set-then-get-round-trips");
  TestStream stream(std::get<0>(GetParam()));
  ASSERT_EQ(stream.status(), mcSuccess);
  ASSERT_EQ(SetPolicy(stream.get(), std::get<1>(GetParam())), mcSuccess);
  EXPECT_EQ(PolicyOf(stream.get()), std::get<1>(GetParam()));
  // The stream still runs its work.
  EXPECT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndPolicies, SyncPolicyRoundTrip,
    testing::Combine(testing::ValuesIn(kAllStreamKinds),
                     testing::Values(mcSyncPolicyAuto, mcSyncPolicySpin,
                                     mcSyncPolicyYield,
                                     mcSyncPolicyBlockingSync)),
    PolicyCaseName);

// Windows at the ends of what is accepted.
struct WindowCase {
  const char* name;
  mcAccessPolicyWindow window;
};

const WindowCase kWindows[] = {
    {"Empty",
     {nullptr, 0, 0.0f, mcAccessPropertyNormal, mcAccessPropertyNormal}},
    {"HalfPersisting",
     {window_memory, 4096, 0.5f, mcAccessPropertyPersisting,
      mcAccessPropertyStreaming}},
    {"AllHits",
     {window_memory, 1, 1.0f, mcAccessPropertyStreaming,
      mcAccessPropertyNormal}},
    {"NoHits",
     {window_memory, 64, 0.0f, mcAccessPropertyPersisting,
      mcAccessPropertyPersisting}},
};

using WindowParam = std::tuple<StreamKind, int>;

std::string WindowParamName(const testing::TestParamInfo<WindowParam>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
         kWindows[std::get<1>(info.param)].name;
}

class WindowRoundTrip : public AttributeTest<WindowParam> {};

TEST_P(WindowRoundTrip, GetReportsWhatWasSet) {
  MX_SPEC("api.stream.attribute.set-then-get-round-trips");
  TestStream stream(std::get<0>(GetParam()));
  ASSERT_EQ(stream.status(), mcSuccess);
  const mcAccessPolicyWindow& window = kWindows[std::get<1>(GetParam())].window;
  ASSERT_EQ(SetWindow(stream.get(), window), mcSuccess);
  EXPECT_TRUE(SameWindow(WindowOf(stream.get()), window));
}

INSTANTIATE_TEST_SUITE_P(KindsAndWindows, WindowRoundTrip,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Range(0, 4)),
                         WindowParamName);

class CopyAttributes : public AttributeTest<StreamKind> {};

TEST_P(CopyAttributes, DestinationGetsEveryAttribute) {
  MX_SPEC("api.stream.attribute.copy-copies-all");
  TestStream source(StreamKind::kNonBlocking);
  TestStream destination(GetParam());
  ASSERT_EQ(source.status(), mcSuccess);
  ASSERT_EQ(destination.status(), mcSuccess);
  const mcAccessPolicyWindow window{window_memory, 2048, 0.75f,
                                    mcAccessPropertyStreaming,
                                    mcAccessPropertyPersisting};
  ASSERT_EQ(SetWindow(source.get(), window), mcSuccess);
  ASSERT_EQ(SetPolicy(source.get(), mcSyncPolicyBlockingSync), mcSuccess);
  ASSERT_EQ(mcStreamCopyAttribute(destination.get(), source.get()), mcSuccess);
  EXPECT_TRUE(SameWindow(WindowOf(destination.get()), window));
  EXPECT_EQ(PolicyOf(destination.get()), mcSyncPolicyBlockingSync);
  // The source is unchanged, and a copy from a stream with default
  // attributes brings the defaults back.
  EXPECT_TRUE(SameWindow(WindowOf(source.get()), window));
  TestStream plain(StreamKind::kBlocking);
  ASSERT_EQ(mcStreamCopyAttribute(destination.get(), plain.get()), mcSuccess);
  EXPECT_TRUE(SameWindow(WindowOf(destination.get()), DefaultWindow()));
  EXPECT_EQ(PolicyOf(destination.get()), mcSyncPolicyAuto);
}

TEST_P(CopyAttributes, SourceMayBeAnyKind) {
  MX_SPEC("api.stream.attribute.copy-copies-all");
  TestStream source(GetParam());
  TestStream destination(StreamKind::kBlocking);
  ASSERT_EQ(source.status(), mcSuccess);
  ASSERT_EQ(destination.status(), mcSuccess);
  ASSERT_EQ(SetPolicy(source.get(), mcSyncPolicyYield), mcSuccess);
  ASSERT_EQ(mcStreamCopyAttribute(destination.get(), source.get()), mcSuccess);
  EXPECT_EQ(PolicyOf(destination.get()), mcSyncPolicyYield);
  EXPECT_TRUE(SameWindow(WindowOf(destination.get()), WindowOf(source.get())));
}

INSTANTIATE_TEST_SUITE_P(Kinds, CopyAttributes,
                         testing::ValuesIn(kAllStreamKinds), KindName);

}  // namespace
}  // namespace mxcts::conformance
