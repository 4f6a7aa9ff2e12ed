// Copyright mxcts authors.
//
// A recursive scanner over declaration sequences. Each declaration is read
// left to right at bracket depth zero until its `;` or its function body:
//
//   * a name followed by a `(` that can start a parameter list (it is empty
//     or starts like a type, not like `*x`, `&x` or an expression) marks a
//     function declarator; the qualified name before it is the
//     declarator-id;
//   * after that, a top-level `{` (not after `=`) is the function body; a
//     `:` starts constructor initializers, whose groups are skipped;
//   * a class-key followed by a name and `{` or a base clause opens a class
//     body, scanned as class scope; an enum body is skipped;
//   * `=` starts an initializer, skipped to the `;` with brace groups whole
//     (lambdas included).
//
// Namespaces, `extern "C" {` blocks and template headers are handled before
// a declaration starts. Nesting is bounded; deeper scopes are skipped.
//
// Tested by translator_test.cc and the rewrite tests, which depend on it.

#include "reference/compiler/translator/declarations.h"

namespace mxcts::compiler::translator_internal {
namespace {

constexpr int kMaxScopeDepth = 200;

enum class Item { kOther, kName, kTemplateId, kScope };

bool HeadHas(const TokenStream& s, int begin, int end, std::string_view word,
             int* at) {
  for (int k = begin; k < end; k = s.SkipOne(k, end, true)) {
    if (s.Is(k, word)) {
      if (at != nullptr) *at = k;
      return true;
    }
  }
  return false;
}

class Scanner {
 public:
  Scanner(const TokenStream& s, const SourceMap& map) : s_(s), map_(map) {}

  DeclarationIndex Run() {
    DeclarationScope scope;
    ScanSequence(0, s_.size(), scope, 0);
    return std::move(index_);
  }

 private:
  void ScanSequence(int begin, int end, DeclarationScope scope, int depth) {
    for (int i = begin; i < end;) {
      if (depth == 0) scope.file_scope_begin = i;
      int next = ScanDeclaration(i, end, scope, depth);
      i = next > i ? next : i + 1;
    }
  }

  // The end of a scope body opening at `open`, for ScanSequence.
  int BodyEnd(int open, int end) const {
    int close = s_.Match(open);
    return close > open && close <= end ? close : end;
  }

  int SkipToSemicolon(int i, int end) const {
    for (int k = i; k < end; k = s_.SkipOne(k, end, false)) {
      if (s_.Is(k, ";")) return k + 1;
      if (s_.Is(k, "}")) return k;
    }
    return end;
  }

  int ScanDeclaration(int i, int end, const DeclarationScope& scope,
                      int depth) {
    if (s_.Is(i, "__extension__")) return i + 1;
    if (scope.kind == ScopeKind::kClass &&
        (s_.Is(i, "public") || s_.Is(i, "private") || s_.Is(i, "protected")) &&
        s_.Is(i + 1, ":")) {
      return i + 2;
    }
    int k = s_.Is(i, "inline") && s_.Is(i + 1, "namespace") ? i + 1 : i;
    if (s_.Is(k, "namespace")) return ScanNamespace(k + 1, end, scope, depth);
    if (s_.Is(i, "extern") &&
        s_.at(i + 1 < end ? i + 1 : i).kind == TokenKind::kString &&
        s_.Is(i + 2, "{")) {
      int close = BodyEnd(i + 2, end);
      if (depth < kMaxScopeDepth) ScanSequence(i + 3, close, scope, depth + 1);
      return close + 1;
    }
    if (s_.Is(i, "using") || s_.Is(i, "static_assert") ||
        s_.Is(i, "_Static_assert") || s_.Is(i, "asm") || s_.Is(i, "__asm__") ||
        s_.Is(i, "__asm") || (s_.Is(i, "extern") && s_.Is(i + 1, "template"))) {
      return SkipToSemicolon(i, end);
    }
    int head = i;
    int template_open = -1, template_close = -1;
    while (s_.Is(head, "template") && s_.Is(head + 1, "<")) {
      int close = s_.MatchAngle(head + 1, end);
      if (close < 0) return SkipToSemicolon(i, end);
      template_open = head + 1;
      template_close = close;
      head = close + 1;
    }
    if (head == i && s_.Is(i, "template")) head = i + 1;  // instantiation
    return ScanGeneral(i, head, end, template_open, template_close, scope,
                       depth);
  }

  int ScanNamespace(int k, int end, const DeclarationScope& scope, int depth) {
    DeclarationScope inner = scope;
    bool named = false;
    while (k < end) {
      k = SkipAttributes(s_, k, end);
      if (s_.Is(k, "inline")) {
        ++k;
      } else if (s_.IsName(k)) {
        inner.namespaces.emplace_back(s_.at(k).text);
        named = true;
        ++k;
      } else if (s_.Is(k, "::")) {
        ++k;
      } else {
        break;
      }
    }
    if (!s_.Is(k, "{")) return SkipToSemicolon(k, end);
    if (!named) inner.namespaces.emplace_back("(anonymous namespace)");
    int close = BodyEnd(k, end);
    if (depth < kMaxScopeDepth) ScanSequence(k + 1, close, inner, depth + 1);
    return close + 1;
  }

  // A `(` at `open` that can start a parameter list.
  bool LooksLikeParameters(int open) const {
    int close = s_.Match(open);
    if (close <= open) return false;
    int first = open + 1;
    if (first == close) return true;
    const Token& t = s_.at(first);
    if (t.kind == TokenKind::kNumber || t.kind == TokenKind::kString ||
        t.kind == TokenKind::kCharacter) {
      return false;
    }
    if (s_.Is(first, "[")) return s_.Is(first + 1, "[");
    for (std::string_view no :
         {"*", "&", "&&", "^", "(", "-", "+", "!", "~", "this", "true", "false",
          "nullptr", "new", "sizeof", "alignof", "{"}) {
      if (s_.Is(first, no)) return false;
    }
    return true;
  }

  int SkipOperatorName(int k, int end) const {
    if ((s_.Is(k, "(") && s_.Is(k + 1, ")")) ||
        (s_.Is(k, "[") && s_.Is(k + 1, "]"))) {
      return k + 2;
    }
    if (s_.Is(k, "new") || s_.Is(k, "delete")) {
      return s_.Is(k + 1, "[") && s_.Is(k + 2, "]") ? k + 3 : k + 1;
    }
    if (k < end && s_.at(k).kind == TokenKind::kString) {
      return s_.IsName(k + 1) ? k + 2 : k + 1;
    }
    if (k < end && s_.at(k).kind == TokenKind::kPunctuator && !s_.Is(k, "(")) {
      return k + 1;
    }
    while (k < end && !s_.Is(k, "(") && !s_.Is(k, ";") && !s_.Is(k, "{")) {
      k = s_.SkipOne(k, end, true);
    }
    return k;
  }

  int SkipMemberInitializers(int k, int end) const {
    while (k < end) {
      int after = SkipQualifiedName(s_, k, end);
      if (after == k) return k;
      k = after;
      if (s_.Is(k, "(") || s_.Is(k, "{")) k = s_.SkipGroup(k, end);
      if (s_.Is(k, "...")) ++k;
      if (!s_.Is(k, ",")) return k;
      ++k;
    }
    return k;
  }

  // A class-key at `j`: returns the `{` of its body, or -1; `*after` is the
  // index after the class head.
  int ClassHead(int j, int end, std::string* name, int* after) const {
    int k = j + 1;
    if (s_.Is(j, "enum") && (s_.Is(k, "class") || s_.Is(k, "struct"))) ++k;
    k = SkipAttributes(s_, k, end);
    int name_end = SkipQualifiedName(s_, k, end);
    for (int n = k; n < name_end; ++n) {
      if (s_.IsName(n)) *name = std::string(s_.at(n).text);
    }
    k = name_end;
    *after = k;
    if (s_.Is(k, "final")) ++k;
    if (s_.Is(k, "{")) return k;
    if (!s_.Is(k, ":")) return -1;
    for (int b = k + 1; b < end; b = s_.SkipOne(b, end, true)) {
      if (s_.Is(b, "{")) return b;
      if (s_.Is(b, ";") || s_.Is(b, "}") || s_.Is(b, "=")) return -1;
    }
    return -1;
  }

  int ScanGeneral(int begin, int head, int end, int template_open,
                  int template_close, const DeclarationScope& scope,
                  int depth) {
    FunctionDeclaration f;
    f.scope = scope;
    f.range.begin = begin;
    f.head_begin = head;
    f.template_open = template_open;
    f.template_close = template_close;
    f.params_open = -1;
    bool saw_equals = false, is_typedef = false;
    Item previous = Item::kOther;
    int chain_begin = -1, last_name = -1;
    int j = head;
    while (j < end) {
      if (s_.Is(j, ";")) {
        Finish(f, j + 1, is_typedef);
        return j + 1;
      }
      if (s_.Is(j, "}") || s_.Is(j, ")") || s_.Is(j, "]")) {
        Finish(f, j, is_typedef);
        return j + 1;
      }
      if (s_.Is(j, "{") && !saw_equals && f.params_open >= 0) {
        f.body_open = j;
        f.body_begin = s_.Is(j - 1, "try") ? j - 1 : j;
        int k = s_.SkipGroup(j, end);
        while (s_.Is(k, "catch") && s_.Is(k + 1, "(")) {
          k = s_.SkipGroup(k + 1, end);
          if (s_.Is(k, "{")) k = s_.SkipGroup(k, end);
        }
        f.body_end = k;
        Finish(f, k, is_typedef);
        return k;
      }
      if (saw_equals || s_.Is(j, "{")) {
        saw_equals = saw_equals || s_.Is(j, "=");
        j = s_.SkipOne(j, end, false);
        continue;
      }
      if (s_.Is(j, "=")) {
        saw_equals = true;
        ++j;
        continue;
      }
      if (f.params_open >= 0) {
        if (s_.Is(j, "->") && f.trailing_arrow < 0) f.trailing_arrow = j;
        if (s_.Is(j, ":") && f.trailing_arrow < 0) {
          j = SkipMemberInitializers(j + 1, end);
          continue;
        }
        j = s_.SkipOne(j, end, true);
        continue;
      }
      if (s_.Is(j, "class") || s_.Is(j, "struct") || s_.Is(j, "union") ||
          s_.Is(j, "enum")) {
        std::string name;
        int after = j + 1;
        int open = ClassHead(j, end, &name, &after);
        if (open < 0) {
          j = after > j ? after : j + 1;
          previous = Item::kOther;
          continue;
        }
        int close = BodyEnd(open, end);
        if (!s_.Is(j, "enum") && depth < kMaxScopeDepth) {
          DeclarationScope inner = scope;
          inner.kind = ScopeKind::kClass;
          ScanSequence(open + 1, close, inner, depth + 1);
        }
        j = close + 1;
        previous = Item::kOther;
        continue;
      }
      if (s_.Is(j, "typedef")) is_typedef = true;
      if (s_.Is(j, "friend")) f.is_friend = true;
      if (s_.Is(j, "operator")) {
        if (previous != Item::kScope) chain_begin = j;
        int k = SkipOperatorName(j + 1, end);
        if (s_.Is(k, "(") && s_.Match(k) > k) {
          SetParameters(f, chain_begin, j, k);
          j = s_.SkipGroup(k, end);
        } else {
          j = k > j ? k : j + 1;
        }
        previous = Item::kOther;
        continue;
      }
      if (s_.Is(j, "(")) {
        bool after_name =
            previous == Item::kName || previous == Item::kTemplateId;
        if (after_name && chain_begin >= 0 && last_name >= 0 &&
            s_.at(last_name).text != "__launch_bounds__" &&
            LooksLikeParameters(j)) {
          SetParameters(f, chain_begin, last_name, j);
        }
        j = s_.SkipGroup(j, end);
        previous = Item::kOther;
        continue;
      }
      if (s_.Is(j, "::")) {
        if (previous != Item::kName && previous != Item::kTemplateId) {
          chain_begin = j;
        }
        previous = Item::kScope;
        ++j;
        continue;
      }
      if (s_.Is(j, "template") && previous == Item::kScope) {
        ++j;
        continue;
      }
      if (s_.Is(j, "~") && s_.IsName(j + 1)) {
        if (previous != Item::kScope) chain_begin = j;
        previous = Item::kScope;
        ++j;
        continue;
      }
      if (s_.IsName(j)) {
        if (previous != Item::kScope) chain_begin = j;
        last_name = j;
        previous = Item::kName;
        ++j;
        if (s_.OpensTemplateArguments(j)) {
          int close = s_.MatchAngle(j, end);
          if (close > j) {
            j = close + 1;
            previous = Item::kTemplateId;
          }
        }
        continue;
      }
      previous = Item::kOther;
      j = s_.SkipOne(j, end, false);
    }
    Finish(f, end, is_typedef);
    return end;
  }

  void SetParameters(FunctionDeclaration& f, int name_begin, int name,
                     int open) {
    f.name_begin = name_begin;
    f.name = name;
    f.params_open = open;
    f.params_close = s_.Match(open);
  }

  void Finish(FunctionDeclaration& f, int end, bool is_typedef) {
    f.range.end = end;
    f.system_header =
        map_.Locate(
                s_.at(f.head_begin < s_.size() ? f.head_begin : s_.size() - 1)
                    .line)
            .system_header;
    if (is_typedef) return;
    if (f.params_open >= 0 && f.params_close > f.params_open) {
      for (int k = f.head_begin; k < f.params_open;
           k = s_.SkipOne(k, f.params_open, true)) {
        if (s_.IsIdentifier(k) && IsMxmacaQualifier(s_.at(k).text)) {
          f.qualifiers.push_back(k);
        }
      }
      index_.functions.push_back(std::move(f));
      return;
    }
    if (!s_.Is(end - 1, ";")) return;
    VariableDeclaration v;
    v.scope = f.scope;
    v.system_header = f.system_header;
    v.range = {f.range.begin, end};
    v.head_begin = f.head_begin;
    v.is_template = f.template_open >= 0;
    int semicolon = end - 1;
    int stop = s_.FindTopLevel(f.head_begin, semicolon, "=", true);
    if (stop < 0) stop = semicolon;
    bool memory_space = false;
    for (int k = f.head_begin; k < stop; k = s_.SkipOne(k, stop, true)) {
      if (s_.IsIdentifier(k) && IsMxmacaQualifier(s_.at(k).text)) {
        v.qualifiers.push_back(k);
        std::string_view q = s_.at(k).text;
        memory_space = memory_space || q == "__device__" ||
                       q == "__constant__" || q == "__managed__" ||
                       q == "__shared__";
      }
    }
    if (!memory_space) return;
    v.specifiers_end = SpecifiersEnd(s_, f.head_begin, semicolon);
    for (const Range& part :
         s_.SplitTopLevel(v.specifiers_end, semicolon, ",", true)) {
      v.declarators.push_back(
          AnalyzeDeclarator(s_, part.begin, part.end, true));
    }
    index_.variables.push_back(std::move(v));
  }

  const TokenStream& s_;
  const SourceMap& map_;
  DeclarationIndex index_;
};

}  // namespace

bool FunctionDeclaration::Has(const TokenStream& s,
                              std::string_view word) const {
  return Find(s, word) >= 0;
}

int FunctionDeclaration::Find(const TokenStream& s,
                              std::string_view word) const {
  int at = -1;
  HeadHas(s, head_begin, name_begin, word, &at);
  return at;
}

bool VariableDeclaration::Has(const TokenStream& s,
                              std::string_view word) const {
  return Find(s, word) >= 0;
}

int VariableDeclaration::Find(const TokenStream& s,
                              std::string_view word) const {
  int at = -1;
  HeadHas(s, head_begin, specifiers_end, word, &at);
  return at;
}

DeclarationIndex ScanDeclarations(const TokenStream& s, const SourceMap& map) {
  return Scanner(s, map).Run();
}

}  // namespace mxcts::compiler::translator_internal
