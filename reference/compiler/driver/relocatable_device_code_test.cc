// Copyright mxcts authors.
//
// Tests of the device code carrier and its reader: carriers assembled with
// the host tools, combined by `ld -r`, archived by `ar` (GNU names, long
// names included) and read back byte for byte; a final link drops them;
// damaged files are errors that name the file and member; files that are
// not relocatable objects hold no device code.

#include "reference/compiler/driver/relocatable_device_code.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/driver/process.h"

namespace mxcts::driver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class RelocatableDeviceCodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("rdc-test");
    ASSERT_TRUE(directory.ok()) << directory.status();
    directory_.push_back(std::move(*directory));
  }
  std::string File(const std::string& name) {
    return directory_.front().File(name);
  }
  void Run(const std::vector<std::string>& argv) {
    ProcessOptions options;
    options.capture_stderr = true;
    absl::StatusOr<ProcessResult> result = RunProcess(argv, options);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_TRUE(result->succeeded()) << FormatCommand(argv) << "\n"
                                     << result->stderr_text;
  }
  // An object carrying `payload` as the device code of `symbol`.
  std::string Carrier(const std::string& symbol, const std::string& payload) {
    std::string payload_file = File(symbol + ".bin");
    EXPECT_TRUE(WriteFile(payload_file, payload).ok());
    std::string source = File(symbol + ".s");
    std::string object = File(symbol + ".o");
    EXPECT_TRUE(
        WriteFile(source, DeviceCodeCarrierAssembly(symbol, payload_file))
            .ok());
    Run({"g++", "-c", "-x", "assembler", source, "-o", object});
    return object;
  }
  std::string HostObject(const std::string& name, const std::string& code) {
    std::string source = File(name + ".cc");
    std::string object = File(name + ".o");
    EXPECT_TRUE(WriteFile(source, code).ok());
    Run({"g++", "-c", source, "-o", object});
    return object;
  }

  std::vector<TemporaryDirectory> directory_;
};

// Every byte value, NULs included, at an odd size.
std::string Payload(int seed) {
  std::string bytes;
  for (int i = 0; i < 1000 + seed; ++i) {
    bytes += static_cast<char>((i * 7 + seed) % 256);
  }
  return bytes;
}

std::vector<std::string> Symbols(
    const std::vector<RelocatableDeviceCode>& found) {
  std::vector<std::string> symbols;
  for (const RelocatableDeviceCode& code : found) {
    symbols.push_back(code.image_symbol);
  }
  return symbols;
}

// [api.compile.mxcc.relocatable-device-code]
TEST_F(RelocatableDeviceCodeTest, CombinedObjectKeepsEachSourcesCode) {
  std::string host = HostObject("host", "int host_value = 7;\n");
  std::string a = Carrier("__mc_image_000000000000000a", Payload(1));
  std::string b = Carrier("__mc_image_000000000000000b", Payload(2));
  Run({"ld", "-r", host, a, b, "-o", File("combined.o")});

  absl::StatusOr<std::vector<RelocatableDeviceCode>> found =
      FindRelocatableDeviceCode(File("combined.o"));
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_THAT(Symbols(*found), ElementsAre("__mc_image_000000000000000a",
                                           "__mc_image_000000000000000b"));
  EXPECT_EQ((*found)[0].object, Payload(1));
  EXPECT_EQ((*found)[1].object, Payload(2));
  EXPECT_EQ((*found)[0].origin, File("combined.o"));
}

TEST_F(RelocatableDeviceCodeTest, ArchiveMembersAreNamed) {
  std::string short_name = Carrier("__mc_image_00000000000000c1", Payload(3));
  // A member name longer than 15 characters goes to the "//" table.
  std::string long_name = File("a_member_with_a_long_name.o");
  Run({"ld", "-r", Carrier("__mc_image_00000000000000c2", Payload(4)),
       HostObject("plain", "int f() { return 1; }\n"), "-o", long_name});
  std::string archive = File("libkernels.a");
  Run({"ar", "rcs", archive, short_name, long_name,
       HostObject("no_device_code", "int g() { return 2; }\n")});

  absl::StatusOr<std::vector<RelocatableDeviceCode>> found =
      FindRelocatableDeviceCode(archive);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_THAT(Symbols(*found), ElementsAre("__mc_image_00000000000000c1",
                                           "__mc_image_00000000000000c2"));
  EXPECT_EQ((*found)[0].object, Payload(3));
  EXPECT_EQ((*found)[1].object, Payload(4));
  EXPECT_EQ((*found)[0].origin, archive + "(__mc_image_00000000000000c1.o)");
  EXPECT_EQ((*found)[1].origin, archive + "(a_member_with_a_long_name.o)");
}

// SHF_EXCLUDE: the device code never reaches a linked program.
TEST_F(RelocatableDeviceCodeTest, FinalLinkDropsTheCode) {
  std::string main_object = HostObject("main", "int main() { return 0; }\n");
  std::string carrier = Carrier("__mc_image_00000000000000d0", Payload(5));
  Run({"ld", "-r", main_object, carrier, "-o", File("main_rdc.o")});
  Run({"g++", File("main_rdc.o"), "-o", File("program")});
  absl::StatusOr<std::vector<RelocatableDeviceCode>> found =
      FindRelocatableDeviceCode(File("program"));
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_THAT(*found, IsEmpty());
  // Control: the same object before the link has it.
  found = FindRelocatableDeviceCode(File("main_rdc.o"));
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_THAT(Symbols(*found), ElementsAre("__mc_image_00000000000000d0"));
}

TEST_F(RelocatableDeviceCodeTest, OtherFilesHoldNone) {
  for (const char* text : {"", "INPUT(-lc)\n", "!<ar",
                           "\x7f"
                           "ELF"}) {
    absl::StatusOr<std::vector<RelocatableDeviceCode>> found =
        ParseRelocatableDeviceCode(text, "x");
    ASSERT_TRUE(found.ok()) << text << ": " << found.status();
    EXPECT_THAT(*found, IsEmpty()) << text;
  }
}

TEST_F(RelocatableDeviceCodeTest, DamagedFilesNameFileAndMember) {
  std::string carrier = Carrier("__mc_image_00000000000000e0", Payload(6));
  absl::StatusOr<std::string> bytes = ReadFile(carrier);
  ASSERT_TRUE(bytes.ok());

  // Cut inside the section header table, at the end of the file.
  std::string truncated = bytes->substr(0, bytes->size() - 40);
  absl::StatusOr<std::vector<RelocatableDeviceCode>> found =
      ParseRelocatableDeviceCode(truncated, "cut.o");
  ASSERT_FALSE(found.ok());
  EXPECT_THAT(std::string(found.status().message()),
              HasSubstr("cut.o: truncated ELF section header table"));

  std::string archive = File("libcut.a");
  Run({"ar", "rcs", archive, carrier});
  absl::StatusOr<std::string> archive_bytes = ReadFile(archive);
  ASSERT_TRUE(archive_bytes.ok());
  found = ParseRelocatableDeviceCode(
      archive_bytes->substr(0, archive_bytes->size() - 100), "libcut.a");
  ASSERT_FALSE(found.ok());
  EXPECT_THAT(std::string(found.status().message()),
              HasSubstr("libcut.a: an archive member extends past the end"));

  found = ParseRelocatableDeviceCode("!<thin>\n", "libthin.a");
  ASSERT_FALSE(found.ok());
  EXPECT_THAT(std::string(found.status().message()),
              HasSubstr("libthin.a: thin archives are not read"));

  found = FindRelocatableDeviceCode(File("missing.o"));
  ASSERT_FALSE(found.ok());
  EXPECT_THAT(std::string(found.status().message()), HasSubstr("missing.o"));
}

}  // namespace
}  // namespace mxcts::driver
