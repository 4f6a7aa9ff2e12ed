// Copyright mxcts authors.
//
// verifier: the verifier of `tools/certify/certify verify` (verify.h).
//
// Usage:
//   verifier verify RESULTS --package-manifest=PKG/package/MANIFEST --out=DIR
//
// RESULTS is what the package's runner wrote (tools/certify/run_package.sh);
// the package's MANIFEST is the one `tools/certify/certify build` wrote here,
// beside the package's mustpass list, chapters table, manifest and
// expectations. Writes DIR/certificate.json and DIR/certificate.md. Relative
// paths are taken from the directory `bazel run` was started in.
//
// Exit status: 0 certified, 1 not certified (the certificate is written all
// the same, its problems listed), 2 bad usage or a package that cannot be
// read (the message names the file and why).

#include <cstdio>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "tools/certify/verify.h"
#include "tools/spec/file_io.h"

namespace mxcts::certify {
namespace {

constexpr char kUsage[] =
    "usage: tools/certify/certify verify RESULTS "
    "--package-manifest=PKG/package/MANIFEST "
    "--out=DIR\n";

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "certify verify: %s\n",
               std::string(status.message()).c_str());
  return 2;
}

int Main(int argc, char** argv) {
  if (argc < 2 || absl::string_view(argv[1]) != "verify") {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::string results;
  std::string manifest;
  std::string out;
  for (int i = 2; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--package-manifest=")) {
      manifest = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--out=")) {
      out = std::string(arg);
    } else if (absl::StartsWith(arg, "-") || !results.empty()) {
      std::fprintf(stderr, "certify verify: unknown argument '%s'\n%s", argv[i],
                   kUsage);
      return 2;
    } else {
      results = std::string(arg);
    }
  }
  if (results.empty() || manifest.empty() || out.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (absl::Status entered = spec::EnterUserDirectory(); !entered.ok()) {
    return Fail(entered);
  }
  absl::StatusOr<Certificate> certificate = Verify(results, manifest);
  if (!certificate.ok()) return Fail(certificate.status());
  if (absl::Status made = spec::MakeDirectories(out); !made.ok()) {
    return Fail(made);
  }
  for (const auto& [name, text] :
       {std::pair<const char*, std::string>{
            "certificate.json", FormatCertificateJson(*certificate)},
        {"certificate.md", FormatCertificateMarkdown(*certificate)}}) {
    if (absl::Status written =
            spec::WriteFileAtomically(out + "/" + name, text);
        !written.ok()) {
      return Fail(written);
    }
  }
  const ChapterCounts totals = certificate->run.Totals();
  std::printf(
      "certify verify: %s: %s; %d passed, %d failed, %d unsupported, %d "
      "expected failures, %d crashed targets, %d mustpass targets missing\n",
      out.c_str(),
      certificate->Certified()
          ? "certified"
          : ("not certified, " + std::to_string(certificate->problems.size()) +
             " problems")
                .c_str(),
      totals.passed, totals.failed, totals.unsupported,
      totals.expected_failures, totals.crashed, totals.missing);
  for (const std::string& problem : certificate->problems) {
    std::printf("  %s\n", problem.c_str());
  }
  return certificate->Certified() ? 0 : 1;
}

}  // namespace
}  // namespace mxcts::certify

int main(int argc, char** argv) { return mxcts::certify::Main(argc, argv); }
