// spec_index: the spec lint and index writer.
//
// Usage:
//   spec_index [--spec_dir=docs/spec] [--json_out=FILE] [--ids_out=FILE]
//              [--update_lock] [SPEC_FILE...]
//
// Reads the chapters, aliases.txt and clauses.lock (from SPEC_FILEs when
// given, else from --spec_dir), prints every problem as "file:line:
// message", and exits 1 if there was any. Only a clean spec writes outputs:
// --json_out the index as JSON, --ids_out the IDs a test may name (one per
// line), --update_lock clauses.lock with the live IDs added. Relative paths
// are taken from the directory `bazel run` was started in.
//
// Exit status: 0 clean, 1 spec problems, 2 unreadable input or output.
// Tested by spec_index_cli_test.sh; the library by //tools/spec tests.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "tools/spec/clause_index.h"
#include "tools/spec/file_io.h"

ABSL_FLAG(std::string, spec_dir, "docs/spec",
          "directory of the spec chapters, aliases.txt and clauses.lock");
ABSL_FLAG(std::string, json_out, "", "write the index as JSON here");
ABSL_FLAG(std::string, ids_out, "",
          "write the clause IDs tests may name here, one per line");
ABSL_FLAG(bool, update_lock, false,
          "add the spec's live IDs to <spec_dir>/clauses.lock");

namespace {

using mxcts::spec::Diagnostic;

int WriteOrComplain(const std::string& path, const std::string& contents) {
  absl::Status written = mxcts::spec::WriteFileAtomically(path, contents);
  if (!written.ok()) {
    std::fprintf(stderr, "spec_index: %s\n",
                 std::string(written.message()).c_str());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Lints docs/spec and writes its index. Usage: spec_index "
      "[--spec_dir=DIR] [--json_out=FILE] [--ids_out=FILE] [--update_lock] "
      "[SPEC_FILE...]");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  absl::Status entered = mxcts::spec::EnterUserDirectory();
  if (!entered.ok()) {
    std::fprintf(stderr, "%s: %s\n", "spec_index",
                 std::string(entered.message()).c_str());
    return 2;
  }
  std::vector<std::string> files;
  for (size_t i = 1; i < positional.size(); ++i) {
    files.push_back(positional[i]);
  }
  const std::string spec_dir = absl::GetFlag(FLAGS_spec_dir);

  std::vector<Diagnostic> problems;
  absl::StatusOr<mxcts::spec::SpecIndex> index =
      files.empty() ? mxcts::spec::LoadSpecDirectory(spec_dir, &problems)
                    : mxcts::spec::LoadSpecFiles(files, &problems);
  if (!index.ok()) {
    std::fprintf(stderr, "spec_index: %s\n",
                 std::string(index.status().message()).c_str());
    return 2;
  }
  for (const Diagnostic& problem : problems) {
    std::fprintf(stderr, "%s\n", problem.ToString().c_str());
  }
  std::fprintf(stderr, "spec_index: %d clauses in %zu chapters, %zu problems\n",
               index->clause_count(), index->chapters().size(),
               problems.size());
  if (!problems.empty()) return 1;

  int status = 0;
  if (!absl::GetFlag(FLAGS_json_out).empty()) {
    status |= WriteOrComplain(absl::GetFlag(FLAGS_json_out), index->ToJson());
  }
  if (!absl::GetFlag(FLAGS_ids_out).empty()) {
    status |=
        WriteOrComplain(absl::GetFlag(FLAGS_ids_out), index->ReferableIds());
  }
  if (absl::GetFlag(FLAGS_update_lock)) {
    status |= WriteOrComplain(absl::StrCat(spec_dir, "/clauses.lock"),
                              index->UpdatedLock());
  }
  return status;
}
