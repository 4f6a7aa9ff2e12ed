// Copyright mxcts authors.
//
// The libFuzzer target of the translator (built and run by
// tools/fuzz_translator): translates arbitrary bytes for both passes and
// checks the properties that must hold for every input, translatable or
// not:
//
//   * no crash, no hang, no sanitizer report;
//   * the output has exactly the input's number of lines;
//   * when the input lexes without error, so does the output (the
//     translator never splits a token or leaves half a literal).
//
// A violated property aborts, which libFuzzer reports as a crash.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "reference/compiler/translator/lexer.h"
#include "reference/compiler/translator/translator.h"

namespace {

void Check(bool property, const char* what) {
  if (property) return;
  std::fprintf(stderr, "translator property violated: %s\n", what);
  std::abort();
}

size_t Newlines(std::string_view text) {
  size_t count = 0;
  for (char c : text) count += c == '\n';
  return count;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using mxcts::compiler::Pass;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  bool input_lexes = mxcts::compiler::Lex(input).errors.empty();
  for (Pass pass : {Pass::kHost, Pass::kDevice}) {
    mxcts::compiler::TranslationOptions options;
    options.pass = pass;
    options.image_symbol = "__mc_image_0123456789abcdef";
    mxcts::compiler::Translation t = mxcts::compiler::Translate(input, options);
    Check(Newlines(t.text) == Newlines(input), "line count kept");
    if (input_lexes) {
      Check(mxcts::compiler::Lex(t.text).errors.empty(), "output re-lexes");
    }
    for (const mxcts::compiler::Diagnostic& d : t.diagnostics) {
      Check(!mxcts::compiler::FormatDiagnostic(d).empty(), "diagnostic text");
    }
  }
  return 0;
}
