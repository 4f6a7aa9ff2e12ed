// Tests of the conformance lint: each rule firing on a broken test and
// quiet on its control, helpers seen through includes, and the lexer.
#include "tools/test_lint/test_lint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::test_lint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<std::string> Lines(const std::vector<SourceFile>& files) {
  std::vector<std::string> lines;
  for (const Violation& v : Lint(files, {"support/"})) {
    lines.push_back(v.ToString());
  }
  return lines;
}

std::vector<std::string> LintOne(const std::string& text) {
  return Lines({{"c/x_test.cc", text}});
}

TEST(Clause, TestWithoutMxSpecFails) {
  EXPECT_THAT(LintOne("TEST(S, N) {\n  EXPECT_TRUE(true);\n}\n"),
              ElementsAre(HasSubstr("c/x_test.cc:1: [clause] test S.N "
                                    "names no spec clause")));
}

TEST(Clause, TestWithMxSpecPasses) {
  EXPECT_THAT(LintOne("TEST(S, N) {\n  MX_SPEC(\"a.b\");\n"
                      "  EXPECT_TRUE(true);\n}\n"),
              IsEmpty());
}

TEST(Clause, CommentedOutMxSpecNamesNothing) {
  EXPECT_THAT(LintOne("TEST_F(S, N) {\n  // MX_SPEC(\"a.b\");\n"
                      "  EXPECT_TRUE(true);\n}\n"),
              ElementsAre(HasSubstr("[clause]")));
}

TEST(Clause, ExcludedSourcesAreNotLinted) {
  EXPECT_THAT(Lines({{"support/x_test.cc", "TEST(S, N) {}\n"}}), IsEmpty());
}

TEST(Assertion, BodyWithoutAssertionFails) {
  EXPECT_THAT(
      LintOne("void Run() {}\nTEST_P(S, N) {\n  MX_SPEC(\"a.b\");\n"
              "  Run();\n}\n"),
      ElementsAre(HasSubstr("c/x_test.cc:2: [assertion] test S.N asserts "
                            "nothing")));
}

TEST(Assertion, EachAssertionFormPasses) {
  for (const std::string assertion :
       {"EXPECT_EQ(1, 1);", "ASSERT_TRUE(x);", "MX_EXPECT_NO_TRAP(f());",
        "MX_EXPECT_IN_FRESH_PROCESS(g());", "FAIL() << 1;", "ADD_FAILURE();",
        "EXPECT_NO_FATAL_FAILURE(run.fn());"}) {
    EXPECT_THAT(
        LintOne("TEST(S, N) {\n  MX_SPEC(\"a.b\");\n  " + assertion + "\n}\n"),
        IsEmpty())
        << assertion;
  }
}

TEST(Assertion, AssertionInAStringOrCommentDoesNotCount) {
  EXPECT_THAT(LintOne("TEST(S, N) {\n  MX_SPEC(\"a.b\");\n"
                      "  Log(\"EXPECT_EQ(1, 1)\");  // EXPECT_TRUE(x)\n"
                      "  const char* s = R\"(ASSERT_TRUE(y) })\";\n}\n"),
              ElementsAre(HasSubstr("[assertion]")));
}

TEST(Assertion, HelperThatAssertsCountsAtAnyDepth) {
  EXPECT_THAT(LintOne("template <class T>\nvoid Check(T x) const noexcept {\n"
                      "  EXPECT_EQ(x, 1);\n}\nvoid Outer() { Check<int>(1); }\n"
                      "#define RUN_ALL() Outer()\n"
                      "TEST(S, N) {\n  MX_SPEC(\"a.b\");\n  RUN_ALL();\n}\n"),
              IsEmpty());
}

TEST(Assertion, LambdaAndMethodHelpersCount) {
  EXPECT_THAT(LintOne("class F : public testing::Test {\n protected:\n"
                      "  void Verify() { ASSERT_TRUE(ok_); }\n};\n"
                      "TEST_F(F, N) {\n  MX_SPEC(\"a.b\");\n"
                      "  auto check = [&](int v) { EXPECT_GT(v, 0); };\n"
                      "  Verify();\n}\n"),
              IsEmpty());
}

TEST(Assertion, LambdaOfTheFileCounts) {
  EXPECT_THAT(LintOne("const auto kCheck = [](int v) mutable -> void {\n"
                      "  EXPECT_GT(v, 0);\n};\n"
                      "auto kQuiet = [] { Log(1); };\n"
                      "TEST(S, N) {\n  MX_SPEC(\"a.b\");\n  kCheck(1);\n}\n"
                      "TEST(S, M) {\n  MX_SPEC(\"a.b\");\n  kQuiet();\n}\n"),
              ElementsAre(HasSubstr(":9: [assertion] test S.M")));
}

TEST(Assertion, HelperOfAnIncludedHeaderCounts) {
  EXPECT_THAT(
      Lines({{"c/x_test.cc",
              "#include \"c/helpers.h\"\n"
              "TEST(S, N) {\n  MX_SPEC(\"a.b\");\n  ExpectGood();\n}\n"},
             {"c/helpers.h",
              "#include \"more.h\"\n"
              "inline void ExpectGood() { Deeper(); }\n"},
             {"c/more.h", "inline void Deeper() { EXPECT_TRUE(1); }\n"}}),
      IsEmpty());
}

TEST(Assertion, HelperOfAHeaderNotIncludedDoesNotCount) {
  EXPECT_THAT(
      Lines(
          {{"c/x_test.cc",
            "TEST(S, N) {\n  MX_SPEC(\"a.b\");\n  ExpectGood();\n}\n"},
           {"c/helpers.h", "inline void ExpectGood() { EXPECT_TRUE(1); }\n"}}),
      ElementsAre(HasSubstr("[assertion]")));
}

constexpr char kTrapHelpers[] =
    "mcError_t Launch(bool bad) { return Run(bad); }\n";

TEST(TrapControl, TrapTestWithoutControlFails) {
  EXPECT_THAT(
      LintOne(std::string(kTrapHelpers) +
              "TEST(T, Traps) {\n  MX_SPEC(\"ub.x\", \"trap.y\");\n"
              "  MX_EXPECT_TRAP(Launch(true), mcErrorAssert, \"p\");\n}\n"
              "TEST(T, Other) {\n  MX_SPEC(\"z\");\n"
              "  MX_EXPECT_NO_TRAP(Launch(false));\n}\n"),
      ElementsAre(HasSubstr("c/x_test.cc:2: [trap-control] trap test "
                            "T.Traps has no legal control")));
}

TEST(TrapControl, AnotherTrapTestIsNoControl) {
  EXPECT_THAT(
      LintOne("TEST(T, A) {\n  MX_SPEC(\"ub.x\");\n"
              "  MX_EXPECT_TRAP(Launch(true), mcErrorAssert, \"p\");\n}\n"
              "TEST(T, B) {\n  MX_SPEC(\"ub.x\");\n"
              "  MX_EXPECT_TRAP(Launch(true), mcErrorAssert, \"q\");\n}\n"),
      ElementsAre(HasSubstr(":1: [trap-control]"),
                  HasSubstr(":5: [trap-control]")));
}

TEST(TrapControl, NonTrapTestOfASharedClauseIsTheControl) {
  EXPECT_THAT(
      LintOne(std::string(kTrapHelpers) +
              "TEST(T, Traps) {\n  MX_SPEC(\"ub.x\", \"trap.y\");\n"
              "  MX_EXPECT_TRAP(Launch(true), mcErrorAssert, \"p\");\n}\n"
              "TEST(T, Control) {\n  MX_SPEC(\"ub.x\");\n"
              "  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(Launch(false) == 0);\n}\n"),
      IsEmpty());
}

TEST(TrapControl, NoTrapInTheSameTestIsTheControl) {
  EXPECT_THAT(LintOne("TEST(T, Traps) {\n  MX_SPEC(\"ub.x\");\n"
                      "  MX_EXPECT_NO_TRAP(Launch(false));\n"
                      "  MX_EXPECT_TRAP(Launch(true), mcErrorAssert, \"p\");\n"
                      "}\n"),
              IsEmpty());
}

TEST(TrapControl, TrapThroughAHelperIsATrapTest) {
  EXPECT_THAT(
      LintOne("void ExpectTraps() {\n"
              "  MX_EXPECT_TRAP(Launch(true), mcErrorAssert, \"p\");\n}\n"
              "TEST(T, Traps) {\n  MX_SPEC(\"ub.x\");\n  ExpectTraps();\n}\n"),
      ElementsAre(HasSubstr(":4: [trap-control]")));
}

std::vector<std::string> LintBuild(const std::string& build,
                                   const std::string& control_text = "int x;") {
  return Lines({{"p/BUILD", build},
                {"p/bad.cu", "int x = ;"},
                {"p/good.cu", control_text}});
}

TEST(CompileControl, ControlBesideTheSourcePasses) {
  EXPECT_THAT(LintBuild("conformance_compile_fail_test(\n"
                        "    name = \"t\",\n    src = \"bad.cu\",\n"
                        "    control = \"good.cu\",\n"
                        "    error_pattern = \"x (y)\",\n"
                        "    spec = [\"a.b\"],\n)\n"),
              IsEmpty());
}

TEST(CompileControl, MissingControlFails) {
  EXPECT_THAT(LintBuild("# a comment (\nconformance_compile_fail_test(\n"
                        "    name = \"t\",\n    src = \"bad.cu\",\n"
                        "    spec = [\"a.b\"],\n)\n"),
              ElementsAre("p/BUILD:2: [compile-control] must-not-compile "
                          "test t has no `control` source that compiles"));
}

TEST(CompileControl, RejectedSourceAsControlFails) {
  const std::string self =
      "mxmaca_compile_fail_test(name = \"t\", src = \"bad.cu\", "
      "control = \"bad.cu\", spec = [\"a.b\"])\n";
  EXPECT_THAT(LintBuild(self),
              ElementsAre(HasSubstr("uses its rejected source 'bad.cu'")));
  const std::string crossed =
      "conformance_compile_fail_test(name = \"t\", src = \"bad.cu\", "
      "control = \"good.cu\", spec = [\"a.b\"])\n"
      "conformance_compile_fail_test(name = \"u\", src = \"good.cu\", "
      "control = \"bad.cu\", spec = [\"a.b\"])\n";
  EXPECT_THAT(LintBuild(crossed),
              ElementsAre(HasSubstr("test t has control 'good.cu', which a "
                                    "must-not-compile test of this package "
                                    "rejects"),
                          HasSubstr("test u has control 'bad.cu', which")));
}

TEST(CompileControl, ControlThatIsNoFileOrHoldsNoCodeFails) {
  EXPECT_THAT(LintBuild("conformance_compile_fail_test(name = \"t\", "
                        "src = \"bad.cu\", control = \"gone.cu\", "
                        "spec = [\"a.b\"])\n"),
              ElementsAre(HasSubstr("'gone.cu', which is not a file of its "
                                    "package")));
  EXPECT_THAT(LintBuild("conformance_compile_fail_test(name = \"t\", "
                        "src = \"bad.cu\", control = \":good.cu\", "
                        "spec = [\"a.b\"])\n",
                        "// only a comment\n"),
              ElementsAre(HasSubstr("which holds no code")));
}

TEST(CompileControl, ComputedControlFails) {
  EXPECT_THAT(LintBuild("conformance_compile_fail_test(name = \"t\", "
                        "src = \"bad.cu\", control = CONTROL, "
                        "spec = [\"a.b\"])\n"),
              ElementsAre(HasSubstr("not a plain string")));
}

TEST(CompileControl, EmptySpecIsAClauseViolation) {
  EXPECT_THAT(LintBuild("conformance_compile_fail_test(name = \"t\", "
                        "src = \"bad.cu\", control = \"good.cu\", "
                        "spec = [])\n"),
              ElementsAre(HasSubstr("[clause] must-not-compile test t names "
                                    "no spec clause")));
}

TEST(Lexer, BlanksCommentsAndLiteralsKeepingOffsets) {
  const std::string source =
      "a(\"x)\", 'y', 1'000); // c\n/* d\n*/ R\"t(q\"u)t\" b";
  const std::string blanked = BlankOutCommentsAndLiterals(source);
  ASSERT_EQ(blanked.size(), source.size());
  EXPECT_EQ(blanked, "a(\"  \", ' ', 1'000);     \n    \n   R\"       \" b");
}

}  // namespace
}  // namespace mxcts::test_lint
