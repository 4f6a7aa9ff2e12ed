// Copyright mxcts authors.
//
// Tests of the image symbol and the embed object: the hash (against the
// published FNV-1a test vectors), the symbol's shape, and an embed object
// assembled, linked into a program and read back by it byte for byte.

#include "reference/compiler/driver/embed.h"

#include <cstddef>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/launch_abi.h"
#include "reference/compiler/driver/process.h"

namespace mxcts::driver {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

// The generated program below mirrors __mc_internal::ImageBlob, which the
// assembly lays out as two 8-byte words.
static_assert(sizeof(__mc_internal::ImageBlob) == 16);
static_assert(offsetof(__mc_internal::ImageBlob, bytes) == 0);
static_assert(offsetof(__mc_internal::ImageBlob, size) == 8);

TEST(Fnv1aTest, PublishedVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
  // Continuing a hash equals hashing the concatenation.
  EXPECT_EQ(Fnv1a64("bar", Fnv1a64("foo")), Fnv1a64("foobar"));
}

TEST(ImageSymbolTest, ShapeAndStability) {
  std::string symbol = ImageSymbol("/src/a.cu", "/out/a.o", "int x;\n");
  EXPECT_THAT(symbol, MatchesRegex("__mc_image_[0-9a-f]{16}"));
  EXPECT_EQ(symbol, ImageSymbol("/src/a.cu", "/out/a.o", "int x;\n"));
}

TEST(ImageSymbolTest, EachPartChangesIt) {
  std::string base = ImageSymbol("/src/a.cu", "/out/a.o", "text");
  EXPECT_NE(base, ImageSymbol("/src/b.cu", "/out/a.o", "text"));
  EXPECT_NE(base, ImageSymbol("/src/a.cu", "/out/b.o", "text"));
  EXPECT_NE(base, ImageSymbol("/src/a.cu", "/out/a.o", "text2"));
  // Moving characters across the boundary of two parts changes it too.
  EXPECT_NE(ImageSymbol("/a", "b", "t"), ImageSymbol("/ab", "", "t"));
}

TEST(EmbedAssemblyTest, DeclaresAHiddenGlobalDescriptor) {
  std::string text = EmbedAssembly("__mc_image_0123456789abcdef", "/x/i.so");
  EXPECT_THAT(text, HasSubstr(".incbin \"/x/i.so\""));
  EXPECT_THAT(text, HasSubstr(".globl __mc_image_0123456789abcdef"));
  EXPECT_THAT(text, HasSubstr(".hidden __mc_image_0123456789abcdef"));
  EXPECT_THAT(text, HasSubstr(".note.GNU-stack"));
  // Quotes and backslashes in the path are escaped for the assembler.
  EXPECT_THAT(EmbedAssembly("s", "/a\"b\\c"), HasSubstr("\"/a\\\"b\\\\c\""));
}

class EmbedObjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("embed-test");
    ASSERT_TRUE(directory.ok()) << directory.status();
    directory_.push_back(std::move(*directory));
  }
  std::string File(const std::string& name) {
    return directory_.front().File(name);
  }
  // Runs a tool; returns its stdout, or fails the test with its stderr.
  std::string Run(const std::vector<std::string>& argv) {
    ProcessOptions options;
    options.capture_stdout = true;
    options.capture_stderr = true;
    absl::StatusOr<ProcessResult> result = RunProcess(argv, options);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) return "";
    EXPECT_TRUE(result->succeeded()) << FormatCommand(argv) << "\n"
                                     << result->stderr_text;
    return result->stdout_text;
  }

  std::vector<TemporaryDirectory> directory_;
};

constexpr char kSymbol[] = "__mc_image_00000000feedf00d";

// A program that checks that the descriptor covers exactly the bytes of the
// file named by argv[1].
constexpr char kReader[] = R"(
#include <stdio.h>
#include <string.h>
struct Blob { const unsigned char* bytes; unsigned long size; };
extern "C" const Blob __mc_image_00000000feedf00d;
int main(int argc, char** argv) {
  static unsigned char expected[1 << 20];
  FILE* f = fopen(argv[1], "rb");
  unsigned long n = fread(expected, 1, sizeof(expected), f);
  const Blob& blob = __mc_image_00000000feedf00d;
  if (blob.size != n) { printf("size %lu != %lu\n", blob.size, n); return 1; }
  if (memcmp(blob.bytes, expected, n) != 0) { printf("bytes differ\n"); return 1; }
  if (reinterpret_cast<unsigned long>(blob.bytes) % 16 != 0) { printf("misaligned\n"); return 1; }
  printf("ok %lu\n", n);
  return 0;
}
)";

TEST_F(EmbedObjectTest, ProgramReadsBackTheImageBytes) {
  // An "image" with every byte value, NULs included, and an odd size.
  std::string image;
  for (int i = 0; i < 3 * 256 + 7; ++i) image += static_cast<char>(i % 256);
  ASSERT_TRUE(WriteFile(File("image.so"), image).ok());
  ASSERT_TRUE(
      WriteFile(File("embed.s"), EmbedAssembly(kSymbol, File("image.so")))
          .ok());
  ASSERT_TRUE(WriteFile(File("reader.cc"), kReader).ok());
  Run({"g++", "-c", "-x", "assembler", File("embed.s"), "-o", File("embed.o")});

  // The symbol is global, hidden, 16 bytes, in relocated read-only data.
  std::string symbols = Run({"readelf", "-sW", File("embed.o")});
  EXPECT_THAT(symbols, MatchesRegex(std::string("(.|\n)*16 OBJECT +GLOBAL "
                                                "+HIDDEN .* ") +
                                    kSymbol + "\n(.|\n)*"));
  EXPECT_THAT(Run({"nm", File("embed.o")}),
              HasSubstr(std::string("D ") + kSymbol));

  for (const char* pie : {"-pie", "-no-pie"}) {
    SCOPED_TRACE(pie);
    Run({"g++", pie, File("reader.cc"), File("embed.o"), "-o", File("reader")});
    EXPECT_EQ(Run({File("reader"), File("image.so")}),
              "ok " + std::to_string(image.size()) + "\n");
  }
}

TEST_F(EmbedObjectTest, ControlAReaderOfOtherBytesFails) {
  ASSERT_TRUE(WriteFile(File("image.so"), "abc").ok());
  ASSERT_TRUE(WriteFile(File("other"), "abd").ok());
  ASSERT_TRUE(
      WriteFile(File("embed.s"), EmbedAssembly(kSymbol, File("image.so")))
          .ok());
  ASSERT_TRUE(WriteFile(File("reader.cc"), kReader).ok());
  Run({"g++", "-c", "-x", "assembler", File("embed.s"), "-o", File("embed.o")});
  Run({"g++", File("reader.cc"), File("embed.o"), "-o", File("reader")});
  absl::StatusOr<ProcessResult> result = RunProcess(
      {File("reader"), File("other")}, ProcessOptions{true, true, {}});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->exit_code, 1);
  EXPECT_EQ(result->stdout_text, "bytes differ\n");
}

TEST_F(EmbedObjectTest, HiddenSymbolIsNotExportedFromASharedLibrary) {
  ASSERT_TRUE(WriteFile(File("image.so"), "abc").ok());
  ASSERT_TRUE(
      WriteFile(File("embed.s"), EmbedAssembly(kSymbol, File("image.so")))
          .ok());
  Run({"g++", "-c", "-x", "assembler", File("embed.s"), "-o", File("embed.o")});
  Run({"g++", "-shared", File("embed.o"), "-o", File("lib.so")});
  EXPECT_THAT(Run({"nm", "-D", File("lib.so")}),
              ::testing::Not(HasSubstr(kSymbol)));
  // Control: the full symbol table still has it, as a local symbol.
  EXPECT_THAT(Run({"nm", File("lib.so")}),
              HasSubstr(std::string("d ") + kSymbol));
}

// [api.compile.mxcc.relocatable-device-code] Every source of a device link
// finds the one linked image under its own symbol.
TEST_F(EmbedObjectTest, AliasesNameTheSameDescriptor) {
  ASSERT_TRUE(WriteFile(File("image.so"), "linked image").ok());
  ASSERT_TRUE(WriteFile(File("embed.s"),
                        EmbedAssembly(kSymbol, File("image.so"),
                                      {kSymbol, "__mc_image_000000000000000a",
                                       "__mc_image_000000000000000b"}))
                  .ok());
  ASSERT_TRUE(WriteFile(File("aliases.cc"), R"(
#include <stdio.h>
struct Blob { const char* bytes; unsigned long size; };
extern "C" const Blob __mc_image_00000000feedf00d, __mc_image_000000000000000a,
    __mc_image_000000000000000b;
int main() {
  const Blob* a = &__mc_image_000000000000000a;
  const Blob* b = &__mc_image_000000000000000b;
  printf("%d %d %.*s\n", a == &__mc_image_00000000feedf00d, a == b,
         (int)a->size, a->bytes);
  return 0;
}
)")
                  .ok());
  Run({"g++", "-c", "-x", "assembler", File("embed.s"), "-o", File("embed.o")});
  Run({"g++", File("aliases.cc"), File("embed.o"), "-o", File("aliases")});
  EXPECT_EQ(Run({File("aliases")}), "1 1 linked image\n");
  // Each alias is hidden too, and the primary symbol is not repeated.
  std::string symbols = Run({"readelf", "-sW", File("embed.o")});
  EXPECT_THAT(symbols, MatchesRegex("(.|\n)*GLOBAL +HIDDEN .* "
                                    "__mc_image_000000000000000b\n(.|\n)*"));
  EXPECT_EQ(EmbedAssembly(kSymbol, File("image.so"), {kSymbol}),
            EmbedAssembly(kSymbol, File("image.so")));
}

TEST(ImageArchsAssemblyTest, ExportsTheCountThenEachArchitecture) {
  const std::string text = ImageArchsAssembly({1000, 1100});
  EXPECT_NE(text.find(".globl __mcdev___mc_image_archs"), std::string::npos);
  EXPECT_NE(text.find("\t.long 2\n\t.long 1000\n\t.long 1100\n"),
            std::string::npos);
  EXPECT_NE(text.find(".size __mcdev___mc_image_archs, 12"), std::string::npos);
}

}  // namespace
}  // namespace mxcts::driver
