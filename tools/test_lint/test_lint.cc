// The conformance test lint (test_lint.h): a lexer that blanks comments and
// literals, a scan for tests, helper definitions and the calls in each body,
// a reachability pass over the helper graph, and a scan of BUILD files for
// must-not-compile tests. Tested by test_lint_test.cc.

#include "tools/test_lint/test_lint.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "re2/re2.h"

namespace mxcts::test_lint {
namespace {

re2::StringPiece Piece(absl::string_view text) {
  return re2::StringPiece(text.data(), text.size());
}

int LineAt(absl::string_view text, size_t offset) {
  return 1 +
         static_cast<int>(std::count(
             text.begin(), text.begin() + std::min(offset, text.size()), '\n'));
}

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The offset of the bracket closing the one at `open` in blanked code, or
// npos when it is not closed.
size_t FindClosing(absl::string_view code, size_t open) {
  const char opening = code[open];
  const char closing = opening == '(' ? ')' : opening == '[' ? ']' : '}';
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == opening) ++depth;
    if (code[i] == closing && --depth == 0) return i;
  }
  return absl::string_view::npos;
}

size_t SkipSpace(absl::string_view code, size_t i) {
  while (i < code.size() && absl::ascii_isspace(code[i])) ++i;
  return i;
}

// After the `)` of a parameter list at `close`: the offset of the `{` of a
// definition's body, or npos when what follows is not a body (a call, a
// declaration). Skips cv and reference qualifiers, noexcept(...), override,
// final, mutable and a trailing return type.
size_t BodyAfterParameters(absl::string_view code, size_t close) {
  size_t i = SkipSpace(code, close + 1);
  while (i < code.size()) {
    if (code[i] == '{') return i;
    if (code[i] == '&') {
      i = SkipSpace(code, i + 1);
      continue;
    }
    if (code.substr(i, 2) == "->") {
      while (i < code.size() && code[i] != '{' && code[i] != ';' &&
             code[i] != '}' && code[i] != ')') {
        ++i;
      }
      continue;
    }
    size_t end = i;
    while (end < code.size() && IsIdentifierChar(code[end])) ++end;
    const absl::string_view word = code.substr(i, end - i);
    if (word == "const" || word == "volatile" || word == "override" ||
        word == "final" || word == "mutable" || word == "noexcept") {
      i = SkipSpace(code, end);
      if (word == "noexcept" && i < code.size() && code[i] == '(') {
        const size_t closing = FindClosing(code, i);
        if (closing == absl::string_view::npos) return closing;
        i = SkipSpace(code, closing + 1);
      }
      continue;
    }
    return absl::string_view::npos;
  }
  return absl::string_view::npos;
}

bool IsTestMacro(absl::string_view name) {
  return name == "TEST" || name == "TEST_F" || name == "TEST_P" ||
         name == "TYPED_TEST" || name == "TYPED_TEST_P";
}

bool IsKeyword(absl::string_view name) {
  static const auto* const kKeywords = new absl::flat_hash_set<std::string>{
      "if",      "for",           "while",    "switch",  "catch",
      "return",  "sizeof",        "decltype", "alignof", "static_assert",
      "defined", "__attribute__", "alignas",  "throw",   "operator"};
  return kKeywords->contains(name);
}

bool IsAssertion(absl::string_view name) {
  static const LazyRE2 kAssertion = {
      R"((?:MX_)?(?:EXPECT|ASSERT)_\w+|FAIL|ADD_FAILURE|ADD_FAILURE_AT|)"
      R"(GTEST_FAIL|GTEST_FAIL_AT)"};
  return RE2::FullMatch(Piece(name), *kAssertion);
}

// The names called in `code`: each identifier followed by `(`, optionally
// after template arguments.
absl::flat_hash_set<std::string> CallsIn(absl::string_view code) {
  static const LazyRE2 kCall = {R"(([A-Za-z_]\w*)\s*(?:<[^;{}()]*>\s*)?\()"};
  absl::flat_hash_set<std::string> calls;
  re2::StringPiece rest = Piece(code);
  std::string name;
  while (RE2::FindAndConsume(&rest, *kCall, &name)) calls.insert(name);
  return calls;
}

struct Test {
  std::string suite;
  std::string name;
  int line = 0;
  std::vector<std::string> clauses;
  absl::flat_hash_set<std::string> calls;

  std::string FullName() const { return suite + "." + name; }
};

// A lexed source: its blanked code, tests, helper definitions and includes.
struct Scanned {
  std::string path;
  std::vector<Test> tests;
  // Helper name -> the names its definitions call.
  absl::flat_hash_map<std::string, absl::flat_hash_set<std::string>> helpers;
  std::vector<std::string> includes;
};

// The string literals of original `text` in [begin, end) of its blanked
// `code` (whose quotes sit at the same offsets).
std::vector<std::string> LiteralsIn(absl::string_view text,
                                    absl::string_view code, size_t begin,
                                    size_t end) {
  std::vector<std::string> literals;
  for (size_t i = begin; i < end; ++i) {
    if (code[i] != '"') continue;
    const size_t close = code.find('"', i + 1);
    if (close == absl::string_view::npos || close >= end) break;
    literals.emplace_back(text.substr(i + 1, close - i - 1));
    i = close;
  }
  return literals;
}

Scanned Scan(const SourceFile& file) {
  Scanned scanned;
  scanned.path = file.path;
  const std::string code = BlankOutCommentsAndLiterals(file.text);
  const absl::string_view view(code);

  static const LazyRE2 kInclude = {R"((?m)^[ \t]*#[ \t]*include[ \t]*")"};
  re2::StringPiece rest = Piece(view);
  while (RE2::FindAndConsume(&rest, *kInclude)) {
    const size_t open = rest.data() - code.data() - 1;
    const std::vector<std::string> path =
        LiteralsIn(file.text, view, open, view.find('\n', open));
    if (!path.empty()) scanned.includes.push_back(path.front());
  }

  // Macros: the replacement text, continuation lines included.
  static const LazyRE2 kDefine = {R"((?m)^[ \t]*#[ \t]*define[ \t]+(\w+)\()"};
  rest = Piece(view);
  std::string name;
  while (RE2::FindAndConsume(&rest, *kDefine, &name)) {
    size_t begin = rest.data() - code.data();
    size_t end = begin;
    while (end < code.size() && code[end] != '\n') {
      ++end;
      if (code[end] == '\n' && code[end - 1] == '\\') ++end;
    }
    for (const std::string& call : CallsIn(view.substr(begin, end - begin))) {
      scanned.helpers[name].insert(call);
    }
  }

  // Lambdas: `name = [captures](parameters) qualifiers {`.
  static const LazyRE2 kLambda = {R"(([A-Za-z_]\w*)\s*=\s*\[)"};
  rest = Piece(view);
  while (RE2::FindAndConsume(&rest, *kLambda, &name)) {
    const size_t open = rest.data() - code.data() - 1;
    size_t close = FindClosing(view, open);
    if (close == absl::string_view::npos) continue;
    size_t brace = SkipSpace(view, close + 1);
    if (brace < view.size() && view[brace] == '(') {
      close = FindClosing(view, brace);
      if (close == absl::string_view::npos) continue;
      brace = BodyAfterParameters(view, close);
    }
    if (brace >= view.size() || view[brace] != '{') continue;
    const size_t body_end = FindClosing(view, brace);
    if (body_end == absl::string_view::npos) continue;
    for (const std::string& call :
         CallsIn(view.substr(brace, body_end - brace + 1))) {
      scanned.helpers[name].insert(call);
    }
  }

  // Functions and tests: `name(...) qualifiers {`.
  static const LazyRE2 kNameThenParen = {
      R"(([A-Za-z_]\w*)\s*(?:<[^;{}()]*>\s*)?\()"};
  rest = Piece(view);
  while (RE2::FindAndConsume(&rest, *kNameThenParen, &name)) {
    const size_t open = rest.data() - code.data() - 1;
    if (IsKeyword(name)) continue;
    const size_t close = FindClosing(view, open);
    if (close == absl::string_view::npos) continue;
    const size_t brace = BodyAfterParameters(view, close);
    if (brace == absl::string_view::npos) continue;
    const size_t body_end = FindClosing(view, brace);
    if (body_end == absl::string_view::npos) continue;
    const absl::string_view body = view.substr(brace, body_end - brace + 1);
    if (!IsTestMacro(name)) {
      for (const std::string& call : CallsIn(body)) {
        scanned.helpers[name].insert(call);
      }
      continue;
    }
    static const LazyRE2 kTestArguments = {R"(\(\s*(\w+)\s*,\s*(\w+)\s*\))"};
    Test test;
    if (!RE2::FullMatch(Piece(view.substr(open, close - open + 1)),
                        *kTestArguments, &test.suite, &test.name)) {
      continue;
    }
    test.line = LineAt(view, open);
    test.calls = CallsIn(body);
    static const LazyRE2 kSpec = {R"(\bMX_SPEC\s*\()"};
    re2::StringPiece in_body = Piece(body);
    while (RE2::FindAndConsume(&in_body, *kSpec)) {
      const size_t spec_open = in_body.data() - code.data() - 1;
      const size_t spec_close = FindClosing(view, spec_open);
      if (spec_close == absl::string_view::npos) break;
      for (std::string& id :
           LiteralsIn(file.text, view, spec_open, spec_close)) {
        test.clauses.push_back(std::move(id));
      }
    }
    scanned.tests.push_back(std::move(test));
  }
  return scanned;
}

bool IsBuildFile(absl::string_view path) {
  const absl::string_view base = path.substr(path.rfind('/') + 1);
  return base == "BUILD" || base == "BUILD.bazel";
}

bool IsTestSource(absl::string_view path) {
  return absl::EndsWith(path, ".cc") || absl::EndsWith(path, ".cu") ||
         absl::EndsWith(path, ".cpp");
}

bool IsHeader(absl::string_view path) {
  return absl::EndsWith(path, ".h") || absl::EndsWith(path, ".cuh") ||
         absl::EndsWith(path, ".hpp");
}

std::string Directory(absl::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == absl::string_view::npos ? ""
                                          : std::string(path.substr(0, slash));
}

std::string Normalize(absl::string_view path) {
  std::vector<std::string> parts;
  for (absl::string_view part : absl::StrSplit(path, '/', absl::SkipEmpty())) {
    if (part == ".") continue;
    if (part == ".." && !parts.empty() && parts.back() != "..") {
      parts.pop_back();
      continue;
    }
    parts.emplace_back(part);
  }
  return absl::StrJoin(parts, "/");
}

// The names a file can call: helpers of the file and of everything it
// includes (found among `scanned`, by the include's path or relative to the
// including file), merged.
class HelperView {
 public:
  HelperView(const std::vector<Scanned>& scanned,
             const absl::flat_hash_map<std::string, size_t>& by_path,
             size_t file) {
    std::vector<size_t> pending = {file};
    absl::flat_hash_set<size_t> seen = {file};
    while (!pending.empty()) {
      const Scanned& current = scanned[pending.back()];
      pending.pop_back();
      for (const auto& [name, calls] : current.helpers) {
        helpers_[name].insert(calls.begin(), calls.end());
      }
      for (const std::string& include : current.includes) {
        for (const std::string& candidate :
             {Normalize(include),
              Normalize(absl::StrCat(Directory(current.path), "/", include))}) {
          auto found = by_path.find(candidate);
          if (found != by_path.end() && seen.insert(found->second).second) {
            pending.push_back(found->second);
          }
        }
      }
    }
  }

  // Whether `calls`, directly or through helpers at any depth, call a name
  // `target` accepts.
  bool Reaches(const absl::flat_hash_set<std::string>& calls,
               const std::function<bool(absl::string_view)>& target) const {
    std::vector<std::string> pending(calls.begin(), calls.end());
    absl::flat_hash_set<std::string> seen(calls.begin(), calls.end());
    while (!pending.empty()) {
      const std::string name = pending.back();
      pending.pop_back();
      if (target(name)) return true;
      auto helper = helpers_.find(name);
      if (helper == helpers_.end()) continue;
      for (const std::string& call : helper->second) {
        if (seen.insert(call).second) pending.push_back(call);
      }
    }
    return false;
  }

 private:
  absl::flat_hash_map<std::string, absl::flat_hash_set<std::string>> helpers_;
};

void LintTests(const Scanned& file, const HelperView& helpers,
               std::vector<Violation>* violations) {
  auto is_trap = [](absl::string_view name) {
    return name == "MX_EXPECT_TRAP";
  };
  auto is_no_trap = [](absl::string_view name) {
    return name == "MX_EXPECT_NO_TRAP";
  };
  std::vector<bool> traps;
  for (const Test& test : file.tests) {
    traps.push_back(helpers.Reaches(test.calls, is_trap));
  }
  for (size_t i = 0; i < file.tests.size(); ++i) {
    const Test& test = file.tests[i];
    if (test.clauses.empty()) {
      violations->push_back(
          {file.path, test.line, "clause",
           absl::StrCat("test ", test.FullName(),
                        " names no spec clause; add MX_SPEC(\"...\") as its "
                        "first statement")});
    }
    if (!helpers.Reaches(test.calls, IsAssertion)) {
      violations->push_back(
          {file.path, test.line, "assertion",
           absl::StrCat("test ", test.FullName(),
                        " asserts nothing: its body has no EXPECT_, ASSERT_ "
                        "or MX_EXPECT_ assertion and calls no helper of this "
                        "file or its includes that has one (wrap a call "
                        "through a pointer in EXPECT_NO_FATAL_FAILURE)")});
    }
    if (!traps[i] || helpers.Reaches(test.calls, is_no_trap)) continue;
    bool controlled = false;
    for (size_t j = 0; j < file.tests.size() && !controlled; ++j) {
      if (j == i || traps[j]) continue;
      for (const std::string& id : file.tests[j].clauses) {
        if (std::find(test.clauses.begin(), test.clauses.end(), id) !=
            test.clauses.end()) {
          controlled = true;
          break;
        }
      }
    }
    if (!controlled) {
      violations->push_back(
          {file.path, test.line, "trap-control",
           absl::StrCat("trap test ", test.FullName(),
                        " has no legal control: no test of this file without "
                        "MX_EXPECT_TRAP names one of its clauses (",
                        absl::StrJoin(test.clauses, ", "),
                        "), and it does not use MX_EXPECT_NO_TRAP itself")});
    }
  }
}

// Replaces '#' comments of a BUILD file with spaces, keeping strings.
std::string BlankOutBuildComments(absl::string_view text) {
  std::string out(text);
  char quote = 0;
  bool comment = false;
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (comment) {
      if (c == '\n') {
        comment = false;
      } else {
        out[i] = ' ';
      }
    } else if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote || c == '\n') {
        quote = 0;
      }
    } else if (c == '#') {
      comment = true;
      out[i] = ' ';
    } else if (c == '"' || c == '\'') {
      quote = c;
    }
  }
  return out;
}

// The offset of the `)` closing the `(` at `open` in BUILD text, skipping
// strings; npos if none.
size_t FindClosingInBuild(absl::string_view text, size_t open) {
  int depth = 0;
  char quote = 0;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return i;
    }
  }
  return absl::string_view::npos;
}

struct MustNotCompile {
  std::string name;
  int line = 0;
  std::string call;  // the text of the call's arguments
};

// An attribute of a call: kMissing, a plain string, or something else.
enum class Attribute { kMissing, kString, kOther };

Attribute StringAttribute(absl::string_view call, absl::string_view attribute,
                          std::string* value) {
  static const LazyRE2 kAny = {R"(\b(\w+)\s*=\s*)"};
  re2::StringPiece rest = Piece(call);
  std::string name;
  while (RE2::FindAndConsume(&rest, *kAny, &name)) {
    if (name != attribute) continue;
    static const LazyRE2 kString = {R"re(^"([^"\\]*)"\s*[,)]?)re"};
    if (RE2::PartialMatch(rest, *kString, value)) return Attribute::kString;
    return Attribute::kOther;
  }
  return Attribute::kMissing;
}

void LintBuildFile(const SourceFile& build,
                   const absl::flat_hash_map<std::string, size_t>& by_path,
                   const std::vector<SourceFile>& files,
                   std::vector<Violation>* violations) {
  const std::string text = BlankOutBuildComments(build.text);
  const std::string package = Directory(build.path);
  static const LazyRE2 kRule = {
      R"(\b(?:conformance_compile_fail_test|mxmaca_compile_fail_test)\s*\()"};
  std::vector<MustNotCompile> tests;
  re2::StringPiece rest = Piece(text);
  while (RE2::FindAndConsume(&rest, *kRule)) {
    const size_t open = rest.data() - text.data() - 1;
    const size_t close = FindClosingInBuild(text, open);
    if (close == absl::string_view::npos) break;
    MustNotCompile test;
    test.line = LineAt(text, open);
    test.call = text.substr(open + 1, close - open - 1);
    StringAttribute(test.call, "name", &test.name);
    tests.push_back(std::move(test));
  }
  std::set<std::string> rejected;
  for (const MustNotCompile& test : tests) {
    std::string src;
    if (StringAttribute(test.call, "src", &src) == Attribute::kString) {
      rejected.insert(src);
    }
  }
  for (const MustNotCompile& test : tests) {
    auto report = [&](const std::string& rule, const std::string& why) {
      violations->push_back(
          {build.path, test.line, rule,
           absl::StrCat("must-not-compile test ", test.name, " ", why)});
    };
    // The clause rule: `spec` lists at least one clause.
    static const LazyRE2 kSpec = {R"(\bspec\s*=\s*\[([^\]]*)\])"};
    std::string spec;
    if (!RE2::PartialMatch(Piece(test.call), *kSpec, &spec)) {
      report("clause", "has no `spec` list of the clauses it checks");
    } else if (absl::StripAsciiWhitespace(spec).empty()) {
      report("clause", "names no spec clause (`spec` is empty)");
    }
    std::string src;
    std::string control;
    StringAttribute(test.call, "src", &src);
    const Attribute found = StringAttribute(test.call, "control", &control);
    if (found == Attribute::kMissing) {
      report("compile-control", "has no `control` source that compiles");
      continue;
    }
    if (found == Attribute::kOther) {
      report("compile-control",
             "has a `control` that is not a plain string; name the source "
             "beside it so the lint can check it");
      continue;
    }
    if (absl::StartsWith(control, ":")) control = control.substr(1);
    if (absl::StartsWith(control, "//") || absl::StartsWith(control, "@")) {
      report("compile-control",
             absl::StrCat("has control '", control,
                          "' in another package; put the control beside "
                          "the source it answers"));
      continue;
    }
    if (absl::StartsWith(src, ":")) src = src.substr(1);
    if (control == src) {
      report("compile-control", absl::StrCat("uses its rejected source '", src,
                                             "' as its control"));
      continue;
    }
    if (rejected.count(control) > 0) {
      report("compile-control",
             absl::StrCat("has control '", control,
                          "', which a must-not-compile test of this package "
                          "rejects; a control must compile"));
      continue;
    }
    const std::string path =
        package.empty() ? control : absl::StrCat(package, "/", control);
    auto file = by_path.find(Normalize(path));
    if (file == by_path.end()) {
      report("compile-control",
             absl::StrCat("has control '", control,
                          "', which is not a file of its package"));
      continue;
    }
    if (absl::StripAsciiWhitespace(
            BlankOutCommentsAndLiterals(files[file->second].text))
            .empty()) {
      report("compile-control",
             absl::StrCat("has control '", control,
                          "', which holds no code; the control is the same "
                          "program with the broken rule kept"));
    }
  }
}

}  // namespace

std::string Violation::ToString() const {
  return absl::StrCat(file, ":", line, ": [", rule, "] ", message);
}

std::string BlankOutCommentsAndLiterals(absl::string_view source) {
  std::string out(source);
  enum class State { kCode, kLineComment, kBlockComment, kString, kChar, kRaw };
  State state = State::kCode;
  std::string raw_end;  // `)delimiter"` of the raw string being read
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    const char next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case State::kCode:
        if (c == '/' && next == '/') {
          state = State::kLineComment;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = State::kBlockComment;
          out[i] = ' ';
          out[++i] = ' ';
        } else if (c == '"' && i > 0 && out[i - 1] == 'R' &&
                   (i < 2 || !IsIdentifierChar(out[i - 2]) ||
                    out[i - 2] == '8' || out[i - 2] == 'u' ||
                    out[i - 2] == 'U' || out[i - 2] == 'L')) {
          const size_t paren = out.find('(', i + 1);
          if (paren == std::string::npos) break;
          raw_end = ")" + out.substr(i + 1, paren - i - 1) + "\"";
          for (size_t k = i + 1; k <= paren; ++k) out[k] = ' ';
          i = paren;
          state = State::kRaw;
        } else if (c == '"') {
          state = State::kString;
        } else if (c == '\'' &&
                   !(i > 0 &&
                     std::isxdigit(static_cast<unsigned char>(out[i - 1])) &&
                     std::isxdigit(static_cast<unsigned char>(next)))) {
          state = State::kChar;
        }
        break;
      case State::kLineComment:
        if (c == '\n') {
          state = State::kCode;
        } else {
          out[i] = ' ';
        }
        break;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          out[i] = ' ';
          out[++i] = ' ';
          state = State::kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case State::kString:
      case State::kChar:
        if (c == '\\') {
          out[i] = ' ';
          if (i + 1 < out.size() && out[i + 1] != '\n') out[++i] = ' ';
        } else if ((state == State::kString && c == '"') ||
                   (state == State::kChar && c == '\'') || c == '\n') {
          state = State::kCode;
        } else {
          out[i] = ' ';
        }
        break;
      case State::kRaw:
        if (source.substr(i, raw_end.size()) == raw_end) {
          for (size_t k = i; k + 1 < i + raw_end.size(); ++k) out[k] = ' ';
          i += raw_end.size() - 1;  // the closing quote stays
          state = State::kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
    }
  }
  return out;
}

std::vector<Violation> Lint(const std::vector<SourceFile>& files,
                            const std::vector<std::string>& excluded) {
  absl::flat_hash_map<std::string, size_t> by_path;
  for (size_t i = 0; i < files.size(); ++i) {
    by_path.emplace(Normalize(files[i].path), i);
  }
  std::vector<Scanned> scanned(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (IsTestSource(files[i].path) || IsHeader(files[i].path)) {
      scanned[i] = Scan(files[i]);
    } else {
      scanned[i].path = files[i].path;
    }
  }
  absl::flat_hash_map<std::string, size_t> scanned_by_path;
  for (const auto& [path, index] : by_path) {
    if (IsTestSource(path) || IsHeader(path)) scanned_by_path[path] = index;
  }
  std::vector<Violation> violations;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& path = files[i].path;
    if (std::any_of(excluded.begin(), excluded.end(),
                    [&path](const std::string& part) {
                      return !part.empty() && absl::StrContains(path, part);
                    })) {
      continue;
    }
    if (IsBuildFile(path)) {
      LintBuildFile(files[i], by_path, files, &violations);
    } else if (IsTestSource(path)) {
      LintTests(scanned[i], HelperView(scanned, scanned_by_path, i),
                &violations);
    }
  }
  std::stable_sort(violations.begin(), violations.end(),
                   [](const Violation& a, const Violation& b) {
                     return std::tie(a.file, a.line) < std::tie(b.file, b.line);
                   });
  return violations;
}

}  // namespace mxcts::test_lint
