// Copyright mxcts authors.
//
// Conformance: the errors of bad page-locked memory calls
// (docs/spec/api-memory.md): mcMallocHost and mcHostAlloc without an output,
// with unknown flags or beyond memory; mcHostRegister of null, empty,
// overlapping or runtime memory and with unknown or unsupported flags;
// mcHostUnregister of what is not a registration's start;
// mcHostGetDevicePointer and mcHostGetFlags of what is not page-locked
// memory. Each failure leaves existing allocations and registrations as
// they were, beside a control that succeeds.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::Kind;

mcMemoryType TypeOf(const void* p) {
  mcPointerAttribute_t a;
  EXPECT_EQ(mcPointerGetAttributes(&a, p), mcSuccess);
  return a.type;
}

// --- mcMallocHost and mcHostAlloc. ---

struct FlagCase {
  bool host_alloc;
  unsigned flags;
};

class HostAllocFlags : public testing::TestWithParam<FlagCase> {};

TEST_P(HostAllocFlags, UnknownFlagIsInvalidValueAndAllocatesNothing) {
  MX_SPEC("api.memory.malloc-host.invalid-flags",
          "api.memory.host-alloc.same-as-malloc-host");
  const FlagCase& c = GetParam();
  void* p = nullptr;
  EXPECT_EQ(c.host_alloc ? mcHostAlloc(&p, 64, c.flags)
                         : mcMallocHost(&p, 64, c.flags),
            mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
  // Control: the valid bits alone.
  const unsigned valid = c.flags & 0x7u;
  ASSERT_EQ(
      c.host_alloc ? mcHostAlloc(&p, 64, valid) : mcMallocHost(&p, 64, valid),
      mcSuccess);
  EXPECT_EQ(mcFreeHost(p), mcSuccess);
}

std::vector<FlagCase> FlagCases() {
  std::vector<FlagCase> cases;
  for (bool host_alloc : {false, true}) {
    for (unsigned flags : {0x8u, 0x9u, 0x10u, 0x80000000u, 0xFFFFFFFFu}) {
      cases.push_back({host_alloc, flags});
    }
  }
  return cases;
}

std::string FlagCaseName(const testing::TestParamInfo<FlagCase>& info) {
  return std::string(info.param.host_alloc ? "HostAlloc" : "MallocHost") +
         "_flags" + std::to_string(info.param.flags);
}

INSTANTIATE_TEST_SUITE_P(Flags, HostAllocFlags, testing::ValuesIn(FlagCases()),
                         FlagCaseName);

TEST(HostAllocErrors, NullOutputIsInvalidValue) {
  MX_SPEC("api.memory.malloc-host.null-pointer-to-pointer",
          "api.memory.host-alloc.same-as-malloc-host");
  EXPECT_EQ(mcMallocHost(static_cast<void**>(nullptr), 64),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMallocHost(static_cast<void**>(nullptr), 64, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcHostAlloc(static_cast<void**>(nullptr), 64, 0),
            mcErrorInvalidValue);
  void* p = nullptr;
  ASSERT_EQ(mcMallocHost(&p, 64), mcSuccess);
  EXPECT_EQ(mcFreeHost(p), mcSuccess);
}

TEST(HostAllocErrors, TooLargeIsMemoryAllocation) {
  MX_SPEC("api.memory.malloc-host.out-of-memory");
  void* p = nullptr;
  EXPECT_EQ(mcMallocHost(&p, SIZE_MAX), mcErrorMemoryAllocation);
  EXPECT_EQ(mcHostAlloc(&p, SIZE_MAX - 4095, 0), mcErrorMemoryAllocation);
  EXPECT_EQ(mcGetLastError(), mcErrorMemoryAllocation);
  ASSERT_EQ(mcMallocHost(&p, 4096), mcSuccess);
  EXPECT_EQ(mcFreeHost(p), mcSuccess);
}

// --- mcHostRegister. ---

class RegisterErrors : public testing::Test {
 protected:
  void SetUp() override {
    block_.assign(4 * 4096, 0x5C);
    ASSERT_EQ(mcHostRegister(at(4096), 4096, 0), mcSuccess);
  }
  void TearDown() override {
    EXPECT_EQ(TypeOf(at(4096)), mcMemoryTypeHost);  // still registered
    EXPECT_EQ(mcHostUnregister(at(4096)), mcSuccess);
    for (unsigned char byte : block_) ASSERT_EQ(byte, 0x5C);
  }
  unsigned char* at(size_t offset) { return block_.data() + offset; }

  std::vector<unsigned char> block_;
};

TEST_F(RegisterErrors, NullOrEmptyRangeIsInvalidValue) {
  MX_SPEC("api.memory.host-register.null-or-zero-size");
  EXPECT_EQ(mcHostRegister(nullptr, 64, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcHostRegister(at(0), 0, 0), mcErrorInvalidValue);
  EXPECT_EQ(TypeOf(at(0)), mcMemoryTypeUnregistered);
  ASSERT_EQ(mcHostRegister(at(0), 64, 0), mcSuccess);  // control
  EXPECT_EQ(mcHostUnregister(at(0)), mcSuccess);
}

class RegisterFlags : public testing::TestWithParam<unsigned> {};

TEST_P(RegisterFlags, UnknownFlagIsInvalidValue) {
  MX_SPEC("api.memory.host-register.invalid-flags");
  std::vector<unsigned char> bytes(256);
  EXPECT_EQ(mcHostRegister(bytes.data(), bytes.size(), GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(TypeOf(bytes.data()), mcMemoryTypeUnregistered);
  ASSERT_EQ(mcHostRegister(bytes.data(), bytes.size(), GetParam() & 0xBu),
            mcSuccess);
  EXPECT_EQ(mcHostUnregister(bytes.data()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, RegisterFlags,
                         testing::Values(0x10u, 0x11u, 0x20u, 0x100u,
                                         0x80000000u, 0xFFFFFFF0u));

TEST(RegisterUnsupported, IoMemoryIsNotSupportedOrRegisters) {
  MX_SPEC("api.memory.host-register.unsupported-flag");
  std::vector<unsigned char> bytes(256);
  const mcError_t result =
      mcHostRegister(bytes.data(), bytes.size(), mcHostRegisterIoMemory);
  EXPECT_TRUE(result == mcErrorNotSupported || result == mcSuccess);
  if (result == mcSuccess) {
    EXPECT_EQ(mcHostUnregister(bytes.data()), mcSuccess);
  } else {
    EXPECT_EQ(TypeOf(bytes.data()), mcMemoryTypeUnregistered);
  }
  ASSERT_EQ(mcHostRegister(bytes.data(), bytes.size(), 0), mcSuccess);
  EXPECT_EQ(mcHostUnregister(bytes.data()), mcSuccess);
}

struct Overlap {
  const char* name;
  size_t offset;
  size_t size;
};

class RegisterOverlap : public RegisterErrors,
                        public testing::WithParamInterface<Overlap> {};

TEST_P(RegisterOverlap, IsAlreadyRegisteredAndKeepsTheRegistration) {
  MX_SPEC("api.memory.host-register.already-registered");
  const Overlap& o = GetParam();
  EXPECT_EQ(mcHostRegister(at(o.offset), o.size, 0),
            mcErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(TypeOf(at(0)), mcMemoryTypeUnregistered);
  EXPECT_EQ(TypeOf(at(3 * 4096)), mcMemoryTypeUnregistered);
  // Control: the ranges right before and after it register.
  ASSERT_EQ(mcHostRegister(at(0), 4096, 0), mcSuccess);
  ASSERT_EQ(mcHostRegister(at(2 * 4096), 4096, 0), mcSuccess);
  EXPECT_EQ(mcHostUnregister(at(0)), mcSuccess);
  EXPECT_EQ(mcHostUnregister(at(2 * 4096)), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ranges, RegisterOverlap,
                         testing::Values(Overlap{"Same", 4096, 4096},
                                         Overlap{"Inside", 4100, 8},
                                         Overlap{"StartsBefore", 4000, 200},
                                         Overlap{"EndsAfter", 8000, 500},
                                         Overlap{"Covers", 0, 4 * 4096},
                                         Overlap{"LastByte", 8191, 1}),
                         [](const testing::TestParamInfo<Overlap>& info) {
                           return std::string(info.param.name);
                         });

class RegisterRuntimeMemory : public testing::TestWithParam<Kind> {};

TEST_P(RegisterRuntimeMemory, IsRejectedAndChangesNothing) {
  MX_SPEC("api.memory.host-register.device-memory",
          "api.memory.host-register.already-registered");
  MX_REQUIRE_MEMORY_KIND(GetParam());
  Buffer buffer(GetParam(), 256, 1);
  ASSERT_TRUE(buffer.ok());
  const mcMemoryType before = TypeOf(buffer.data());
  const mcError_t expected = GetParam() == Kind::kPinned
                                 ? mcErrorHostMemoryAlreadyRegistered
                                 : mcErrorInvalidValue;
  EXPECT_EQ(mcHostRegister(buffer.data(), 256, 0), expected);
  EXPECT_EQ(mcHostRegister(buffer.data() + 16, 16, 0), expected);
  EXPECT_EQ(TypeOf(buffer.data()), before);
  EXPECT_EQ(mcHostUnregister(buffer.data()), mcErrorHostMemoryNotRegistered);
  // Control: pageable memory registers.
  std::vector<unsigned char> pageable(256);
  ASSERT_EQ(mcHostRegister(pageable.data(), 256, 0), mcSuccess);
  EXPECT_EQ(mcHostUnregister(pageable.data()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, RegisterRuntimeMemory,
    testing::Values(Kind::kDevice, Kind::kPeer, Kind::kManaged, Kind::kPinned),
    [](const testing::TestParamInfo<Kind>& info) {
      return std::string(mxcts::conformance::memory::KindName(info.param));
    });

// --- mcHostUnregister. ---

TEST_F(RegisterErrors, UnregisterOfWhatIsNoRegistrationStart) {
  MX_SPEC("api.memory.host-unregister.not-registered");
  EXPECT_EQ(mcHostUnregister(at(0)), mcErrorHostMemoryNotRegistered);
  EXPECT_EQ(mcHostUnregister(at(4097)), mcErrorHostMemoryNotRegistered);
  EXPECT_EQ(mcHostUnregister(at(2 * 4096 - 1)), mcErrorHostMemoryNotRegistered);
  EXPECT_EQ(mcHostUnregister(nullptr), mcErrorHostMemoryNotRegistered);
  EXPECT_EQ(mcGetLastError(), mcErrorHostMemoryNotRegistered);
  // Control: a registration of its own, ended twice.
  ASSERT_EQ(mcHostRegister(at(0), 100, 0), mcSuccess);
  EXPECT_EQ(mcHostUnregister(at(0)), mcSuccess);
  EXPECT_EQ(mcHostUnregister(at(0)), mcErrorHostMemoryNotRegistered);
}

// --- mcHostGetDevicePointer and mcHostGetFlags. ---

class DevicePointerFlags : public testing::TestWithParam<unsigned> {};

TEST_P(DevicePointerFlags, NonzeroFlagsAreInvalidValue) {
  MX_SPEC("api.memory.host-get-device-pointer.nonzero-flags");
  Buffer pinned(Kind::kPinned, 64, 1);
  ASSERT_TRUE(pinned.ok());
  void* device = reinterpret_cast<void*>(uintptr_t{0x99});
  EXPECT_EQ(mcHostGetDevicePointer(&device, pinned.data(), GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcHostGetDevicePointer(&device, pinned.data(), 0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, DevicePointerFlags,
                         testing::Values(1u, 2u, 4u, 0x80u, 0xFFFFFFFFu));

class NotPageLocked : public testing::TestWithParam<Kind> {};

TEST_P(NotPageLocked, DevicePointerAndFlagsAreInvalidValue) {
  MX_SPEC("api.memory.host-get-device-pointer.not-mapped",
          "api.memory.host-get-flags.not-host-allocation");
  MX_REQUIRE_MEMORY_KIND(GetParam());
  Buffer buffer(GetParam(), 64, 1);
  ASSERT_TRUE(buffer.ok());
  void* device = nullptr;
  unsigned int flags = 0;
  if (GetParam() != Kind::kRegistered) {
    EXPECT_EQ(mcHostGetDevicePointer(&device, buffer.data(), 0),
              mcErrorInvalidValue);
  }
  EXPECT_EQ(mcHostGetFlags(&flags, buffer.data()), mcErrorInvalidValue);
  // Control: page-locked memory from mcMallocHost.
  Buffer pinned(Kind::kPinned, 64, 2);
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ(mcHostGetDevicePointer(&device, pinned.data(), 0), mcSuccess);
  EXPECT_EQ(mcHostGetFlags(&flags, pinned.data()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, NotPageLocked,
    testing::Values(Kind::kPageable, Kind::kRegistered, Kind::kDevice,
                    Kind::kPeer, Kind::kManaged),
    [](const testing::TestParamInfo<Kind>& info) {
      return std::string(mxcts::conformance::memory::KindName(info.param));
    });

TEST(HostQueryErrors, NullOutputsAreInvalidValue) {
  MX_SPEC("api.memory.host-get-device-pointer.not-mapped",
          "api.memory.host-get-flags.not-host-allocation");
  Buffer pinned(Kind::kPinned, 64, 1);
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ(mcHostGetDevicePointer(nullptr, pinned.data(), 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcHostGetFlags(nullptr, pinned.data()), mcErrorInvalidValue);
  void* device = nullptr;
  unsigned int flags = 0;
  EXPECT_EQ(mcHostGetDevicePointer(&device, pinned.data(), 0), mcSuccess);
  EXPECT_EQ(mcHostGetFlags(&flags, pinned.data()), mcSuccess);
}

}  // namespace
