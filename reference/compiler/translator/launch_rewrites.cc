// Copyright mxcts authors.
//
// A launch is found from its `<<<`: a `<<` token touching a `<` token
// (`<<<` is no C++ token, and `< <<` is no launch
// [lang.launch.syntax.chevrons-are-single-tokens]). The kernel expression
// E is read backwards from there: a name, optionally with template
// arguments (matched backwards, `>>` counting twice) and `::` qualifiers,
// or a parenthesized expression. The configuration ends at the first
// `>>>` outside brackets that is followed by `(`; template argument lists
// inside the operands that end in `>>>` therefore need brackets around
// them, and commas split operands only outside (), [] and {}.
//
// E moves behind the configuration, so the text becomes
// `(Push(C...), E(A...))`: the comma operator evaluates the configuration
// before the arguments [lang.launch.config-evaluated-before-args].
//
// Tested by launch_rewrites_test.cc and diagnostics_test.cc.

#include "reference/compiler/translator/launch_rewrites.h"

namespace mxcts::compiler::translator_internal {
namespace {

struct KernelExpression {
  int begin = -1;  // first token of E
  int name = -1;   // the name E calls, or -1 for `(expression)`
};

// Template arguments ending at `close` (`>` or `>>`), matched backwards:
// the index of their `<`, or -1.
int MatchAngleBackwards(const TokenStream& s, int close) {
  int depth = 0;
  for (int m = close; m >= 0; --m) {
    if (s.Is(m, ">")) ++depth;
    if (s.Is(m, ">>")) depth += 2;
    if (s.Is(m, "<")) --depth;
    if (s.Is(m, "<<")) depth -= 2;
    if (s.Is(m, ")") || s.Is(m, "]") || s.Is(m, "}")) {
      m = s.Match(m);
      if (m < 0) return -1;
      continue;
    }
    if (s.Is(m, ";") || s.Is(m, "{") || s.Is(m, "(") || s.Is(m, "[")) {
      return -1;
    }
    if (depth <= 0) return depth == 0 ? m : -1;
  }
  return -1;
}

KernelExpression FindKernelExpression(const TokenStream& s, int last) {
  KernelExpression e;
  if (s.Is(last, ")")) {
    e.begin = s.Match(last);
    return e;
  }
  for (int k = last; k >= 0;) {
    if (s.Is(k, ">") || s.Is(k, ">>")) {
      int open = MatchAngleBackwards(s, k);
      if (open < 0) return {};
      k = open - 1;
    }
    if (!s.IsName(k)) return {};
    if (e.name < 0) e.name = k;
    int start = s.Is(k - 1, "template") ? k - 1 : k;
    if (!s.Is(start - 1, "::")) {
      e.begin = start;
      return e;
    }
    if (s.IsName(start - 2) || s.Is(start - 2, ">") || s.Is(start - 2, ">>")) {
      k = start - 2;
      continue;
    }
    e.begin = start - 1;
    return e;
  }
  return {};
}

// The `>>` of the `>>>` closing the configuration opened at `open`, or -1.
int FindConfigurationEnd(const TokenStream& s, int open) {
  for (int k = open + 2; k < s.size();) {
    if (s.IsLaunchClose(k) && s.Is(k + 2, "(")) return k;
    if (s.Is(k, "(") || s.Is(k, "[") || s.Is(k, "{")) {
      int close = s.Match(k);
      if (close < 0) return -1;
      k = close + 1;
      continue;
    }
    if (s.Is(k, ")") || s.Is(k, "]") || s.Is(k, "}") || s.Is(k, ";")) {
      return -1;
    }
    ++k;
  }
  return -1;
}

}  // namespace

FunctionNames CollectFunctionNames(const Context& c) {
  FunctionNames names;
  for (const FunctionDeclaration& f : c.index.functions) {
    if (!c.s.IsName(f.name)) continue;
    std::string name(c.s.at(f.name).text);
    if (f.Has(c.s, "__global__")) {
      names.kernels.insert(name);
    } else {
      names.others.insert(name);
    }
    names.declarator_ids.insert(f.name);
  }
  return names;
}

void RewriteLaunches(Context& c, const FunctionNames& names) {
  const TokenStream& s = c.s;
  for (int open = 1; open < s.size(); ++open) {
    if (!s.IsLaunchOpen(open) || s.Is(open - 1, "operator")) continue;
    KernelExpression e = FindKernelExpression(s, open - 1);
    if (e.begin < 0) continue;
    if (s.Is(e.begin - 1, ".") || s.Is(e.begin - 1, "->")) {
      c.Error(open,
              "an execution configuration must follow the name of a "
              "__global__ function, not a member "
              "[lang.launch.syntax.chevron-between-name-and-args]");
      continue;
    }
    int close = FindConfigurationEnd(s, open);
    if (close < 0) continue;
    int args_close = s.Match(close + 2);
    if (args_close < 0) continue;
    if (e.name >= 0) {
      std::string name(s.at(e.name).text);
      if (names.others.count(name) && !names.kernels.count(name)) {
        c.Error(e.name,
                "'" + name +
                    "' is not a __global__ function and cannot be "
                    "launched with <<<...>>> "
                    "[lang.launch.syntax.chevron-between-name-and-args]");
      }
    }
    size_t operands = s.SplitTopLevel(open + 2, close, ",", false).size();
    if (operands < 2 || operands > 4) {
      c.Error(open,
              "an execution configuration takes 2 to 4 operands, not " +
                  std::to_string(operands) +
                  " [lang.launch.syntax.fewer-than-two-operands-is-error]");
    }
    c.ReplaceTokens(e.begin, open + 2,
                    "(::__mc_internal::PushLaunchConfiguration(");
    c.ReplaceTokens(close, close + 2, "), " + s.Text(e.begin, open));
    c.InsertAfter(args_close, ")");
    open = close + 1;
  }
}

void CheckKernelCalls(Context& c, const FunctionNames& names) {
  const TokenStream& s = c.s;
  if (names.kernels.empty()) return;
  for (int t = 0; t < s.size(); ++t) {
    if (!s.IsName(t) || names.declarator_ids.count(t)) continue;
    std::string name(s.at(t).text);
    if (!names.kernels.count(name) || names.others.count(name)) continue;
    if (s.Is(t - 1, ".") || s.Is(t - 1, "->")) continue;
    int after = t + 1;
    if (s.OpensTemplateArguments(after)) {
      int close = s.MatchAngle(after, s.size());
      if (close < 0) continue;
      after = close + 1;
    }
    if (!s.Is(after, "(")) continue;
    c.Error(t, "a call of __global__ function '" + name +
                   "' needs an execution configuration <<<...>>> "
                   "[lang.function.global.requires-configuration]");
  }
}

}  // namespace mxcts::compiler::translator_internal
