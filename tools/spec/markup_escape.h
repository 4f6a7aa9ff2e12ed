// Copyright mxcts authors.
//
// tools/spec/markup_escape.h: escaping text for the HTML coverage report.
//
// `&`, `<`, `>` and `"` become entities, and a line break becomes `&#10;` so
// that it survives in an attribute value. (XML documents are written with
// pugixml, which escapes for itself.)
//
//   out += "<td title=\"" + EscapeMarkup(statement) + "\">";

#ifndef MXCTS_TOOLS_SPEC_MARKUP_ESCAPE_H_
#define MXCTS_TOOLS_SPEC_MARKUP_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mxcts::spec {

// Returns `text` safe to place in XML or HTML text or a quoted attribute.
std::string EscapeMarkup(absl::string_view text);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_MARKUP_ESCAPE_H_
