// Conformance: where atomics work and with whom they are atomic: shared
// memory words updated by a block with every operation and scope form, and
// `_system` atomics racing against a host thread on managed and page-locked
// memory (docs/spec/lang-atomics.md "Common rules", "Scopes").

#include <mc_runtime.h>

#include <algorithm>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "conformance/language/atomics/atomic_testing.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::atomics {
namespace {

// --------------------------------------------------------------------------
// Every operation on a __shared__ word.
// --------------------------------------------------------------------------

enum class Operation {
  kAdd,
  kSub,
  kExch,
  kMin,
  kMax,
  kInc,
  kDec,
  kCasLoop,
  kAnd,
  kOr,
  kXor,
};

std::string OperationName(Operation op) {
  switch (op) {
    case Operation::kAdd:
      return "Add";
    case Operation::kSub:
      return "Sub";
    case Operation::kExch:
      return "Exch";
    case Operation::kMin:
      return "Min";
    case Operation::kMax:
      return "Max";
    case Operation::kInc:
      return "Inc";
    case Operation::kDec:
      return "Dec";
    case Operation::kCasLoop:
      return "CasLoop";
    case Operation::kAnd:
      return "And";
    case Operation::kOr:
      return "Or";
    case Operation::kXor:
      return "Xor";
  }
  return "Unknown";
}

// The limit of atomicInc and atomicDec: small, so the word wraps.
constexpr unsigned kWrapLimit = 100;
constexpr unsigned kInitial = 50;

// Thread `id`'s operand: scrambled bits for the bitwise operations and
// the extremes, the limit for atomicInc and atomicDec, 1 for the CAS loop.
unsigned OperandFor(Operation op, unsigned id) {
  switch (op) {
    case Operation::kInc:
    case Operation::kDec:
      return kWrapLimit;
    case Operation::kCasLoop:
      return 1;
    default:
      return (id + 1) * 2654435761u;
  }
}

// What `op` stores, on the host, for the trace check.
unsigned Apply(Operation op, unsigned old, unsigned val) {
  switch (op) {
    case Operation::kAdd:
    case Operation::kCasLoop:
      return old + val;
    case Operation::kSub:
      return old - val;
    case Operation::kExch:
      return val;
    case Operation::kMin:
      return std::min(old, val);
    case Operation::kMax:
      return std::max(old, val);
    case Operation::kInc:
      return old >= val ? 0 : old + 1;
    case Operation::kDec:
      return (old == 0 || old > val) ? val : old - 1;
    case Operation::kAnd:
      return old & val;
    case Operation::kOr:
      return old | val;
    case Operation::kXor:
      return old ^ val;
  }
  return old;
}

// An increment through atomicCAS, starting from an atomic read.
__device__ unsigned CasIncrement(Scope scope, unsigned* word) {
  unsigned seen = ScopedCas(scope, word, 0u, 0u);
  while (true) {
    const unsigned before = ScopedCas(scope, word, seen, seen + 1);
    if (before == seen) return seen;
    seen = before;
  }
}

__device__ unsigned ApplyOnDevice(Operation op, Scope scope, unsigned* word,
                                  unsigned val) {
  switch (op) {
    case Operation::kAdd:
      return ScopedAdd(scope, word, val);
    case Operation::kSub:
      return ScopedSub(scope, word, val);
    case Operation::kExch:
      return ScopedExch(scope, word, val);
    case Operation::kMin:
      return ScopedMin(scope, word, val);
    case Operation::kMax:
      return ScopedMax(scope, word, val);
    case Operation::kInc:
      return ScopedInc(scope, word, val);
    case Operation::kDec:
      return ScopedDec(scope, word, val);
    case Operation::kCasLoop:
      return CasIncrement(scope, word);
    case Operation::kAnd:
      return ScopedAnd(scope, word, val);
    case Operation::kOr:
      return ScopedOr(scope, word, val);
    case Operation::kXor:
      return ScopedXor(scope, word, val);
  }
  return 0;
}

// Each block's threads update one __shared__ word, which thread 0 then
// copies out.
__global__ void UpdateSharedWord(Operation op, Scope scope,
                                 const unsigned* operands, unsigned* olds,
                                 unsigned* finals) {
  __shared__ unsigned word;
  if (threadIdx.x == 0) word = kInitial;
  __syncthreads();
  const unsigned id = GridThreadId();
  olds[id] = ApplyOnDevice(op, scope, &word, operands[id]);
  __syncthreads();
  if (threadIdx.x == 0) finals[blockIdx.x] = word;
}

using SharedParam = std::tuple<Operation, Shape, Scope>;

class AtomicSharedMemoryTest : public ::testing::TestWithParam<SharedParam> {};

TEST_P(AtomicSharedMemoryTest, BlockUpdatesItsSharedWordIndivisibly) {
  MX_SPEC("lang.atomic.general.global-and-shared-memory",
          "lang.atomic.general.shared-memory-atomic-within-block",
          "lang.atomic.general.indivisible-read-modify-write",
          "lang.atomic.scope.block-atomic-within-block",
          "lang.atomic.scope.block-variants-exist",
          "lang.atomic.scope.system-variants-exist");
  const auto& [op, shape, scope] = GetParam();
  ManagedArray<unsigned> operands(shape.Total());
  ManagedArray<unsigned> olds(shape.Total());
  ManagedArray<unsigned> finals(shape.blocks);
  ASSERT_TRUE(operands.ok() && olds.ok() && finals.ok());
  for (unsigned id = 0; id < shape.Total(); ++id) {
    operands[id] = OperandFor(op, id);
  }
  UpdateSharedWord<<<shape.blocks, shape.threads>>>(op, scope, operands.get(),
                                                    olds.get(), finals.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < shape.blocks; ++b) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, Scope::kBlock, b);
    EXPECT_TRUE(IsTraceOfSequence(
        kInitial, Select(olds, ids), Select(operands, ids), finals[b],
        [op = op](unsigned old, unsigned val) { return Apply(op, old, val); }))
        << "block " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllOperations, AtomicSharedMemoryTest,
    ::testing::Combine(
        ::testing::Values(Operation::kAdd, Operation::kSub, Operation::kExch,
                          Operation::kMin, Operation::kMax, Operation::kInc,
                          Operation::kDec, Operation::kCasLoop, Operation::kAnd,
                          Operation::kOr, Operation::kXor),
        ::testing::ValuesIn(AllShapes()), ::testing::ValuesIn(AllScopes())),
    [](const ::testing::TestParamInfo<SharedParam>& info) {
      return OperationName(std::get<0>(info.param)) + "_" +
             ShapeName(std::get<1>(info.param)) + "_" +
             ScopeName(std::get<2>(info.param));
    });

// Floating-point and 64-bit words in shared memory: each thread adds 1.
template <class T>
__global__ void CountInShared(Scope scope, T* olds, T* finals) {
  __shared__ T word;
  if (threadIdx.x == 0) word = T(0);
  __syncthreads();
  olds[GridThreadId()] = ScopedAdd(scope, &word, T(1));
  __syncthreads();
  if (threadIdx.x == 0) finals[blockIdx.x] = word;
}

template <class T>
void CheckCountInShared(Shape shape, Scope scope) {
  ManagedArray<T> olds(shape.Total());
  ManagedArray<T> finals(shape.blocks);
  ASSERT_TRUE(olds.ok() && finals.ok());
  CountInShared<T>
      <<<shape.blocks, shape.threads>>>(scope, olds.get(), finals.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < shape.blocks; ++b) {
    const std::vector<unsigned> ids = ThreadsOfGroup(shape, Scope::kBlock, b);
    EXPECT_EQ(finals[b], static_cast<T>(shape.threads)) << "block " << b;
    std::vector<T> got = Select(olds, ids);
    std::sort(got.begin(), got.end());
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k], static_cast<T>(k)) << "block " << b;
    }
  }
}

const std::vector<TypedRun> kSharedTypes = {
    {"Int", &CheckCountInShared<int>},
    {"UnsignedLongLong", &CheckCountInShared<unsigned long long>},
    {"Float", &CheckCountInShared<float>},
    {"Double", &CheckCountInShared<double>},
};

class AtomicSharedTypesTest : public ::testing::TestWithParam<TypedShapeScope> {
};

TEST_P(AtomicSharedTypesTest, BlockCountsInASharedWord) {
  MX_SPEC("lang.atomic.general.global-and-shared-memory",
          "lang.atomic.general.shared-memory-atomic-within-block",
          "lang.atomic.add.integer-overloads", "lang.atomic.add.float",
          "lang.atomic.add.double");
  const auto& [typed, shape, scope] = GetParam();
  EXPECT_NO_FATAL_FAILURE(typed.run(shape, scope));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, AtomicSharedTypesTest,
                         AllCombinations(kSharedTypes), TypedShapeScopeName);

// --------------------------------------------------------------------------
// `_system` atomics and a host thread on the same word.
// --------------------------------------------------------------------------

// Spin bounds: far more iterations than a handshake takes, so that only a
// broken implementation (a word that never changes) reaches them.
constexpr unsigned long long kDeviceSpinLimit = 4000000000ull;
constexpr unsigned long long kHostSpinLimit = 400000000ull;

// Words shared with the host thread.
struct Rendezvous {
  unsigned counter;       // updated by both sides
  unsigned device_ready;  // set by the kernel
  unsigned host_ready;    // set by the host thread
  unsigned device_gave_up;
  unsigned host_gave_up;
};

// Both sides add 1 `rounds` times to `counter`, after a handshake that
// makes their loops overlap.
__global__ void CountAgainstHost(Rendezvous* r, unsigned rounds) {
  atomicExch_system(&r->device_ready, 1u);
  unsigned long long spins = 0;
  while (atomicAdd_system(&r->host_ready, 0u) == 0) {
    if (++spins == kDeviceSpinLimit) {
      atomicExch_system(&r->device_gave_up, 1u);
      return;
    }
  }
  for (unsigned i = 0; i < rounds; ++i) atomicAdd_system(&r->counter, 1u);
}

void HostCounts(Rendezvous* r, unsigned rounds) {
  unsigned long long spins = 0;
  while (__atomic_load_n(&r->device_ready, __ATOMIC_SEQ_CST) == 0) {
    if (++spins == kHostSpinLimit) {
      __atomic_store_n(&r->host_gave_up, 1u, __ATOMIC_SEQ_CST);
      return;
    }
    std::this_thread::yield();
  }
  __atomic_store_n(&r->host_ready, 1u, __ATOMIC_SEQ_CST);
  for (unsigned i = 0; i < rounds; ++i) {
    __atomic_fetch_add(&r->counter, 1u, __ATOMIC_RELAXED);
  }
}

// Takes turns with the host: the device moves the counter from even to
// odd, the host from odd to even, until it reaches 2 * rounds.
__global__ void PingPongWithHost(Rendezvous* r, unsigned rounds) {
  unsigned long long spins = 0;
  for (unsigned turn = 0; turn < rounds; ++turn) {
    const unsigned even = 2 * turn;
    while (atomicCAS_system(&r->counter, even, even + 1) != even) {
      if (++spins == kDeviceSpinLimit) {
        atomicExch_system(&r->device_gave_up, 1u);
        return;
      }
    }
  }
}

void HostPingPong(Rendezvous* r, unsigned rounds) {
  unsigned long long spins = 0;
  for (unsigned turn = 0; turn < rounds; ++turn) {
    unsigned odd = 2 * turn + 1;
    while (!__atomic_compare_exchange_n(&r->counter, &odd, odd + 1, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      odd = 2 * turn + 1;
      if (++spins == kHostSpinLimit) {
        __atomic_store_n(&r->host_gave_up, 1u, __ATOMIC_SEQ_CST);
        return;
      }
      std::this_thread::yield();
    }
  }
}

enum class HostVisible { kManaged, kPageLocked };

std::string HostVisibleName(HostVisible kind) {
  return kind == HostVisible::kManaged ? "Managed" : "PageLocked";
}

// A zeroed Rendezvous in memory of `kind`, freed on destruction.
class RendezvousMemory {
 public:
  explicit RendezvousMemory(HostVisible kind) : kind_(kind) {
    const mcError_t error = kind == HostVisible::kManaged
                                ? mcMallocManaged(&r_, sizeof(Rendezvous))
                                : mcMallocHost(&r_, sizeof(Rendezvous));
    if (error != mcSuccess) r_ = nullptr;
    if (r_ != nullptr) *r_ = Rendezvous{};
  }
  RendezvousMemory(const RendezvousMemory&) = delete;
  RendezvousMemory& operator=(const RendezvousMemory&) = delete;
  ~RendezvousMemory() {
    if (r_ == nullptr) return;
    if (kind_ == HostVisible::kManaged) {
      mcFree(r_);
    } else {
      mcFreeHost(r_);
    }
  }
  Rendezvous* get() const { return r_; }

 private:
  HostVisible kind_;
  Rendezvous* r_ = nullptr;
};

// Host threads take part only where the platform has host-native atomics
// (the clause's condition, reported by the device attribute
// [lang.atomic.scope.host-atomic-support]); elsewhere a device atomic on
// host-visible memory need not be atomic with the host's, and the tests
// are unsupported.
class AtomicSystemScopeTest : public ::testing::TestWithParam<HostVisible> {
 protected:
  void SetUp() override {
    int native = 0;
    ASSERT_EQ(mcDeviceGetAttribute(
                  &native, mcDeviceAttributeHostNativeAtomicSupported, 0),
              mcSuccess);
    if (native == 0) {
      GTEST_SKIP() << "unsupported: device 0 reports no host-native atomics "
                      "(mcDeviceAttributeHostNativeAtomicSupported is 0)";
    }
  }
};

TEST_P(AtomicSystemScopeTest, DeviceAndHostIncrementsAreAllCounted) {
  MX_SPEC("lang.atomic.scope.system-atomic-across-devices-and-host",
          "lang.atomic.scope.system-variants-exist",
          "lang.atomic.general.no-update-lost");
  RendezvousMemory memory(GetParam());
  Rendezvous* r = memory.get();
  ASSERT_NE(r, nullptr);
  const unsigned rounds = 200000;
  std::thread host(HostCounts, r, rounds);
  CountAgainstHost<<<1, 1>>>(r, rounds);
  const mcError_t result = mcDeviceSynchronize();
  host.join();
  ASSERT_EQ(result, mcSuccess);
  ASSERT_EQ(r->device_gave_up, 0u) << "the host thread never answered";
  ASSERT_EQ(r->host_gave_up, 0u) << "the kernel never started counting";
  EXPECT_EQ(r->counter, 2 * rounds);
}

TEST_P(AtomicSystemScopeTest, DeviceAndHostTakeTurnsThroughCompareAndSwap) {
  MX_SPEC("lang.atomic.scope.system-atomic-across-devices-and-host",
          "lang.atomic.cas.semantics");
  RendezvousMemory memory(GetParam());
  Rendezvous* r = memory.get();
  ASSERT_NE(r, nullptr);
  const unsigned rounds = 200;
  std::thread host(HostPingPong, r, rounds);
  PingPongWithHost<<<1, 1>>>(r, rounds);
  const mcError_t result = mcDeviceSynchronize();
  host.join();
  ASSERT_EQ(result, mcSuccess);
  ASSERT_EQ(r->device_gave_up, 0u);
  ASSERT_EQ(r->host_gave_up, 0u);
  EXPECT_EQ(r->counter, 2 * rounds);
}

INSTANTIATE_TEST_SUITE_P(HostVisibleMemory, AtomicSystemScopeTest,
                         ::testing::Values(HostVisible::kManaged,
                                           HostVisible::kPageLocked),
                         [](const ::testing::TestParamInfo<HostVisible>& info) {
                           return HostVisibleName(info.param);
                         });

}  // namespace
}  // namespace mxcts::conformance::atomics
