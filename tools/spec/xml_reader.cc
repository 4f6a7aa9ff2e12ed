// A strict recursive-descent XML parser, written as a loop.
//
// The parser walks the document once, left to right, with one cursor. Outside
// the root element it accepts only whitespace, comments and processing
// instructions (the XML declaration only at the very start, after an optional
// UTF-8 byte order mark). The root and its descendants are parsed with an
// explicit stack of open elements instead of recursion, so a deeply nested
// document cannot overflow the call stack; a depth limit still bounds the
// recursion in XmlElement's destructor. A start tag pushes an element, an end
// tag must name the element on top of the stack and pops it into its parent,
// and text, CDATA sections and references append to the text of the top
// element.
//
// Character data is decoded as it is appended: references are replaced by
// their characters (UTF-8 encoded), "\r\n" and a lone "\r" become "\n", and in
// attribute values each literal tab or line end becomes a space, as XML's
// attribute-value normalisation requires. Character references must name a
// character XML allows (so &#0; is an error).
//
// Errors carry the line of the construct at fault: the line of an unterminated
// comment's "<!--", of an attribute's opening quote, of a mismatched end tag.
// Lines are counted lazily from the last counted position, so error reporting
// and the `line` of each element cost one pass over the document in total.
//
// Tested by xml_reader_test.cc.
#include "tools/spec/xml_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace mxcts::spec {
namespace {

constexpr size_t kMaxDepth = 256;
// Longer than any predefined entity or in-range character reference; a longer
// candidate is a stray '&'.
constexpr size_t kMaxReferenceLength = 12;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool IsNameStart(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         c == ':' || static_cast<unsigned char>(c) >= 0x80;
}

bool IsNameChar(char c) {
  return IsNameStart(c) || absl::ascii_isdigit(static_cast<unsigned char>(c)) ||
         c == '-' || c == '.';
}

// The characters XML 1.0 allows in a document.
bool IsXmlChar(uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

void AppendUtf8(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Parses the digits of a character reference (after "&#" or "&#x"). Returns
// false if they are empty, not digits of the base, or out of range.
bool ParseCodePoint(absl::string_view digits, int base, uint32_t* out) {
  if (digits.empty()) return false;
  uint32_t value = 0;
  for (char c : digits) {
    int digit;
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      digit = c - '0';
    } else if (base == 16 &&
               absl::ascii_isxdigit(static_cast<unsigned char>(c))) {
      digit = absl::ascii_tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    } else {
      return false;
    }
    value = value * base + digit;
    if (value > 0x10FFFF) return false;
  }
  *out = value;
  return true;
}

class Parser {
 public:
  explicit Parser(absl::string_view document) : doc_(document) {}

  absl::StatusOr<XmlElement> Parse() {
    if (absl::StartsWith(doc_, "\xEF\xBB\xBF")) pos_ = 3;
    content_start_ = pos_;
    if (absl::Status s = SkipMisc(); !s.ok()) return s;
    if (AtEnd()) return Error(pos_, "no root element");
    if (!LookingAt("<") || pos_ + 1 >= doc_.size() ||
        !IsNameStart(doc_[pos_ + 1])) {
      return Error(pos_, "text before the root element");
    }
    absl::StatusOr<XmlElement> root = ParseElementTree();
    if (!root.ok()) return root.status();
    if (absl::Status s = SkipMisc(); !s.ok()) return s;
    if (!AtEnd())
      return Error(pos_, "unexpected content after the root element");
    return root;
  }

 private:
  bool AtEnd() const { return pos_ >= doc_.size(); }
  bool LookingAt(absl::string_view s) const {
    return absl::StartsWith(doc_.substr(pos_), s);
  }

  // The line (from 1) of byte offset `pos`.
  int LineAt(size_t pos) {
    pos = std::min(pos, doc_.size());
    if (pos < counted_pos_) {
      counted_pos_ = 0;
      counted_line_ = 1;
    }
    counted_line_ += static_cast<int>(
        std::count(doc_.begin() + counted_pos_, doc_.begin() + pos, '\n'));
    counted_pos_ = pos;
    return counted_line_;
  }

  absl::Status Error(size_t pos, absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", LineAt(pos), ": ", what));
  }

  void SkipWhitespace() {
    while (!AtEnd() && IsSpace(doc_[pos_])) ++pos_;
  }

  // Skips whitespace, comments and processing instructions, as allowed
  // outside the root element; stops at anything else or at the end.
  absl::Status SkipMisc() {
    while (true) {
      SkipWhitespace();
      if (LookingAt("<!--")) {
        if (absl::Status s = SkipComment(); !s.ok()) return s;
      } else if (LookingAt("<?")) {
        if (absl::Status s = SkipProcessingInstruction(); !s.ok()) return s;
      } else if (LookingAt("<!DOCTYPE")) {
        return Error(pos_, "DOCTYPE declarations are not supported");
      } else {
        return absl::OkStatus();
      }
    }
  }

  // At "<!--": skips the comment.
  absl::Status SkipComment() {
    size_t end = doc_.find("-->", pos_ + 4);
    if (end == absl::string_view::npos) {
      return Error(pos_, "unterminated comment");
    }
    pos_ = end + 3;
    return absl::OkStatus();
  }

  // At "<?": skips the processing instruction; the XML declaration is allowed
  // only at the start of the document.
  absl::Status SkipProcessingInstruction() {
    size_t start = pos_;
    size_t target_end = start + 2;
    while (target_end < doc_.size() && IsNameChar(doc_[target_end])) {
      ++target_end;
    }
    absl::string_view target = doc_.substr(start + 2, target_end - start - 2);
    if (target.empty()) {
      return Error(start, "expected a name after '<?'");
    }
    if (absl::EqualsIgnoreCase(target, "xml") && start != content_start_) {
      return Error(start, "XML declaration not at the start of the document");
    }
    size_t end = doc_.find("?>", target_end);
    if (end == absl::string_view::npos) {
      return Error(start, absl::StrCat("unterminated <?", target, " ...?>"));
    }
    pos_ = end + 2;
    return absl::OkStatus();
  }

  // At "<![CDATA[": appends the section's content to `out`.
  absl::Status ParseCData(std::string* out) {
    size_t start = pos_ + 9;
    size_t end = doc_.find("]]>", start);
    if (end == absl::string_view::npos) {
      return Error(pos_, "unterminated CDATA section");
    }
    AppendNormalizingLineEnds(doc_.substr(start, end - start), out);
    pos_ = end + 3;
    return absl::OkStatus();
  }

  static void AppendNormalizingLineEnds(absl::string_view raw,
                                        std::string* out) {
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\r') {
        out->push_back('\n');
        if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
      } else {
        out->push_back(raw[i]);
      }
    }
  }

  // Reads a name at the cursor; returns an empty view if there is none.
  absl::string_view ParseName() {
    size_t start = pos_;
    if (AtEnd() || !IsNameStart(doc_[pos_])) return {};
    while (!AtEnd() && IsNameChar(doc_[pos_])) ++pos_;
    return doc_.substr(start, pos_ - start);
  }

  // Decodes `raw`, which starts at offset `raw_pos` of the document, and
  // appends it to `out`: references are replaced, line ends normalised, and
  // in an attribute value whitespace characters become spaces.
  absl::Status AppendDecoded(absl::string_view raw, size_t raw_pos,
                             bool attribute, std::string* out) {
    for (size_t i = 0; i < raw.size(); ++i) {
      char c = raw[i];
      if (c == '&') {
        size_t semi = raw.find(';', i + 1);
        size_t length = semi == absl::string_view::npos ? 0 : semi - i - 1;
        if (semi == absl::string_view::npos || length == 0 ||
            length > kMaxReferenceLength) {
          return Error(raw_pos + i,
                       "'&' does not start a reference (write &amp;)");
        }
        absl::Status s =
            AppendReference(raw.substr(i + 1, length), raw_pos + i, out);
        if (!s.ok()) return s;
        i = semi;
      } else if (c == '\r') {
        out->push_back(attribute ? ' ' : '\n');
        if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
      } else if (attribute && (c == '\n' || c == '\t')) {
        out->push_back(' ');
      } else {
        out->push_back(c);
      }
    }
    return absl::OkStatus();
  }

  // Appends the character of the reference `&<ref>;` found at `pos`.
  absl::Status AppendReference(absl::string_view ref, size_t pos,
                               std::string* out) {
    if (ref[0] == '#') {
      uint32_t code = 0;
      bool hex = ref.size() > 1 && ref[1] == 'x';
      if (!ParseCodePoint(ref.substr(hex ? 2 : 1), hex ? 16 : 10, &code) ||
          !IsXmlChar(code)) {
        return Error(pos,
                     absl::StrCat("invalid character reference &", ref, ";"));
      }
      AppendUtf8(code, out);
      return absl::OkStatus();
    }
    if (ref == "lt") {
      out->push_back('<');
    } else if (ref == "gt") {
      out->push_back('>');
    } else if (ref == "amp") {
      out->push_back('&');
    } else if (ref == "apos") {
      out->push_back('\'');
    } else if (ref == "quot") {
      out->push_back('"');
    } else {
      return Error(pos, absl::StrCat("unknown entity &", ref, ";"));
    }
    return absl::OkStatus();
  }

  // At "<" and a name: parses a start tag into `element`.
  absl::Status ParseStartTag(XmlElement* element, bool* self_closing) {
    size_t start = pos_;
    element->line = LineAt(start);
    ++pos_;
    element->name = std::string(ParseName());
    while (true) {
      size_t before_space = pos_;
      SkipWhitespace();
      if (AtEnd()) {
        return Error(start,
                     absl::StrCat("unterminated start tag <", element->name));
      }
      if (LookingAt("/>")) {
        pos_ += 2;
        *self_closing = true;
        return absl::OkStatus();
      }
      if (LookingAt(">")) {
        ++pos_;
        *self_closing = false;
        return absl::OkStatus();
      }
      size_t attribute_start = pos_;
      absl::string_view key = ParseName();
      if (key.empty() || attribute_start == before_space) {
        return Error(attribute_start,
                     absl::StrCat("unexpected character in start tag <",
                                  element->name, ">"));
      }
      SkipWhitespace();
      if (!LookingAt("=")) {
        return Error(pos_, absl::StrCat("expected '=' after attribute ", key));
      }
      ++pos_;
      SkipWhitespace();
      if (AtEnd() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) {
        return Error(
            pos_, absl::StrCat("value of attribute ", key, " is not quoted"));
      }
      size_t quote = pos_;
      size_t end = doc_.find(doc_[quote], quote + 1);
      if (end == absl::string_view::npos) {
        return Error(quote,
                     absl::StrCat("unterminated value of attribute ", key));
      }
      absl::string_view raw = doc_.substr(quote + 1, end - quote - 1);
      if (size_t lt = raw.find('<'); lt != absl::string_view::npos) {
        return Error(quote + 1 + lt,
                     absl::StrCat("'<' in the value of attribute ", key,
                                  " (is its closing quote missing?)"));
      }
      if (element->Attribute(key) != nullptr) {
        return Error(attribute_start,
                     absl::StrCat("duplicate attribute ", key, " in <",
                                  element->name, ">"));
      }
      std::string value;
      if (absl::Status s =
              AppendDecoded(raw, quote + 1, /*attribute=*/true, &value);
          !s.ok()) {
        return s;
      }
      element->attributes.emplace_back(std::string(key), std::move(value));
      pos_ = end + 1;
    }
  }

  // At "</": parses the end tag of `open`.
  absl::Status ParseEndTag(const XmlElement& open) {
    size_t start = pos_;
    pos_ += 2;
    absl::string_view name = ParseName();
    SkipWhitespace();
    if (name.empty() || !LookingAt(">")) {
      return Error(start, absl::StrCat("malformed closing tag for <", open.name,
                                       "> opened on line ", open.line));
    }
    ++pos_;
    if (name != open.name) {
      return Error(start,
                   absl::StrCat("closing tag </", name, "> does not match <",
                                open.name, "> opened on line ", open.line));
    }
    return absl::OkStatus();
  }

  // At the root's "<": parses the root element and everything inside it.
  absl::StatusOr<XmlElement> ParseElementTree() {
    std::vector<XmlElement> open;
    XmlElement root;
    bool self_closing = false;
    if (absl::Status s = ParseStartTag(&root, &self_closing); !s.ok()) return s;
    if (self_closing) return root;
    open.push_back(std::move(root));
    while (true) {
      if (AtEnd()) {
        return Error(pos_,
                     absl::StrCat("end of document inside <", open.back().name,
                                  "> opened on line ", open.back().line));
      }
      absl::Status s;
      if (doc_[pos_] != '<') {
        size_t end = std::min(doc_.find('<', pos_), doc_.size());
        s = AppendDecoded(doc_.substr(pos_, end - pos_), pos_,
                          /*attribute=*/false, &open.back().text);
        pos_ = end;
      } else if (LookingAt("<!--")) {
        s = SkipComment();
      } else if (LookingAt("<![CDATA[")) {
        s = ParseCData(&open.back().text);
      } else if (LookingAt("<?")) {
        s = SkipProcessingInstruction();
      } else if (LookingAt("</")) {
        s = ParseEndTag(open.back());
        if (s.ok()) {
          XmlElement closed = std::move(open.back());
          open.pop_back();
          if (open.empty()) return closed;
          open.back().children.push_back(std::move(closed));
        }
      } else if (pos_ + 1 < doc_.size() && IsNameStart(doc_[pos_ + 1])) {
        size_t child_start = pos_;
        XmlElement child;
        s = ParseStartTag(&child, &self_closing);
        if (s.ok() && open.size() >= kMaxDepth) {
          return Error(child_start, "elements nested too deeply");
        }
        if (s.ok() && self_closing) {
          open.back().children.push_back(std::move(child));
        } else if (s.ok()) {
          open.push_back(std::move(child));
        }
      } else {
        s = Error(pos_, "'<' that does not start markup (write &lt;)");
      }
      if (!s.ok()) return s;
    }
  }

  absl::string_view doc_;
  size_t pos_ = 0;
  size_t content_start_ = 0;
  size_t counted_pos_ = 0;
  int counted_line_ = 1;
};

}  // namespace

const std::string* XmlElement::Attribute(absl::string_view key) const {
  for (const auto& [attribute_key, value] : attributes) {
    if (attribute_key == key) return &value;
  }
  return nullptr;
}

absl::StatusOr<XmlElement> ParseXml(absl::string_view document) {
  return Parser(document).Parse();
}

}  // namespace mxcts::spec
