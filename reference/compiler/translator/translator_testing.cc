// Copyright mxcts authors.
//
// Implementation of the test helpers in translator_testing.h.

#include "reference/compiler/translator/translator_testing.h"

#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/lexer.h"

namespace mxcts::compiler::testing {
namespace {

Translation TranslateFor(std::string_view source, Pass pass) {
  TranslationOptions options;
  options.pass = pass;
  options.image_symbol = kImage;
  return Translate(source, options);
}

}  // namespace

Translation TranslateHost(std::string_view source) {
  return TranslateFor(source, Pass::kHost);
}

Translation TranslateDevice(std::string_view source) {
  return TranslateFor(source, Pass::kDevice);
}

std::string Tokens(std::string_view text) {
  std::string joined;
  for (const Token& token : Lex(text).tokens) {
    if (!joined.empty()) joined.push_back(' ');
    joined.append(token.text);
  }
  return joined;
}

std::string HostTokens(std::string_view source) {
  Translation t = TranslateHost(source);
  EXPECT_THAT(Messages(t), ::testing::IsEmpty());
  return Tokens(t.text);
}

std::string DeviceTokens(std::string_view source) {
  Translation t = TranslateDevice(source);
  EXPECT_THAT(Messages(t), ::testing::IsEmpty());
  return Tokens(t.text);
}

std::vector<std::string> Messages(const Translation& t) {
  std::vector<std::string> messages;
  for (const Diagnostic& d : t.diagnostics) {
    messages.push_back(std::to_string(d.line) + ":" + std::to_string(d.column) +
                       ": " + d.message);
  }
  return messages;
}

int CountLines(std::string_view text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

bool LexesCleanly(std::string_view text) { return Lex(text).errors.empty(); }

}  // namespace mxcts::compiler::testing
