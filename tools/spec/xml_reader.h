// -----------------------------------------------------------------------------
// File: xml_reader.h
// -----------------------------------------------------------------------------
//
// A minimal, strict XML parser, sufficient for the test result files that
// GoogleTest (--gtest_output=xml) and Bazel (bazel-testlogs/**/test.xml)
// write. It reads a whole document into a tree of `XmlElement`s.
//
// Supported: the XML declaration `<?xml ...?>`, other processing instructions
// (skipped), comments (skipped), elements with single- or double-quoted
// attributes, self-closing tags, character data, CDATA sections, the five
// predefined entities (&lt; &gt; &amp; &apos; &quot;) and numeric character
// references (&#10; &#x0A;), decoded to UTF-8. Not supported, and rejected:
// DOCTYPE declarations and any other entity. Namespaces are not interpreted:
// a prefixed name such as `xs:element` is kept as written. The input is taken
// to be UTF-8 and is not validated.
//
// Example:
//
//   absl::StatusOr<XmlElement> root = ParseXml(
//       "<testsuites><testsuite name=\"Suite\">"
//       "<testcase name=\"Passes\"/></testsuite></testsuites>");
//   if (!root.ok()) return root.status();  // "line 1: ..."
//   for (const XmlElement& suite : root->children) {
//     if (const std::string* name = suite.Attribute("name")) { ... }
//   }
//
// Every error is absl::InvalidArgumentError with a message of the form
// "line N: <what went wrong>", N counting from 1.
#ifndef MXCTS_TOOLS_SPEC_XML_READER_H_
#define MXCTS_TOOLS_SPEC_XML_READER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::spec {

// One element of a parsed document, owning its subtree.
struct XmlElement {
  // The tag name, as written (with any namespace prefix).
  std::string name;
  // The attributes in document order, values with references decoded. Names
  // are unique within one element (a duplicate is a parse error).
  std::vector<std::pair<std::string, std::string>> attributes;
  // The child elements in document order.
  std::vector<XmlElement> children;
  // The character data and CDATA sections directly inside this element (not
  // inside its children), concatenated in document order, whitespace kept,
  // references decoded. Line ends are normalised to "\n".
  std::string text;
  // The line (from 1) of the element's start tag.
  int line = 0;

  // Returns the value of the attribute `key`, or nullptr if the element has
  // no such attribute. The pointer is valid while the element is unchanged.
  const std::string* Attribute(absl::string_view key) const;
};

// Parses `document` and returns its root element.
//
// The document is an optional XML declaration, then any comments, processing
// instructions and whitespace, exactly one root element, and again only
// comments, processing instructions and whitespace.
//
// Returns absl::InvalidArgumentError("line N: ...") if the document is not
// well-formed in the subset above: a closing tag that does not match the open
// element, an element left open, an unterminated comment, CDATA section, tag or
// attribute value, an unknown entity or malformed character reference, a
// duplicate attribute, content after the root element, or no root element.
// Nesting deeper than 256 elements is also rejected.
absl::StatusOr<XmlElement> ParseXml(absl::string_view document);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_XML_READER_H_
