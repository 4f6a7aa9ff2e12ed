// Copyright mxcts authors.
//
// Whole-translation properties of Translate(): the output keeps the input's
// lines (newlines and line markers stay where they were, also inside
// replaced text), re-lexes cleanly, never merges tokens, leaves plain C++
// and unparsable text alone, and the declaration scanner finds
// declarations in namespaces, linkage blocks and classes.

#include "reference/compiler/translator/translator.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

// Rewrite 4's error attribute for a __device__ function `f` of the user's
// files [lang.function.call.host-calls-device-only].
const std::string kHostCallError =
    "__noinline__, __error__(\"'f' is a __device__ function: host code cannot "
    "call it "
    "[lang.function.call.host-calls-device-only]\")";

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kProgram[] =
    "# 0 \"a.cu\"\n"
    "# 1 \"/usr/include/stdio.h\" 1 3 4\n"
    "extern \"C\" int printf(const char*, ...);\n"
    "# 2 \"a.cu\" 2\n"
    "__global__ void k(float* p,\n"
    "                  int n) {\n"
    "  __shared__ float s[64];\n"
    "# 90 \"a.cu\"\n"
    "  if (n) p[0] = s[0];\n"
    "}\n"
    "__device__ int d(int x)\n"
    "{\n"
    "  return x;\n"
    "}\n"
    "int main() {\n"
    "  k<<<1,\n"
    "      64>>>(nullptr,\n"
    "            3); printf(\"%d\\n\", 1);\n"
    "}\n";

// The lines of `text` that start with `#`.
std::vector<std::string> DirectiveLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  int number = 1;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line[0] == '#') {
      lines.push_back(std::to_string(number) + ":" + line);
    }
    start = end + 1;
    ++number;
  }
  return lines;
}

TEST(TranslatorTest, HostPassKeepsLineCountAndMarkers) {
  Translation t = TranslateHost(kProgram);
  EXPECT_THAT(Messages(t), IsEmpty());
  EXPECT_EQ(CountLines(t.text), CountLines(kProgram));
  EXPECT_EQ(DirectiveLines(t.text), DirectiveLines(kProgram));
}

TEST(TranslatorTest, DevicePassKeepsLineCountAndMarkers) {
  Translation t = TranslateDevice(kProgram);
  EXPECT_THAT(Messages(t), IsEmpty());
  EXPECT_EQ(CountLines(t.text), CountLines(kProgram));
  EXPECT_EQ(DirectiveLines(t.text), DirectiveLines(kProgram));
}

TEST(TranslatorTest, TextAfterRewritesStaysOnItsLine) {
  Translation t = TranslateHost(kProgram);
  // `printf` is on line 18 of the input; it must be on line 18 of the output.
  size_t line_start = 0;
  for (int line = 1; line < 18; ++line) {
    line_start = t.text.find('\n', line_start) + 1;
  }
  std::string line18 =
      t.text.substr(line_start, t.text.find('\n', line_start) - line_start);
  EXPECT_THAT(line18, HasSubstr("printf"));
  EXPECT_THAT(line18, HasSubstr("3)"));
}

TEST(TranslatorTest, OutputRelexesCleanly) {
  EXPECT_TRUE(LexesCleanly(kProgram));
  EXPECT_TRUE(LexesCleanly(TranslateHost(kProgram).text));
  EXPECT_TRUE(LexesCleanly(TranslateDevice(kProgram).text));
  // The control: the check can fail.
  EXPECT_FALSE(LexesCleanly("\"unterminated\n"));
}

TEST(TranslatorTest, RemovedQualifierNeverJoinsTokens) {
  Translation t = TranslateHost("int a = 1 +__device__+ 2;");
  EXPECT_EQ(Tokens(t.text), Tokens("int a = 1 + + 2;"));
}

TEST(TranslatorTest, PlainCppIsUnchanged) {
  std::string source =
      "#include <x>\n"
      "template <class T> struct V { T v[3]; };\n"
      "int f(V<V<int>> x) { return 1 << 2 >> 1; }\n";
  Translation t = TranslateHost(source);
  EXPECT_EQ(t.text, source);
  EXPECT_FALSE(t.needs_image);
  EXPECT_TRUE(t.ok());
  EXPECT_EQ(TranslateDevice("int x = 1;\n").text, "int x = 1;\n");
}

// [api.compile.mxcc.relocatable-device-code] The driver names these when
// the device link cannot find them; a name defined in the source, or only
// declared in a system header, is not one of them.
TEST(TranslatorTest, ReportsDeviceDeclarationsWithoutDefinition) {
  std::string source =
      "__device__ int scale(int);\n"
      "extern __device__ int counter;\n"
      "extern __constant__ float table[4], other[2];\n"
      "__host__ __device__ int both(int);\n"
      "__device__ int later(int);\n"
      "__device__ int later(int x) { return x; }\n"
      "extern __device__ int defined_below;\n"
      "__device__ int defined_below = 1;\n"
      "int host_only(int);\n"
      "extern int host_variable;\n"
      "__global__ void k(int* p) { p[0] = scale(counter); }\n";
  for (const Translation& t :
       {TranslateHost(source), TranslateDevice(source)}) {
    EXPECT_EQ(
        t.device_declarations_without_definition,
        (std::set<std::string>{"both", "counter", "other", "scale", "table"}));
  }
  std::string system_header =
      "# 1 \"/usr/include/x.h\" 1 3 4\n"
      "__device__ int from_header(int);\n"
      "# 2 \"a.cu\" 2\n";
  EXPECT_THAT(
      TranslateDevice(system_header).device_declarations_without_definition,
      IsEmpty());
}

TEST(TranslatorTest, EmptyInput) {
  Translation t = TranslateHost("");
  EXPECT_EQ(t.text, "");
  EXPECT_THAT(t.diagnostics, IsEmpty());
}

TEST(TranslatorTest, UnbalancedInputIsCopiedAndQualifiersGo) {
  Translation t = TranslateHost("__global__ void k( {\n} ) ]\n");
  EXPECT_EQ(CountLines(t.text), 2);
  EXPECT_THAT(t.text, Not(HasSubstr("__global__")));
}

TEST(TranslatorTest, KernelsInsideLinkageBlockAndNamespaces) {
  std::string out =
      Tokens(TranslateHost("extern \"C\" { namespace a { inline namespace "
                           "b { __global__ void k(int x) {} } } }")
                 .text);
  EXPECT_THAT(out, HasSubstr("LaunchFromStub"));
}

TEST(TranslatorTest, KernelAfterClassWithMemberFunctions) {
  std::string out =
      Tokens(TranslateHost("struct S : B<int> { S() : a(1), b{2} {} int "
                           "a, b; int f() { return 1; } };\n"
                           "__global__ void k(S s) {}")
                 .text);
  EXPECT_THAT(out, HasSubstr("static_cast < void ( * ) ( S s ) > ( & k )"));
}

TEST(TranslatorTest, LambdaInInitializerIsNoFunction) {
  std::string out = Tokens(TranslateDevice("auto l = [](int x) { return x; };\n"
                                           "int f() { return l(1); }")
                               .text);
  EXPECT_THAT(out, HasSubstr(Tokens("auto l = [](int x) { return x; };")));
  EXPECT_THAT(out, HasSubstr("__mc_host_f_"));
}

TEST(TranslatorTest, FunctionTryBlockBodyIsReplacedWhole) {
  std::string out =
      Tokens(TranslateHost("__device__ int f() try { return 1; } catch (...) { "
                           "return 0; }")
                 .text);
  EXPECT_EQ(out, Tokens("__attribute__((__unused__, " + kHostCallError +
                        ")) int f() { "
                        "__builtin_trap(); }"));
}

TEST(TranslatorTest, ReplacedBodyKeepsInnerLineMarker) {
  Translation t = TranslateHost(
      "__device__ int f() {\n# 50 \"a.cu\"\n  return 1;\n}\nint x;\n");
  EXPECT_EQ(t.text, "__attribute__((__unused__, " + kHostCallError +
                        "))  int f() { __builtin_trap(); }\n"
                        "# 50 \"a.cu\"\n\n\nint x;\n");
}

TEST(TranslatorTest, ReplacedBodyTakesItsPragmasAlong) {
  Translation t = TranslateHost(
      "__device__ void f() {\n#pragma unroll\n  for (;;) {}\n}\n");
  EXPECT_EQ(t.text, "__attribute__((__unused__, " + kHostCallError +
                        "))  void f() { __builtin_trap(); }\n\n\n\n");
  EXPECT_EQ(TranslateDevice("__device__ void f() {\n#pragma unroll\n}\n").text,
            " void f() {\n#pragma unroll\n}\n");
}

TEST(TranslatorTest, SystemHeaderCodeIsLeftAlone) {
  // A system header's declarations give names but are never rewritten.
  std::string source =
      "# 1 \"/usr/include/s.h\" 1 3 4\n"
      "namespace std { template <class... A> int g(A... a) { return 0; } }\n"
      "# 2 \"a.cu\" 2\n";
  Translation t = TranslateDevice(source);
  EXPECT_EQ(t.text, source);
}

}  // namespace
}  // namespace mxcts::compiler::testing
