// spec_refs: checks the clause references of conformance test sources.
//
// Usage: spec_refs --ids=CLAUSE_IDS_FILE [--out=FILE] SOURCE...
//
// CLAUSE_IDS_FILE lists the IDs a test may name, one per line (the
// //docs/spec:index rule writes it as clause_ids.txt). Every SOURCE is
// scanned for GoogleTest tests and their MX_SPEC references. It is an error,
// reported as "file:line: message", when a reference names an ID that is not
// listed, when a test names no clause, or when MX_SPEC appears outside any
// test. With no error, --out receives one line per test: "Suite.Name id...".
//
// Exit status: 0 all references valid, 1 some are not, 2 unreadable input.
// Tested by spec_refs_cli_test.sh.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_source_scanner.h"

ABSL_FLAG(std::string, ids, "", "file of valid clause IDs, one per line");
ABSL_FLAG(std::string, out, "", "write the tests and their clauses here");

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Checks MX_SPEC clause references. Usage: spec_refs --ids=FILE "
      "[--out=FILE] SOURCE...");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (absl::GetFlag(FLAGS_ids).empty() || positional.size() < 2) {
    std::fprintf(stderr,
                 "usage: spec_refs --ids=FILE [--out=FILE] SOURCE...\n");
    return 2;
  }
  absl::StatusOr<std::string> id_text =
      mxcts::spec::ReadFile(absl::GetFlag(FLAGS_ids));
  if (!id_text.ok()) {
    std::fprintf(stderr, "spec_refs: %s\n",
                 std::string(id_text.status().message()).c_str());
    return 2;
  }
  absl::flat_hash_set<std::string> valid_ids;
  for (absl::string_view line : absl::StrSplit(*id_text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) valid_ids.insert(std::string(line));
  }

  int problems = 0;
  auto report = [&problems](const std::string& file, int line,
                            const std::string& message) {
    std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), line, message.c_str());
    ++problems;
  };
  std::string listing;
  for (size_t i = 1; i < positional.size(); ++i) {
    const std::string path = positional[i];
    absl::StatusOr<std::string> text = mxcts::spec::ReadFile(path);
    if (!text.ok()) {
      std::fprintf(stderr, "spec_refs: %s\n",
                   std::string(text.status().message()).c_str());
      return 2;
    }
    mxcts::spec::ScannedSource scanned =
        mxcts::spec::ScanTestSource(path, *text);
    for (const mxcts::spec::ClauseReference& stray : scanned.stray_references) {
      report(path, stray.line,
             absl::StrCat("MX_SPEC(\"", stray.id,
                          "\") is outside any test; put it in the test "
                          "body"));
    }
    for (const mxcts::spec::ScannedTest& test : scanned.tests) {
      if (test.clauses.empty()) {
        report(path, test.line,
               absl::StrCat("test ", test.FullName(),
                            " names no spec clause; add MX_SPEC(\"...\") "
                            "as its first statement"));
      }
      absl::StrAppend(&listing, test.FullName());
      for (const mxcts::spec::ClauseReference& reference : test.clauses) {
        if (!valid_ids.contains(reference.id)) {
          report(
              path, reference.line,
              absl::StrCat("test ", test.FullName(), " names '", reference.id,
                           "', which is not a clause of docs/spec"));
        }
        absl::StrAppend(&listing, " ", reference.id);
      }
      absl::StrAppend(&listing, "\n");
    }
  }
  if (problems > 0) {
    std::fprintf(stderr, "spec_refs: %d problems\n", problems);
    return 1;
  }
  if (!absl::GetFlag(FLAGS_out).empty()) {
    absl::Status written =
        mxcts::spec::WriteFileAtomically(absl::GetFlag(FLAGS_out), listing);
    if (!written.ok()) {
      std::fprintf(stderr, "spec_refs: %s\n",
                   std::string(written.message()).c_str());
      return 2;
    }
  }
  return 0;
}
