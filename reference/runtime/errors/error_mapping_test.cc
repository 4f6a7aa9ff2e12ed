// Copyright mxcts authors.
//
// Tests of the error table: it has one row per enumerator of
// mc_runtime_types.h (read from the header itself), statuses round-trip
// through it, and the canonical-code fallback is unambiguous.

#include "reference/runtime/errors/error_mapping.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "absl/strings/numbers.h"
#include "re2/re2.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace mxcts::runtime {
namespace {

// name -> value, for every enumerator of `enum _mcError_t` in the header.
std::map<std::string, int> EnumeratorsInHeader() {
  std::vector<unsigned char> bytes = runtime_testing::ReadFileBytes(
      runtime_testing::RunfilePath("reference/include/mcr/mc_runtime_types.h"));
  std::string text(bytes.begin(), bytes.end());
  size_t begin = text.find("enum _mcError_t {");
  size_t end = text.find("};", begin);
  std::map<std::string, int> enumerators;
  if (begin == std::string::npos || end == std::string::npos) {
    return enumerators;
  }
  re2::StringPiece body(text.data() + begin, end - begin);
  std::string name;
  int value = 0;
  while (RE2::FindAndConsume(&body, R"((mc(?:Success|Error\w+)) = (\d+))",
                             &name, &value)) {
    enumerators[name] = value;
  }
  return enumerators;
}

TEST(ErrorTable, HasOneRowPerEnumeratorOfTheHeader) {
  std::map<std::string, int> in_header = EnumeratorsInHeader();
  ASSERT_GT(in_header.size(), 100u) << "the header was not read";
  std::map<std::string, int> in_table;
  for (mcError_t error : AllErrors()) {
    in_table[ErrorName(error)] = static_cast<int>(error);
  }
  EXPECT_EQ(in_table, in_header);
}

TEST(ErrorTable, NamesAreDistinctAndDescriptionsNonEmpty) {
  std::set<std::string> names;
  for (mcError_t error : AllErrors()) {
    EXPECT_TRUE(names.insert(ErrorName(error)).second) << ErrorName(error);
    EXPECT_GT(std::string(ErrorDescription(error)).size(), 5u)
        << ErrorName(error);
    EXPECT_STRNE(ErrorDescription(error), kUnrecognizedErrorText);
  }
}

TEST(ErrorTable, DescriptionsAreDistinct) {
  // A description names one code: two codes never read the same.
  std::map<std::string, std::string> seen;
  for (mcError_t error : AllErrors()) {
    auto [it, inserted] =
        seen.emplace(ErrorDescription(error), ErrorName(error));
    EXPECT_TRUE(inserted) << ErrorName(error) << " and " << it->second;
  }
}

TEST(ErrorTable, AtMostOneDefaultPerCanonicalCode) {
  // A payload-less status maps through its code; each code must map to one
  // row, which must carry that code.
  for (int c = 0; c <= 16; ++c) {
    auto code = static_cast<absl::StatusCode>(c);
    if (code == absl::StatusCode::kOk) continue;
    mcError_t mapped = ToMcError(absl::Status(code, "plain"));
    if (mapped != mcErrorUnknown) {
      EXPECT_EQ(CanonicalCode(mapped), code) << ErrorName(mapped);
    }
  }
}

TEST(ErrorTable, KnownNamesAndValues) {
  EXPECT_STREQ(ErrorName(mcSuccess), "mcSuccess");
  EXPECT_STREQ(ErrorName(mcErrorInvalidValue), "mcErrorInvalidValue");
  EXPECT_STREQ(ErrorName(mcErrorKernelExecTimeout), "mcErrorKernelExecTimeout");
  EXPECT_EQ(mcErrorInvalidDeviceFunction, 98);
  EXPECT_EQ(mcErrorMissingConfiguration, 52);
}

TEST(ErrorTable, UnknownValueIsUnrecognized) {
  EXPECT_STREQ(ErrorName(static_cast<mcError_t>(12345)),
               kUnrecognizedErrorText);
  EXPECT_STREQ(ErrorDescription(static_cast<mcError_t>(12345)),
               kUnrecognizedErrorText);
  EXPECT_FALSE(IsKnownError(static_cast<mcError_t>(12345)));
  // Control: a neighbouring real value is known.
  EXPECT_TRUE(IsKnownError(mcErrorNotReady));
}

TEST(McStatus, CarriesTheExactCode) {
  absl::Status status = McStatus(mcErrorInvalidDevice, "device 9");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "device 9");
  EXPECT_EQ(ToMcError(status), mcErrorInvalidDevice);
  // Control: the same canonical code without the payload maps to the
  // code's default.
  EXPECT_EQ(ToMcError(absl::InvalidArgumentError("device 9")),
            mcErrorInvalidValue);
}

TEST(McStatus, EveryErrorRoundTrips) {
  for (mcError_t error : AllErrors()) {
    if (error == mcSuccess) continue;
    absl::Status status = McStatus(error, "x");
    EXPECT_FALSE(status.ok()) << ErrorName(error);
    EXPECT_EQ(ToMcError(status), error) << ErrorName(error);
  }
}

TEST(ToMcError, OkIsSuccessAndUnmappedCodeIsUnknown) {
  EXPECT_EQ(ToMcError(absl::OkStatus()), mcSuccess);
  EXPECT_EQ(ToMcError(absl::CancelledError("stop")), mcErrorUnknown);
  EXPECT_EQ(ToMcError(absl::ResourceExhaustedError("full")),
            mcErrorMemoryAllocation);
}

TEST(StickyErrors, AreTheFaultCodes) {
  // [api.error.sticky.fault-codes]
  for (mcError_t e : {mcErrorIllegalAddress, mcErrorAssert,
                      mcErrorLaunchFailure, mcErrorIllegalInstruction,
                      mcErrorMisalignedAddress, mcErrorLaunchTimeout,
                      mcErrorHardwareStackError, mcErrorKernelExecTimeout}) {
    EXPECT_TRUE(IsStickyError(e)) << ErrorName(e);
  }
  // [api.error.sticky.argument-errors-not-sticky]
  for (mcError_t e :
       {mcErrorInvalidValue, mcErrorInvalidDevice, mcErrorInvalidResourceHandle,
        mcErrorInvalidConfiguration, mcErrorLaunchOutOfResources,
        mcErrorMemoryAllocation, mcErrorInvalidDeviceFunction, mcSuccess}) {
    EXPECT_FALSE(IsStickyError(e)) << ErrorName(e);
  }
}

}  // namespace
}  // namespace mxcts::runtime
