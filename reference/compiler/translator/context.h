// Copyright mxcts authors.
//
// The state one translation shares between its rewriters: the source and
// its tokens, the declaration index, the edits being collected, the
// diagnostics, and the counter that makes generated names unique within the
// translation unit. Internal to the translator.

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_CONTEXT_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_CONTEXT_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference/compiler/translator/declarations.h"
#include "reference/compiler/translator/edit_list.h"
#include "reference/compiler/translator/lexer.h"
#include "reference/compiler/translator/source_map.h"
#include "reference/compiler/translator/token_stream.h"
#include "reference/compiler/translator/translator.h"

namespace mxcts::compiler::translator_internal {

// A kernel definition of the device pass. Its record is instantiated at the
// end of its body (FinishKernelRecords), where the typedefs of the static
// `__shared__` variables of its outermost block are in scope.
struct KernelBody {
  int body_open = -1;      // the body's `{`
  int body_close = -1;     // its `}`
  std::string self;        // SELF of the rewrites
  std::string unit = "0";  // KernelTraits' Unit (KernelKeyInUnit)
  // The `__launch_bounds__` arguments as written, or "" when absent.
  std::string max_threads;
  std::string min_blocks;
  // The typedef names of the static `__shared__` variables declared at the
  // outermost block of the body, in order.
  std::vector<std::string> shared_types;
  // It launches grids from device code (grid_launchers.h).
  bool launches_grids = false;
};

struct Context {
  Context(std::string_view source, const LexResult& lexed,
          const TokenStream& stream, const SourceMap& map,
          const DeclarationIndex& index, const TranslationOptions& options);

  std::string_view source;
  const LexResult& lexed;
  const TokenStream& s;
  const SourceMap& map;
  const DeclarationIndex& index;
  Pass pass;
  std::string image;  // options.image_symbol, or a placeholder when empty
  bool relocatable_device_code;  // options.relocatable_device_code

  EditList edits;
  std::vector<Diagnostic> diagnostics;
  std::vector<int> diagnostic_offsets;  // where each one is, for sorting
  bool needs_image = false;
  // The first token of the earliest file-scope declaration whose host-pass
  // rewrite refers to the image; the image's declaration goes before it.
  int first_image_use = -1;
  // `__shared__` tokens that a namespace-scope rewrite has dealt with.
  std::set<int> handled_shared;
  // Device pass: the kernel definitions whose records are still to be
  // instantiated.
  std::vector<KernelBody> kernel_bodies;
  // Device pass: the names of the functions that launch grids
  // (FindGridLaunchers).
  std::set<std::string> grid_launchers;
  // Host pass: the `__forceinline__` tokens of __device__-only functions,
  // which become a plain `inline` (rewrite 4 makes them noinline).
  std::set<int> plain_forceinline;
  // Translation::device_declarations_without_definition.
  std::set<std::string> device_declarations;

  bool host() const { return pass == Pass::kHost; }
  // A part of record names unique to the source (the hex digits of
  // `image`), so that relocatable device code can link the records of
  // several sources into one image.
  std::string UniqueRecordTag() const;
  // A number unique within the translation unit (the `N` of the rewrites).
  int NextId() { return next_id_++; }
  // Reports an error at token `token` of the stream.
  void Error(int token, std::string message);
  void UseImage(int file_scope_begin);

  // Edits by token index: [first, last) replaced; text before/after a token.
  void ReplaceTokens(int first, int last, std::string text);
  void InsertBefore(int token, std::string text);
  void InsertAfter(int token, std::string text);

 private:
  int next_id_ = 0;
};

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_CONTEXT_H_
