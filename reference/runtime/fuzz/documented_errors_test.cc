// Copyright mxcts authors.
//
// The fuzzer's table of documented errors against the documentation: every
// code an entry lists must be named by the header comment of its function
// (the comment block right above its declaration, which may declare
// several functions, and the section banner above that), by the comment of
// a function it inherits from, or by the `error:` field of a spec clause
// whose statement names the function. An entry may also list an `implied`
// code, but only with the header's phrase that implies it, and the phrase
// must be in the comment. The controls show the check rejects a code no
// documentation names.
//
// Arguments: the runtime_api_*.h headers and the spec's *.md chapters.

#include "reference/runtime/fuzz/documented_errors.h"

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mc_runtime_api.h"

namespace mxcts::fuzz {
namespace {

std::vector<std::string> g_headers;
std::vector<std::string> g_chapters;

std::string ReadAll(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Function name -> the documentation text that applies to it in the
// headers: its comment block and the section banner above it.
std::map<std::string, std::string> HeaderDocumentation() {
  std::map<std::string, std::string> docs;
  static const std::regex declaration(
      R"(^(?:mcError_t|const char\*)\s+(mc\w+)\s*\()");
  for (const std::string& path : g_headers) {
    std::istringstream lines(ReadAll(path));
    std::string line, block, banner;
    bool in_banner = false, after_declaration = false;
    while (std::getline(lines, line)) {
      std::smatch match;
      if (line.rfind("// ----", 0) == 0) {
        if (!in_banner) banner.clear();
        in_banner = !in_banner;
        block.clear();
        continue;
      }
      if (line.rfind("//", 0) == 0) {
        if (in_banner) {
          banner += line + "\n";
        } else {
          if (after_declaration) block.clear();
          after_declaration = false;
          block += line + "\n";
        }
      } else if (std::regex_search(line, match, declaration)) {
        docs[match[1]] += block + banner;
        after_declaration = true;
      } else if (line.empty()) {
        if (after_declaration) block.clear();
        after_declaration = false;
      }
    }
  }
  return docs;
}

// Function name -> the codes of the spec's error clauses that name it.
std::map<std::string, std::set<std::string>> SpecErrors() {
  std::map<std::string, std::set<std::string>> errors;
  static const std::regex function(R"(\b(mc[A-Z]\w+)\b)");
  static const std::regex field(R"(^- error: (mc\w+))");
  for (const std::string& path : g_chapters) {
    std::istringstream lines(ReadAll(path));
    std::string line, statement;
    std::vector<std::string> named;
    while (std::getline(lines, line)) {
      std::smatch match;
      if (line.rfind("### ", 0) == 0) {
        statement.clear();
        continue;
      }
      if (std::regex_search(line, match, field)) {
        for (std::sregex_iterator
                 it(statement.begin(), statement.end(), function),
             end;
             it != end; ++it) {
          errors[(*it)[1]].insert(match[1]);
        }
        continue;
      }
      if (line.rfind("- ", 0) != 0) statement += line + "\n";
    }
  }
  return errors;
}

// The codes the documentation gives `function` (with what it inherits).
std::set<std::string> DocumentedNames(
    const std::map<std::string, std::string>& docs,
    const std::map<std::string, std::set<std::string>>& spec,
    const DocumentedErrors& entry) {
  std::set<std::string> names;
  static const std::regex code(R"(\b(mcError\w+)\b)");
  std::vector<std::string> functions = {entry.function};
  for (const char* inherited : entry.inherits) functions.push_back(inherited);
  for (const std::string& function : functions) {
    auto doc = docs.find(function);
    if (doc != docs.end()) {
      for (std::sregex_iterator
               it(doc->second.begin(), doc->second.end(), code),
           end;
           it != end; ++it) {
        names.insert((*it)[1]);
      }
    }
    auto clauses = spec.find(function);
    if (clauses != spec.end()) {
      names.insert(clauses->second.begin(), clauses->second.end());
    }
  }
  return names;
}

// The codes of `entry` that no documentation names, as text.
std::string Undocumented(
    const std::map<std::string, std::string>& docs,
    const std::map<std::string, std::set<std::string>>& spec,
    const DocumentedErrors& entry) {
  const std::set<std::string> names = DocumentedNames(docs, spec, entry);
  std::string missing;
  for (mcError_t error : entry.errors) {
    if (names.count(mcGetErrorName(error)) == 0) {
      missing += std::string(" ") + mcGetErrorName(error);
    }
  }
  auto doc = docs.find(entry.function);
  for (const auto& [error, phrase] : entry.implied) {
    if (doc == docs.end() || doc->second.find(phrase) == std::string::npos) {
      missing += std::string(" ") + mcGetErrorName(error) + " (phrase \"" +
                 phrase + "\" not in the header)";
    }
  }
  return missing;
}

// [api.error.type.enum-tag]: every listed code is an mcError_t enumerator.
TEST(DocumentedErrorsTest, EveryListedCodeIsAnEnumerator) {
  const std::string unrecognized =
      mcGetErrorName(static_cast<mcError_t>(16000));
  for (const DocumentedErrors& entry : DocumentedErrorTable()) {
    for (mcError_t error : entry.errors) {
      EXPECT_NE(unrecognized, mcGetErrorName(error))
          << entry.function << " lists code " << error;
      EXPECT_NE(error, mcSuccess) << entry.function;
    }
  }
}

TEST(DocumentedErrorsTest, EveryEntryIsDeclaredAndDocumented) {
  const auto docs = HeaderDocumentation();
  const auto spec = SpecErrors();
  ASSERT_GT(docs.size(), 200u) << "the headers were not read";
  for (const DocumentedErrors& entry : DocumentedErrorTable()) {
    EXPECT_EQ(docs.count(entry.function), 1u)
        << entry.function << " is declared in no runtime_api_*.h header";
    for (const char* inherited : entry.inherits) {
      EXPECT_EQ(docs.count(inherited), 1u) << inherited;
    }
    EXPECT_EQ(Undocumented(docs, spec, entry), "")
        << entry.function << " lists codes its documentation does not name";
  }
}

// Control: a code no documentation of the function names is caught, so the
// test above can fail.
TEST(DocumentedErrorsTest, ControlUndocumentedCodeIsCaught) {
  const auto docs = HeaderDocumentation();
  const auto spec = SpecErrors();
  DocumentedErrors wrong = {"mcGetDevice", {mcErrorInvalidValue}, {}, {}};
  EXPECT_EQ(Undocumented(docs, spec, wrong), "");
  wrong.errors.push_back(mcErrorLaunchTimeout);
  EXPECT_EQ(Undocumented(docs, spec, wrong), " mcErrorLaunchTimeout");
  DocumentedErrors implied = {
      "mcGetDevice", {}, {}, {{mcErrorLaunchTimeout, "a phrase not there"}}};
  EXPECT_NE(Undocumented(docs, spec, implied), "");
}

TEST(DocumentedErrorsTest, LookupAnswersForListedCodesOnly) {
  EXPECT_TRUE(IsDocumented("mcMalloc", mcSuccess));
  EXPECT_TRUE(IsDocumented("mcMalloc", mcErrorMemoryAllocation));
  EXPECT_FALSE(IsDocumented("mcMalloc", mcErrorInvalidResourceHandle));
  EXPECT_FALSE(IsDocumented("mcNoSuchFunction", mcErrorInvalidValue));
  EXPECT_TRUE(IsDocumented("mcNoSuchFunction", mcSuccess));
}

}  // namespace
}  // namespace mxcts::fuzz

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.size() > 3 && arg.compare(arg.size() - 3, 3, ".md") == 0) {
      mxcts::fuzz::g_chapters.push_back(arg);
    } else {
      mxcts::fuzz::g_headers.push_back(arg);
    }
  }
  return RUN_ALL_TESTS();
}
