// Copyright mxcts authors.
//
// check_backend_files: the build-time check of a backend's capability
// manifest and expectations file. mxmaca_backend runs it, and every test of
// the backend depends on its output, so a typo in either file fails the
// build at once, naming file and line, instead of turning a feature off or
// an entry into a no-op.
//
// Usage: check_backend_files --capabilities=FILE [--expectations=FILE]
//            --out=STAMP
//
// A summary of both files (the features claimed, the count of known
// failures) goes to standard output. STAMP only records that the files are
// valid, in words that do not change with their content: every compile
// action of the backend's tests takes it as an input (to run after the
// check), and Bazel compares inputs by content, so an entry added to the
// expectations file must not recompile the suite. Exit status: 0 both are
// valid, 1 one is not, 2 bad usage. Tested by
// check_backend_files_cli_test.sh.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "conformance/testing/capability_manifest.h"
#include "conformance/testing/expectations.h"
#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

int Main(int argc, char** argv) {
  std::string capabilities;
  std::string expectations;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--capabilities=", 0) == 0) {
      capabilities = arg.substr(arg.find('=') + 1);
    } else if (arg.rfind("--expectations=", 0) == 0) {
      expectations = arg.substr(arg.find('=') + 1);
    } else if (arg.rfind("--out=", 0) == 0) {
      out = arg.substr(arg.find('=') + 1);
    } else {
      capabilities.clear();
      break;
    }
  }
  if (capabilities.empty() || out.empty()) {
    std::fprintf(stderr,
                 "usage: check_backend_files --capabilities=FILE "
                 "[--expectations=FILE] --out=STAMP\n");
    return 2;
  }

  absl::StatusOr<CapabilityManifest> manifest =
      CapabilityManifest::Read(capabilities);
  if (!manifest.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(manifest.status().message()).c_str());
    return 1;
  }
  std::string summary =
      absl::StrCat("capability manifest ", capabilities, ": claimed:");
  for (const KnownCapability& known : KnownCapabilities()) {
    if (manifest->Claims(known.name))
      absl::StrAppend(&summary, " ", std::string(known.name));
  }
  summary += "\n";
  if (!expectations.empty()) {
    absl::StatusOr<std::vector<Expectation>> entries =
        ReadExpectations(expectations);
    if (!entries.ok()) {
      std::fprintf(stderr, "%s\n",
                   std::string(entries.status().message()).c_str());
      return 1;
    }
    absl::StrAppend(&summary, "expectations ", expectations, ": ",
                    entries->size(), " known failures\n");
  }
  std::fputs(summary.c_str(), stdout);
  std::string stamp = absl::StrCat("valid: ", capabilities);
  if (!expectations.empty()) absl::StrAppend(&stamp, " ", expectations);
  stamp += "\n";
  absl::Status written = spec::WriteFileAtomically(out, stamp);
  if (!written.ok()) {
    std::fprintf(stderr, "check_backend_files: %s\n",
                 std::string(written.message()).c_str());
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace mxcts::conformance

int main(int argc, char** argv) { return mxcts::conformance::Main(argc, argv); }
