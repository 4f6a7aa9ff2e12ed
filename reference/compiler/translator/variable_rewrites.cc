// Copyright mxcts authors.
//
// A declaration `[static] __shared__ SPEC D1, D2;` is taken apart into its
// specifiers and its declarators; each declarator becomes a typedef of its
// own type (`typedef SPEC D'` where D' is the declarator with its name
// replaced by the typedef name, so that pointers, arrays and function
// pointers keep their shape) and a reference of that type bound to storage
// the runtime allocates per block. The same shape serves `__managed__`
// variables in the host pass, bound to the storage the runtime maps.
// `__device__` and `__constant__` variables keep their declaration (the
// qualifier goes, in the qualifier pass) and gain a registration or a
// record after it; in the device pass a `__constant__` declaration also
// gets a section attribute where its qualifier was.
//
// Later uses of a namespace-scope `__shared__` name become calls of its
// accessor, except after `.`, `->` and `::` and where the name is declared
// again (a member or a local of the same name).
//
// Block-scope statements are found from their `__shared__` token: back to
// the previous `;`, `{`, `}` or label colon, forward to the `;`; a `(`, `[`
// or `,` on the way means the token is in no declaration statement, and it
// is left to the qualifier pass.
//
// Tested by variable_rewrites_test.cc and diagnostics_test.cc.

#include "reference/compiler/translator/variable_rewrites.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace mxcts::compiler::translator_internal {
namespace {

bool IsDroppedSpecifier(const TokenStream& s, int k) {
  return s.Is(k, "static") || s.Is(k, "extern") || s.Is(k, "inline") ||
         s.Is(k, "__extension__") ||
         (s.IsIdentifier(k) && IsMxmacaQualifier(s.at(k).text));
}

std::string SpecifierText(const TokenStream& s, int begin, int end) {
  std::string text;
  for (int k = begin; k < end; ++k) {
    if (IsDroppedSpecifier(s, k)) continue;
    if (!text.empty()) text.push_back(' ');
    text.append(s.at(k).text);
  }
  return text;
}

// The declarator of `d` with its name replaced by `type_name`.
std::string RenamedDeclarator(const TokenStream& s, const Declarator& d,
                              const std::string& type_name) {
  std::string text;
  for (int k = d.range.begin; k < d.declarator_end; ++k) {
    if (!text.empty()) text.push_back(' ');
    text += k == d.name ? type_name : std::string(s.at(k).text);
  }
  return text;
}

bool CheckNoInitializer(Context& c, const Declarator& d) {
  if (d.initializer < 0) return true;
  c.Error(d.initializer,
          "a __shared__ variable cannot have an initializer "
          "[lang.variable.shared.no-initializer]");
  return false;
}

// [lang.variable.device.at-most-one-other-specifier]
void CheckSpaces(Context& c, const VariableDeclaration& v) {
  int count = 0;
  for (int q : v.qualifiers) {
    std::string_view word = c.s.at(q).text;
    if (word == "__constant__" || word == "__shared__" ||
        word == "__managed__") {
      if (++count == 2) {
        c.Error(q,
                "__constant__, __shared__ and __managed__ exclude each "
                "other [lang.variable.device.at-most-one-other-specifier]");
      }
    }
  }
}

bool IsSpaceWord(std::string_view word) {
  return word == "__device__" || word == "__constant__" ||
         word == "__shared__" || word == "__managed__";
}

// [lang.variable.placement.not-on-members] Only static data members may
// carry a memory space.
void CheckMember(Context& c, const VariableDeclaration& v) {
  if (v.scope.kind != ScopeKind::kClass || v.Has(c.s, "static")) return;
  for (int q : v.qualifiers) {
    if (IsSpaceWord(c.s.at(q).text)) {
      c.Error(q, std::string(c.s.at(q).text) +
                     " is not allowed on a non-static data member "
                     "[lang.variable.placement.not-on-members]");
      return;
    }
  }
}

// Whether `const` applies to the object `d` declares (not only to what a
// pointer of it points to): a `const` after the last `*`, or among the
// specifiers when the declarator has no `*`.
bool DeclaresConstObject(const TokenStream& s, const VariableDeclaration& v,
                         const Declarator& d) {
  bool const_since_pointer = false;
  for (int k = v.head_begin; k < v.specifiers_end;
       k = s.SkipOne(k, v.specifiers_end, true)) {
    if (s.Is(k, "const") || s.Is(k, "constexpr")) const_since_pointer = true;
  }
  const int end = d.name >= 0 ? d.name : d.declarator_end;
  for (int k = d.range.begin; k < end; k = s.SkipOne(k, end, true)) {
    if (s.Is(k, "*")) const_since_pointer = false;
    if (s.Is(k, "const")) const_since_pointer = true;
  }
  return const_since_pointer;
}

// [lang.variable.managed.not-const-or-reference] (a reference is refused
// by the host compiler, through the pointer the host pass declares).
void CheckManagedConst(Context& c, const VariableDeclaration& v) {
  int managed = v.Find(c.s, "__managed__");
  if (managed < 0) return;
  for (const Declarator& d : v.declarators) {
    if (DeclaresConstObject(c.s, v, d)) {
      c.Error(d.name >= 0 ? d.name : managed,
              "a __managed__ variable cannot be const "
              "[lang.variable.managed.not-const-or-reference]");
    }
  }
}

// The key of a device variable: its qualified name, the same in the host
// and device passes of one source. As relocatable device code, '@' and the
// source's tag follow: the device link puts several sources' variables
// into one image, where two `static` variables of one name must not share
// a key. The runtime shows keys without the tag.
std::string Key(const Context& c, const VariableDeclaration& v,
                std::string_view name) {
  std::string key;
  for (const std::string& ns : v.scope.namespaces) key += ns + "::";
  key += name;
  if (c.relocatable_device_code) key += "@" + c.UniqueRecordTag();
  return key;
}

// What makes the record names of a source's variables unique in an image
// of relocatable device code (records are exported, so the linker would
// see two sources' `__mc_variable_record_0` as one symbol defined twice).
std::string RecordTag(const Context& c) {
  return c.relocatable_device_code ? c.UniqueRecordTag() + "_" : "";
}

// Rewrite 7; returns the replacement of the whole declaration.
std::string NamespaceShared(Context& c, const VariableDeclaration& v,
                            std::map<std::string, std::string>& uses) {
  std::string spec = SpecifierText(c.s, v.head_begin, v.specifiers_end);
  bool dynamic = v.Has(c.s, "extern");
  std::string out;
  for (const Declarator& d : v.declarators) {
    CheckNoInitializer(c, d);
    if (d.name < 0) continue;
    std::string n = std::to_string(c.NextId());
    std::string type = "__mc_shared_t_" + n;
    std::string ref = "__mc_shared_ref_" + n;
    out += "typedef " + spec + " " + RenamedDeclarator(c.s, d, type) +
           "; static inline " + type + "& " + ref + "() { ";
    if (dynamic) {
      out += "return *reinterpret_cast<" + type +
             "*>(::__mc_dev_dynamic_shared()); } ";
    } else {
      out += "static char site; return *static_cast<" + type +
             "*>(::__mc_dev_shared_variable(&site, sizeof(" + type +
             "), alignof(" + type + "), \"" + std::string(c.s.at(d.name).text) +
             "\")); } ";
    }
    uses[std::string(c.s.at(d.name).text)] = ref + "()";
  }
  return out;
}

// Whether `d` declares an array whose first bound its initializer gives
// (`x[] = {...}`, `x[][2] = {...}`, `s[] = "text"`).
bool HasUnsizedFirstDimension(const TokenStream& s, const Declarator& d) {
  return d.name >= 0 && d.initializer >= 0 && s.Is(d.name + 1, "[") &&
         s.Is(d.name + 2, "]");
}

// The tokens [begin, end) as text, separated by spaces.
std::string TokenText(const TokenStream& s, int begin, int end) {
  std::string text;
  for (int k = begin; k < end; ++k) {
    if (!text.empty()) text.push_back(' ');
    text.append(s.at(k).text);
  }
  return text;
}

// Rewrite 8, host pass, `__managed__`.
std::string HostManaged(Context& c, const VariableDeclaration& v) {
  std::string spec = SpecifierText(c.s, v.head_begin, v.specifiers_end);
  bool is_extern = v.Has(c.s, "extern");
  std::string storage = is_extern              ? "extern "
                        : v.Has(c.s, "static") ? "static "
                                               : "";
  std::string out;
  for (const Declarator& d : v.declarators) {
    if (d.name < 0) continue;
    const std::string n = std::to_string(c.NextId());
    std::string type = "__mc_managed_t_" + n;
    std::string name(c.s.at(d.name).text);
    if (HasUnsizedFirstDimension(c.s, d)) {
      // [lang.variable.unsized-array-bound-from-initializer] The initializer
      // gives the bound; a host-only copy with the same declarator and
      // initializer lets the host compiler work it out (device variables have
      // constant initializers, so the copy is constant-initialized).
      std::string shape = "__mc_managed_shape_" + n;
      out += "[[maybe_unused]] static " + spec + " " +
             RenamedDeclarator(c.s, d, shape) + " " +
             TokenText(c.s, d.initializer, d.range.end) +
             "; typedef decltype(" + shape + ") " + type + "; ";
    } else {
      out += "typedef " + spec + " " + RenamedDeclarator(c.s, d, type) + "; ";
    }
    out += storage + type + "& " + name;
    if (!is_extern) {
      out += " = *static_cast<" + type +
             "*>(::__mc_internal::RegisterManagedVariable(&" + c.image +
             ", \"" + Key(c, v, name) + "\", sizeof(" + type + ")))";
    }
    out += "; ";
  }
  return out;
}

void RewriteVariable(Context& c, const VariableDeclaration& v,
                     std::map<std::string, std::string>& uses) {
  const TokenStream& s = c.s;
  bool shared = v.Has(s, "__shared__");
  bool managed = v.Has(s, "__managed__");
  bool constant = v.Has(s, "__constant__");
  bool is_extern = v.Has(s, "extern");
  if (shared) {
    c.ReplaceTokens(v.range.begin, v.range.end, NamespaceShared(c, v, uses));
    return;
  }
  if (is_extern && !v.system_header) {
    for (const Declarator& d : v.declarators) {
      if (d.name >= 0) {
        c.device_declarations.insert(std::string(s.at(d.name).text));
      }
    }
  }
  if (is_extern && !(managed && c.host())) return;
  std::string flags = constant  ? "::__mc_internal::kVariableConstant"
                      : managed ? "::__mc_internal::kVariableManaged"
                                : "0";
  if (!is_extern) {
    c.needs_image = true;
    if (c.host()) c.UseImage(v.scope.file_scope_begin);
  }
  if (c.host() && managed) {
    c.ReplaceTokens(v.range.begin, v.range.end, HostManaged(c, v));
    return;
  }
  std::string after;
  for (const Declarator& d : v.declarators) {
    if (d.name < 0) continue;
    std::string name(s.at(d.name).text);
    std::string n = std::to_string(c.NextId());
    if (c.host()) {
      after += " static const bool __mc_variable_registered_" + n +
               " = ::__mc_internal::RegisterDeviceVariable(&" + c.image +
               ", (const void*)&" + name + ", \"" + Key(c, v, name) +
               "\", sizeof(" + name + "), " + flags + ");";
    } else {
      after +=
          " extern \"C\" __attribute__((used)) const "
          "::__mc_internal::DeviceVariableRecord __mc_variable_record_" +
          RecordTag(c) + n + " = {\"" + Key(c, v, name) + "\", (void*)&" +
          name + ", sizeof(" + name + "), " + flags + "};";
    }
  }
  c.InsertAfter(v.range.end - 1, after);
  if (!c.host() && !is_extern && !v.Has(s, "constexpr")) {
    // [lang.variable.placement.non-trivial-constructor] Device code runs no
    // initializers: one that needs code (a constructor that is not
    // constexpr, a call, the address of a `__shared__` variable,
    // [lang.variable.shared.address-not-constant]) is refused where it is.
    c.InsertBefore(SkipAttributes(s, v.head_begin, v.specifiers_end),
                   "__constinit ");
  }
  if (!c.host() && constant && !is_extern) {
    // [lang.ub.memory.constant-write] A section per declaration, which the
    // device link gathers on pages of their own that the runtime makes
    // read-only while device code runs. Separate names keep a `const`
    // variable (read-only data) and a writable one from clashing in one
    // section.
    c.InsertBefore(v.Find(s, "__constant__"),
                   "__attribute__((section(\"__mc_constant." +
                       std::to_string(c.NextId()) + "\"))) ");
  }
}

// Whether the name at `t` is declared there rather than used: a name or a
// type keyword before it (`int buf`, `S buf`) cannot end an expression.
bool DeclaresName(const TokenStream& s, int t) {
  if (s.IsName(t - 1)) return true;
  return s.IsIdentifier(t - 1) &&
         (IsSimpleTypeKeyword(s.at(t - 1).text) || s.Is(t - 1, "const") ||
          s.Is(t - 1, "volatile"));
}

}  // namespace

void RewriteNamespaceScopeVariables(Context& c) {
  const TokenStream& s = c.s;
  // Later uses of namespace-scope __shared__ variables, by name.
  std::map<std::string, std::string> uses;
  // The scanner records class members before the declaration around them.
  std::vector<const VariableDeclaration*> variables;
  for (const VariableDeclaration& v : c.index.variables)
    variables.push_back(&v);
  std::stable_sort(
      variables.begin(), variables.end(),
      [](const VariableDeclaration* a, const VariableDeclaration* b) {
        return a->range.begin < b->range.begin;
      });
  size_t next_variable = 0;
  for (int t = 0; t < s.size(); ++t) {
    while (next_variable < variables.size() &&
           variables[next_variable]->range.begin <= t) {
      const VariableDeclaration& v = *variables[next_variable++];
      for (int q : v.qualifiers) {
        if (s.Is(q, "__shared__")) c.handled_shared.insert(q);
      }
      CheckSpaces(c, v);
      CheckMember(c, v);
      CheckManagedConst(c, v);
      if (v.Has(s, "__shared__") && v.scope.kind != ScopeKind::kNamespace) {
        for (const Declarator& d : v.declarators) CheckNoInitializer(c, d);
      }
      if (v.scope.kind == ScopeKind::kNamespace && !v.is_template) {
        RewriteVariable(c, v, uses);
      }
      if (t < v.range.end) t = v.range.end;
    }
    if (t >= s.size() || uses.empty() || !s.IsName(t)) continue;
    auto use = uses.find(std::string(s.at(t).text));
    if (use == uses.end() || s.Is(t - 1, ".") || s.Is(t - 1, "->") ||
        s.Is(t - 1, "::") || DeclaresName(s, t)) {
      continue;
    }
    c.ReplaceTokens(t, t + 1, use->second);
  }
}

// The device-pass kernel whose body has the statement starting at `start`
// at its outermost block, or null.
KernelBody* KernelAtOutermostBlock(Context& c, int start) {
  const TokenStream& s = c.s;
  for (KernelBody& kernel : c.kernel_bodies) {
    if (start <= kernel.body_open || start >= kernel.body_close) continue;
    // Walk the body's top level, stepping over nested groups.
    for (int k = kernel.body_open + 1; k < kernel.body_close;
         k = s.SkipOne(k, kernel.body_close, false)) {
      if (k == start) return &kernel;
      if (k > start) break;
    }
    return nullptr;
  }
  return nullptr;
}

void RewriteBlockScopeShared(Context& c) {
  const TokenStream& s = c.s;
  for (int t = 0; t < s.size(); ++t) {
    if (!s.Is(t, "__shared__") || c.handled_shared.count(t)) continue;
    int start = t;
    for (int k = t - 1; k >= 0; --k) {
      if (s.Is(k, ";") || s.Is(k, "{") || s.Is(k, "}") || s.Is(k, ":")) break;
      if (s.Is(k, "(") || s.Is(k, "[") || s.Is(k, ",")) {
        start = -1;
        break;
      }
      if ((s.Is(k, ")") || s.Is(k, "]")) && s.Match(k) >= 0) k = s.Match(k);
      start = k;
    }
    if (start < 0) continue;
    int semicolon = -1;
    for (int k = t; k < s.size(); k = s.SkipOne(k, s.size(), false)) {
      if (s.Is(k, ";")) {
        semicolon = k;
        break;
      }
      if (s.Is(k, ")") || s.Is(k, "]") || s.Is(k, "}") || s.Is(k, "{")) break;
    }
    if (semicolon < 0) continue;
    int specifiers_end = SpecifiersEnd(s, start, semicolon);
    if (specifiers_end <= t) continue;  // `__shared__` is no specifier here
    std::string spec = SpecifierText(s, start, specifiers_end);
    bool dynamic = false;
    for (int k = start; k < specifiers_end; ++k) dynamic |= s.Is(k, "extern");
    std::string out;
    for (const Range& part :
         s.SplitTopLevel(specifiers_end, semicolon, ",", true)) {
      Declarator d = AnalyzeDeclarator(s, part.begin, part.end, true);
      CheckNoInitializer(c, d);
      if (d.name < 0) continue;
      std::string n = std::to_string(c.NextId());
      std::string type = "__mc_shared_t_" + n;
      std::string name(s.at(d.name).text);
      std::string typedef_text =
          "typedef " + spec + " " + RenamedDeclarator(s, d, type) + "; ";
      if (dynamic) {
        out += typedef_text + type + "& " + name + " = *reinterpret_cast<" +
               type + "*>(::__mc_dev_dynamic_shared()); ";
      } else {
        // [lang.variable.shared.static-size-limit] The kernel's record
        // counts the variables its outermost block declares.
        if (KernelBody* kernel = KernelAtOutermostBlock(c, start)) {
          kernel->shared_types.push_back(type);
        }
        std::string site = "__mc_shared_site_" + n;
        out += "static char " + site + "; " + typedef_text + type + "& " +
               name + " = *static_cast<" + type +
               "*>(::__mc_dev_shared_variable(&" + site + ", sizeof(" + type +
               "), alignof(" + type + "), \"" + name + "\")); ";
      }
    }
    c.ReplaceTokens(start, semicolon + 1, out);
    t = semicolon;
  }
}

namespace {

// Whether the `{` at `open` starts the body of a lambda declared
// `__device__` (`[...] __device__ (...) {` or `[...] (...) __device__ {`).
bool OpensDeviceLambda(const TokenStream& s, int open) {
  bool device = false;
  for (int k = open - 1; k >= 0 && k > open - 64; --k) {
    if (s.Is(k, ")")) {
      if (s.Match(k) < 0) return false;
      k = s.Match(k);
      continue;
    }
    if (s.Is(k, "__device__") || s.Is(k, "__global__")) device = true;
    if (s.Is(k, "]")) return device;
    if (s.Is(k, ";") || s.Is(k, "{") || s.Is(k, "}")) return false;
  }
  return false;
}

// The first token of the declaration statement whose specifiers include
// the token at `t`, or -1 when `t` is not among the leading specifiers of
// a statement (a lambda's `__device__`, an attribute).
int DeclarationStart(const TokenStream& s, int t) {
  int start = t;
  for (int k = t - 1; k >= 0; --k) {
    if (s.Is(k, ";") || s.Is(k, "{") || s.Is(k, "}")) return start;
    if (!s.IsIdentifier(k)) return -1;
    std::string_view word = s.at(k).text;
    if (!(word == "static" || word == "extern" || word == "const" ||
          word == "volatile" || word == "constexpr" ||
          IsMxmacaQualifier(word))) {
      return -1;
    }
    start = k;
  }
  return start;
}

bool StatementHas(const TokenStream& s, int start, int end,
                  std::string_view word) {
  for (int k = start; k < end; ++k) {
    if (s.Is(k, word)) return true;
  }
  return false;
}

// [lang.variable.automatic.static-local-dynamic-init] Device pass: a
// `static` local of a device function at `t` (a statement that declares
// variables, not a local class's member function) must be
// constant-initialized; `__constinit` makes the host compiler say so at
// the variable.
void CheckStaticLocal(Context& c, int t, int end) {
  const TokenStream& s = c.s;
  if (DeclarationStart(s, t) != t) return;
  for (int k = t + 1; k < end; k = s.SkipOne(k, end, true)) {
    if (s.Is(k, "=") || s.Is(k, ";") || s.Is(k, "{")) break;
    if (s.Is(k, "(") || s.Is(k, "constexpr") || s.Is(k, "thread_local") ||
        (s.IsIdentifier(k) && IsMxmacaQualifier(s.at(k).text))) {
      return;
    }
  }
  c.InsertBefore(t, "__constinit ");
}

bool IsAssignment(const TokenStream& s, int k) {
  for (std::string_view op : {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                              "^=", "<<=", ">>=", "++", "--"}) {
    if (s.Is(k, op)) return true;
  }
  return false;
}

// [lang.variable.constant.direct-write-in-device-code] The name of a
// `__constant__` variable at `t`, in a device function: an assignment to
// it, or to an element or member of it, is refused.
void CheckConstantWrite(Context& c, int t, int end) {
  const TokenStream& s = c.s;
  if (s.Is(t - 1, ".") || s.Is(t - 1, "->") || DeclaresName(s, t)) return;
  int k = t + 1;
  while (k < end) {
    if (s.Is(k, "[") && s.Match(k) > k) {
      k = s.Match(k) + 1;
    } else if ((s.Is(k, ".") || s.Is(k, "->")) && s.IsName(k + 1)) {
      k += 2;
    } else {
      break;
    }
  }
  const bool prefix = s.Is(t - 1, "++") || s.Is(t - 1, "--");
  if (prefix || (k < end && IsAssignment(s, k) && !s.Is(k + 1, "="))) {
    c.Error(t, "cannot assign to __constant__ variable '" +
                   std::string(s.at(t).text) +
                   "' in device code "
                   "[lang.variable.constant.direct-write-in-device-code]");
  }
}

}  // namespace

void CheckBlockScopeSpaces(Context& c) {
  const TokenStream& s = c.s;
  // The names of the namespace-scope `__constant__` variables.
  std::set<std::string> constants;
  for (const VariableDeclaration& v : c.index.variables) {
    if (v.scope.kind != ScopeKind::kNamespace || !v.Has(s, "__constant__")) {
      continue;
    }
    for (const Declarator& d : v.declarators) {
      if (d.name >= 0) constants.insert(std::string(s.at(d.name).text));
    }
  }
  for (const FunctionDeclaration& f : c.index.functions) {
    if (!f.is_definition() || f.system_header) continue;
    const bool device_function =
        f.Has(s, "__device__") || f.Has(s, "__global__");
    // A parameter of the same name hides a `__constant__` variable.
    std::set<std::string> visible_constants = constants;
    for (const Parameter& p :
         AnalyzeParameters(s, f.params_open, f.params_close).parameters) {
      visible_constants.erase(p.name);
    }
    std::vector<int> device_lambdas;  // `}` of each device lambda's body
    for (int t = f.body_open + 1; t < f.body_end; ++t) {
      if (s.Is(t, "{") && OpensDeviceLambda(s, t) && s.Match(t) > t) {
        device_lambdas.push_back(s.Match(t));
      }
      while (!device_lambdas.empty() && device_lambdas.back() < t) {
        device_lambdas.pop_back();
      }
      if (!c.host() && device_function && s.Is(t, "static")) {
        CheckStaticLocal(c, t, f.body_end);
        continue;
      }
      if (device_function && s.IsName(t) &&
          visible_constants.count(std::string(s.at(t).text))) {
        CheckConstantWrite(c, t, f.body_end);
        continue;
      }
      if (!s.IsIdentifier(t) || !IsSpaceWord(s.at(t).text)) continue;
      const int start = DeclarationStart(s, t);
      if (start < 0) continue;
      std::string_view word = s.at(t).text;
      const bool is_extern = StatementHas(s, start, t, "extern");
      if (!device_function && device_lambdas.empty()) {
        if (!is_extern) {
          c.Error(t, std::string(word) +
                         " variable declared in a host function "
                         "[lang.variable.placement.not-in-host-function]");
        }
      } else if ((word == "__device__" || word == "__constant__") &&
                 !is_extern && !StatementHas(s, start, t, "static") &&
                 !StatementHas(s, t, t + 4, "__shared__") &&
                 !StatementHas(s, start, t, "__shared__")) {
        c.Error(t, std::string(word) +
                       " variable in a device function must be static or "
                       "extern [lang.variable.placement."
                       "device-constant-not-automatic]");
      }
      // Step over the rest of the statement's specifiers.
      while (t + 1 < f.body_end && s.IsIdentifier(t + 1) &&
             IsMxmacaQualifier(s.at(t + 1).text)) {
        ++t;
      }
    }
  }
}

}  // namespace mxcts::compiler::translator_internal
