#include "tools/spec/xml_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::spec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsNull;
using ::testing::Pair;
using ::testing::Pointee;
using ::testing::StartsWith;

// Parses `document`, which must be well-formed.
XmlElement MustParse(const std::string& document) {
  absl::StatusOr<XmlElement> root = ParseXml(document);
  EXPECT_TRUE(root.ok()) << root.status();
  return root.ok() ? *std::move(root) : XmlElement();
}

// Parses `document`, which must be malformed, and returns the error message.
std::string ParseError(const std::string& document) {
  absl::StatusOr<XmlElement> root = ParseXml(document);
  EXPECT_FALSE(root.ok()) << "parsed: " << document;
  if (root.ok()) return "";
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(root.status().message());
}

TEST(ParseXml, ReadsNestedElementsAndAttributes) {
  XmlElement root = MustParse(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites tests=\"2\">\n"
      "  <testsuite name='Suite' time = \"0\">\n"
      "    <testcase name=\"A\"/>\n"
      "    <testcase name=\"B\" ></testcase>\n"
      "  </testsuite>\n"
      "</testsuites>\n");
  EXPECT_EQ(root.name, "testsuites");
  EXPECT_EQ(root.line, 2);
  EXPECT_THAT(root.attributes, ElementsAre(Pair("tests", "2")));
  ASSERT_EQ(root.children.size(), 1u);
  const XmlElement& suite = root.children[0];
  EXPECT_EQ(suite.line, 3);
  EXPECT_THAT(suite.attributes,
              ElementsAre(Pair("name", "Suite"), Pair("time", "0")));
  ASSERT_EQ(suite.children.size(), 2u);
  EXPECT_EQ(suite.children[0].name, "testcase");
  EXPECT_THAT(suite.children[0].Attribute("name"), Pointee(std::string("A")));
  EXPECT_TRUE(suite.children[0].children.empty());
  EXPECT_THAT(suite.children[1].Attribute("name"), Pointee(std::string("B")));
  EXPECT_EQ(suite.children[1].line, 5);
}

TEST(ParseXml, AttributeReturnsNullForAMissingKey) {
  XmlElement root = MustParse("<a x=\"1\"/>");
  EXPECT_THAT(root.Attribute("y"), IsNull());
  EXPECT_THAT(root.Attribute("x"), Pointee(std::string("1")));
}

TEST(ParseXml, AcceptsASelfClosingRoot) {
  XmlElement root = MustParse("<testsuites/>");
  EXPECT_EQ(root.name, "testsuites");
  EXPECT_TRUE(root.children.empty());
  EXPECT_TRUE(root.attributes.empty());
}

TEST(ParseXml, ConcatenatesTextAndCDataDirectlyInside) {
  XmlElement root = MustParse(
      "<out>log: <![CDATA[<testcase name=\"x\"> & ]]]]><inner>not "
      "mine</inner> end</out>");
  EXPECT_EQ(root.text, "log: <testcase name=\"x\"> & ]] end");
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(root.children[0].text, "not mine");
}

TEST(ParseXml, KeepsWhitespaceText) {
  XmlElement root = MustParse("<a>\n  <b/>\n</a>");
  EXPECT_EQ(root.text, "\n  \n");
}

TEST(ParseXml, DecodesPredefinedEntities) {
  XmlElement root = MustParse(
      "<a v=\"&lt;&gt;&amp;&apos;&quot;\">&lt;&gt;&amp;&apos;&quot;</a>");
  EXPECT_THAT(root.Attribute("v"), Pointee(std::string("<>&'\"")));
  EXPECT_EQ(root.text, "<>&'\"");
}

TEST(ParseXml, DecodesNumericCharacterReferences) {
  XmlElement root = MustParse(
      "<a m=\"x&#x0A;y&#10;z\">&#65;&#x42;&#xe9;&#x20AC;&#x1F600;</a>");
  EXPECT_THAT(root.Attribute("m"), Pointee(std::string("x\ny\nz")));
  EXPECT_EQ(root.text, "AB\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(ParseXml, NormalisesLineEndsAndAttributeWhitespace) {
  XmlElement root = MustParse("<a m=\"one\ntwo\tthree\r\nfour\">x\r\ny\rz</a>");
  EXPECT_THAT(root.Attribute("m"), Pointee(std::string("one two three four")));
  EXPECT_EQ(root.text, "x\ny\nz");
}

TEST(ParseXml, QuotesOfTheOtherKindAreValueText) {
  XmlElement root = MustParse("<a s='say \"hi\"' d=\"it's\"/>");
  EXPECT_THAT(root.Attribute("s"), Pointee(std::string("say \"hi\"")));
  EXPECT_THAT(root.Attribute("d"), Pointee(std::string("it's")));
}

TEST(ParseXml, SkipsCommentsAndProcessingInstructions) {
  XmlElement root = MustParse(
      "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n"
      "<!-- before -->\n"
      "<?stylesheet href=\"x\"?>\n"
      "<a><!-- <b/> inside -->t<?pi data?>u</a>\n"
      "<!-- after -->\n");
  EXPECT_EQ(root.name, "a");
  EXPECT_TRUE(root.children.empty());
  EXPECT_EQ(root.text, "tu");
}

TEST(ParseXml, KeepsNamespacePrefixesAndNameCharacters) {
  XmlElement root = MustParse("<x:a x:b-c.d_e=\"1\"><system-out/></x:a>");
  EXPECT_EQ(root.name, "x:a");
  EXPECT_THAT(root.Attribute("x:b-c.d_e"), Pointee(std::string("1")));
  EXPECT_EQ(root.children[0].name, "system-out");
}

TEST(ParseXmlError, MismatchedClosingTag) {
  EXPECT_EQ(ParseError("<a>\n<b>\n</a>\n</b>"),
            "line 3: closing tag </a> does not match <b> opened on line 2");
}

TEST(ParseXmlError, ElementLeftOpen) {
  EXPECT_EQ(ParseError("<a>\n<b></b>\n"),
            "line 3: end of document inside <a> opened on line 1");
}

TEST(ParseXmlError, UnterminatedComment) {
  EXPECT_EQ(ParseError("<a>\n<!-- no end\n</a>"),
            "line 2: unterminated comment");
  EXPECT_EQ(ParseError("<!-- before the root"), "line 1: unterminated comment");
}

TEST(ParseXmlError, UnterminatedCData) {
  EXPECT_EQ(ParseError("<a>\n\n<![CDATA[ text ]]\n</a>"),
            "line 3: unterminated CDATA section");
}

TEST(ParseXmlError, UnterminatedAttributeValue) {
  EXPECT_EQ(ParseError("<a\n x=\"1/>"),
            "line 2: unterminated value of attribute x");
  EXPECT_THAT(ParseError("<a x=\"1><b y=\"2\"/></a>"),
              StartsWith("line 1: '<' in the value of attribute x"));
}

TEST(ParseXmlError, UnquotedAttributeValue) {
  EXPECT_EQ(ParseError("<a x=1/>"),
            "line 1: value of attribute x is not quoted");
}

TEST(ParseXmlError, MissingEqualsAfterAttributeName) {
  EXPECT_EQ(ParseError("<a x \"1\"/>"),
            "line 1: expected '=' after attribute x");
}

TEST(ParseXmlError, AttributesNotSeparatedBySpace) {
  EXPECT_THAT(ParseError("<a x=\"1\"y=\"2\"/>"),
              StartsWith("line 1: unexpected character in start tag <a>"));
}

TEST(ParseXmlError, DuplicateAttribute) {
  EXPECT_EQ(ParseError("<a x=\"1\" x='2'/>"),
            "line 1: duplicate attribute x in <a>");
}

TEST(ParseXmlError, UnterminatedStartTag) {
  EXPECT_EQ(ParseError("<a>\n<b x=\"1\""), "line 2: unterminated start tag <b");
}

TEST(ParseXmlError, UnknownEntity) {
  EXPECT_EQ(ParseError("<a>\n&nbsp;</a>"), "line 2: unknown entity &nbsp;");
  EXPECT_EQ(ParseError("<a v=\"&copy;\"/>"), "line 1: unknown entity &copy;");
}

TEST(ParseXmlError, BareAmpersand) {
  EXPECT_THAT(ParseError("<a>salt & pepper</a>"),
              StartsWith("line 1: '&' does not start a reference"));
  EXPECT_THAT(ParseError("<a>&;</a>"),
              StartsWith("line 1: '&' does not start a reference"));
}

TEST(ParseXmlError, InvalidCharacterReferences) {
  EXPECT_EQ(ParseError("<a>&#0;</a>"),
            "line 1: invalid character reference &#0;");
  EXPECT_EQ(ParseError("<a>&#xD800;</a>"),
            "line 1: invalid character reference &#xD800;");
  EXPECT_EQ(ParseError("<a>&#x110000;</a>"),
            "line 1: invalid character reference &#x110000;");
  EXPECT_EQ(ParseError("<a>&#12a;</a>"),
            "line 1: invalid character reference &#12a;");
  EXPECT_EQ(ParseError("<a>&#x;</a>"),
            "line 1: invalid character reference &#x;");
}

TEST(ParseXmlError, LessThanThatStartsNoMarkup) {
  EXPECT_THAT(ParseError("<a>1 < 2</a>"),
              StartsWith("line 1: '<' that does not start markup"));
}

TEST(ParseXmlError, TrailingGarbage) {
  EXPECT_EQ(ParseError("<a/>\n\ntrailing"),
            "line 3: unexpected content after the root element");
  EXPECT_EQ(ParseError("<a></a>\n<b/>"),
            "line 2: unexpected content after the root element");
}

TEST(ParseXmlError, NoRootElement) {
  EXPECT_EQ(ParseError(""), "line 1: no root element");
  EXPECT_EQ(ParseError("<?xml version=\"1.0\"?>\n<!-- only a comment -->\n"),
            "line 3: no root element");
}

TEST(ParseXmlError, TextBeforeTheRoot) {
  EXPECT_EQ(ParseError("hello <a/>"), "line 1: text before the root element");
  EXPECT_EQ(ParseError("</a>"), "line 1: text before the root element");
}

TEST(ParseXmlError, XmlDeclarationNotFirst) {
  EXPECT_EQ(ParseError("\n<?xml version=\"1.0\"?><a/>"),
            "line 2: XML declaration not at the start of the document");
}

TEST(ParseXmlError, UnterminatedProcessingInstruction) {
  EXPECT_THAT(ParseError("<?xml version=\"1.0\"\n<a/>"),
              StartsWith("line 1: unterminated <?xml"));
}

TEST(ParseXmlError, Doctype) {
  EXPECT_THAT(ParseError("<!DOCTYPE a>\n<a/>"), HasSubstr("DOCTYPE"));
}

TEST(ParseXmlError, MalformedClosingTag) {
  EXPECT_THAT(ParseError("<a></a x>"),
              StartsWith("line 1: malformed closing tag for <a>"));
}

TEST(ParseXmlError, NestingTooDeep) {
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "<a>";
  EXPECT_EQ(ParseError(deep), "line 1: elements nested too deeply");
  std::string allowed;
  for (int i = 0; i < 256; ++i) allowed = "<a>" + allowed + "</a>";
  EXPECT_TRUE(ParseXml(allowed).ok());
}

}  // namespace
}  // namespace mxcts::spec
