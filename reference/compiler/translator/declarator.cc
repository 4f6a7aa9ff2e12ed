// Copyright mxcts authors.
//
// The decl-specifiers end where the first declarator starts: after one type
// has been read, the next name is the declarator-id (`const T x`: `T` is the
// type, `x` the name; `const T`: `T` is the type and nothing is named). A
// declarator is walked from the outside in: pointer operators, `...`, and a
// parenthesized inner declarator (a `(` whose first token is a pointer
// operator or a lone name) are entered; a name ends the walk, and so do `[`
// or a parameter list `(`, which mark where an abstract declarator's name
// would go. Recursion into parentheses is bounded so that hostile input
// cannot exhaust the stack.
//
// Tested by function_rewrites_test.cc (parameters, template headers) and
// variable_rewrites_test.cc (declarators).

#include "reference/compiler/translator/declarator.h"

#include <unordered_set>

namespace mxcts::compiler::translator_internal {
namespace {

constexpr int kMaxDepth = 64;

bool IsSpecifierKeyword(std::string_view word) {
  static const auto* const kWords = new std::unordered_set<std::string_view>{
      "const",      "volatile",     "static",     "extern",
      "inline",     "constexpr",    "consteval",  "constinit",
      "mutable",    "register",     "virtual",    "friend",
      "typedef",    "__inline",     "__inline__", "__extension__",
      "__thread",   "thread_local", "__const",    "__const__",
      "__volatile", "__volatile__", "__restrict", "__restrict__"};
  return kWords->count(word) > 0 || IsMxmacaQualifier(word);
}

// Spellings followed by a parenthesized argument that is no declarator.
bool IsAttributeLike(std::string_view word) {
  return word == "__attribute__" || word == "__attribute" ||
         word == "alignas" || word == "_Alignas" || word == "__declspec" ||
         word == "__launch_bounds__" || word == "explicit";
}

bool IsTypeofLike(std::string_view word) {
  return word == "decltype" || word == "__decltype" || word == "typeof" ||
         word == "__typeof__" || word == "__typeof" ||
         word == "__underlying_type";
}

bool IsPointerOperator(const TokenStream& s, int i) {
  return s.Is(i, "*") || s.Is(i, "&") || s.Is(i, "&&") || s.Is(i, "^");
}

bool IsCv(const TokenStream& s, int i) {
  return s.Is(i, "const") || s.Is(i, "volatile") || s.Is(i, "__restrict__") ||
         s.Is(i, "__restrict") || s.Is(i, "__const") || s.Is(i, "__volatile__");
}

struct Walk {
  int name = -1;
  int name_begin = -1;
  int name_insert = -1;
  bool pack = false;
  int depth_of_name = 0;
  int after_outermost = -1;  // index after the depth-0 item holding the name
};

void WalkDeclarator(const TokenStream& s, int j, int end, int depth,
                    Walk& walk) {
  while (j < end) {
    int skipped = SkipAttributes(s, j, end);
    if (skipped != j) {
      j = skipped;
      continue;
    }
    if (IsPointerOperator(s, j) || IsCv(s, j)) {
      ++j;
      continue;
    }
    if (s.Is(j, "...")) {
      walk.pack = true;
      ++j;
      continue;
    }
    if (s.IsName(j) || s.Is(j, "::")) {
      int after = SkipQualifiedName(s, j, end);
      if (s.Is(after, "::") && s.Is(after + 1, "*")) {  // member pointer
        j = after + 2;
        continue;
      }
      walk.name_begin = j;
      for (int k = j; k < after; ++k) {
        if (s.IsName(k)) walk.name = k;
      }
      if (walk.name < 0) walk.name_insert = j;
      walk.depth_of_name = depth;
      if (depth == 0) walk.after_outermost = after;
      return;
    }
    if (s.Is(j, "~") && s.IsName(j + 1)) {
      walk.name_begin = j;
      walk.name = j + 1;
      if (depth == 0) walk.after_outermost = j + 2;
      return;
    }
    if (s.Is(j, "operator")) {
      walk.name_begin = walk.name = j;
      if (depth == 0) walk.after_outermost = j + 1;
      return;
    }
    if (s.Is(j, "(") && depth < kMaxDepth) {
      int close = s.Match(j);
      int first = j + 1;
      bool inner_declarator =
          close > j && close <= end &&
          (IsPointerOperator(s, first) ||
           (s.IsName(first) && s.Match(j) == first + 1) ||
           (s.IsName(first) && s.Is(SkipQualifiedName(s, first, close), "::") &&
            s.Is(SkipQualifiedName(s, first, close) + 1, "*")));
      if (inner_declarator) {
        WalkDeclarator(s, first, close, depth + 1, walk);
        if (depth == 0) walk.after_outermost = close + 1;
        return;
      }
    }
    walk.name_insert = j;
    return;
  }
  walk.name_insert = end;
}

}  // namespace

int SkipAttributes(const TokenStream& s, int i, int end) {
  while (i < end) {
    if (s.Is(i, "[") && s.Is(i + 1, "[")) {
      i = s.SkipGroup(i, end);
    } else if (s.IsIdentifier(i) && IsAttributeLike(s.at(i).text) &&
               s.Is(i + 1, "(")) {
      i = s.SkipGroup(i + 1, end);
    } else {
      return i;
    }
  }
  return i;
}

bool IsMxmacaQualifier(std::string_view word) {
  return word == "__global__" || word == "__device__" || word == "__host__" ||
         word == "__shared__" || word == "__constant__" ||
         word == "__managed__" || word == "__grid_constant__" ||
         word == "__noinline__" || word == "__forceinline__" ||
         word == "__inline_hint__" || word == "__launch_bounds__";
}

int SkipQualifiedName(const TokenStream& s, int begin, int end) {
  int j = begin;
  if (s.Is(j, "::")) ++j;
  while (j < end) {
    if (s.Is(j, "template")) ++j;
    if (!s.IsName(j) || j >= end) break;
    ++j;
    if (j < end && s.OpensTemplateArguments(j)) {
      int close = s.MatchAngle(j, end);
      if (close > j) j = close + 1;
    }
    if (j + 1 < end && s.Is(j, "::") &&
        (s.IsName(j + 1) || s.Is(j + 1, "template"))) {
      ++j;
      continue;
    }
    break;
  }
  return j;
}

int SpecifiersEnd(const TokenStream& s, int begin, int end) {
  bool type_seen = false;
  int j = begin;
  while (j < end) {
    int skipped = SkipAttributes(s, j, end);
    if (skipped != j) {
      j = skipped;
      continue;
    }
    const Token& t = s.at(j);
    if (t.kind == TokenKind::kString && s.Is(j - 1, "extern")) {
      ++j;
      continue;
    }
    if (t.kind != TokenKind::kIdentifier && !s.Is(j, "::")) break;
    std::string_view word = t.text;
    if (IsSpecifierKeyword(word)) {
      ++j;
      continue;
    }
    if (word == "typename") {
      ++j;
      continue;
    }
    if (word == "class" || word == "struct" || word == "union" ||
        word == "enum") {
      ++j;
      if (word == "enum" && (s.Is(j, "class") || s.Is(j, "struct"))) ++j;
      j = SkipAttributes(s, j, end);
      j = SkipQualifiedName(s, j, end);
      if (s.Is(j, "{")) j = s.SkipGroup(j, end);
      type_seen = true;
      continue;
    }
    if (IsSimpleTypeKeyword(word)) {
      type_seen = true;
      ++j;
      continue;
    }
    if (IsTypeofLike(word) && s.Is(j + 1, "(")) {
      j = s.SkipGroup(j + 1, end);
      type_seen = true;
      continue;
    }
    if (s.IsName(j) || s.Is(j, "::")) {
      if (type_seen) break;
      int after = SkipQualifiedName(s, j, end);
      if (after == j) break;
      if (s.Is(after, "::") && s.Is(after + 1, "*")) break;  // S::* p
      j = after;
      type_seen = true;
      continue;
    }
    break;
  }
  return j;
}

Declarator AnalyzeDeclarator(const TokenStream& s, int begin, int end,
                             bool variable) {
  Declarator d;
  d.range = {begin, end};
  Walk walk;
  WalkDeclarator(s, begin, end, 0, walk);
  d.name = walk.name;
  d.name_begin = walk.name_begin;
  d.name_insert = walk.name < 0 ? walk.name_insert : -1;
  d.pack = walk.pack;
  int eq = s.FindTopLevel(begin, end, "=", true);
  if (eq >= 0) {
    d.initializer = eq;
  } else if (walk.after_outermost >= 0) {
    int k = walk.after_outermost;
    while (k < end && (s.Is(k, "[") || (walk.depth_of_name > 0 &&
                                        (s.Is(k, "(") || IsCv(s, k))))) {
      k = s.SkipOne(k, end, false);
    }
    k = SkipAttributes(s, k, end);
    if (s.Is(k, "{") || (variable && s.Is(k, "("))) d.initializer = k;
  }
  d.declarator_end = d.initializer >= 0 ? d.initializer : end;
  if (d.name_insert > d.declarator_end) d.name_insert = d.declarator_end;
  return d;
}

ParameterList AnalyzeParameters(const TokenStream& s, int open, int close) {
  ParameterList list;
  std::vector<Range> parts = s.SplitTopLevel(open + 1, close, ",", true);
  if (parts.size() == 1 && parts[0].end == parts[0].begin + 1 &&
      s.Is(parts[0].begin, "void")) {
    return list;
  }
  for (const Range& part : parts) {
    if (part.end == part.begin + 1 && s.Is(part.begin, "...")) {
      list.c_variadic = true;
      list.ellipsis = part.begin;
      continue;
    }
    Parameter p;
    p.range = part;
    for (int k = part.begin; k < part.end; k = s.SkipOne(k, part.end, true)) {
      if (s.Is(k, "__grid_constant__")) p.grid_constant.push_back(k);
    }
    int specifiers_end = SpecifiersEnd(s, part.begin, part.end);
    p.declarator = AnalyzeDeclarator(s, specifiers_end, part.end, false);
    if (p.declarator.initializer >= 0 && s.Is(p.declarator.initializer, "=")) {
      p.default_begin = p.declarator.initializer;
    }
    if (p.declarator.name >= 0) {
      p.name = std::string(s.at(p.declarator.name).text);
    }
    list.parameters.push_back(std::move(p));
  }
  return list;
}

std::vector<TemplateParameter> AnalyzeTemplateParameters(const TokenStream& s,
                                                         int open, int close) {
  std::vector<TemplateParameter> result;
  for (const Range& part : s.SplitTopLevel(open + 1, close, ",", true)) {
    TemplateParameter p;
    int end = s.FindTopLevel(part.begin, part.end, "=", true);
    if (end < 0) end = part.end;
    int j = part.begin;
    if (s.Is(j, "template") && s.Is(j + 1, "<")) {
      int inner_close = s.MatchAngle(j + 1, end);
      j = inner_close > j ? inner_close + 1 : end;
    }
    int k = j + 1;
    bool pack = s.Is(k, "...");
    if (pack) ++k;
    // `typename T::type N` is a non-type parameter.
    bool type_parameter = (s.Is(j, "typename") || s.Is(j, "class")) &&
                          (k >= end || (s.IsName(k) && k + 1 >= end));
    if (type_parameter) {
      p.pack = pack;
      if (k < end) {
        p.name = std::string(s.at(k).text);
      } else {
        p.name_insert = k;
      }
    } else {
      int specifiers_end = SpecifiersEnd(s, j, end);
      Declarator d = AnalyzeDeclarator(s, specifiers_end, end, false);
      p.pack = d.pack;
      if (d.name >= 0) {
        p.name = std::string(s.at(d.name).text);
      } else {
        p.name_insert = d.name_insert;
      }
    }
    result.push_back(std::move(p));
  }
  return result;
}

}  // namespace mxcts::compiler::translator_internal
