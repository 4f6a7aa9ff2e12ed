// Copyright mxcts authors.
//
// Tests of the translator's lexer: token kinds and exact spans, maximal
// munch, literals with prefixes, raw strings and suffixes, directives,
// positions, and the errors of unterminated constructs.

#include "reference/compiler/translator/lexer.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::compiler {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;

std::vector<std::string> Texts(std::string_view source) {
  std::vector<std::string> texts;
  for (const Token& token : Lex(source).tokens) {
    texts.emplace_back(token.text);
  }
  return texts;
}

TEST(LexerTest, SplitsIdentifiersNumbersAndPunctuators) {
  EXPECT_THAT(Texts("int x=1;"), ElementsAre("int", "x", "=", "1", ";"));
}

TEST(LexerTest, WhitespaceAndCommentsAreNoTokens) {
  EXPECT_THAT(Texts("a /* b */ c // d\n e"), ElementsAre("a", "c", "e"));
}

TEST(LexerTest, PunctuatorsUseMaximalMunch) {
  EXPECT_THAT(Texts("a<<=b>>=c->*d...e<=>f"),
              ElementsAre("a", "<<=", "b", ">>=", "c", "->*", "d", "...", "e",
                          "<=>", "f"));
}

TEST(LexerTest, TripleChevronsAreTwoTokens) {
  EXPECT_THAT(Texts("k<<<1,2>>>()"),
              ElementsAre("k", "<<", "<", "1", ",", "2", ">>", ">", "(", ")"));
}

TEST(LexerTest, NestedTemplateClosersLexAsShift) {
  EXPECT_THAT(Texts("a<b<c>>>"),
              ElementsAre("a", "<", "b", "<", "c", ">>", ">"));
}

TEST(LexerTest, LessColonColonIsLessThenScope) {
  EXPECT_THAT(Texts("f<::g>"), ElementsAre("f", "<", "::", "g", ">"));
  EXPECT_THAT(Texts("a<:::"), ElementsAre("a", "<:", "::"));
}

TEST(LexerTest, DigraphsHaveCanonicalSpellings) {
  LexResult lexed = Lex("<% %> <: :>");
  ASSERT_THAT(lexed.tokens, SizeIs(4));
  EXPECT_TRUE(lexed.tokens[0].Is("{"));
  EXPECT_TRUE(lexed.tokens[1].Is("}"));
  EXPECT_TRUE(lexed.tokens[2].Is("["));
  EXPECT_TRUE(lexed.tokens[3].Is("]"));
}

TEST(LexerTest, PpNumbersIncludeExponentsSuffixesAndSeparators) {
  EXPECT_THAT(Texts("1.5e+3f 0x1p-2 1'000'000 .5 256.0"),
              ElementsAre("1.5e+3f", "0x1p-2", "1'000'000", ".5", "256.0"));
}

TEST(LexerTest, StringLiteralsKeepPrefixesAndSuffixes) {
  LexResult lexed = Lex(R"(u8"a\"b" L"x" "s"_udl)");
  ASSERT_THAT(lexed.tokens, SizeIs(3));
  EXPECT_EQ(lexed.tokens[0].text, R"(u8"a\"b")");
  EXPECT_EQ(lexed.tokens[0].kind, TokenKind::kString);
  EXPECT_EQ(lexed.tokens[1].text, R"(L"x")");
  EXPECT_EQ(lexed.tokens[2].text, R"("s"_udl)");
  EXPECT_THAT(lexed.errors, IsEmpty());
}

TEST(LexerTest, CharacterLiteralsKeepPrefixes) {
  LexResult lexed = Lex(R"(u'x' '\'' 'ab')");
  ASSERT_THAT(lexed.tokens, SizeIs(3));
  EXPECT_EQ(lexed.tokens[0].kind, TokenKind::kCharacter);
  EXPECT_EQ(lexed.tokens[1].text, R"('\'')");
}

TEST(LexerTest, RawStringsEndAtTheirDelimiter) {
  LexResult lexed = Lex("R\"d(a )\" \n b)d\" x");
  ASSERT_THAT(lexed.tokens, SizeIs(2));
  EXPECT_EQ(lexed.tokens[0].text, "R\"d(a )\" \n b)d\"");
  EXPECT_EQ(lexed.tokens[1].text, "x");
  EXPECT_EQ(lexed.tokens[1].line, 2);
  EXPECT_THAT(lexed.errors, IsEmpty());
}

TEST(LexerTest, PrefixWithoutQuoteIsAnIdentifier) {
  EXPECT_THAT(Texts("R u8 L(x)"), ElementsAre("R", "u8", "L", "(", "x", ")"));
}

TEST(LexerTest, DirectiveIsOneTokenToEndOfLine) {
  LexResult lexed = Lex("# 12 \"a.cu\" 1 3\nx # y\n  #pragma once\n");
  ASSERT_THAT(lexed.tokens, SizeIs(5));
  EXPECT_EQ(lexed.tokens[0].kind, TokenKind::kDirective);
  EXPECT_EQ(lexed.tokens[0].text, "# 12 \"a.cu\" 1 3");
  EXPECT_EQ(lexed.tokens[2].kind, TokenKind::kPunctuator);  // `#` mid-line
  EXPECT_EQ(lexed.tokens[4].kind, TokenKind::kDirective);
  EXPECT_EQ(lexed.tokens[4].text, "#pragma once");
}

TEST(LexerTest, TokensKnowOffsetLineAndColumn) {
  LexResult lexed = Lex("a\n  bc d");
  ASSERT_THAT(lexed.tokens, SizeIs(3));
  EXPECT_EQ(lexed.tokens[1].offset, 4);
  EXPECT_EQ(lexed.tokens[1].line, 2);
  EXPECT_EQ(lexed.tokens[1].column, 3);
  EXPECT_EQ(lexed.tokens[2].column, 6);
  EXPECT_EQ(lexed.tokens[2].end(), 8);
}

TEST(LexerTest, UnterminatedStringIsAnErrorEndingAtTheLine) {
  LexResult lexed = Lex("\"abc\nx");
  ASSERT_THAT(lexed.tokens, SizeIs(2));
  EXPECT_EQ(lexed.tokens[0].text, "\"abc");
  EXPECT_THAT(lexed.errors, SizeIs(1));
}

TEST(LexerTest, TerminatedStringHasNoError) {
  EXPECT_THAT(Lex("\"abc\"\nx").errors, IsEmpty());
}

TEST(LexerTest, UnterminatedCommentIsAnError) {
  EXPECT_THAT(Lex("a /* b").errors, SizeIs(1));
  EXPECT_THAT(Lex("a /* b */").errors, IsEmpty());
}

TEST(LexerTest, UnterminatedRawStringIsAnError) {
  EXPECT_THAT(Lex("R\"x(abc)y\"").errors, SizeIs(1));
}

TEST(LexerTest, StrayCharactersAreOtherTokens) {
  LexResult lexed = Lex("a @ \\");
  ASSERT_THAT(lexed.tokens, SizeIs(3));
  EXPECT_EQ(lexed.tokens[1].kind, TokenKind::kOther);
  EXPECT_EQ(lexed.tokens[2].kind, TokenKind::kOther);
}

TEST(LexerTest, Utf8ContinuesIdentifiers) {
  EXPECT_THAT(Texts("caf\xc3\xa9 x"), ElementsAre("caf\xc3\xa9", "x"));
}

}  // namespace
}  // namespace mxcts::compiler
