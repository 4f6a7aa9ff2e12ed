// Copyright mxcts authors.
//
// Token-indexed edits become byte-offset edits of the EditList; diagnostics
// take their file and line from the line markers.
//
// Tested by diagnostics_test.cc.

#include "reference/compiler/translator/context.h"

namespace mxcts::compiler::translator_internal {

Context::Context(std::string_view source, const LexResult& lexed,
                 const TokenStream& stream, const SourceMap& map,
                 const DeclarationIndex& index,
                 const TranslationOptions& options)
    : source(source),
      lexed(lexed),
      s(stream),
      map(map),
      index(index),
      pass(options.pass),
      image(options.image_symbol.empty() ? "__mc_image_0000000000000000"
                                         : options.image_symbol),
      relocatable_device_code(options.relocatable_device_code) {}

std::string Context::UniqueRecordTag() const {
  constexpr std::string_view kImagePrefix = "__mc_image_";
  std::string_view tag = image;
  if (tag.substr(0, kImagePrefix.size()) == kImagePrefix) {
    tag.remove_prefix(kImagePrefix.size());
  }
  return std::string(tag);
}

void Context::Error(int token, std::string message) {
  Diagnostic d;
  d.severity = Diagnostic::Severity::kError;
  if (token >= 0 && token < s.size()) {
    PresumedLocation where = map.Locate(s.at(token).line);
    d.file = where.file;
    d.line = where.line;
    d.column = s.at(token).column;
  }
  d.message = std::move(message);
  diagnostics.push_back(std::move(d));
  diagnostic_offsets.push_back(token >= 0 && token < s.size()
                                   ? s.at(token).offset
                                   : static_cast<int>(source.size()));
}

void Context::UseImage(int file_scope_begin) {
  if (first_image_use < 0 || file_scope_begin < first_image_use) {
    first_image_use = file_scope_begin;
  }
}

// Generated text copies tokens, and a copied raw string may span lines;
// such an edit is dropped, since it would move every later line.
void Context::ReplaceTokens(int first, int last, std::string text) {
  if (first < 0 || last <= first || last > s.size()) return;
  if (text.find('\n') != std::string::npos) return;
  edits.Replace(s.at(first).offset, s.at(last - 1).end(), std::move(text));
}

void Context::InsertBefore(int token, std::string text) {
  if (token < 0 || text.find('\n') != std::string::npos) return;
  int offset =
      token < s.size() ? s.at(token).offset : static_cast<int>(source.size());
  edits.Insert(offset, std::move(text));
}

void Context::InsertAfter(int token, std::string text) {
  if (token < 0 || token >= s.size()) return;
  if (text.find('\n') != std::string::npos) return;
  edits.Insert(s.at(token).end(), std::move(text));
}

}  // namespace mxcts::compiler::translator_internal
