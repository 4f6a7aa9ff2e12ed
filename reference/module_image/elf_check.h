// Copyright mxcts authors.
//
// reference/module_image/elf_check.h: what the module API checks of a
// module image's payload before the dynamic loader sees it, and how it
// reads the payload's symbols.
//
// The payload must be a device image mxcc made: a 64-bit little-endian
// ELF shared object for the host's machine. CheckSharedObject checks every
// structure the dynamic loader reads (the ELF header, the program headers,
// the dynamic section and the tables it points at, the relocations, the
// section headers), each within the bytes and each address within a
// loadable segment, so that a damaged image is refused with a reason
// instead of making the loader read or write out of bounds.
//
//   absl::Status s = CheckSharedObject(payload, size);
//   absl::StatusOr<std::vector<ElfSymbol>> symbols =
//       ReadSymbols(payload, size, SymbolTable::kStatic);
//
// Tested by elf_check_test.cc.

#ifndef MXCTS_REFERENCE_MODULE_IMAGE_ELF_CHECK_H_
#define MXCTS_REFERENCE_MODULE_IMAGE_ELF_CHECK_H_

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::module_image {

// OK, or InvalidArgumentError naming the first structure that is wrong.
absl::Status CheckSharedObject(const unsigned char* bytes, size_t size);

enum class SymbolTable {
  kDynamic,  // .dynsym: what the image exports
  kStatic,   // .symtab: every symbol the link kept, local ones included
};

struct ElfSymbol {
  std::string name;
  uint64_t value = 0;  // the link-time address
  uint64_t size = 0;
  unsigned char type = 0;  // STT_FUNC, STT_OBJECT, ...
  bool local = false;
};

// The defined, named symbols of the first table of kind `table`; an empty
// list when there is no such table. InvalidArgumentError for a table, name
// or string table out of bounds.
absl::StatusOr<std::vector<ElfSymbol>> ReadSymbols(const unsigned char* bytes,
                                                   size_t size,
                                                   SymbolTable table);

// The value the dynamic loader stores at link-time address `address`: the
// addend of an R_*_RELATIVE relocation there, the symbol's value plus the
// addend of an absolute one, else the bytes the file holds there.
// NotFoundError when no loadable segment's file part holds `address`.
absl::StatusOr<uint64_t> LoadedValueAt(const unsigned char* bytes, size_t size,
                                       uint64_t address);

}  // namespace mxcts::module_image

#endif  // MXCTS_REFERENCE_MODULE_IMAGE_ELF_CHECK_H_
