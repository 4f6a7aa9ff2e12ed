// Copyright mxcts authors.
//
// Each function declaration found by the scanner is checked against the
// rules for `__global__` functions and the inline qualifiers, then
// rewritten by what it is:
//
//   kernel definition, host pass:   body -> { LaunchFromStub<...>(ARGS); }
//   kernel definition, device pass: `{` -> `{ if (pending && LaunchFrom
//   Device(SELF, ARGS)) return;` and `}` -> `Touch(&DeviceKernel<...>::
//   record); }`
//   __device__-only body, host:     body -> { (void)p; __builtin_trap(); }
//   host-only definition, device:   R f(P) {..} -> R f(P); R __mc_host_f_N(P)
//   {..}
//
// SELF, the kernel's own address, is spelled from the declaration as
// written: the parameter types without default arguments and
// `__grid_constant__`, the declarator-id, and the template parameters as
// template arguments. Unnamed parameters get names (`__mc_param_<i>`,
// `__mc_tparam_<i>`) so that the stub can forward them.
//
// Tested by function_rewrites_test.cc, diagnostics_test.cc and
// gxx_integration_test.cc.

#include "reference/compiler/translator/function_rewrites.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace mxcts::compiler::translator_internal {
namespace {

bool IsNonTypeSpecifier(const TokenStream& s, int k) {
  for (std::string_view word :
       {"static", "inline", "__inline", "__inline__", "extern", "constexpr",
        "friend", "virtual", "explicit", "__extension__"}) {
    if (s.Is(k, word)) return true;
  }
  return (s.at(k).kind == TokenKind::kString && s.Is(k - 1, "extern")) ||
         (s.IsIdentifier(k) && IsMxmacaQualifier(s.at(k).text));
}

// The return type as written, without specifiers and attributes.
std::string ReturnType(const TokenStream& s, const FunctionDeclaration& f) {
  std::string type;
  for (int k = f.head_begin; k < f.name_begin;) {
    int after = SkipAttributes(s, k, f.name_begin);
    if (after != k) {
      k = after;
      continue;
    }
    if (!IsNonTypeSpecifier(s, k)) {
      if (!type.empty()) type.push_back(' ');
      type.append(s.at(k).text);
    }
    ++k;
  }
  return type;
}

// [lang.function.global.return-type-void]: `void`, or `auto ... -> void`.
bool ReturnsVoid(const TokenStream& s, const FunctionDeclaration& f) {
  std::string type = ReturnType(s, f);
  if (type == "void") return f.trailing_arrow < 0;
  if (type != "auto" || f.trailing_arrow < 0) return false;
  int end = f.body_begin >= 0 ? f.body_begin : f.range.end;
  int stop = f.trailing_arrow + 1;
  while (stop < end && !s.Is(stop, ";") && !s.Is(stop, "=")) ++stop;
  return s.Text(f.trailing_arrow + 1, stop) == "void";
}

void CheckKernel(Context& c, const FunctionDeclaration& f, int global,
                 const ParameterList& params) {
  if (int device = f.Find(c.s, "__device__"); device >= 0) {
    c.Error(device,
            "a function cannot be both __global__ and __device__ "
            "[lang.function.global.not-with-device]");
  }
  if (int host = f.Find(c.s, "__host__"); host >= 0) {
    c.Error(host,
            "a function cannot be both __global__ and __host__ "
            "[lang.function.global.not-with-host]");
  }
  if (f.scope.kind == ScopeKind::kClass && !f.is_friend) {
    c.Error(global,
            "a __global__ function cannot be a member function "
            "[lang.function.global.not-class-member]");
  }
  if (!ReturnsVoid(c.s, f)) {
    c.Error(global,
            "a __global__ function must have return type void "
            "[lang.function.global.return-type-void]");
  }
  if (params.c_variadic) {
    c.Error(params.ellipsis,
            "a __global__ function cannot take a variable number of "
            "arguments [lang.function.global.no-variadic]");
  }
}

std::string TemplateArguments(Context& c, const FunctionDeclaration& f) {
  if (f.template_open < 0 || f.template_close <= f.template_open + 1) {
    return "";
  }
  std::string targs = "<";
  std::vector<TemplateParameter> parameters =
      AnalyzeTemplateParameters(c.s, f.template_open, f.template_close);
  for (size_t i = 0; i < parameters.size(); ++i) {
    std::string name = parameters[i].name;
    if (name.empty()) {
      name = "__mc_tparam_" + std::to_string(i);
      c.InsertBefore(parameters[i].name_insert, " " + name + " ");
    }
    if (i > 0) targs += ", ";
    targs += name + (parameters[i].pack ? "..." : "");
  }
  return targs + ">";
}

// What the top level of a parameter's type says: [begin, end) are its
// tokens before the name (or before a default argument).
struct ParameterShape {
  bool reference = false;     // `&` or `&&` outside any brackets
  bool const_object = false;  // `const` applies to the parameter itself
  bool array_or_pack = false;
};

ParameterShape ShapeOf(const TokenStream& s, const Parameter& p) {
  ParameterShape shape;
  int end = p.declarator.name >= 0 ? p.declarator.name
            : p.default_begin >= 0 ? p.default_begin
                                   : p.range.end;
  bool const_since_pointer = false;
  for (int k = p.range.begin; k < end; k = s.SkipOne(k, end, true)) {
    if (s.Is(k, "&") || s.Is(k, "&&")) shape.reference = true;
    if (s.Is(k, "*")) const_since_pointer = false;
    if (s.Is(k, "const")) const_since_pointer = true;
    if (s.Is(k, "...")) shape.array_or_pack = true;
  }
  shape.const_object = const_since_pointer;
  if (p.declarator.pack || s.Is(p.declarator.declarator_end - 1, "]")) {
    shape.array_or_pack = true;
  }
  return shape;
}

// [lang.variable.grid-constant.same-address-in-grid] A `__grid_constant__`
// parameter becomes a reference to the launch's copy of its argument, so
// that every thread of the grid reads the one object (DeviceKernel hands
// reference parameters the argument buffer itself). Declarations rewritten
// alike keep one function type in both passes.
bool PassedByReference(const TokenStream& s, const Parameter& p) {
  if (p.grid_constant.empty()) return false;
  ParameterShape shape = ShapeOf(s, p);
  return shape.const_object && !shape.reference && !shape.array_or_pack;
}

std::string ParameterTypes(const TokenStream& s, const ParameterList& list) {
  std::string text;
  for (const Parameter& p : list.parameters) {
    if (!text.empty()) text += ", ";
    int end = p.default_begin >= 0 ? p.default_begin : p.range.end;
    std::string one;
    const bool by_reference = PassedByReference(s, p);
    for (int k = p.range.begin; k < end; ++k) {
      if (std::count(p.grid_constant.begin(), p.grid_constant.end(), k)) {
        continue;
      }
      if (by_reference && k == p.declarator.name) one += " &";
      if (!one.empty()) one.push_back(' ');
      one.append(s.at(k).text);
    }
    if (by_reference && p.declarator.name < 0) one += " &";
    text += one;
  }
  if (list.c_variadic) text += text.empty() ? "..." : ", ...";
  return text;
}

std::string Self(Context& c, const FunctionDeclaration& f,
                 const ParameterList& params) {
  return "static_cast<void (*)(" + ParameterTypes(c.s, params) + ")>(&" +
         c.s.Text(f.name_begin, f.params_open) + " " + TemplateArguments(c, f) +
         ")";
}

}  // namespace

std::string KernelRecordTouch(const KernelBody& kernel) {
  std::string footprint = "::__mc_internal::SharedFootprint<";
  for (size_t i = 0; i < kernel.shared_types.size(); ++i) {
    if (i > 0) footprint += ", ";
    footprint += kernel.shared_types[i];
  }
  footprint += ">()";
  const std::string max_threads =
      kernel.max_threads.empty() ? "0" : "(" + kernel.max_threads + ")";
  const std::string min_blocks =
      kernel.min_blocks.empty() ? "0" : "(" + kernel.min_blocks + ")";
  // Unit is written when it is not 0, or when LaunchesGrids follows it.
  std::string tail;
  if (kernel.launches_grids) {
    tail = ", " + kernel.unit + ", true";
  } else if (kernel.unit != "0") {
    tail = ", " + kernel.unit;
  }
  return " ::__mc_internal::Touch(&::__mc_internal::DeviceKernel<decltype(" +
         kernel.self + "), " + kernel.self +
         ", ::__mc_internal::KernelTraits<" + max_threads + ", " + min_blocks +
         ", " + footprint + tail + ">>::record); ";
}

namespace {

// Reads `__launch_bounds__(max[, min])` from the head of `f` into `kernel`,
// and checks in the body that the bound is positive.
void ReadLaunchBounds(Context& c, const FunctionDeclaration& f,
                      KernelBody& kernel) {
  const TokenStream& s = c.s;
  int bounds = f.Find(s, "__launch_bounds__");
  if (bounds < 0 || !s.Is(bounds + 1, "(")) return;
  int close = s.Match(bounds + 1);
  if (close < 0) return;
  std::vector<Range> arguments = s.SplitTopLevel(bounds + 2, close, ",", true);
  if (arguments.empty() || arguments[0].begin >= arguments[0].end) return;
  kernel.max_threads = s.Text(arguments[0].begin, arguments[0].end);
  if (arguments.size() > 1) {
    kernel.min_blocks = s.Text(arguments[1].begin, arguments[1].end);
  }
  // [lang.function.launch-bounds.non-positive-bound] At the kernel, so that
  // the host compiler's error names the user's line.
  c.InsertAfter(f.body_open,
                " static_assert((" + kernel.max_threads +
                    ") > 0, \"__launch_bounds__: maxThreadsPerBlock must be "
                    "a positive constant "
                    "[lang.function.launch-bounds.non-positive-bound]\");");
}

// [lang.function.global.parameter-size-limit] The reference's limit on
// the total size of a kernel's parameters: the sum of their sizes.
constexpr int kKernelParameterBytes = 4096;

// A static_assert, for the start of a kernel's body in the device pass,
// that the parameters (named by RewriteKernel) fit the limit. At the
// kernel, so that the host compiler's error names the user's line.
std::string ParameterSizeCheck(const ParameterList& params) {
  if (params.parameters.empty()) return "";
  std::string sum = "0";
  for (size_t i = 0; i < params.parameters.size(); ++i) {
    const Parameter& p = params.parameters[i];
    std::string name =
        p.name.empty() ? "__mc_param_" + std::to_string(i) : p.name;
    sum += p.declarator.pack ? " + (0 + ... + sizeof(" + name + "))"
                             : " + sizeof(" + name + ")";
  }
  return " static_assert(" + sum +
         " <= " + std::to_string(kKernelParameterBytes) +
         ", \"the parameters of a __global__ function take at most " +
         std::to_string(kKernelParameterBytes) +
         " bytes [lang.function.global.parameter-size-limit]\");";
}

// The Unit of a kernel's key (KernelKeyInUnit): the source's tag for a
// kernel with internal linkage in relocatable device code, whose name
// another source linked into the same image may use too; else 0.
std::string KernelUnit(const Context& c, const FunctionDeclaration& f) {
  if (!c.relocatable_device_code) return "0";
  bool internal = f.Has(c.s, "static");
  for (const std::string& ns : f.scope.namespaces) {
    if (ns == "(anonymous namespace)") internal = true;
  }
  return internal ? "0x" + c.UniqueRecordTag() + "ull" : "0";
}

// [lang.variable.grid-constant.invalid-placement] On a `const`, non-reference
// parameter of a `__global__` function only. Rewrites the parameters that
// pass by reference (PassedByReference) in both passes.
void CheckGridConstant(Context& c, const ParameterList& params, bool kernel) {
  for (const Parameter& p : params.parameters) {
    if (p.grid_constant.empty()) continue;
    const int at = p.grid_constant.front();
    if (!kernel) {
      c.Error(at,
              "__grid_constant__ applies only to parameters of a __global__ "
              "function [lang.variable.grid-constant.invalid-placement]");
      continue;
    }
    ParameterShape shape = ShapeOf(c.s, p);
    if (shape.reference) {
      c.Error(at,
              "a __grid_constant__ parameter cannot have reference type "
              "[lang.variable.grid-constant.invalid-placement]");
    } else if (!shape.const_object) {
      c.Error(at,
              "a __grid_constant__ parameter must be const-qualified "
              "[lang.variable.grid-constant.invalid-placement]");
    } else if (PassedByReference(c.s, p)) {
      if (p.declarator.name >= 0) {
        c.InsertBefore(p.declarator.name, "& ");
      } else {
        c.InsertBefore(p.declarator.name_insert, " &");
      }
    }
  }
}

// One declaration of a kernel, for the comparison of the declarations of
// the same kernel: its name as written and its parameter types without
// names, `const` and `__grid_constant__` (the function type); and which
// parameters are `__grid_constant__`.
struct KernelSignature {
  std::string key;
  std::vector<bool> grid_constant;
};

KernelSignature SignatureOf(const TokenStream& s, const FunctionDeclaration& f,
                            const ParameterList& params) {
  KernelSignature signature;
  for (const std::string& ns : f.scope.namespaces) signature.key += ns + "::";
  signature.key += s.Text(f.name_begin, f.params_open) + "(";
  for (const Parameter& p : params.parameters) {
    int end = p.default_begin >= 0 ? p.default_begin : p.range.end;
    for (int k = p.range.begin; k < end; ++k) {
      if (k == p.declarator.name || s.Is(k, "const") ||
          s.Is(k, "__grid_constant__")) {
        continue;
      }
      signature.key += " ";
      signature.key += s.at(k).text;
    }
    signature.key += ",";
    signature.grid_constant.push_back(!p.grid_constant.empty());
  }
  return signature;
}

void RewriteKernel(Context& c, const FunctionDeclaration& f,
                   const ParameterList& params) {
  c.needs_image = true;
  std::string self = Self(c, f, params);
  std::string unit = KernelUnit(c, f);
  std::string args;
  for (size_t i = 0; i < params.parameters.size(); ++i) {
    const Parameter& p = params.parameters[i];
    std::string name = p.name;
    if (name.empty()) {
      name = "__mc_param_" + std::to_string(i);
      c.InsertBefore(p.declarator.name_insert, " " + name + " ");
    }
    if (!args.empty()) args += ", ";
    args += name + (p.declarator.pack ? "..." : "");
  }
  if (!c.host()) {
    // Rewrite 3, the prologue: a call of the kernel right after a launch
    // configuration pushed in device code is that launch (dynamic
    // parallelism); ordinary threads test one flag.
    // [api.devrt.launch.chevron-syntax-in-device-code]
    c.InsertAfter(f.body_open,
                  " if (__builtin_expect(::__mc_dev_launch_pending != 0, 0) "
                  "&& ::__mc_internal::LaunchFromDevice(reinterpret_cast<"
                  "const void*>(" +
                      self + ")" + (args.empty() ? "" : ", " + args) +
                      ")) return;");
    c.InsertAfter(f.body_open, ParameterSizeCheck(params));
    // Rewrite 3: the device pass keeps the body; FinishKernelRecords
    // instantiates the record at its end.
    KernelBody kernel;
    kernel.body_open = f.body_open;
    kernel.body_close = f.body_end - 1;
    kernel.self = self;
    kernel.unit = unit;
    kernel.launches_grids =
        c.grid_launchers.count(std::string(c.s.at(f.name).text)) != 0;
    ReadLaunchBounds(c, f, kernel);
    if (f.body_begin != f.body_open) {
      // A function-try-block: the handlers follow the body, so the record
      // goes at the body's start, without the shared footprint.
      kernel.body_close = -1;
      c.InsertAfter(f.body_open, KernelRecordTouch(kernel));
      return;
    }
    c.kernel_bodies.push_back(std::move(kernel));
    return;
  }
  // Rewrite 2: the host pass turns the body into the launch stub.
  c.UseImage(f.scope.file_scope_begin);
  std::string launch =
      unit == "0" ? "::__mc_internal::LaunchFromStub<decltype(" + self + "), " +
                        self + ", &" + c.image + ">"
                  : "::__mc_internal::LaunchFromStubInUnit<decltype(" + self +
                        "), " + self + ", &" + c.image + ", " + unit + ">";
  c.ReplaceTokens(f.body_begin, f.body_end,
                  "{ " + launch + "(" + args + "); }");
}

// Rewrite 4. The parameters are marked used, so that a host compilation
// with -Wextra does not warn about the body it no longer has.
std::string TrapBody(Context& c, const FunctionDeclaration& f) {
  std::string body = "{ ";
  for (const Parameter& p :
       AnalyzeParameters(c.s, f.params_open, f.params_close).parameters) {
    if (p.name.empty()) continue;
    body += p.declarator.pack ? "(void)sizeof...(" + p.name + "); "
                              : "(void)" + p.name + "; ";
  }
  return body + "__builtin_trap(); }";
}

bool ContainsNewline(const TokenStream& s, int begin, int end) {
  for (int k = begin; k < end; ++k) {
    if (s.at(k).text.find('\n') != std::string_view::npos) return true;
  }
  return false;
}

bool IsReserved(std::string_view name) {
  return name.size() >= 2 && name[0] == '_' &&
         (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'));
}

// Rewrite 5, for the device pass.
bool IsHostOnlyDefinition(const Context& c, const FunctionDeclaration& f) {
  const TokenStream& s = c.s;
  if (!f.is_definition() || f.system_header || f.is_friend ||
      f.scope.kind != ScopeKind::kNamespace || f.head_begin != f.range.begin ||
      f.name_begin != f.name || !s.IsName(f.name) ||
      f.name + 1 != f.params_open) {
    return false;  // a member, a template, qualified, an operator, `f<T>`
  }
  // `main` cannot be called, and reserved names (`__x`, `_X`) belong to the
  // implementation, whose headers may define device-callable functions.
  std::string_view name = s.at(f.name).text;
  if (name == "main" || IsReserved(name)) return false;
  for (const std::string& ns : f.scope.namespaces) {
    if (IsReserved(ns)) return false;
    // A function of an unnamed namespace has internal linkage: left
    // undefined, the host code of its own file that calls it (test bodies,
    // helpers) would not compile in the device pass. It keeps its body, so
    // a device call of it is not diagnosed (a known limit, design.md).
    if (ns == "(anonymous namespace)") return false;
  }
  for (std::string_view word :
       {"constexpr", "consteval", "__device__", "__global__", "template"}) {
    if (f.Has(s, word)) return false;
  }
  // A deduced return type cannot be declared without its body.
  if (ReturnType(s, f) == "auto" || ReturnType(s, f) == "decltype ( auto )") {
    if (f.trailing_arrow < 0) return false;
  }
  return !ContainsNewline(s, f.range.begin, f.body_begin);
}

void RenameHostFunction(Context& c, const FunctionDeclaration& f) {
  const TokenStream& s = c.s;
  std::string renamed = "__mc_host_" + std::string(s.at(f.name).text) + "_" +
                        std::to_string(c.NextId());
  std::string copy;
  for (int k = f.range.begin; k < f.body_begin; ++k) {
    bool drop = s.Is(k, "static");
    bool drop_from_declaration = drop || s.Is(k, "inline") ||
                                 s.Is(k, "__inline") || s.Is(k, "__inline__");
    if (k < f.name && drop_from_declaration) c.ReplaceTokens(k, k + 1, "");
    if (k < f.name && drop) continue;
    if (!copy.empty()) copy.push_back(' ');
    copy += k == f.name ? renamed : std::string(s.at(k).text);
  }
  c.InsertBefore(f.body_begin, "; " + copy + " ");
}

// [lang.function.inline.noinline-with-forceinline]
// [lang.function.inline.noinline-on-inline-function]
// [lang.function.inline.inline-hint-with-other-qualifier]
void CheckInliningQualifiers(Context& c, const FunctionDeclaration& f) {
  const TokenStream& s = c.s;
  int noinline = f.Find(s, "__noinline__");
  int forceinline = f.Find(s, "__forceinline__");
  int hint = f.Find(s, "__inline_hint__");
  if (noinline >= 0 && forceinline >= 0) {
    c.Error(std::max(noinline, forceinline),
            "__noinline__ and __forceinline__ cannot both apply to a "
            "function [lang.function.inline.noinline-with-forceinline]");
  }
  if (hint >= 0 && (noinline >= 0 || forceinline >= 0)) {
    c.Error(std::max(hint, std::max(noinline, forceinline)),
            "__inline_hint__ cannot apply together with __noinline__ or "
            "__forceinline__ "
            "[lang.function.inline.inline-hint-with-other-qualifier]");
  }
  // The user's own `inline` only: the runtime headers' functions are
  // theirs to spell.
  int explicit_inline = f.Find(s, "inline");
  int qualifier = std::max(noinline, forceinline);
  if (explicit_inline >= 0 && qualifier >= 0 && !f.system_header) {
    c.Error(std::max(explicit_inline, qualifier),
            std::string(s.at(qualifier).text) +
                " cannot apply to a function declared inline "
                "[lang.function.inline.noinline-on-inline-function]");
  }
}

// Rewrite 4's error attribute, as the text that follows `__unused__` in
// it (", __noinline__, __error__(...)"), for a __device__-only function of
// the user's files: a call the host compiler emits from host code is a
// compile-time error naming the function
// [lang.function.call.host-calls-device-only]. `noinline`, because a call
// inlined away (the body only traps) would escape the error at -O2.
// "" for functions of system headers and for operators.
std::string HostCallError(const Context& c, const FunctionDeclaration& f) {
  if (f.system_header || !c.s.IsName(f.name)) return "";
  // A defaulted or deleted function has no body of the user's to guard
  // (host code may construct a type whose defaulted members say
  // __device__).
  for (int k = f.params_close; k + 1 < f.range.end; ++k) {
    if (c.s.Is(k, "=") &&
        (c.s.Is(k + 1, "default") || c.s.Is(k + 1, "delete"))) {
      return "";
    }
  }
  return ", __noinline__, __error__(\"'" + std::string(c.s.at(f.name).text) +
         "' is a __device__ function: host code cannot call it "
         "[lang.function.call.host-calls-device-only]\")";
}

}  // namespace

void RewriteFunctions(Context& c) {
  const TokenStream& s = c.s;
  std::map<std::string, std::vector<bool>> kernel_signatures;
  for (const FunctionDeclaration& f : c.index.functions) {
    int global = f.Find(s, "__global__");
    CheckInliningQualifiers(c, f);
    if (global >= 0) {
      ParameterList params =
          AnalyzeParameters(s, f.params_open, f.params_close);
      CheckKernel(c, f, global, params);
      CheckGridConstant(c, params, true);
      // [lang.variable.grid-constant.declarations-must-match]
      KernelSignature signature = SignatureOf(s, f, params);
      auto [first, inserted] =
          kernel_signatures.emplace(signature.key, signature.grid_constant);
      if (!inserted && first->second != signature.grid_constant) {
        c.Error(f.name,
                "this declaration of __global__ function '" +
                    std::string(s.at(f.name).text) +
                    "' disagrees with an earlier one on which parameters are "
                    "__grid_constant__ "
                    "[lang.variable.grid-constant.declarations-must-match]");
      }
      if (f.is_definition() && f.scope.kind == ScopeKind::kNamespace) {
        RewriteKernel(c, f, params);
      }
      continue;
    }
    for (int k = f.params_open + 1; k < f.params_close; ++k) {
      if (s.Is(k, "__grid_constant__")) {
        CheckGridConstant(
            c, AnalyzeParameters(s, f.params_open, f.params_close), false);
        break;
      }
    }
    bool device = f.Has(s, "__device__");
    if (device && !f.is_definition() && !f.system_header &&
        f.scope.kind == ScopeKind::kNamespace && s.IsName(f.name)) {
      c.device_declarations.insert(std::string(s.at(f.name).text));
    }
    bool device_only =
        device && !f.Has(s, "__host__") && !f.Has(s, "constexpr");
    if (c.host() && device_only && !HostCallError(c, f).empty()) {
      // The noinline of the error attribute would conflict with
      // always_inline, and the trapping body gains nothing from inlining.
      if (int forced = f.Find(s, "__forceinline__"); forced >= 0) {
        c.plain_forceinline.insert(forced);
      }
    }
    if (c.host() && device_only && f.is_definition()) {
      c.ReplaceTokens(f.body_begin, f.body_end, TrapBody(c, f));
      // Host code never calls it, so an internal-linkage device function
      // must not draw -Wunused-function in the host pass.
      c.InsertBefore(f.Find(s, "__device__"),
                     "__attribute__((__unused__" + HostCallError(c, f) + ")) ");
    } else if (c.host() && device_only && !HostCallError(c, f).empty()) {
      c.InsertBefore(f.Find(s, "__device__"),
                     "__attribute__((" + HostCallError(c, f).substr(2) + ")) ");
    }
    if (!c.host() && IsHostOnlyDefinition(c, f)) RenameHostFunction(c, f);
  }
}

void FinishKernelRecords(Context& c) {
  for (const KernelBody& kernel : c.kernel_bodies) {
    c.InsertBefore(kernel.body_close, KernelRecordTouch(kernel));
  }
}

}  // namespace mxcts::compiler::translator_internal
