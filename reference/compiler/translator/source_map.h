// Copyright mxcts authors.
//
// Maps physical lines of a preprocessed translation unit to the user's
// files and lines, from the line markers `g++ -E` writes:
// `# 12 "dir/a.cu" 1 3` says that the next line is line 12 of "dir/a.cu",
// and flag 3 that the file is a system header. `#line 12 "a.cu"` is read
// the same way. Internal to the translator.
//
//   SourceMap map(Lex(text).tokens);
//   PresumedLocation where = map.Locate(token.line);
//   // where.file, where.line, where.system_header

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_SOURCE_MAP_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_SOURCE_MAP_H_

#include <string>
#include <vector>

#include "reference/compiler/translator/lexer.h"

namespace mxcts::compiler::translator_internal {

struct PresumedLocation {
  std::string file;
  int line = 0;
  bool system_header = false;
};

class SourceMap {
 public:
  // Reads the line markers among `tokens` (the lexer's kDirective tokens).
  explicit SourceMap(const std::vector<Token>& tokens);

  // The file and line of physical line `physical_line` (1-based). Lines
  // before the first marker are lines of "<input>".
  PresumedLocation Locate(int physical_line) const;

 private:
  struct Marker {
    int first_physical_line;  // the line after the marker
    int presumed_line;        // what that line is called
    std::string file;
    bool system_header;
  };
  std::vector<Marker> markers_;
};

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_SOURCE_MAP_H_
