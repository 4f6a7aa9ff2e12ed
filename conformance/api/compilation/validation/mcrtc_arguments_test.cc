// Conformance: the argument checks of every mcrtc function and the
// mcrtcResult codes (docs/spec/api-compilation.md, "Runtime compilation
// with mcrtc"). Each check breaks one rule; a control call beside it shows
// the same call succeeds with that argument repaired. None of these
// compiles anything except where an option is accepted.

#include <mcrtc.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr char kSource[] = "extern \"C\" __global__ void k() {}\n";

class McrtcArguments : public ::testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("runtime_compilation");
    ASSERT_EQ(
        mcrtcCreateProgram(&program_, kSource, "k.cu", 0, nullptr, nullptr),
        MCRTC_SUCCESS);
  }
  void TearDown() override {
    if (program_ != nullptr) mcrtcDestroyProgram(&program_);
  }
  mcrtcProgram program_ = nullptr;
};

// --- mcrtcResult and mcrtcGetErrorString. ---

struct ResultCase {
  mcrtcResult result;
  int value;
  const char* name;
};

const ResultCase kResults[] = {
    {MCRTC_SUCCESS, 0, "MCRTC_SUCCESS"},
    {MCRTC_ERROR_OUT_OF_MEMORY, 1, "MCRTC_ERROR_OUT_OF_MEMORY"},
    {MCRTC_ERROR_PROGRAM_CREATION_FAILURE, 2,
     "MCRTC_ERROR_PROGRAM_CREATION_FAILURE"},
    {MCRTC_ERROR_INVALID_INPUT, 3, "MCRTC_ERROR_INVALID_INPUT"},
    {MCRTC_ERROR_INVALID_PROGRAM, 4, "MCRTC_ERROR_INVALID_PROGRAM"},
    {MCRTC_ERROR_INVALID_OPTION, 5, "MCRTC_ERROR_INVALID_OPTION"},
    {MCRTC_ERROR_COMPILATION, 6, "MCRTC_ERROR_COMPILATION"},
    {MCRTC_ERROR_BUILTIN_OPERATION_FAILURE, 7,
     "MCRTC_ERROR_BUILTIN_OPERATION_FAILURE"},
    {MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION, 8,
     "MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION"},
    {MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION, 9,
     "MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION"},
    {MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID, 10,
     "MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID"},
    {MCRTC_ERROR_INTERNAL_ERROR, 11, "MCRTC_ERROR_INTERNAL_ERROR"},
};

class McrtcResultTest : public ::testing::TestWithParam<ResultCase> {};

TEST_P(McrtcResultTest, HasItsValue) {
  MX_SPEC("api.rtc.result.enumerator-values");
  EXPECT_EQ(static_cast<int>(GetParam().result), GetParam().value);
}

TEST_P(McrtcResultTest, ErrorStringNamesIt) {
  MX_SPEC("api.rtc.error-string.names-each-result");
  const char* text = mcrtcGetErrorString(GetParam().result);
  ASSERT_NE(text, nullptr);
  EXPECT_STREQ(text, GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(AllResults, McrtcResultTest,
                         ::testing::ValuesIn(kResults),
                         [](const ::testing::TestParamInfo<ResultCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(McrtcErrorString, DistinctForDistinctResults) {
  MX_SPEC("api.rtc.error-string.names-each-result");
  std::set<std::string> seen;
  for (const ResultCase& c : kResults)
    seen.insert(mcrtcGetErrorString(c.result));
  EXPECT_EQ(seen.size(), sizeof(kResults) / sizeof(kResults[0]));
}

TEST(McrtcErrorString, ValuesOutsideTheEnumerationGetAString) {
  MX_SPEC("api.rtc.error-string.names-each-result");
  for (int value : {-1, 12, 100, 1 << 20}) {
    const char* text = mcrtcGetErrorString(static_cast<mcrtcResult>(value));
    ASSERT_NE(text, nullptr) << value;
    EXPECT_GT(std::strlen(text), 0u) << value;
    for (const ResultCase& c : kResults) EXPECT_STRNE(text, c.name) << value;
  }
}

// --- mcrtcVersion. ---

TEST(McrtcVersion, ReportsAVersion) {
  MX_SPEC("api.rtc.version.reports-version");
  int major = -1, minor = -1;
  ASSERT_EQ(mcrtcVersion(&major, &minor), MCRTC_SUCCESS);
  EXPECT_GT(major, 0);
  EXPECT_GE(minor, 0);
}

TEST(McrtcVersion, NullMajorIsInvalidInput) {
  MX_SPEC("api.rtc.version.null-invalid-input");
  int minor = 0;
  EXPECT_EQ(mcrtcVersion(nullptr, &minor), MCRTC_ERROR_INVALID_INPUT);
}

TEST(McrtcVersion, NullMinorIsInvalidInput) {
  MX_SPEC("api.rtc.version.null-invalid-input");
  int major = 0;
  EXPECT_EQ(mcrtcVersion(&major, nullptr), MCRTC_ERROR_INVALID_INPUT);
}

// --- mcrtcCreateProgram. ---

TEST(McrtcCreateProgram, NullProgramIsInvalidInput) {
  MX_SPEC("api.rtc.create.null-prog-invalid-input");
  EXPECT_EQ(mcrtcCreateProgram(nullptr, kSource, "k.cu", 0, nullptr, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST(McrtcCreateProgram, NullSourceIsInvalidInput) {
  MX_SPEC("api.rtc.create.null-source-invalid-input");
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, nullptr, "k.cu", 0, nullptr, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST(McrtcCreateProgram, NegativeHeaderCountIsInvalidInput) {
  MX_SPEC("api.rtc.create.bad-header-arrays-invalid-input");
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", -1, nullptr, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST(McrtcCreateProgram, HeadersWithoutTextsAreInvalidInput) {
  MX_SPEC("api.rtc.create.bad-header-arrays-invalid-input");
  const char* names[] = {"a.h"};
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 1, nullptr, names),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST(McrtcCreateProgram, HeadersWithoutNamesAreInvalidInput) {
  MX_SPEC("api.rtc.create.bad-header-arrays-invalid-input");
  const char* texts[] = {"#define A 1\n"};
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 1, texts, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST(McrtcCreateProgram, NullHeaderEntryIsInvalidInput) {
  MX_SPEC("api.rtc.create.bad-header-arrays-invalid-input");
  const char* texts[] = {nullptr};
  const char* names[] = {"a.h"};
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 1, texts, names),
            MCRTC_ERROR_INVALID_INPUT);
}

class BadIncludeName : public ::testing::TestWithParam<const char*> {};

TEST_P(BadIncludeName, IsInvalidInput) {
  MX_SPEC("api.rtc.create.include-name-outside-invalid-input");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  const char* texts[] = {"#define A 1\n"};
  const char* names[] = {GetParam()};
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 1, texts, names),
            MCRTC_ERROR_INVALID_INPUT);
}

INSTANTIATE_TEST_SUITE_P(Names, BadIncludeName,
                         ::testing::Values("", "/etc/a.h", "../a.h",
                                           "sub/../../a.h", "a/../../b.h"));

TEST(McrtcCreateProgram, NullIncludeNameIsInvalidInput) {
  MX_SPEC("api.rtc.create.include-name-outside-invalid-input");
  const char* texts[] = {"#define A 1\n"};
  const char* names[] = {nullptr};
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 1, texts, names),
            MCRTC_ERROR_INVALID_INPUT);
}

class GoodIncludeName : public ::testing::TestWithParam<const char*> {};

TEST_P(GoodIncludeName, IsAccepted) {
  MX_SPEC("api.rtc.create.creates-program",
          "api.rtc.create.include-name-outside-invalid-input");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  const char* texts[] = {"#define A 1\n"};
  const char* names[] = {GetParam()};
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 1, texts, names),
            MCRTC_SUCCESS);
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(mcrtcDestroyProgram(&p), MCRTC_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Names, GoodIncludeName,
                         ::testing::Values("a.h", "sub/a.h", "a.cuh",
                                           "deep/er/x.hpp", "dots..h"));

TEST(McrtcCreateProgram, CreatesDistinctPrograms) {
  MX_SPEC("api.rtc.create.creates-program");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  mcrtcProgram a = nullptr, b = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&a, kSource, "a.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcCreateProgram(&b, kSource, nullptr, 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(mcrtcDestroyProgram(&a), MCRTC_SUCCESS);
  EXPECT_EQ(mcrtcDestroyProgram(&b), MCRTC_SUCCESS);
}

// --- Program handles. ---

enum class Call {
  kCompile,
  kCodeSize,
  kCode,
  kBitcodeSize,
  kBitcode,
  kLogSize,
  kLog,
  kAddName,
  kLowered
};

mcrtcResult Make(Call call, mcrtcProgram p) {
  size_t size = 0;
  char buffer[16];
  const char* lowered = nullptr;
  switch (call) {
    case Call::kCompile:
      return mcrtcCompileProgram(p, 0, nullptr);
    case Call::kCodeSize:
      return mcrtcGetCodeSize(p, &size);
    case Call::kCode:
      return mcrtcGetCode(p, buffer);
    case Call::kBitcodeSize:
      return mcrtcGetBitcodeSize(p, &size);
    case Call::kBitcode:
      return mcrtcGetBitcode(p, buffer);
    case Call::kLogSize:
      return mcrtcGetProgramLogSize(p, &size);
    case Call::kLog:
      return mcrtcGetProgramLog(p, buffer);
    case Call::kAddName:
      return mcrtcAddNameExpression(p, "&k");
    case Call::kLowered:
      return mcrtcGetLoweredName(p, "&k", &lowered);
  }
  return MCRTC_ERROR_INTERNAL_ERROR;
}

const char* CallName(Call call) {
  static const char* names[] = {
      "Compile",     "CodeSize",          "Code",
      "BitcodeSize", "Bitcode",           "LogSize",
      "Log",         "AddNameExpression", "LoweredName"};
  return names[static_cast<int>(call)];
}

class ProgramHandle : public ::testing::TestWithParam<Call> {};

TEST_P(ProgramHandle, NullProgramIsInvalidProgram) {
  MX_SPEC("api.rtc.program.invalid-handle-invalid-program");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  EXPECT_EQ(Make(GetParam(), nullptr), MCRTC_ERROR_INVALID_PROGRAM);
}

TEST_P(ProgramHandle, DestroyedProgramIsInvalidProgram) {
  MX_SPEC("api.rtc.program.invalid-handle-invalid-program");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  mcrtcProgram stale = p;
  ASSERT_EQ(mcrtcDestroyProgram(&p), MCRTC_SUCCESS);
  EXPECT_EQ(Make(GetParam(), stale), MCRTC_ERROR_INVALID_PROGRAM);
}

TEST_P(ProgramHandle, LiveProgramIsAccepted) {
  MX_SPEC("api.rtc.program.invalid-handle-invalid-program");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  mcrtcResult result = Make(GetParam(), p);
  EXPECT_NE(result, MCRTC_ERROR_INVALID_PROGRAM) << mcrtcGetErrorString(result);
  mcrtcDestroyProgram(&p);
}

INSTANTIATE_TEST_SUITE_P(EveryCall, ProgramHandle,
                         ::testing::Values(Call::kCompile, Call::kCodeSize,
                                           Call::kCode, Call::kBitcodeSize,
                                           Call::kBitcode, Call::kLogSize,
                                           Call::kLog, Call::kAddName,
                                           Call::kLowered),
                         [](const ::testing::TestParamInfo<Call>& info) {
                           return std::string(CallName(info.param));
                         });

// --- mcrtcDestroyProgram. ---

TEST(McrtcDestroyProgram, NullPointerIsInvalidProgram) {
  MX_SPEC("api.rtc.destroy.null-invalid-program");
  EXPECT_EQ(mcrtcDestroyProgram(nullptr), MCRTC_ERROR_INVALID_PROGRAM);
}

TEST(McrtcDestroyProgram, NullProgramIsInvalidProgram) {
  MX_SPEC("api.rtc.destroy.null-invalid-program");
  mcrtcProgram p = nullptr;
  EXPECT_EQ(mcrtcDestroyProgram(&p), MCRTC_ERROR_INVALID_PROGRAM);
}

TEST(McrtcDestroyProgram, SecondDestroyIsInvalidProgram) {
  MX_SPEC("api.rtc.destroy.null-invalid-program",
          "api.rtc.destroy.releases-program");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  mcrtcProgram copy = p;
  EXPECT_EQ(mcrtcDestroyProgram(&p), MCRTC_SUCCESS);
  EXPECT_EQ(mcrtcDestroyProgram(&copy), MCRTC_ERROR_INVALID_PROGRAM);
}

// --- Output pointers. ---

TEST_F(McrtcArguments, NullCodeSizeIsInvalidInput) {
  MX_SPEC("api.rtc.code.null-invalid-input");
  EXPECT_EQ(mcrtcGetCodeSize(program_, nullptr), MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NullCodeIsInvalidInput) {
  MX_SPEC("api.rtc.code.null-invalid-input");
  EXPECT_EQ(mcrtcGetCode(program_, nullptr), MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NullBitcodeSizeIsInvalidInput) {
  MX_SPEC("api.rtc.code.null-invalid-input");
  EXPECT_EQ(mcrtcGetBitcodeSize(program_, nullptr), MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NullBitcodeIsInvalidInput) {
  MX_SPEC("api.rtc.code.null-invalid-input");
  EXPECT_EQ(mcrtcGetBitcode(program_, nullptr), MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NullLogSizeIsInvalidInput) {
  MX_SPEC("api.rtc.log.null-invalid-input");
  EXPECT_EQ(mcrtcGetProgramLogSize(program_, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NullLogIsInvalidInput) {
  MX_SPEC("api.rtc.log.null-invalid-input");
  EXPECT_EQ(mcrtcGetProgramLog(program_, nullptr), MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, LogBeforeCompilationIsEmpty) {
  MX_SPEC("api.rtc.log.size-includes-terminator");
  size_t size = 0;
  ASSERT_EQ(mcrtcGetProgramLogSize(program_, &size), MCRTC_SUCCESS);
  EXPECT_EQ(size, 1u);
  char log[4] = {'x', 'x', 'x', 'x'};
  ASSERT_EQ(mcrtcGetProgramLog(program_, log), MCRTC_SUCCESS);
  EXPECT_EQ(log[0], '\0');
}

TEST_F(McrtcArguments, CodeBeforeCompilationIsNotAnImage) {
  MX_SPEC("api.rtc.code.before-successful-compile");
  size_t size = 1;
  mcrtcResult result = mcrtcGetCodeSize(program_, &size);
  EXPECT_TRUE(result != MCRTC_SUCCESS || size == 0);
  size = 1;
  result = mcrtcGetBitcodeSize(program_, &size);
  EXPECT_TRUE(result != MCRTC_SUCCESS || size == 0);
}

// --- mcrtcAddNameExpression and mcrtcGetLoweredName. ---

TEST_F(McrtcArguments, NullNameExpressionIsInvalidInput) {
  MX_SPEC("api.rtc.name.add-null-invalid-input");
  EXPECT_EQ(mcrtcAddNameExpression(program_, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
  EXPECT_EQ(mcrtcAddNameExpression(program_, "&k"), MCRTC_SUCCESS);  // control
}

TEST_F(McrtcArguments, LoweredNameBeforeCompilationIsAnError) {
  MX_SPEC("api.rtc.name.lowered-before-compile-error");
  ASSERT_EQ(mcrtcAddNameExpression(program_, "&k"), MCRTC_SUCCESS);
  const char* lowered = nullptr;
  EXPECT_EQ(mcrtcGetLoweredName(program_, "&k", &lowered),
            MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
}

TEST_F(McrtcArguments, LoweredNameWithNullOutputIsInvalidInput) {
  MX_SPEC("api.rtc.name.get-lowered-name");
  EXPECT_EQ(mcrtcGetLoweredName(program_, "&k", nullptr),
            MCRTC_ERROR_INVALID_INPUT);
  const char* lowered = nullptr;
  EXPECT_EQ(mcrtcGetLoweredName(program_, nullptr, &lowered),
            MCRTC_ERROR_INVALID_INPUT);
}

// --- mcrtcCompileProgram's own arguments. ---

TEST_F(McrtcArguments, OptionsNullWithCountIsInvalidInput) {
  MX_SPEC("api.rtc.compile.null-options-invalid-input");
  EXPECT_EQ(mcrtcCompileProgram(program_, 2, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NullOptionEntryIsInvalidInput) {
  MX_SPEC("api.rtc.compile.null-options-invalid-input");
  const char* options[] = {"-O2", nullptr};
  EXPECT_EQ(mcrtcCompileProgram(program_, 2, options),
            MCRTC_ERROR_INVALID_INPUT);
}

TEST_F(McrtcArguments, NegativeOptionCountIsInvalidInput) {
  MX_SPEC("api.rtc.compile.null-options-invalid-input");
  EXPECT_EQ(mcrtcCompileProgram(program_, -1, nullptr),
            MCRTC_ERROR_INVALID_INPUT);
}

// Options mcrtc does not accept: each is refused without compiling, and
// the log names it.
class RejectedOption : public ::testing::TestWithParam<const char*> {};

TEST_P(RejectedOption, IsInvalidOptionNamedInTheLog) {
  MX_SPEC("api.rtc.compile.unknown-option-invalid-option",
          "api.rtc.compile.option-values-checked");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  const char* options[] = {GetParam()};
  EXPECT_EQ(mcrtcCompileProgram(p, 1, options), MCRTC_ERROR_INVALID_OPTION);
  size_t size = 0;
  ASSERT_EQ(mcrtcGetProgramLogSize(p, &size), MCRTC_SUCCESS);
  std::string log(size, '\0');
  ASSERT_EQ(mcrtcGetProgramLog(p, &log[0]), MCRTC_SUCCESS);
  EXPECT_NE(log.find(GetParam()), std::string::npos) << log;
  mcrtcDestroyProgram(&p);
}

INSTANTIATE_TEST_SUITE_P(Options, RejectedOption,
                         ::testing::Values("--frobnicate", "-fno-such-thing",
                                           "-o", "-c", "--offload-arch=sm_80",
                                           "--offload-arch=", "-x c", "-x c++",
                                           "-O4", "-Ofast", "-D", "-U",
                                           "--include-path=", "-I", "--genco",
                                           "-shared", "-lfoo", "-Lsomewhere",
                                           "-std=c++20x", "--std="));

class RejectedStandard : public ::testing::TestWithParam<const char*> {};

TEST_P(RejectedStandard, IsInvalidOption) {
  MX_SPEC("api.rtc.compile.standards");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kSource, "k.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  const char* options[] = {GetParam()};
  EXPECT_EQ(mcrtcCompileProgram(p, 1, options), MCRTC_ERROR_INVALID_OPTION);
  mcrtcDestroyProgram(&p);
}

INSTANTIATE_TEST_SUITE_P(Standards, RejectedStandard,
                         ::testing::Values("-std=c++98", "-std=c++03",
                                           "-std=c++11", "-std=c++14",
                                           "-std=gnu++14", "-std=c++23",
                                           "-std=c11", "-std=c17"));

}  // namespace
