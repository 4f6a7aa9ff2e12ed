// Copyright mxcts authors.
//
// certify: writes the conformance certificate of a backend's bundle run
// (certificate.h).
//
// Usage:
//   certify RESULTS_DIR --out=PAGE.md --backend=NAME --device=TEXT
//           --driver=TEXT --date=TEXT --commit=HASH
//
// RESULTS_DIR is what the bundle's run.sh wrote (summary.txt, one XML and
// log per target, capabilities.txt). Relative paths are taken from the
// directory `bazel run` was started in.
//
// Exit status: 0 certified (no unexpected failure, no crashed target),
// 1 not certified (the page is written all the same), 2 bad usage or
// results that cannot be read (the message names the file and why).

#include <cstdio>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "tools/certify/certificate.h"
#include "tools/spec/file_io.h"

namespace mxcts::certify {
namespace {

constexpr char kUsage[] =
    "usage: certify RESULTS_DIR --out=PAGE.md --backend=NAME --device=TEXT "
    "--driver=TEXT --date=TEXT --commit=HASH\n";

int Main(int argc, char** argv) {
  std::string dir;
  std::string out;
  CertificateInfo info;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    struct {
      absl::string_view flag;
      std::string* value;
    } const flags[] = {{"--out=", &out},
                       {"--backend=", &info.backend},
                       {"--device=", &info.device},
                       {"--driver=", &info.driver},
                       {"--date=", &info.date},
                       {"--commit=", &info.commit}};
    bool known = false;
    for (const auto& flag : flags) {
      if (absl::ConsumePrefix(&arg, flag.flag)) {
        *flag.value = std::string(arg);
        known = true;
        break;
      }
    }
    if (known) continue;
    if (absl::StartsWith(arg, "-") || !dir.empty()) {
      std::fprintf(stderr, "certify: unknown argument '%s'\n%s", argv[i],
                   kUsage);
      return 2;
    }
    dir = std::string(arg);
  }
  if (dir.empty() || out.empty() || info.backend.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (absl::Status entered = spec::EnterUserDirectory(); !entered.ok()) {
    std::fprintf(stderr, "certify: %s\n",
                 std::string(entered.message()).c_str());
    return 2;
  }
  absl::StatusOr<RunResults> run = ReadRunResults(dir);
  if (!run.ok()) {
    std::fprintf(stderr, "certify: %s\n",
                 std::string(run.status().message()).c_str());
    return 2;
  }
  if (absl::Status written =
          spec::WriteFileAtomically(out, FormatCertificate(*run, info));
      !written.ok()) {
    std::fprintf(stderr, "certify: %s\n",
                 std::string(written.message()).c_str());
    return 2;
  }
  const ChapterCounts totals = run->Totals();
  std::printf(
      "certify: %s: %d passed, %d failed, %d unsupported, %d expected "
      "failures, %d crashed targets\n",
      out.c_str(), totals.passed, totals.failed, totals.unsupported,
      totals.expected_failures, totals.crashed);
  return totals.failed == 0 && totals.crashed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace mxcts::certify

int main(int argc, char** argv) { return mxcts::certify::Main(argc, argv); }
