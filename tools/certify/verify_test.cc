// Copyright mxcts authors.
//
// The verifier on fake packages and result folders: a clean run certifies,
// and each way a run can fall short (a tampered hash, a missing mustpass
// target, an unexpected failure, an expectation outside the manifest) is a
// control that does not.

#include "tools/certify/verify.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/runtime/binary_cache/sha256.h"
#include "tools/spec/file_io.h"

namespace mxcts::certify {
namespace {

using ::mxcts::runtime::Sha256;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kManifest[] =
    "device_count 1\nwave_size 32\ngraphs yes\nipc no\n";

constexpr char kPassingXml[] = R"(<?xml version="1.0"?>
<testsuites><testsuite name="S">
<testcase name="A" classname="S"/>
<testcase name="Known" classname="S" expectation="known failure: the warp is 32 lanes"><failure message="32 vs 64"/></testcase>
<testcase name="Skipped" classname="S"><skipped message="unsupported: no peer access"/></testcase>
</testsuite></testsuites>
)";

constexpr char kGraphXml[] = R"(<?xml version="1.0"?>
<testsuites><testsuite name="G">
<testcase name="A" classname="G"/>
</testsuite></testsuites>
)";

constexpr char kStream[] = "//conformance/api/stream/execution:s_test";
constexpr char kGraph[] = "//conformance/api/graph/explicit:g_test";
constexpr char kStreamBinary[] = "conformance_api_stream_execution__s_test";
constexpr char kGraphBinary[] = "conformance_api_graph_explicit__g_test";

// A package as `certify build` writes it and the results its run brought
// back, in the test's scratch space; Seal() writes the hash lists.
class Verifier : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::string(std::getenv("TEST_TMPDIR")) + "/" +
            testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    package_ = root_ + "/package";
    results_ = root_ + "/results";
    std::filesystem::create_directories(package_ + "/bin");
    std::filesystem::create_directories(results_);
    package_files_ = {
        {"bin/" + std::string(kStreamBinary), "stream binary"},
        {"bin/" + std::string(kGraphBinary), "graph binary"},
        {"expectation_runner", "runner"},
        {"capabilities.txt", kManifest},
        {"expectations.txt",
         "api/stream/execution:s_test S.Known the warp is 32 lanes\n"},
        {"mustpass.txt", absl::StrCat("# comment\n", kStream, " api/stream -\n",
                                      kGraph, " api/graph graphs\n")},
        {"chapters.txt",
         "api/stream api-stream.md - yes\napi/graph api-graph.md graphs yes\n"
         "api/ipc api-ipc.md ipc no\n"},
        {"backend.txt",
         "backend cuda\nlabel //backends/cuda:backend\ncommit abc123\n"},
        {"targets.txt", absl::StrCat(kStream, " ", kStreamBinary, "\n", kGraph,
                                     " ", kGraphBinary, "\n")},
    };
    result_files_ = {
        {"summary.txt", absl::StrCat("PASSED ", kStream, "\nPASSED ", kGraph,
                                     "\npassed: 2\n")},
        {std::string(kStreamBinary) + ".xml", kPassingXml},
        {std::string(kGraphBinary) + ".xml", kGraphXml},
        {std::string(kStreamBinary) + ".log", "log"},
        {std::string(kGraphBinary) + ".log", "log"},
        {"capabilities.txt", kManifest},
        {"machine.txt",
         "date 2026-11-27T16:00:00Z\nhost gpu\ngpu 0, NVIDIA H100, 580.1, "
         "80 GiB\ncuda 13.0\n"},
    };
  }

  // Writes every file, the package's MANIFEST, the hashes the run took of
  // the package (package.sha256) and the results' MANIFEST.
  void Seal() {
    std::string manifest;
    for (const auto& [path, text] : package_files_) {
      Write(package_ + "/" + path, text);
      absl::StrAppend(&manifest, Sha256::HexOf(text), "  ", path, "\n");
    }
    Write(package_ + "/MANIFEST", manifest);
    if (!ran_manifest_override_.empty()) manifest = ran_manifest_override_;
    result_files_["package.sha256"] = manifest;
    std::string results_manifest;
    for (const auto& [path, text] : result_files_) {
      Write(results_ + "/" + path, text);
      absl::StrAppend(&results_manifest, Sha256::HexOf(text), "  ", path, "\n");
    }
    Write(results_ + "/MANIFEST", results_manifest);
  }

  static void Write(const std::string& path, const std::string& text) {
    ASSERT_TRUE(spec::WriteFileAtomically(path, text).ok()) << path;
  }

  Certificate VerifySealed() {
    absl::StatusOr<Certificate> c = Verify(results_, package_ + "/MANIFEST");
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *c : Certificate();
  }

  std::string root_;
  std::string package_;
  std::string results_;
  std::map<std::string, std::string> package_files_;
  std::map<std::string, std::string> result_files_;
  std::string ran_manifest_override_;
};

TEST_F(Verifier, ACleanRunIsCertified) {
  Seal();
  const Certificate c = VerifySealed();
  EXPECT_THAT(c.problems, IsEmpty());
  EXPECT_TRUE(c.Certified());
  EXPECT_EQ(c.mustpass_targets, 2);
  EXPECT_EQ(c.run.chapters.at("api/stream").passed, 1);
  EXPECT_EQ(c.run.chapters.at("api/stream").expected_failures, 1);
  EXPECT_EQ(c.run.chapters.at("api/stream").unsupported, 1);
  EXPECT_EQ(c.facts.at("backend"), "cuda");
  EXPECT_EQ(c.facts.at("gpu"), "0, NVIDIA H100, 580.1, 80 GiB");
  EXPECT_EQ(c.package_hash.size(), 64u);

  const std::string json = FormatCertificateJson(c);
  EXPECT_THAT(json, HasSubstr("\"certified\": true"));
  EXPECT_THAT(json, HasSubstr("\"api/graph\": {\n      \"passed\": 1,"));
  EXPECT_THAT(json, HasSubstr("\"reason\": \"the warp is 32 lanes\""));
  const std::string page = FormatCertificateMarkdown(c);
  EXPECT_THAT(page, HasSubstr("| verdict | **certified**"));
  EXPECT_THAT(page, HasSubstr("| api/graph | graphs (claimed) | 1 | 0 | 0 | "
                              "0 | 0 | 0 |"));
  EXPECT_THAT(page, HasSubstr(c.package_hash));
}

TEST_F(Verifier, ADeviceCountSetByTheRunnerIsNoProblem) {
  result_files_["capabilities.txt"] =
      "device_count 8\nwave_size 32\ngraphs yes\nipc no\n";
  Seal();
  EXPECT_TRUE(VerifySealed().Certified());
}

TEST_F(Verifier, AnotherChangeToTheManifestIsRefused) {
  result_files_["capabilities.txt"] =
      "device_count 1\nwave_size 64\ngraphs yes\nipc no\n";
  Seal();
  EXPECT_THAT(VerifySealed().problems,
              Contains(HasSubstr("differs from the package's")));
}

TEST_F(Verifier, ATamperedResultIsRefused) {
  Seal();
  Write(results_ + "/" + kStreamBinary + ".xml", kGraphXml);
  const Certificate c = VerifySealed();
  EXPECT_FALSE(c.Certified());
  EXPECT_THAT(c.problems, Contains(HasSubstr(absl::StrCat(
                              "result ", kStreamBinary, ".xml has SHA-256"))));
}

TEST_F(Verifier, AResultOutsideTheResultsManifestIsRefused) {
  Seal();
  Write(results_ + "/extra.xml", kGraphXml);
  EXPECT_THAT(VerifySealed().problems,
              Contains(HasSubstr("extra.xml is not in the results' MANIFEST")));
}

TEST_F(Verifier, ResultsWithoutHashesAreRefused) {
  Seal();
  std::filesystem::remove(results_ + "/MANIFEST");
  EXPECT_THAT(VerifySealed().problems,
              Contains(HasSubstr("the results carry no hashes")));
}

TEST_F(Verifier, ABinaryThatRanIsNotTheOneBuilt) {
  // The run hashed a different stream binary than the package holds.
  std::string ran;
  for (const auto& [path, text] : package_files_) {
    absl::StrAppend(&ran,
                    Sha256::HexOf(path == absl::StrCat("bin/", kStreamBinary)
                                      ? "another binary"
                                      : text),
                    "  ", path, "\n");
  }
  ran_manifest_override_ = ran;
  Seal();
  EXPECT_THAT(VerifySealed().problems,
              Contains(HasSubstr(absl::StrCat("package file bin/",
                                              kStreamBinary, " that ran"))));
}

TEST_F(Verifier, APackageFileChangedHereIsRefused) {
  Seal();
  Write(package_ + "/expectations.txt",
        "api/stream/execution:s_test S.A a new excuse\n");
  EXPECT_THAT(VerifySealed().problems,
              Contains(HasSubstr("package file expectations.txt has SHA-256")));
}

TEST_F(Verifier, AMissingMustpassTargetIsRefused) {
  result_files_.erase(std::string(kGraphBinary) + ".xml");
  result_files_.erase(std::string(kGraphBinary) + ".log");
  result_files_["summary.txt"] = absl::StrCat("PASSED ", kStream, "\n");
  package_files_["not_built.txt"] = absl::StrCat(kGraph, " not built\n");
  Seal();
  const Certificate c = VerifySealed();
  EXPECT_FALSE(c.Certified());
  EXPECT_THAT(c.problems, Contains(absl::StrCat("mustpass target ", kGraph,
                                                " did not run (not built)")));
  EXPECT_EQ(c.run.chapters.at("api/graph").missing, 1);
  EXPECT_THAT(FormatCertificateMarkdown(c), HasSubstr("**not certified**"));
}

TEST_F(Verifier, AnUnexpectedFailureIsRefused) {
  result_files_[std::string(kGraphBinary) + ".xml"] =
      R"(<testsuites><testsuite name="G">
<testcase name="A" classname="G"><failure message="wrong"/></testcase>
</testsuite></testsuites>)";
  result_files_["summary.txt"] =
      absl::StrCat("PASSED ", kStream, "\nFAILED ", kGraph, "\n");
  Seal();
  const Certificate c = VerifySealed();
  EXPECT_THAT(c.problems,
              Contains(HasSubstr("failed: G.A (" + std::string(kGraph))));
  EXPECT_THAT(FormatCertificateJson(c), HasSubstr("\"certified\": false"));
}

TEST_F(Verifier, ACrashedTargetIsRefused) {
  result_files_.erase(std::string(kGraphBinary) + ".xml");
  result_files_["summary.txt"] =
      absl::StrCat("PASSED ", kStream, "\nTIMEOUT ", kGraph, "\n");
  Seal();
  EXPECT_THAT(VerifySealed().problems, Contains(HasSubstr("timed out")));
}

TEST_F(Verifier, ATimedOutTargetIsOneProblem) {
  // Its runner may have left an XML of no case: the timeout says it all.
  result_files_[std::string(kGraphBinary) + ".xml"] =
      "<testsuites></testsuites>";
  result_files_["summary.txt"] =
      absl::StrCat("PASSED ", kStream, "\nTIMEOUT ", kGraph, "\n");
  Seal();
  const Certificate c = VerifySealed();
  ASSERT_EQ(c.problems.size(), 1u) << testing::PrintToString(c.problems);
  EXPECT_THAT(c.problems[0], HasSubstr("timed out"));
}

TEST_F(Verifier, ATargetThatReportsNoCaseIsRefused) {
  result_files_[std::string(kGraphBinary) + ".xml"] =
      "<testsuites></testsuites>";
  Seal();
  EXPECT_THAT(VerifySealed().problems,
              Contains(absl::StrCat(kGraph, " reported no test case")));
}

TEST_F(Verifier, AnExpectationOutsideTheManifestIsRefused) {
  package_files_["expectations.txt"] =
      "api/stream/execution:s_test S.Known the warp is 32 lanes\n"
      "api/ipc/execution:i_test I.Opens ipc is not there\n";
  Seal();
  EXPECT_THAT(VerifySealed().problems,
              Contains(HasSubstr("expectation api/ipc/execution:i_test "
                                 "I.Opens: its chapter api/ipc needs ipc, "
                                 "which the manifest does not claim")));
}

TEST_F(Verifier, AnExpectationWithoutAReasonIsRefused) {
  package_files_["expectations.txt"] =
      "api/stream/execution:s_test S.Known the warp is 32 lanes\n"
      "api/stream/execution:s_test S.A\n";
  Seal();
  EXPECT_THAT(VerifySealed().problems,
              Contains("expectation api/stream/execution:s_test S.A gives no "
                       "reason"));
}

TEST_F(Verifier, AnUnreadablePackageIsAnError) {
  absl::StatusOr<Certificate> c = Verify(results_, package_ + "/MANIFEST");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("MANIFEST"));
  Write(package_ + "/MANIFEST", "not a hash  x\n");
  c = Verify(results_, package_ + "/MANIFEST");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("MANIFEST:1: not a \"<sha256>  <path>\" line"));
}

TEST(ParseHashList, ReadsSha256sumLines) {
  const std::string hash(64, 'a');
  absl::StatusOr<std::map<std::string, std::string>> hashes =
      ParseHashList(hash + "  bin/x\n" + hash + " *lib/y\n", "M");
  ASSERT_TRUE(hashes.ok()) << hashes.status();
  EXPECT_EQ(hashes->size(), 2u);
  EXPECT_EQ(hashes->at("lib/y"), hash);
  EXPECT_FALSE(ParseHashList(std::string(63, 'a') + "  x\n", "M").ok());
  EXPECT_FALSE(ParseHashList(hash + "\n", "M").ok());
}

}  // namespace
}  // namespace mxcts::certify
