// Copyright mxcts authors.
//
// embed.h: the device image's name and the object that carries it (stages 3
// and 9 of reference/compiler/design.md).
//
// Every MXMACA source that defines a kernel or a device variable gets a
// device image, a shared object, which travels inside the source's host
// object as the bytes of one descriptor:
//
//   extern "C" __mc_internal::ImageBlob __mc_image_<16 hex> = {bytes, size};
//
// The translator makes every kernel stub and variable shadow refer to that
// symbol; the runtime loads the bytes it points at. The symbol is hidden, so
// two shared libraries built by mxcc never interpose each other's images,
// and its name is a hash of what makes the source's object unique, so two
// objects of one program never clash.
//
// Example:
//
//   std::string symbol = mxcts::driver::ImageSymbol(
//       "/home/u/a.cu", "/home/u/a.o", preprocessed_host_text);
//   WriteFile("embed.s", mxcts::driver::EmbedAssembly(symbol,
//   "/tmp/x/image.so"));
//   // then: g++ -c -x assembler embed.s -o embed.o

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_EMBED_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_EMBED_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mxcts::driver {

// 64-bit FNV-1a of `data`, continuing from `state` (the FNV offset basis for
// a fresh hash).
inline constexpr uint64_t kFnv1aOffsetBasis = 0xcbf29ce484222325ull;
uint64_t Fnv1a64(std::string_view data, uint64_t state = kFnv1aOffsetBasis);

// "__mc_image_" followed by 16 lowercase hex digits: the FNV-1a hash of the
// source's absolute path, the output's path and the preprocessed host text,
// each followed by a NUL byte so that moving text from one to the next
// changes the hash.
std::string ImageSymbol(const std::string& absolute_source,
                        const std::string& output,
                        const std::string& host_text);

// Assembly that defines the image's architecture record, exported as
// `__mcdev___mc_image_archs`: the count of `archs`, then each (see
// OffloadArchNumber). The runtime refuses to run the image on a device of
// another architecture. [api.compile.mxcc.offload-arch]
std::string ImageArchsAssembly(const std::vector<int>& archs);

// The GNU assembler text of the embed object: `image_path`'s bytes (by
// .incbin, 16-byte aligned, read-only) and the hidden global descriptor
// `symbol` = {address of the bytes, their size}, as
// __mc_internal::ImageBlob lays it out (two 8-byte words). `image_path`
// should be absolute; the assembler reads it. Each of `aliases` is defined
// as another hidden name of the same descriptor: the image that a device
// link makes of several sources' relocatable device code is the image of
// each of them [api.compile.mxcc.relocatable-device-code].
std::string EmbedAssembly(const std::string& symbol,
                          const std::string& image_path,
                          const std::vector<std::string>& aliases = {});

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_EMBED_H_
