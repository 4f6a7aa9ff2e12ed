// Copyright mxcts authors.
//
// Tests of the structural check of device images: a device image mxcc
// made passes; damage to each structure the loader reads is refused; and
// random damage anywhere either passes or is refused, never crashes.

#include "reference/module_image/elf_check.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

namespace mxcts::module_image {
namespace {

std::vector<unsigned char> TestImage() {
  std::string path = std::string(getenv("TEST_SRCDIR")) + "/" +
                     getenv("TEST_WORKSPACE") +
                     "/reference/runtime/images/testdata/libtest_image.so";
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

template <typename T>
void Put(std::vector<unsigned char>* bytes, size_t offset, T value) {
  std::memcpy(bytes->data() + offset, &value, sizeof(T));
}

Elf64_Ehdr Header(const std::vector<unsigned char>& bytes) {
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  return header;
}

TEST(CheckSharedObject, AcceptsADeviceImage) {
  std::vector<unsigned char> image = TestImage();
  ASSERT_FALSE(image.empty());
  absl::Status s = CheckSharedObject(image.data(), image.size());
  EXPECT_TRUE(s.ok()) << s;
}

TEST(CheckSharedObject, RefusesDamagedHeaders) {
  const std::vector<unsigned char> good = TestImage();
  ASSERT_FALSE(good.empty());
  struct Damage {
    const char* what;
    size_t offset;
    uint64_t value;
    int width;
  };
  const Damage damages[] = {
      {"magic", 1, 'X', 1},
      {"class", EI_CLASS, ELFCLASS32, 1},
      {"type", offsetof(Elf64_Ehdr, e_type), ET_EXEC, 2},
      {"machine", offsetof(Elf64_Ehdr, e_machine), 183 + 1, 2},
      {"program header offset", offsetof(Elf64_Ehdr, e_phoff), ~0ull, 8},
      {"program header count", offsetof(Elf64_Ehdr, e_phnum), 0, 2},
      {"section header offset", offsetof(Elf64_Ehdr, e_shoff), ~0ull >> 1, 8},
      {"section header size", offsetof(Elf64_Ehdr, e_shentsize), 7, 2},
  };
  for (const Damage& d : damages) {
    std::vector<unsigned char> image = good;
    if (d.width == 1) image[d.offset] = static_cast<unsigned char>(d.value);
    if (d.width == 2) Put<uint16_t>(&image, d.offset, d.value);
    if (d.width == 8) Put<uint64_t>(&image, d.offset, d.value);
    EXPECT_FALSE(CheckSharedObject(image.data(), image.size()).ok()) << d.what;
  }
  EXPECT_FALSE(CheckSharedObject(good.data(), 10).ok());
}

TEST(CheckSharedObject, RefusesSegmentsOutOfTheFile) {
  const std::vector<unsigned char> good = TestImage();
  ASSERT_FALSE(good.empty());
  Elf64_Ehdr header = Header(good);
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    std::vector<unsigned char> image = good;
    const size_t at = header.e_phoff + i * sizeof(Elf64_Phdr);
    Elf64_Phdr p;
    std::memcpy(&p, image.data() + at, sizeof(p));
    if (p.p_type != PT_LOAD && p.p_type != PT_DYNAMIC) continue;
    p.p_offset = image.size();
    p.p_filesz = 4096;
    std::memcpy(image.data() + at, &p, sizeof(p));
    EXPECT_FALSE(CheckSharedObject(image.data(), image.size()).ok())
        << "segment " << i;
  }
}

TEST(CheckSharedObject, RefusesSectionsOutOfTheFile) {
  const std::vector<unsigned char> good = TestImage();
  ASSERT_FALSE(good.empty());
  Elf64_Ehdr header = Header(good);
  int checked = 0;
  for (unsigned i = 1; i < header.e_shnum; ++i) {
    std::vector<unsigned char> image = good;
    const size_t at = header.e_shoff + i * sizeof(Elf64_Shdr);
    Elf64_Shdr s;
    std::memcpy(&s, image.data() + at, sizeof(s));
    if (s.sh_type == SHT_NOBITS) continue;
    s.sh_size = image.size();
    std::memcpy(image.data() + at, &s, sizeof(s));
    EXPECT_FALSE(CheckSharedObject(image.data(), image.size()).ok())
        << "section " << i;
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

TEST(CheckSharedObject, RandomDamageNeverCrashes) {
  const std::vector<unsigned char> good = TestImage();
  ASSERT_FALSE(good.empty());
  std::mt19937 random(20261126);
  int refused = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<unsigned char> image = good;
    const int changes = 1 + round % 8;
    for (int c = 0; c < changes; ++c) {
      // Half the damage in the headers, where the loader starts reading.
      size_t limit =
          round % 2 == 0 ? std::min<size_t>(image.size(), 1024) : image.size();
      image[random() % limit] = static_cast<unsigned char>(random());
    }
    if (!CheckSharedObject(image.data(), image.size()).ok()) ++refused;
    (void)ReadSymbols(image.data(), image.size(), SymbolTable::kStatic);
    (void)ReadSymbols(image.data(), image.size(), SymbolTable::kDynamic);
  }
  EXPECT_GT(refused, 0);
}

TEST(ReadSymbols, FindsLocalAndExportedSymbols) {
  const std::vector<unsigned char> image = TestImage();
  absl::StatusOr<std::vector<ElfSymbol>> dynamic =
      ReadSymbols(image.data(), image.size(), SymbolTable::kDynamic);
  absl::StatusOr<std::vector<ElfSymbol>> all =
      ReadSymbols(image.data(), image.size(), SymbolTable::kStatic);
  ASSERT_TRUE(dynamic.ok() && all.ok());
  EXPECT_GT(all->size(), dynamic->size());
  bool bind = false;
  for (const ElfSymbol& s : *dynamic) bind |= s.name == "__mc_image_bind";
  EXPECT_TRUE(bind);
}

}  // namespace
}  // namespace mxcts::module_image
