// Copyright mxcts authors.
//
// The MXMACA source translator of mxcc: turns one preprocessed MXMACA
// translation unit (the output of `g++ -E`, with `# N "file" flags` line
// markers) into plain C++ for the host pass or the device pass, as
// reference/compiler/design.md ("The translator") specifies. Kernel launches
// `k<<<g, b>>>(a)` become runtime calls, kernel bodies become launch stubs
// (host pass) or registered device entries (device pass), `__shared__` and
// device variables become runtime-managed storage, and the MXMACA
// qualifiers disappear.
//
// The output keeps the input's line structure: every newline of the input is
// in the output at the same line, inserted text stays on the line where it
// belongs, and text appended at the end follows a `# 1 "<mxcc-generated>"`
// line marker. Diagnostics of the host compiler on the output therefore
// point at the user's files and lines.
//
// Example:
//
//   mxcts::compiler::TranslationOptions options;
//   options.pass = mxcts::compiler::Pass::kHost;
//   options.image_symbol = "__mc_image_0123456789abcdef";
//   mxcts::compiler::Translation t =
//       mxcts::compiler::Translate(preprocessed_text, options);
//   for (const auto& d : t.diagnostics) {
//     std::cerr << mxcts::compiler::FormatDiagnostic(d) << "\n";
//   }
//   if (!t.ok()) return 1;
//   WriteFile("host.tr.ii", t.text);

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_TRANSLATOR_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_TRANSLATOR_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mxcts::compiler {

// Which of the two compilations of a source the output is for.
enum class Pass { kHost, kDevice };

struct TranslationOptions {
  Pass pass = Pass::kHost;
  // The name of the source's device image blob,
  // "__mc_image_<16 hex digits>", unique per source. Kernel stubs and
  // variable registrations of the host pass refer to it.
  std::string image_symbol;
  // The source is compiled as relocatable device code (mxcc -fgpu-rdc): its
  // device variables' keys carry the source's tag, because the device link
  // puts several sources' variables into one image, where two `static`
  // variables of one name must not share a key.
  bool relocatable_device_code = false;
};

// A problem found in the source, positioned in the user's file.
struct Diagnostic {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  std::string file;  // from the line markers
  int line = 0;      // 1-based, in `file`
  int column = 0;    // 1-based
  std::string message;
};

struct Translation {
  // The translated text; meaningful (and complete) even when there are
  // errors, so that callers may inspect it, but not meant to be compiled
  // then.
  std::string text;
  std::vector<Diagnostic> diagnostics;
  // True when a kernel or a __device__/__constant__/__managed__ variable is
  // defined in the translation unit, so the source needs a device image.
  bool needs_image = false;
  // The names (unqualified, as written) of the functions declared
  // `__device__` and the variables declared `extern` in a device memory
  // space in the user's files, without a definition here: device code that
  // uses them needs another source's device code, which the driver says
  // when the device link cannot find them
  // [api.compile.mxcc.relocatable-device-code].
  std::set<std::string> device_declarations_without_definition;
  // True when no diagnostic has severity kError.
  bool ok() const;
};

// Translates `source` for `options.pass`. Never fails as a whole: problems
// are reported in `diagnostics`, and text the translator cannot read (for
// instance unbalanced brackets) is copied through, less its MXMACA
// qualifiers, for the host compiler to report. `options.image_symbol` may be
// empty in tests; a fixed placeholder name is used then.
Translation Translate(std::string_view source,
                      const TranslationOptions& options);

// Formats `d` as "file:line:col: error: message" (or "warning:").
std::string FormatDiagnostic(const Diagnostic& d);

}  // namespace mxcts::compiler

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_TRANSLATOR_H_
