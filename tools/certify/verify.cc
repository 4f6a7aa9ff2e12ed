// Copyright mxcts authors.
//
// The verifier (verify.h). It reads the package's own files first, since
// everything else is judged against them: the MANIFEST (and the files it
// lists that are present here, checked against it), the mustpass list, the
// chapters table and the capability manifest. A package file or result that
// is missing or wrong is a problem of the certificate, never an error, so
// that one run's shortcomings are all listed at once; only a package that
// cannot be read at all makes Verify fail.
//
// Hashes are SHA-256 of whole files; a file that differs from its listed
// hash is named with both hashes. Tested by verify_test.cc.

#include "tools/certify/verify.h"

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "conformance/testing/capability_manifest.h"
#include "nlohmann/json.hpp"
#include "reference/runtime/binary_cache/sha256.h"
#include "tools/spec/file_io.h"

namespace mxcts::certify {
namespace {

using ::mxcts::runtime::Sha256;

// The non-comment, non-blank lines of `text`, split into words.
std::vector<std::vector<std::string>> Rows(absl::string_view text) {
  std::vector<std::vector<std::string>> rows;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    rows.push_back(
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty()));
  }
  return rows;
}

// "<file>: <why>" for a file that cannot be read.
absl::StatusOr<std::string> Read(const std::string& path) {
  return spec::ReadFile(path);
}

// The package's fact lines ("key value...") into `facts`.
void ReadFacts(absl::string_view text, absl::string_view only_key,
               std::map<std::string, std::string>* facts) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.first.empty() || (!only_key.empty() && kv.first != only_key)) {
      continue;
    }
    std::string& value = (*facts)[std::string(kv.first)];
    if (!value.empty()) value += "; ";
    absl::StrAppend(&value, absl::StripAsciiWhitespace(kv.second));
  }
}

// The manifest without its comments and device_count line, for comparing
// the package's manifest with the one the run's tests read.
std::string WithoutDeviceCount(absl::string_view manifest) {
  std::string kept;
  for (const std::vector<std::string>& row : Rows(manifest)) {
    if (row[0] == "device_count") continue;
    absl::StrAppend(&kept, absl::StrJoin(row, " "), "\n");
  }
  return kept;
}

nlohmann::ordered_json JsonCounts(const ChapterCounts& c) {
  return {{"passed", c.passed},
          {"failed", c.failed},
          {"unsupported", c.unsupported},
          {"expected_failures", c.expected_failures},
          {"crashed_targets", c.crashed},
          {"missing_targets", c.missing}};
}

// A Markdown table cell: '|' would end it.
std::string Cell(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
}

std::string Row(absl::string_view name, const ChapterCounts& c) {
  return absl::StrCat("| ", name, " | ", c.passed, " | ", c.failed, " | ",
                      c.unsupported, " | ", c.expected_failures, " | ",
                      c.crashed, " | ", c.missing, " |\n");
}

std::string Fact(const Certificate& c, const std::string& key) {
  auto it = c.facts.find(key);
  return it == c.facts.end() || it->second.empty() ? "(not recorded)"
                                                   : it->second;
}

// Checks the files of `dir` against the hash list `hashes` (paths relative
// to `dir`): each one present must match; `all_present` also requires each
// to be present. Adds a problem per mismatch, naming `what`.
void CheckHashes(const std::string& dir,
                 const std::map<std::string, std::string>& hashes,
                 bool all_present, absl::string_view what,
                 std::vector<std::string>* problems) {
  for (const auto& [path, hash] : hashes) {
    absl::StatusOr<std::string> text = Read(dir + "/" + path);
    if (!text.ok()) {
      if (all_present) {
        problems->push_back(absl::StrCat(
            what, " ", path, " is listed in its MANIFEST but ", "missing"));
      }
      continue;
    }
    const std::string actual = Sha256::HexOf(*text);
    if (actual != hash) {
      problems->push_back(absl::StrCat(what, " ", path, " has SHA-256 ", actual,
                                       ", its MANIFEST says ", hash));
    }
  }
}

}  // namespace

absl::StatusOr<std::map<std::string, std::string>> ParseHashList(
    absl::string_view text, const std::string& file) {
  std::map<std::string, std::string> hashes;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    if (line.empty()) continue;
    // sha256sum writes "<hash>  <path>" ('*' before the path in binary mode).
    const size_t space = line.find(' ');
    absl::string_view hash = line.substr(0, space);
    absl::string_view path =
        space == absl::string_view::npos ? "" : line.substr(space + 1);
    absl::ConsumePrefix(&path, " ") || absl::ConsumePrefix(&path, "*");
    const bool hex =
        hash.size() == 64 &&
        hash.find_first_not_of("0123456789abcdef") == absl::string_view::npos;
    if (!hex || path.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          file, ":", number, ": not a \"<sha256>  <path>\" line: ", line));
    }
    hashes[std::string(path)] = std::string(hash);
  }
  return hashes;
}

absl::StatusOr<Certificate> Verify(const std::string& results,
                                   const std::string& package_manifest) {
  Certificate c;
  std::vector<std::string>& problems = c.problems;
  const std::string package =
      std::filesystem::path(package_manifest).parent_path().string().empty()
          ? "."
          : std::filesystem::path(package_manifest).parent_path().string();

  // The package, as built here.
  absl::StatusOr<std::string> manifest_text = Read(package_manifest);
  if (!manifest_text.ok()) return manifest_text.status();
  absl::StatusOr<std::map<std::string, std::string>> package_hashes =
      ParseHashList(*manifest_text, package_manifest);
  if (!package_hashes.ok()) return package_hashes.status();
  c.package_hash = Sha256::HexOf(*manifest_text);
  for (const char* needed :
       {"mustpass.txt", "chapters.txt", "capabilities.txt", "backend.txt"}) {
    if (!package_hashes->count(needed)) {
      return absl::InvalidArgumentError(
          absl::StrCat(package_manifest, ": lists no ", needed,
                       " (not a package of tools/certify/certify build)"));
    }
  }
  CheckHashes(package, *package_hashes, /*all_present=*/false, "package file",
              &problems);

  absl::StatusOr<std::string> mustpass = Read(package + "/mustpass.txt");
  if (!mustpass.ok()) return mustpass.status();
  absl::StatusOr<std::string> chapters = Read(package + "/chapters.txt");
  if (!chapters.ok()) return chapters.status();
  absl::StatusOr<std::string> capabilities_text =
      Read(package + "/capabilities.txt");
  if (!capabilities_text.ok()) return capabilities_text.status();
  absl::StatusOr<conformance::CapabilityManifest> capabilities =
      conformance::CapabilityManifest::Parse(*capabilities_text,
                                             package + "/capabilities.txt");
  if (!capabilities.ok()) return capabilities.status();
  if (absl::StatusOr<std::string> backend = Read(package + "/backend.txt");
      backend.ok()) {
    ReadFacts(*backend, "", &c.facts);
  }
  for (const std::vector<std::string>& row : Rows(*chapters)) {
    if (row.size() < 3) {
      return absl::InvalidArgumentError(
          absl::StrCat(package, "/chapters.txt: a row is not \"<chapter> ",
                       "<spec chapter> <capability> [claimed]\": ",
                       absl::StrJoin(row, " ")));
    }
    ChapterRow& chapter = c.chapter_table[row[0]];
    chapter.spec = row[1];
    chapter.capability = row[2];
    // Claimed by the manifest itself, whatever a fourth column says.
    chapter.claimed = row[2] == "-" || capabilities->Claims(row[2]);
  }
  std::map<std::string, std::string> not_built;
  if (absl::StatusOr<std::string> text = Read(package + "/not_built.txt");
      text.ok()) {
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      std::pair<std::string, std::string> kv =
          absl::StrSplit(line, absl::MaxSplits(' ', 1));
      if (!kv.first.empty()) not_built[kv.first] = kv.second;
    }
  }

  // The results: untampered, from this package.
  absl::StatusOr<std::string> results_manifest = Read(results + "/MANIFEST");
  if (!results_manifest.ok()) {
    problems.push_back(absl::StrCat(results_manifest.status().message(),
                                    ": the results carry no hashes"));
  } else if (absl::StatusOr<std::map<std::string, std::string>> hashes =
                 ParseHashList(*results_manifest, results + "/MANIFEST");
             !hashes.ok()) {
    problems.push_back(std::string(hashes.status().message()));
  } else {
    c.results_hash = Sha256::HexOf(*results_manifest);
    CheckHashes(results, *hashes, /*all_present=*/true, "result", &problems);
    if (absl::StatusOr<std::vector<std::string>> files =
            spec::ListFiles(results);
        files.ok()) {
      for (const std::string& file : *files) {
        if (file != "MANIFEST" && !hashes->count(file)) {
          problems.push_back(absl::StrCat("result ", file,
                                          " is not in the results' MANIFEST"));
        }
      }
    }
  }
  if (absl::StatusOr<std::string> ran = Read(results + "/package.sha256");
      !ran.ok()) {
    problems.push_back(absl::StrCat(ran.status().message(),
                                    ": the run did not hash the package"));
  } else if (absl::StatusOr<std::map<std::string, std::string>> ran_hashes =
                 ParseHashList(*ran, results + "/package.sha256");
             !ran_hashes.ok()) {
    problems.push_back(std::string(ran_hashes.status().message()));
  } else {
    for (const auto& [path, hash] : *package_hashes) {
      auto it = ran_hashes->find(path);
      if (it == ran_hashes->end()) {
        problems.push_back(absl::StrCat("package file ", path,
                                        " was not on the machine that ran"));
      } else if (it->second != hash) {
        problems.push_back(absl::StrCat("package file ", path,
                                        " that ran has SHA-256 ", it->second,
                                        ", the package built here has ", hash));
      }
    }
  }
  if (absl::StatusOr<std::string> machine = Read(results + "/machine.txt");
      machine.ok()) {
    ReadFacts(*machine, "", &c.facts);
  } else {
    problems.push_back(absl::StrCat(machine.status().message(),
                                    ": the run did not describe its machine"));
  }

  absl::StatusOr<RunResults> run = ReadRunResults(results);
  if (!run.ok()) {
    problems.push_back(std::string(run.status().message()));
  } else {
    c.run = *std::move(run);
    if (WithoutDeviceCount(c.run.capabilities) !=
        WithoutDeviceCount(*capabilities_text)) {
      problems.push_back(
          "the capability manifest the tests read (capabilities.txt of the "
          "results) differs from the package's in more than device_count");
    }
    for (const std::string& failure : c.run.failures) {
      problems.push_back(absl::StrCat("failed: ", failure));
    }
  }

  // Every mustpass target ran and reported.
  for (const std::vector<std::string>& row : Rows(*mustpass)) {
    const std::string& label = row[0];
    ++c.mustpass_targets;
    auto reported = c.run.reported_cases.find(label);
    if (reported != c.run.reported_cases.end() && reported->second > 0) {
      continue;
    }
    if (reported != c.run.reported_cases.end()) continue;  // crashed: above
    ++c.run.chapters[ChapterOf(label)].missing;
    auto why = not_built.find(label);
    problems.push_back(absl::StrCat(
        "mustpass target ", label, " did not run",
        why == not_built.end() ? "" : absl::StrCat(" (", why->second, ")")));
  }
  for (const auto& [label, cases] : c.run.reported_cases) {
    const std::string xml =
        absl::StrCat(results, "/", BinaryNameOf(label), ".xml");
    if (cases == 0 && std::filesystem::exists(xml) &&
        !c.run.crashed_targets.count(label)) {
      problems.push_back(absl::StrCat(label, " reported no test case"));
    }
  }

  // The expectations stay within what the manifest claims.
  if (package_hashes->count("expectations.txt")) {
    absl::StatusOr<std::string> expectations =
        Read(package + "/expectations.txt");
    if (!expectations.ok()) {
      problems.push_back(std::string(expectations.status().message()));
    } else {
      for (const std::vector<std::string>& row : Rows(*expectations)) {
        const std::string label = absl::StartsWith(row[0], "//")
                                      ? row[0]
                                      : absl::StrCat("//conformance/", row[0]);
        const std::string entry = absl::StrCat("expectation ", row[0], " ",
                                               row.size() > 1 ? row[1] : "");
        if (row.size() < 3) {
          problems.push_back(absl::StrCat(entry, " gives no reason"));
          continue;
        }
        const std::string chapter = ChapterOf(label);
        auto it = c.chapter_table.find(chapter);
        if (it == c.chapter_table.end()) {
          problems.push_back(absl::StrCat(entry, ": its chapter '", chapter,
                                          "' is not in the chapters table"));
        } else if (!it->second.claimed) {
          problems.push_back(absl::StrCat(
              entry, ": its chapter ", chapter, " needs ",
              it->second.capability,
              ", which the manifest does not claim (a feature not claimed "
              "is unsupported, not an expected failure)"));
        }
      }
    }
  }
  return c;
}

std::string FormatCertificateJson(const Certificate& c) {
  nlohmann::ordered_json json;
  json["certified"] = c.Certified();
  json["problems"] = c.problems;
  json["facts"] = c.facts;
  json["hashes"] = {{"package_manifest", c.package_hash},
                    {"results_manifest", c.results_hash}};
  json["mustpass_targets"] = c.mustpass_targets;
  nlohmann::ordered_json chapters = nlohmann::ordered_json::object();
  for (const auto& [name, counts] : c.run.chapters) {
    nlohmann::ordered_json chapter = JsonCounts(counts);
    auto row = c.chapter_table.find(name);
    chapter["capability"] =
        row == c.chapter_table.end() ? "" : row->second.capability;
    chapter["claimed"] = row != c.chapter_table.end() && row->second.claimed;
    chapters[name] = chapter;
  }
  json["chapters"] = chapters;
  json["totals"] = JsonCounts(c.run.Totals());
  nlohmann::ordered_json expected = nlohmann::ordered_json::array();
  for (const ExpectedFailure& e : c.run.expected) {
    expected.push_back(
        {{"target", e.target}, {"test", e.test}, {"reason", e.reason}});
  }
  json["expected_failures"] = expected;
  return json.dump(2) + "\n";
}

std::string FormatCertificateMarkdown(const Certificate& c) {
  const ChapterCounts totals = c.run.Totals();
  std::string page = absl::StrCat(
      "# Conformance certificate: ", Fact(c, "backend"), " (", Fact(c, "label"),
      ")\n\n",
      "Written by `tools/certify/certify verify` from the results of the "
      "package's run on the device (tools/certify/README.md).\n\n",
      "| | |\n|---|---|\n", "| backend | ", Cell(Fact(c, "backend")), " (",
      Cell(Fact(c, "label")), ") |\n", "| commit | ", Cell(Fact(c, "commit")),
      " |\n", "| built | ", Cell(Fact(c, "built")), " |\n",
      "| test patterns | ", Cell(Fact(c, "patterns")), " |\n", "| run | ",
      Cell(Fact(c, "date")), " |\n", "| machine | ", Cell(Fact(c, "host")),
      ", ", Cell(Fact(c, "kernel")), " |\n",
      "| GPUs (index, name, driver, "
      "memory) | ",
      Cell(Fact(c, "gpu")), " |\n", "| CUDA (driver's) | ",
      Cell(Fact(c, "cuda")), " |\n", "| mustpass targets | ",
      c.mustpass_targets, " |\n", "| package MANIFEST SHA-256 | `",
      c.package_hash, "` |\n", "| results MANIFEST SHA-256 | `",
      c.results_hash.empty() ? "(none)" : c.results_hash, "` |\n",
      "| verdict | ",
      c.Certified() ? "**certified**: every mustpass target ran and "
                      "reported, no unexpected failure, no crash, hashes match"
                    : absl::StrCat("**not certified**: ", c.problems.size(),
                                   " problems (below)"),
      " |\n\n", "## Test cases per chapter\n\n",
      "Chapters whose capability the manifest does not claim are not in the "
      "mustpass list; their tests ran only if the package holds them.\n\n",
      "| chapter | capability | passed | failed | unsupported | expected "
      "failures | crashed targets | mustpass targets missing |\n",
      "|---|---|---|---|---|---|---|---|\n");
  for (const auto& [name, counts] : c.run.chapters) {
    auto row = c.chapter_table.find(name);
    std::string capability = "(not in the table)";
    if (row != c.chapter_table.end()) {
      capability = row->second.capability == "-"
                       ? "-"
                       : absl::StrCat(row->second.capability,
                                      row->second.claimed ? " (claimed)"
                                                          : " (not claimed)");
    }
    std::string line = Row(name, counts);
    line.insert(line.find(" | ") + 3, capability + " | ");
    page += line;
  }
  std::string total = Row("**total**", totals);
  total.insert(total.find(" | ") + 3, " | ");
  page += total;
  if (!c.problems.empty()) {
    page += "\n## Problems\n\n";
    for (const std::string& problem : c.problems) {
      absl::StrAppend(&page, "- ", problem, "\n");
    }
  }
  if (!c.run.expected.empty()) {
    page += absl::StrCat(
        "\n## Expected failures\n\n",
        "Listed in the backend's expectations file, each with its reason.\n\n",
        "| target | test | reason |\n|---|---|---|\n");
    for (const ExpectedFailure& e : c.run.expected) {
      absl::StrAppend(&page, "| ", Cell(e.target), " | ", Cell(e.test), " | ",
                      Cell(e.reason), " |\n");
    }
  }
  if (!c.run.capabilities.empty()) {
    absl::StrAppend(&page, "\n## Capability manifest of the run\n\n```\n",
                    c.run.capabilities,
                    absl::EndsWith(c.run.capabilities, "\n") ? "" : "\n",
                    "```\n");
  }
  return page;
}

}  // namespace mxcts::certify
