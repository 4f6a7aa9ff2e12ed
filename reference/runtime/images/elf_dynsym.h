// Copyright mxcts authors.
//
// reference/runtime/images/elf_dynsym.h: the names a device image exports, read
// from the image's bytes.
//
// A device image is a 64-bit little-endian ELF shared object. Its dynamic
// symbol table (the SHT_DYNSYM section and the string table its sh_link
// names) lists every exported symbol; the runtime finds the image's kernel
// and variable records there by name pattern (reference/compiler/design.md,
// "The image and the runtime"), then resolves each with dlsym. The reader
// trusts nothing: every offset and size is checked against the bytes, so a
// truncated or corrupt image is an error, never a crash.
//
//   absl::StatusOr<std::vector<std::string>> names =
//       ReadDefinedDynamicSymbols(bytes, size);
//   for (const std::string& name : *names)
//     if (IsKernelRecordSymbol(name)) ...

#ifndef MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_DYNSYM_H_
#define MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_DYNSYM_H_

#include <stddef.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::runtime {

// The names of the symbols the ELF image `bytes` defines in its dynamic
// symbol table, in table order. mcErrorInvalidKernelImage if the bytes are
// not a well-formed 64-bit little-endian ELF object with a .dynsym.
absl::StatusOr<std::vector<std::string>> ReadDefinedDynamicSymbols(
    const unsigned char* bytes, size_t size);

// `__mcdev__ZN13__mc_internal12DeviceKernel...6recordE`: the KernelRecord of
// one kernel instantiation.
bool IsKernelRecordSymbol(absl::string_view name);
// `__mcdev___mc_variable_record_...`: the DeviceVariableRecord of one
// device variable.
bool IsVariableRecordSymbol(absl::string_view name);

// The display name of a kernel, from its key: the text after "Sig F = " up
// to the closing "]" ("ns::Scale<float>"), or the key itself if it has
// another form.
std::string KernelDisplayName(absl::string_view key);

// The display name of a device variable, from its key: the key up to the
// '@' that starts the tag of its source (mxcc makes keys
// "ns::name@<source tag>", so that variables of several sources linked into
// one image as relocatable device code never share a key), or the key
// itself without one.
std::string VariableDisplayName(absl::string_view key);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IMAGES_ELF_DYNSYM_H_
