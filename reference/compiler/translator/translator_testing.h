// Copyright mxcts authors.
//
// Helpers for the translator's tests: translating a snippet for one pass,
// comparing C++ text by its tokens (so that spacing never matters), and
// listing diagnostics compactly.
//
//   Translation t = TranslateHost("__global__ void k() {}");
//   EXPECT_THAT(Tokens(t.text), HasSubstr(Tokens("void k ( ) {")));
//   EXPECT_THAT(Messages(t), IsEmpty());

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_TRANSLATOR_TESTING_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_TRANSLATOR_TESTING_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/compiler/translator/translator.h"

namespace mxcts::compiler::testing {

// The image symbol the helpers translate with.
inline constexpr char kImage[] = "__mc_image_00000000000000ab";

Translation TranslateHost(std::string_view source);
Translation TranslateDevice(std::string_view source);

// The tokens of `text` (directives included) joined by single spaces.
std::string Tokens(std::string_view text);

// The tokens of `source` translated for one pass; adds a test failure if
// the translation reports any diagnostic.
std::string HostTokens(std::string_view source);
std::string DeviceTokens(std::string_view source);

// "line:column: message" for each diagnostic.
std::vector<std::string> Messages(const Translation& t);

// The number of '\n' in `text`.
int CountLines(std::string_view text);

// True when `text` lexes without error.
bool LexesCleanly(std::string_view text);

}  // namespace mxcts::compiler::testing

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_TRANSLATOR_TESTING_H_
