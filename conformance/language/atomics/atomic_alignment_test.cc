// Conformance: an atomic on a misaligned address traps with a memory
// violation (mcErrorMisalignedAddress or mcErrorIllegalAddress); one on a null
// address, on constant memory or on freed device memory with
// mcErrorIllegalAddress; the same atomic on an aligned, live, writable address
// completes (docs/spec/lang-atomics.md "Alignment and invalid addresses",
// docs/spec/api-trap-handler.md).
//
// Every kernel here runs on 3 blocks of 8 threads, all updating one word;
// only thread (5,0,0) of block (2,0,0) uses the address under test, so the
// diagnostic must name that block and thread.

#include <mc_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

// A misaligned atomic is a memory violation, reported with either code
// (lang.atomic.alignment.misaligned-*-traps).
const ::mxcts::conformance::TrapErrors kMemoryViolation =
    ::mxcts::conformance::AnyOf(mcErrorMisalignedAddress,
                                mcErrorIllegalAddress);

// True for the one thread that uses the address under test.
__device__ bool IsChosenThread() { return blockIdx.x == 2 && threadIdx.x == 5; }

// A kernel that applies CALL to `T* p`, where p is `good` except for the
// chosen thread, which gets `tested`.
#define MX_ATOMIC_AT(NAME, T, CALL)                                \
  __global__ void NAME(char* good, char* tested) {                 \
    T* p = reinterpret_cast<T*>(IsChosenThread() ? tested : good); \
    CALL;                                                          \
  }

// 16-bit words.
MX_ATOMIC_AT(CasUnsignedShort, unsigned short,
             atomicCAS(p, static_cast<unsigned short>(0),
                       static_cast<unsigned short>(1)))
MX_ATOMIC_AT(CasUnsignedShortSystem, unsigned short,
             atomicCAS_system(p, static_cast<unsigned short>(0),
                              static_cast<unsigned short>(1)))
MX_ATOMIC_AT(AddHalf, __half, atomicAdd(p, __float2half(1.0f)))
MX_ATOMIC_AT(AddBfloat16, __maca_bfloat16, atomicAdd(p, __float2bfloat16(1.0f)))
// 32-bit words.
MX_ATOMIC_AT(AddInt, int, atomicAdd(p, 1))
MX_ATOMIC_AT(AddIntBlock, int, atomicAdd_block(p, 1))
MX_ATOMIC_AT(SubUnsigned, unsigned int, atomicSub(p, 1u))
MX_ATOMIC_AT(ExchFloat, float, atomicExch(p, 2.5f))
MX_ATOMIC_AT(AddFloat, float, atomicAdd(p, 1.0f))
MX_ATOMIC_AT(MinInt, int, atomicMin(p, -7))
MX_ATOMIC_AT(MaxUnsigned, unsigned int, atomicMax(p, 9u))
MX_ATOMIC_AT(IncUnsigned, unsigned int, atomicInc(p, 100u))
MX_ATOMIC_AT(DecUnsigned, unsigned int, atomicDec(p, 100u))
MX_ATOMIC_AT(CasInt, int, atomicCAS(p, 0, 1))
MX_ATOMIC_AT(AndInt, int, atomicAnd(p, 6))
MX_ATOMIC_AT(OrUnsigned, unsigned int, atomicOr(p, 6u))
MX_ATOMIC_AT(XorInt, int, atomicXor(p, static_cast<int>(threadIdx.x + 1)))
MX_ATOMIC_AT(AddHalf2, __half2, atomicAdd(p, __floats2half2_rn(1.0f, 2.0f)))
MX_ATOMIC_AT(AddBfloat162, __maca_bfloat162,
             atomicAdd(p, __floats2bfloat162_rn(1.0f, 2.0f)))
// 64-bit words.
MX_ATOMIC_AT(AddDouble, double, atomicAdd(p, 20))
MX_ATOMIC_AT(AddDoubleSystem, double, atomicAdd_system(p, 20))
MX_ATOMIC_AT(AddUnsignedLongLong, unsigned long long, atomicAdd(p, 1ull))
MX_ATOMIC_AT(ExchUnsignedLongLong, unsigned long long, atomicExch(p, 3ull))
MX_ATOMIC_AT(MinLongLong, long long, atomicMin(p, -3ll))
MX_ATOMIC_AT(MaxUnsignedLongLong, unsigned long long, atomicMax(p, 3ull))
MX_ATOMIC_AT(CasUnsignedLongLong, unsigned long long, atomicCAS(p, 0ull, 1ull))
MX_ATOMIC_AT(CasUnsignedLongLongSystem, unsigned long long,
             atomicCAS_system(p, 0ull, 1ull))
MX_ATOMIC_AT(AndUnsignedLongLong, unsigned long long, atomicAnd(p, 6ull))
MX_ATOMIC_AT(OrUint64, std::uint64_t, atomicOr(p, std::uint64_t{6}))
MX_ATOMIC_AT(XorUnsignedLongLong, unsigned long long,
             atomicXor(p, threadIdx.x + 1ull))

using AtomicKernel = void (*)(char*, char*);

// One atomic under test.
struct AlignmentCase {
  const char* name;
  AtomicKernel kernel;
  const char* function;    // as the diagnostic must name it
  unsigned bits;           // the word's size
  unsigned misaligned;     // an offset that breaks the word's alignment
  unsigned char fill = 0;  // the buffer's bytes before the launch
};

void PrintTo(const AlignmentCase& c, std::ostream* os) { *os << c.name; }

const AlignmentCase kCases[] = {
    {"CasUnsignedShort", &CasUnsignedShort, "atomicCAS", 16, 1},
    {"CasUnsignedShortSystem", &CasUnsignedShortSystem, "atomicCAS_system", 16,
     3},
    {"AddHalf", &AddHalf, "atomicAdd", 16, 1},
    {"AddBfloat16", &AddBfloat16, "atomicAdd", 16, 5},
    {"AddInt", &AddInt, "atomicAdd", 32, 2},
    {"AddIntBlock", &AddIntBlock, "atomicAdd_block", 32, 1},
    {"SubUnsigned", &SubUnsigned, "atomicSub", 32, 3},
    {"ExchFloat", &ExchFloat, "atomicExch", 32, 2},
    {"AddFloat", &AddFloat, "atomicAdd", 32, 2},
    {"MinInt", &MinInt, "atomicMin", 32, 1},
    {"MaxUnsigned", &MaxUnsigned, "atomicMax", 32, 2},
    {"IncUnsigned", &IncUnsigned, "atomicInc", 32, 2},
    {"DecUnsigned", &DecUnsigned, "atomicDec", 32, 6},
    {"CasInt", &CasInt, "atomicCAS", 32, 2},
    {"AndInt", &AndInt, "atomicAnd", 32, 1, 0xff},
    {"OrUnsigned", &OrUnsigned, "atomicOr", 32, 2},
    {"XorInt", &XorInt, "atomicXor", 32, 3},
    {"AddHalf2", &AddHalf2, "atomicAdd", 32, 2},
    {"AddBfloat162", &AddBfloat162, "atomicAdd", 32, 2},
    {"AddDouble", &AddDouble, "atomicAdd", 64, 4},
    {"AddDoubleSystem", &AddDoubleSystem, "atomicAdd_system", 64, 4},
    {"AddUnsignedLongLong", &AddUnsignedLongLong, "atomicAdd", 64, 4},
    {"ExchUnsignedLongLong", &ExchUnsignedLongLong, "atomicExch", 64, 1},
    {"MinLongLong", &MinLongLong, "atomicMin", 64, 4},
    {"MaxUnsignedLongLong", &MaxUnsignedLongLong, "atomicMax", 64, 2},
    {"CasUnsignedLongLong", &CasUnsignedLongLong, "atomicCAS", 64, 4},
    {"CasUnsignedLongLongSystem", &CasUnsignedLongLongSystem,
     "atomicCAS_system", 64, 12},
    {"AndUnsignedLongLong", &AndUnsignedLongLong, "atomicAnd", 64, 4, 0xff},
    {"OrUint64", &OrUint64, "atomicOr", 64, 6},
    {"XorUnsignedLongLong", &XorUnsignedLongLong, "atomicXor", 64, 4},
};

constexpr size_t kBufferBytes = 32;

// Launches the case's kernel with the chosen thread's address at `offset`
// bytes into a buffer filled with the case's byte (or null when
// `null_address`), the others' at the start; returns the synchronization's
// result. If `changed` is given, it is set to whether the buffer differs
// from its fill afterwards.
mcError_t Launch(const AlignmentCase& c, size_t offset, bool null_address,
                 bool* changed = nullptr) {
  char* buffer = nullptr;
  mcError_t error = mcMalloc(&buffer, kBufferBytes);
  if (error != mcSuccess) return error;
  error = mcMemset(buffer, c.fill, kBufferBytes);
  if (error != mcSuccess) return error;
  char* tested = null_address ? nullptr : buffer + offset;
  AtomicKernel kernel = c.kernel;
  kernel<<<dim3(3), dim3(8)>>>(buffer, tested);
  error = mcDeviceSynchronize();
  if (error != mcSuccess) return error;
  if (changed != nullptr) {
    char host[kBufferBytes];
    error = mcMemcpy(host, buffer, kBufferBytes, mcMemcpyDeviceToHost);
    char before[kBufferBytes];
    std::memset(before, c.fill, kBufferBytes);
    *changed = std::memcmp(host, before, kBufferBytes) != 0;
  }
  if (error == mcSuccess) error = mcFree(buffer);
  return error;
}

// "kernel '...AddInt...' block (2,0,0) thread (5,0,0): atomicAdd: ..."
std::string DiagnosticPrefix(const AlignmentCase& c) {
  return std::string("kernel '[^']*") + c.name +
         "[^']*' block \\(2,0,0\\) thread \\(5,0,0\\): " + c.function + ": ";
}

class AtomicAlignmentTest : public ::testing::TestWithParam<AlignmentCase> {};

TEST_P(AtomicAlignmentTest, MisalignedAddressTraps) {
  MX_SPEC("lang.atomic.alignment.natural-alignment-required",
          "lang.atomic.alignment.misaligned-16-bit-traps",
          "lang.atomic.alignment.misaligned-32-bit-traps",
          "lang.atomic.alignment.misaligned-64-bit-traps",
          "lang.atomic.alignment.trap-error-is-sticky",
          "lang.atomic.alignment.diagnostic-names-function-and-address",
          "api.trap.diagnostic.content", "api.trap.error.sticky");
  const AlignmentCase& c = GetParam();
  const unsigned bytes = c.bits / 8;
  ASSERT_NE(c.misaligned % bytes, 0u) << "the case's offset is aligned";
  // The buffer is at least 16-byte aligned, so the address's last hex
  // digit is the offset's.
  const std::string pattern =
      DiagnosticPrefix(c) + "misaligned address 0x[0-9a-f]*" +
      "0123456789abcdef"[c.misaligned % 16] + ": a " + std::to_string(c.bits) +
      "-bit atomic needs " + std::to_string(bytes) + "-byte alignment";
  MX_EXPECT_TRAP(Launch(c, c.misaligned, false), kMemoryViolation, pattern);
}

TEST_P(AtomicAlignmentTest, AlignedAddressesComplete) {
  MX_SPEC("lang.atomic.alignment.natural-alignment-required",
          "lang.atomic.general.global-and-shared-memory");
  const AlignmentCase& c = GetParam();
  const unsigned bytes = c.bits / 8;
  // The chosen thread's word: the others' word, then the next one.
  for (size_t offset : {size_t{0}, size_t{bytes}}) {
    bool changed = false;
    MX_EXPECT_NO_TRAP(Launch(c, offset, false, &changed))
        << "offset " << offset;
    EXPECT_TRUE(changed) << "the atomics left the buffer unchanged";
  }
}

TEST_P(AtomicAlignmentTest, NullAddressTrapsWithIllegalAddress) {
  MX_SPEC("lang.atomic.address.invalid-address-traps",
          "lang.atomic.alignment.diagnostic-names-function-and-address",
          "api.trap.diagnostic.content");
  const AlignmentCase& c = GetParam();
  MX_EXPECT_TRAP(Launch(c, 0, true), mcErrorIllegalAddress,
                 DiagnosticPrefix(c) + "null address");
}

INSTANTIATE_TEST_SUITE_P(
    AllOverloads, AtomicAlignmentTest, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<AlignmentCase>& info) {
      return std::string(info.param.name);
    });

// --------------------------------------------------------------------------
// The runtime guide's example: a double at offset 4 of a packed structure.
// --------------------------------------------------------------------------

struct __attribute__((packed)) PackedFloatDouble {
  alignas(4) float f;
  double d;
};
static_assert(offsetof(PackedFloatDouble, d) == 4, "the guide's layout");

struct FloatDouble {
  float f;
  double d;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Waddress-of-packed-member"
__global__ void TriggerMemoryViolation(PackedFloatDouble* dst) {
  atomicAdd(&dst->f, 1.23);
  atomicAdd(&dst->d, 20);
  dst->f = 9.8765f;
}
#pragma GCC diagnostic pop

__global__ void AlignedMembers(FloatDouble* dst) {
  atomicAdd(&dst->f, 1.23);
  atomicAdd(&dst->d, 20);
}

template <class T>
mcError_t RunStructExample(void (*kernel)(T*), T* result) {
  T* device = nullptr;
  mcError_t error = mcMalloc(&device, sizeof(T));
  if (error != mcSuccess) return error;
  const T zero{};
  error = mcMemcpy(device, &zero, sizeof(T), mcMemcpyHostToDevice);
  if (error != mcSuccess) return error;
  kernel<<<dim3(1), dim3(1)>>>(device);
  error = mcMemcpy(result, device, sizeof(T), mcMemcpyDeviceToHost);
  if (error != mcSuccess) return error;
  return mcFree(device);
}

TEST(AtomicAlignmentExample, DoubleInPackedStructureTraps) {
  MX_SPEC("lang.atomic.alignment.misaligned-64-bit-traps",
          "lang.atomic.alignment.trap-error-is-sticky");
  PackedFloatDouble result{};
  MX_EXPECT_TRAP(RunStructExample(&TriggerMemoryViolation, &result),
                 kMemoryViolation,
                 "TriggerMemoryViolation.*atomicAdd: misaligned address "
                 "0x[0-9a-f]*4: a 64-bit atomic needs 8-byte alignment");
}

TEST(AtomicAlignmentExample, NaturallyAlignedMembersWork) {
  MX_SPEC("lang.atomic.alignment.aligned-struct-members-work",
          "lang.atomic.alignment.misaligned-64-bit-traps");
  FloatDouble result{};
  MX_EXPECT_NO_TRAP(RunStructExample(&AlignedMembers, &result));
  EXPECT_EQ(result.f, static_cast<float>(1.23));
  EXPECT_EQ(result.d, 20.0);
}

// --------------------------------------------------------------------------
// Shared memory words are checked as well.
// --------------------------------------------------------------------------

__global__ void AddToSharedDouble(size_t offset, double* out) {
  __shared__ double words[4];
  if (threadIdx.x == 0) {
    for (double& w : words) w = 0;
  }
  __syncthreads();
  auto* p = reinterpret_cast<double*>(reinterpret_cast<char*>(words) +
                                      (threadIdx.x == 1 ? offset : 0));
  atomicAdd(p, 1.0);
  __syncthreads();
  if (threadIdx.x == 0) *out = words[0] + words[1];
}

mcError_t RunSharedDouble(size_t offset, double* sum) {
  double* out = nullptr;
  mcError_t error = mcMallocManaged(&out, sizeof(double));
  if (error != mcSuccess) return error;
  AddToSharedDouble<<<1, 2>>>(offset, out);
  error = mcDeviceSynchronize();
  if (error != mcSuccess) return error;
  *sum = *out;
  return mcFree(out);
}

TEST(AtomicAlignmentShared, MisalignedSharedWordTraps) {
  MX_SPEC("lang.atomic.alignment.misaligned-64-bit-traps",
          "lang.atomic.general.global-and-shared-memory");
  double sum = 0;
  MX_EXPECT_TRAP(RunSharedDouble(4, &sum), kMemoryViolation,
                 "AddToSharedDouble.*block \\(0,0,0\\) thread \\(1,0,0\\): "
                 "atomicAdd: misaligned address 0x[0-9a-f]*[4c]: a 64-bit");
}

TEST(AtomicAlignmentShared, AlignedSharedWordsWork) {
  MX_SPEC("lang.atomic.general.global-and-shared-memory");
  double sum = 0;
  MX_EXPECT_NO_TRAP(RunSharedDouble(8, &sum));
  EXPECT_EQ(sum, 2.0);
}

// --------------------------------------------------------------------------
// Constant memory and freed memory.
// --------------------------------------------------------------------------

}  // namespace

// At namespace scope, so that diagnostics name them plainly.
__constant__ int c_counter = 5;
__constant__ unsigned long long c_wide[4] = {1, 2, 3, 4};
__device__ int d_counter = 5;

namespace {

__global__ void AddToConstant() { atomicAdd(const_cast<int*>(&c_counter), 1); }

__global__ void CasOnConstant() {
  atomicCAS(const_cast<unsigned long long*>(&c_wide[3]), 4ull, 5ull);
}

__global__ void ExchOnConstantSystem() {
  atomicExch_system(const_cast<int*>(&c_counter), 1);
}

__global__ void AddToDeviceVariable() { atomicAdd(&d_counter, 1); }

mcError_t LaunchAndSynchronize(void (*kernel)()) {
  kernel<<<1, 4>>>();
  return mcDeviceSynchronize();
}

struct ConstantCase {
  const char* name;
  void (*kernel)();
  const char* variable;
};

void PrintTo(const ConstantCase& c, std::ostream* os) { *os << c.name; }

class AtomicOnConstantTest : public ::testing::TestWithParam<ConstantCase> {};

TEST_P(AtomicOnConstantTest, TrapsWithIllegalAddressNamingTheVariable) {
  MX_SPEC("lang.atomic.address.constant-memory-invalid",
          "lang.ub.memory.constant-write", "api.trap.error.illegal-address");
  MX_EXPECT_TRAP(LaunchAndSynchronize(GetParam().kernel), mcErrorIllegalAddress,
                 std::string("write to __constant__ variable '") +
                     GetParam().variable + "'");
}

INSTANTIATE_TEST_SUITE_P(
    Operations, AtomicOnConstantTest,
    ::testing::Values(ConstantCase{"Add", &AddToConstant, "c_counter"},
                      ConstantCase{"Cas", &CasOnConstant, "c_wide"},
                      ConstantCase{"ExchSystem", &ExchOnConstantSystem,
                                   "c_counter"}),
    [](const ::testing::TestParamInfo<ConstantCase>& info) {
      return std::string(info.param.name);
    });

TEST(AtomicOnConstantControl, AtomicOnDeviceVariableWorks) {
  MX_SPEC("lang.atomic.general.global-and-shared-memory",
          "lang.atomic.address.constant-memory-invalid");
  const int five = 5;
  ASSERT_EQ(mcMemcpyToSymbol(d_counter, &five, sizeof(five)), mcSuccess);
  MX_EXPECT_NO_TRAP(LaunchAndSynchronize(&AddToDeviceVariable));
  int value = 0;
  ASSERT_EQ(mcMemcpyFromSymbol(&value, d_counter, sizeof(value)), mcSuccess);
  EXPECT_EQ(value, 9);
}

__global__ void AddAt(int* word) { atomicAdd(word, 1); }

// Runs AddAt on the last int of a 1 MiB allocation, after freeing it when
// `freed`; returns the synchronization's result.
mcError_t AddToAllocation(bool freed) {
  constexpr size_t kBytes = size_t{1} << 20;
  int* words = nullptr;
  mcError_t error = mcMalloc(&words, kBytes);
  if (error != mcSuccess) return error;
  int* last = words + kBytes / sizeof(int) - 1;
  if (freed) {
    error = mcFree(words);
    if (error != mcSuccess) return error;
  }
  AddAt<<<1, 1>>>(last);
  error = mcDeviceSynchronize();
  if (!freed && error == mcSuccess) {
    int value = 0;
    error = mcMemcpy(&value, last, sizeof(value), mcMemcpyDeviceToHost);
    if (error == mcSuccess && value != 1) error = mcErrorUnknown;
    if (error == mcSuccess) error = mcFree(words);
  }
  return error;
}

TEST(AtomicOnFreedMemory, TrapsWithIllegalAddress) {
  MX_SPEC("lang.atomic.address.invalid-address-traps",
          "api.trap.cause.memory-violation");
  MX_EXPECT_TRAP(AddToAllocation(/*freed=*/true), mcErrorIllegalAddress,
                 "kernel '[^']*AddAt[^']*' block \\(0,0,0\\) thread "
                 "\\(0,0,0\\)");
}

TEST(AtomicOnFreedMemory, LiveAllocationControlWorks) {
  MX_SPEC("lang.atomic.address.invalid-address-traps");
  MX_EXPECT_NO_TRAP(AddToAllocation(/*freed=*/false));
}

}  // namespace
