// Copyright mxcts authors.
//
// Conformance: device code that reaches past the ends of a global memory
// allocation, or into one already freed (docs/spec/lang-undefined-
// behaviour.md, lang.ub.memory.out-of-bounds-global and
// lang.ub.memory.use-after-free). The behaviour is undefined; the tests
// check what the spec says the reference does in checked mode
// (MXCTS_MEMCHECK=1): a trap with mcErrorIllegalAddress naming the address
// and the allocation. Each runs in a fresh process with the variable set;
// the controls access the first and last elements under the same setting.
// Checked mode is the reference's: the traps are checked where the backend
// claims checked_memory, the controls everywhere.

#include <mc_runtime.h>

#include <cstddef>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using mxcts::conformance::ScopedEnvironment;

// Thread 0 of the block writes 1 to data[index], or copies it to *sink.
template <typename T>
__global__ void Access(T* data, long long index, bool write, T* sink) {
  if (threadIdx.x != 0) return;
  if (write) {
    data[index] = T(1);
  } else {
    *sink = data[index];
  }
}

enum class Type { kChar, kInt, kDouble };
enum class Memory { kDevice, kManaged, kFreedDevice };

size_t SizeOf(Type type) {
  switch (type) {
    case Type::kChar:
      return sizeof(char);
    case Type::kInt:
      return sizeof(int);
    case Type::kDouble:
      return sizeof(double);
  }
  return 1;
}

// Allocates `bytes` of `memory` (freeing it again for kFreedDevice), runs
// Access on element `index` and returns the error of the synchronization.
template <typename T>
mcError_t AccessAs(Memory memory, size_t bytes, long long index, bool write) {
  T* data = nullptr;
  T* sink = nullptr;
  mcError_t error = memory == Memory::kManaged ? mcMallocManaged(&data, bytes)
                                               : mcMalloc(&data, bytes);
  if (error != mcSuccess || mcMalloc(&sink, sizeof(T)) != mcSuccess) {
    return mcErrorUnknown;
  }
  if (memory == Memory::kFreedDevice && mcFree(data) != mcSuccess) {
    return mcErrorUnknown;
  }
  Access<T><<<1, 32>>>(data, index, write, sink);
  return mcDeviceSynchronize();
}

mcError_t AccessElement(Type type, Memory memory, size_t bytes, long long index,
                        bool write) {
  switch (type) {
    case Type::kChar:
      return AccessAs<char>(memory, bytes, index, write);
    case Type::kInt:
      return AccessAs<int>(memory, bytes, index, write);
    case Type::kDouble:
      return AccessAs<double>(memory, bytes, index, write);
  }
  return mcErrorUnknown;
}

const char* kHex = "0x[0-9a-f]+";

struct Case {
  Type type;
  size_t bytes;  // a multiple of 256: the end touches the guard page
  bool write;
};

std::string Name(const testing::TestParamInfo<Case>& info) {
  const char* types[] = {"Char", "Int", "Double"};
  return std::string(types[static_cast<int>(info.param.type)]) +
         std::to_string(info.param.bytes) +
         (info.param.write ? "Write" : "Read");
}

class OutOfBounds : public testing::TestWithParam<Case> {
 protected:
  long long Elements() const {
    return static_cast<long long>(GetParam().bytes / SizeOf(GetParam().type));
  }
  std::string Allocation() const {
    return " of the " + std::to_string(GetParam().bytes) +
           "-byte allocation at " + kHex + "\\)";
  }
};

TEST_P(OutOfBounds, OneElementPastTheEndTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global",
          "api.trap.error.illegal-address", "api.trap.diagnostic.content");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const std::string pattern = std::string("Access.*thread \\(0,0,0\\): ") +
                              "out-of-bounds access at " + kHex +
                              " \\(0 bytes past the end" + Allocation();
  MX_EXPECT_TRAP(AccessElement(GetParam().type, Memory::kDevice,
                               GetParam().bytes, Elements(), GetParam().write),
                 mcErrorIllegalAddress, pattern.c_str());
}

TEST_P(OutOfBounds, LastElementIsInBounds) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(
      AccessElement(GetParam().type, Memory::kDevice, GetParam().bytes,
                    Elements() - 1, GetParam().write) == mcSuccess &&
      AccessElement(GetParam().type, Memory::kDevice, GetParam().bytes, 0,
                    GetParam().write) == mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    TypesAndSizes, OutOfBounds,
    testing::Values(
        Case{Type::kChar, 256, true}, Case{Type::kChar, 4096, false},
        Case{Type::kChar, 65536, true}, Case{Type::kInt, 256, false},
        Case{Type::kInt, 4096, true}, Case{Type::kInt, 65536, false},
        Case{Type::kDouble, 256, true}, Case{Type::kDouble, 4096, false},
        Case{Type::kDouble, 65536, true}, Case{Type::kInt, 1024, true},
        Case{Type::kDouble, 1024, false}, Case{Type::kChar, 512, false}),
    Name);

class BeforeTheStart : public OutOfBounds {};

TEST_P(BeforeTheStart, ElementBeforeTheFirstTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global",
          "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const std::string pattern = std::string("out-of-bounds access at ") + kHex +
                              " \\(" + std::to_string(SizeOf(GetParam().type)) +
                              " bytes before the start" + Allocation();
  MX_EXPECT_TRAP(AccessElement(GetParam().type, Memory::kDevice,
                               GetParam().bytes, -1, GetParam().write),
                 mcErrorIllegalAddress, pattern.c_str());
}

// Whole pages: the allocation starts right after the guard page before it.
INSTANTIATE_TEST_SUITE_P(TypesAndSizes, BeforeTheStart,
                         testing::Values(Case{Type::kChar, 4096, true},
                                         Case{Type::kInt, 4096, false},
                                         Case{Type::kDouble, 8192, true},
                                         Case{Type::kInt, 65536, true}),
                         Name);

class FarOutOfBounds : public OutOfBounds {};

TEST_P(FarOutOfBounds, AccessAGigabytePastTheEndTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global",
          "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const long long far = Elements() + (1ll << 30) / static_cast<long long>(
                                                       SizeOf(GetParam().type));
  const std::string pattern = std::string("memory violation at ") + kHex;
  MX_EXPECT_TRAP(AccessElement(GetParam().type, Memory::kDevice,
                               GetParam().bytes, far, GetParam().write),
                 mcErrorIllegalAddress, pattern.c_str());
}

INSTANTIATE_TEST_SUITE_P(TypesAndSizes, FarOutOfBounds,
                         testing::Values(Case{Type::kChar, 256, true},
                                         Case{Type::kInt, 4096, false},
                                         Case{Type::kDouble, 65536, true}),
                         Name);

class ManagedOutOfBounds : public OutOfBounds {};

TEST_P(ManagedOutOfBounds, OneElementPastTheEndTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-global",
          "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const std::string pattern = std::string("out-of-bounds access at ") + kHex +
                              " \\(0 bytes past the end" + Allocation();
  MX_EXPECT_TRAP(AccessElement(GetParam().type, Memory::kManaged,
                               GetParam().bytes, Elements(), GetParam().write),
                 mcErrorIllegalAddress, pattern.c_str());
}

INSTANTIATE_TEST_SUITE_P(TypesAndSizes, ManagedOutOfBounds,
                         testing::Values(Case{Type::kInt, 256, true},
                                         Case{Type::kDouble, 4096, false}),
                         Name);

// --- Use after free. ---

class UseAfterFree : public testing::TestWithParam<Case> {};

TEST_P(UseAfterFree, AccessToFreedMemoryTraps) {
  MX_SPEC("lang.ub.memory.use-after-free", "api.trap.error.illegal-address",
          "api.trap.error.sticky");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const long long last =
      static_cast<long long>(GetParam().bytes / SizeOf(GetParam().type)) - 1;
  const std::string pattern =
      std::string("use of freed device memory at ") + kHex + " \\(byte ";
  MX_EXPECT_TRAP(AccessElement(GetParam().type, Memory::kFreedDevice,
                               GetParam().bytes, last, GetParam().write),
                 mcErrorIllegalAddress, pattern.c_str());
}

TEST_P(UseAfterFree, TheSameAccessBeforeTheFreeRuns) {
  MX_SPEC("lang.ub.memory.use-after-free");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const long long last =
      static_cast<long long>(GetParam().bytes / SizeOf(GetParam().type)) - 1;
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(
      AccessElement(GetParam().type, Memory::kDevice, GetParam().bytes, last,
                    GetParam().write) == mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(TypesAndSizes, UseAfterFree,
                         testing::Values(Case{Type::kChar, 4, true},
                                         Case{Type::kChar, 4, false},
                                         Case{Type::kInt, 256, true},
                                         Case{Type::kInt, 256, false},
                                         Case{Type::kDouble, 4096, true},
                                         Case{Type::kDouble, 4096, false},
                                         Case{Type::kInt, 1 << 20, true},
                                         Case{Type::kInt, 1 << 20, false}),
                         Name);

}  // namespace
