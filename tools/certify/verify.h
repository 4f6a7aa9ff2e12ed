// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: tools/certify/verify.h
// -----------------------------------------------------------------------------
//
// The verifier of `tools/certify/certify verify`: decides whether the results
// a package's run brought back (tools/certify/run_package.sh) certify the
// backend, and writes the certificate (tools/certify/README.md).
//
// It trusts the package as built here (the folder of its MANIFEST: its
// mustpass list, chapters table, manifest, expectations and facts) and
// checks everything else against it:
//
//   - the package's files present here match its MANIFEST;
//   - the results are untampered: every file of the results folder is in
//     its MANIFEST with a matching hash, and nothing else is there;
//   - the package that ran is the one built: the hashes the run took of
//     every package file before it started (package.sha256) match the
//     package's MANIFEST, binaries included;
//   - the manifest the tests read differs from the package's at most in
//     device_count (which the runner sets from the machine);
//   - every mustpass target ran and reported its cases (a target that did
//     not build is named as such);
//   - no case failed unless the expectations list it, no target crashed
//     or timed out;
//   - every expectation has a reason and is of a chapter whose capability
//     the manifest claims (an unclaimed feature is unsupported, never an
//     expected failure).
//
// Each failed check is a problem of the certificate; it is certified when
// there is none.
//
// Example:
//
//   absl::StatusOr<Certificate> c = Verify("results", "pkg/package/MANIFEST");
//   if (!c.ok()) return c.status();  // a file that cannot be read at all
//   WriteFile("certificate.md", FormatCertificateMarkdown(*c));
//   return c->Certified() ? 0 : 1;

#ifndef MXCTS_TOOLS_CERTIFY_VERIFY_H_
#define MXCTS_TOOLS_CERTIFY_VERIFY_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/certify/certificate.h"

namespace mxcts::certify {

// A row of the package's chapters table (chapters.txt).
struct ChapterRow {
  std::string spec;        // its spec chapter file, "api-stream.md"
  std::string capability;  // the capability it needs, "-" for none
  bool claimed = false;    // whether the package's manifest claims it
};

struct Certificate {
  // Facts of the package (backend.txt) and of the run (machine.txt), by key:
  // "backend", "label", "commit", "built", "patterns"; "date", "host",
  // "kernel", "cuda"; "gpu" holds the GPUs' lines joined by "; ".
  std::map<std::string, std::string> facts;
  // The chapters table, by chapter.
  std::map<std::string, ChapterRow> chapter_table;
  // The run's counts; ChapterCounts::missing counts the mustpass targets of
  // the chapter that did not run or report.
  RunResults run;
  int mustpass_targets = 0;
  // The SHA-256 of the package's and of the results' MANIFEST.
  std::string package_hash;
  std::string results_hash;
  // Why it is not certified, one line each; empty when certified.
  std::vector<std::string> problems;

  bool Certified() const { return problems.empty(); }
};

// Verifies the results folder `results` against the package whose MANIFEST
// is `package_manifest`. Fails (naming the file and why) only when the
// package's MANIFEST, mustpass list, chapters table or capability manifest
// cannot be read or parsed; every other shortcoming is a problem of the
// returned certificate.
absl::StatusOr<Certificate> Verify(const std::string& results,
                                   const std::string& package_manifest);

// The certificate as JSON: "certified", "problems", "facts", "hashes",
// "chapters" (per chapter its counts, capability, whether claimed),
// "totals", "expected_failures".
std::string FormatCertificateJson(const Certificate& certificate);

// The certificate as a Markdown page for docs/certification/.
std::string FormatCertificateMarkdown(const Certificate& certificate);

// Parses "<64 hex digits>  <path>" lines (sha256sum's format) into a map
// from path to hash; `file` names the text in errors.
absl::StatusOr<std::map<std::string, std::string>> ParseHashList(
    absl::string_view text, const std::string& file);

}  // namespace mxcts::certify

#endif  // MXCTS_TOOLS_CERTIFY_VERIFY_H_
