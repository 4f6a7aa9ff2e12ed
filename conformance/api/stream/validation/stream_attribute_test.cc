// Copyright mxcts authors.
//
// Conformance: the errors of mcStreamSetAttribute and mcStreamGetAttribute
// (docs/spec/api-stream.md, "Stream attributes"): a null value, an
// attribute identifier that names none, and values outside what an
// attribute accepts. Each returns mcErrorInvalidValue and leaves both
// attributes of the stream as they were (a value set before the bad call
// still reads back); the control beside each is the nearest good call.

#include <mc_runtime.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/testing/stream_attributes.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

char window_memory[256];

// The attributes the tests set before each bad call.
const mcAccessPolicyWindow kGoodWindow{window_memory, 256, 0.5f,
                                       mcAccessPropertyPersisting,
                                       mcAccessPropertyStreaming};
constexpr mcSynchronizationPolicy kGoodPolicy = mcSyncPolicyYield;

// "" if both attributes of `stream` still hold the good values.
std::string Unchanged(mcStream_t stream) {
  std::string problems;
  mcStreamAttrValue window;
  mcStreamAttrValue policy;
  if (mcStreamGetAttribute(stream, mcStreamAttributeAccessPolicyWindow,
                           &window) != mcSuccess ||
      mcStreamGetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                           &policy) != mcSuccess) {
    return "the attributes cannot be read; ";
  }
  if (!SameWindow(window.accessPolicyWindow, kGoodWindow)) {
    problems += "the access policy window changed; ";
  }
  if (policy.syncPolicy != kGoodPolicy) {
    problems += "the synchronization policy changed; ";
  }
  return problems;
}

// A stream of a kind with the good attributes set; the default streams
// get their defaults back at the end.
template <typename Param>
class AttributeErrors : public testing::TestWithParam<Param> {
 protected:
  void Prepare(StreamKind kind) {
    stream_ = std::make_unique<TestStream>(kind);
    ASSERT_EQ(stream_->status(), mcSuccess);
    ASSERT_EQ(SetWindow(stream(), kGoodWindow), mcSuccess);
    ASSERT_EQ(SetPolicy(stream(), kGoodPolicy), mcSuccess);
    ASSERT_EQ(mcGetLastError(), mcSuccess);
  }
  void TearDown() override {
    if (stream_ != nullptr) RestoreDefaultAttributes(stream());
    stream_.reset();
    mcGetLastError();
  }
  mcStream_t stream() const { return stream_->get(); }

  std::unique_ptr<TestStream> stream_;
};

// --- A null value. ---

using NullCase = std::tuple<bool, mcStreamAttrID, StreamKind>;

std::string NullCaseName(const testing::TestParamInfo<NullCase>& info) {
  return std::string(std::get<0>(info.param) ? "Set" : "Get") +
         (std::get<1>(info.param) == mcStreamAttributeAccessPolicyWindow
              ? "_Window_"
              : "_Policy_") +
         StreamKindName(std::get<2>(info.param));
}

class NullAttributeValue : public AttributeErrors<NullCase> {};

TEST_P(NullAttributeValue, IsInvalidValue) {
  MX_SPEC("api.stream.attribute.null-value-is-invalid-value",
          "api.error.last.recorded-on-failure");
  const auto [set, attr, kind] = GetParam();
  Prepare(kind);
  EXPECT_EQ(set ? mcStreamSetAttribute(stream(), attr, nullptr)
                : mcStreamGetAttribute(stream(), attr, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(Unchanged(stream()), "");
}

INSTANTIATE_TEST_SUITE_P(
    SetAndGet, NullAttributeValue,
    testing::Combine(testing::Bool(),
                     testing::Values(mcStreamAttributeAccessPolicyWindow,
                                     mcStreamAttributeSynchronizationPolicy),
                     testing::ValuesIn(kAllStreamKinds)),
    NullCaseName);

// --- An identifier that names no attribute. ---

// Identifiers between and below the attributes' (values an enumeration
// of them can hold).
using UnknownCase = std::tuple<bool, int>;

std::string UnknownCaseName(const testing::TestParamInfo<UnknownCase>& info) {
  return std::string(std::get<0>(info.param) ? "Set_" : "Get_") +
         std::to_string(std::get<1>(info.param));
}

class UnknownAttribute : public AttributeErrors<UnknownCase> {};

TEST_P(UnknownAttribute, IsInvalidValue) {
  MX_SPEC("api.stream.attribute.unknown-attribute-is-invalid-value");
  const auto [set, id] = GetParam();
  Prepare(StreamKind::kBlocking);
  mcStreamAttrValue value;
  value.syncPolicy = mcSyncPolicySpin;
  const mcStreamAttrID attr = static_cast<mcStreamAttrID>(id);
  EXPECT_EQ(set ? mcStreamSetAttribute(stream(), attr, &value)
                : mcStreamGetAttribute(stream(), attr, &value),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  if (!set) {
    EXPECT_EQ(value.syncPolicy, mcSyncPolicySpin);
  }
  EXPECT_EQ(Unchanged(stream()), "");
}

INSTANTIATE_TEST_SUITE_P(Identifiers, UnknownAttribute,
                         testing::Combine(testing::Bool(),
                                          testing::Values(0, 2)),
                         UnknownCaseName);

// --- Values outside what an attribute accepts (enumerators outside the
// enumeration's list, but values it can hold). ---

struct BadWindow {
  const char* name;
  mcAccessPolicyWindow window;
};

const BadWindow kBadWindows[] = {
    {"HitRatioBelowZero",
     {window_memory, 64, -0.01f, mcAccessPropertyNormal,
      mcAccessPropertyNormal}},
    {"HitRatioAboveOne",
     {window_memory, 64, 1.01f, mcAccessPropertyNormal,
      mcAccessPropertyNormal}},
    {"HitRatioNaN",
     {window_memory, 64, std::numeric_limits<float>::quiet_NaN(),
      mcAccessPropertyNormal, mcAccessPropertyNormal}},
    {"HitRatioInfinity",
     {window_memory, 64, std::numeric_limits<float>::infinity(),
      mcAccessPropertyNormal, mcAccessPropertyNormal}},
    {"HitRatioMinusInfinity",
     {window_memory, 64, -std::numeric_limits<float>::infinity(),
      mcAccessPropertyNormal, mcAccessPropertyNormal}},
    {"WindowOfATerabyte",
     {window_memory, size_t{1} << 40, 0.5f, mcAccessPropertyNormal,
      mcAccessPropertyNormal}},
    {"WindowOfSizeMax",
     {window_memory, SIZE_MAX, 0.5f, mcAccessPropertyNormal,
      mcAccessPropertyNormal}},
    {"HitPropertyThree",
     {window_memory, 64, 0.5f, static_cast<mcAccessProperty>(3),
      mcAccessPropertyNormal}},
    {"MissPropertyThree",
     {window_memory, 64, 0.5f, mcAccessPropertyNormal,
      static_cast<mcAccessProperty>(3)}},
};

class BadAccessPolicyWindow : public AttributeErrors<int> {};

TEST_P(BadAccessPolicyWindow, IsInvalidValueAndKeepsTheWindow) {
  MX_SPEC("api.stream.attribute.bad-access-policy-is-invalid-value");
  Prepare(StreamKind::kNonBlocking);
  EXPECT_EQ(SetWindow(stream(), kBadWindows[GetParam()].window),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(Unchanged(stream()), "");
}

INSTANTIATE_TEST_SUITE_P(
    Windows, BadAccessPolicyWindow,
    testing::Range(0, static_cast<int>(std::size(kBadWindows))),
    [](const testing::TestParamInfo<int>& info) {
      return std::string(kBadWindows[info.param].name);
    });

// Controls: the good values nearest to the bad ones.
const BadWindow kGoodWindows[] = {
    {"HitRatioZero",
     {window_memory, 64, 0.0f, mcAccessPropertyNormal, mcAccessPropertyNormal}},
    {"HitRatioOne",
     {window_memory, 64, 1.0f, mcAccessPropertyPersisting,
      mcAccessPropertyPersisting}},
    {"WindowOfAMegabyte",
     {window_memory, size_t{1} << 20, 0.5f, mcAccessPropertyStreaming,
      mcAccessPropertyNormal}},
};

class GoodAccessPolicyWindow : public AttributeErrors<int> {};

TEST_P(GoodAccessPolicyWindow, IsAccepted) {
  MX_SPEC("api.stream.attribute.bad-access-policy-is-invalid-value",
          "api.stream.attribute.set-then-get-round-trips");
  Prepare(StreamKind::kNonBlocking);
  const mcAccessPolicyWindow& window = kGoodWindows[GetParam()].window;
  ASSERT_EQ(SetWindow(stream(), window), mcSuccess);
  mcStreamAttrValue value;
  ASSERT_EQ(mcStreamGetAttribute(stream(), mcStreamAttributeAccessPolicyWindow,
                                 &value),
            mcSuccess);
  EXPECT_EQ(value.accessPolicyWindow.num_bytes, window.num_bytes);
  EXPECT_EQ(value.accessPolicyWindow.hitRatio, window.hitRatio);
}

INSTANTIATE_TEST_SUITE_P(
    Windows, GoodAccessPolicyWindow,
    testing::Range(0, static_cast<int>(std::size(kGoodWindows))),
    [](const testing::TestParamInfo<int>& info) {
      return std::string(kGoodWindows[info.param].name);
    });

class BadSynchronizationPolicy : public AttributeErrors<int> {};

TEST_P(BadSynchronizationPolicy, IsInvalidValueAndKeepsThePolicy) {
  MX_SPEC("api.stream.attribute.bad-access-policy-is-invalid-value");
  Prepare(StreamKind::kBlocking);
  EXPECT_EQ(
      SetPolicy(stream(), static_cast<mcSynchronizationPolicy>(GetParam())),
      mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(Unchanged(stream()), "");
  // Control: the nearest policies are accepted.
  ASSERT_EQ(SetPolicy(stream(), mcSyncPolicyAuto), mcSuccess);
  ASSERT_EQ(SetPolicy(stream(), mcSyncPolicyBlockingSync), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Policies, BadSynchronizationPolicy,
                         testing::Values(0, 5, 6, 7));

}  // namespace
}  // namespace mxcts::conformance
