// Copyright mxcts authors.
//
// The character-by-character escape of markup_escape.h. Tested by
// markup_escape_test.cc.

#include "tools/spec/markup_escape.h"

namespace mxcts::spec {

std::string EscapeMarkup(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += "&#10;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace mxcts::spec
