// Copyright mxcts authors.
//
// Conformance: freed memory goes back to its pool and may back later
// allocations, but never while correctly ordered work may still use it, and
// never in a case a disabled reuse policy describes
// (docs/spec/api-memory-pools.md, "Reuse of freed memory"). Whether memory
// is reused where a policy permits it is the allocator's choice, so these
// tests check what must hold either way: the data of every allocation
// stays intact, and a disabled policy is respected. Holds in every
// timeline mode.

#include <mc_runtime.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void Store(int* p, int n, int value) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = value + i;
}

// Reads the whole allocation many times before copying it, so that its
// previous user is still busy when a racing reuse would write.
__global__ void SlowCopy(int* to, const int* from, int n) {
  for (int round = 0; round < 4; ++round) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) to[i] = from[i];
  }
}

int Mismatches(const int* device_data, int n, int value) {
  std::vector<int> host(n);
  if (mcMemcpy(host.data(), device_data, n * sizeof(int),
               mcMemcpyDeviceToHost) != mcSuccess) {
    return -1;
  }
  int mismatches = 0;
  for (int i = 0; i < n; ++i) mismatches += host[i] != value + i;
  return mismatches;
}

// The reuse policies a test runs under: follow event dependencies,
// opportunistic, internal dependencies.
using Policies = std::tuple<int, int, int>;
using Param = std::tuple<int, Policies, int>;  // device, policies, elements

std::vector<Param> Params() {
  std::vector<Param> params;
  for (int device = 0; device < DeviceCount(); ++device) {
    for (int bits = 0; bits < 8; ++bits) {
      for (int elements : {64, 4096, 100000}) {
        params.emplace_back(
            device, Policies{bits & 1, (bits >> 1) & 1, (bits >> 2) & 1},
            elements);
      }
    }
  }
  return params;
}

std::string ParamName(const testing::TestParamInfo<Param>& info) {
  const auto& [device, policies, elements] = info.param;
  return "Device" + std::to_string(device) + "Follow" +
         std::to_string(std::get<0>(policies)) + "Opportunistic" +
         std::to_string(std::get<1>(policies)) + "Internal" +
         std::to_string(std::get<2>(policies)) + "Ints" +
         std::to_string(elements);
}

// A pool on the parameter's device with the parameter's policies, two
// non-blocking streams and a result buffer.
class Reuse : public testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    mcMemPoolProps props{};
    props.allocType = mcMemAllocationTypePinned;
    props.location.type = mcMemLocationTypeDevice;
    props.location.id = std::get<0>(GetParam());
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
    const auto [follow, opportunistic, internal] = std::get<1>(GetParam());
    SetPolicy(mcMemPoolReuseFollowEventDependencies, follow);
    SetPolicy(mcMemPoolReuseAllowOpportunistic, opportunistic);
    SetPolicy(mcMemPoolReuseAllowInternalDependencies, internal);
    // Freed memory stays in the pool, so that reuse is possible at all.
    unsigned long long keep = ~0ull;
    ASSERT_EQ(
        mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep),
        mcSuccess);
    ASSERT_EQ(mcStreamCreateWithFlags(&a_, mcStreamNonBlocking), mcSuccess);
    ASSERT_EQ(mcStreamCreateWithFlags(&b_, mcStreamNonBlocking), mcSuccess);
    ASSERT_EQ(mcMalloc(&out_, n() * sizeof(int)), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (out_ != nullptr) mcFree(out_);
    if (a_ != nullptr) mcStreamDestroy(a_);
    if (b_ != nullptr) mcStreamDestroy(b_);
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
    device_.reset();
  }
  void SetPolicy(mcMemPoolAttr attr, int value) {
    ASSERT_EQ(mcMemPoolSetAttribute(pool_, attr, &value), mcSuccess);
  }
  int n() const { return std::get<2>(GetParam()); }

  int* Allocate(mcStream_t stream) {
    int* p = nullptr;
    EXPECT_EQ(mcMallocFromPoolAsync(&p, n() * sizeof(int), pool_, stream),
              mcSuccess);
    return p;
  }

  std::optional<ScopedDevice> device_;
  mcMemPool_t pool_ = nullptr;
  mcStream_t a_ = nullptr;
  mcStream_t b_ = nullptr;
  int* out_ = nullptr;
};

TEST_P(Reuse, SameStreamReuseLeavesEarlierWorkIntact) {
  MX_SPEC("api.pool.reuse.same-stream",
          "api.pool.reuse.never-races-prior-user");
  int* first = Allocate(a_);
  Store<<<1, 128, 0, a_>>>(first, n(), 10);
  SlowCopy<<<1, 128, 0, a_>>>(out_, first, n());
  ASSERT_EQ(mcFreeAsync(first, a_), mcSuccess);
  int* second = Allocate(a_);
  Store<<<1, 128, 0, a_>>>(second, n(), 20);
  ASSERT_EQ(mcStreamSynchronize(a_), mcSuccess);
  EXPECT_EQ(Mismatches(out_, n(), 10), 0);
  EXPECT_EQ(Mismatches(second, n(), 20), 0);
  // Control: the check tells the two patterns apart.
  EXPECT_EQ(Mismatches(second, n(), 10), n());
  ASSERT_EQ(mcFreeAsync(second, a_), mcSuccess);
}

TEST_P(Reuse, AllocationOrderedByAnEventNeverRacesThePriorUser) {
  MX_SPEC("api.pool.reuse.follow-event-dependencies",
          "api.pool.reuse.never-races-prior-user");
  mcEvent_t freed = nullptr;
  ASSERT_EQ(mcEventCreate(&freed), mcSuccess);
  int* first = Allocate(a_);
  Store<<<1, 128, 0, a_>>>(first, n(), 30);
  SlowCopy<<<1, 128, 0, a_>>>(out_, first, n());
  ASSERT_EQ(mcFreeAsync(first, a_), mcSuccess);
  ASSERT_EQ(mcEventRecord(freed, a_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(b_, freed, 0), mcSuccess);
  int* second = Allocate(b_);
  Store<<<1, 128, 0, b_>>>(second, n(), 40);
  ASSERT_EQ(mcStreamSynchronize(b_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(a_), mcSuccess);
  EXPECT_EQ(Mismatches(out_, n(), 30), 0);
  EXPECT_EQ(Mismatches(second, n(), 40), 0);
  ASSERT_EQ(mcFreeAsync(second, b_), mcSuccess);
  ASSERT_EQ(mcEventDestroy(freed), mcSuccess);
}

TEST_P(Reuse, UnorderedStreamNeverRacesThePriorUser) {
  MX_SPEC("api.pool.reuse.never-races-prior-user",
          "api.pool.reuse.opportunistic",
          "api.pool.reuse.internal-dependencies");
  int* first = Allocate(a_);
  Store<<<1, 128, 0, a_>>>(first, n(), 50);
  SlowCopy<<<1, 128, 0, a_>>>(out_, first, n());
  ASSERT_EQ(mcFreeAsync(first, a_), mcSuccess);
  // No ordering between the streams: memory may be reused only after the
  // free is known to be done, or with a dependency the allocator adds.
  int* second = Allocate(b_);
  Store<<<1, 128, 0, b_>>>(second, n(), 60);
  ASSERT_EQ(mcStreamSynchronize(b_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(a_), mcSuccess);
  EXPECT_EQ(Mismatches(out_, n(), 50), 0);
  EXPECT_EQ(Mismatches(second, n(), 60), 0);
  ASSERT_EQ(mcFreeAsync(second, b_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, Reuse, testing::ValuesIn(Params()),
                         ParamName);

// The parameters whose policies all are 0, except possibly following
// event dependencies (`allow_follow`).
std::vector<Param> DisabledParams(bool allow_follow) {
  std::vector<Param> params;
  for (const Param& param : Params()) {
    const auto [follow, opportunistic, internal] = std::get<1>(param);
    if (!opportunistic && !internal && (allow_follow || !follow)) {
      params.push_back(param);
    }
  }
  return params;
}

// Both ways another stream could take memory without ordering are off.
class ReuseWithoutUnorderedPolicies : public Reuse {};

TEST_P(ReuseWithoutUnorderedPolicies, AnotherStreamStaysOffFreedMemory) {
  MX_SPEC("api.pool.reuse.disabled-policies-respected");
  int* first = Allocate(a_);
  ASSERT_EQ(mcFreeAsync(first, a_), mcSuccess);
  // No synchronizing call of the host: one that saw the free complete would
  // free the memory for any stream whatever the policies.
  int* second = Allocate(b_);
  EXPECT_NE(second, first);
  // Control: the freed memory is still held by the pool, so reusing it was
  // possible: both allocations are counted in the reserved memory.
  unsigned long long reserved = 0;
  ASSERT_EQ(
      mcMemPoolGetAttribute(pool_, mcMemPoolAttrReservedMemCurrent, &reserved),
      mcSuccess);
  EXPECT_GE(reserved, 2 * n() * sizeof(int));
  ASSERT_EQ(mcFreeAsync(second, b_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryDisabledCombination,
                         ReuseWithoutUnorderedPolicies,
                         testing::ValuesIn(DisabledParams(true)), ParamName);

// Every reuse policy is off.
class ReuseWithoutPolicies : public Reuse {};

TEST_P(ReuseWithoutPolicies, OrderedStreamStaysOffFreedMemory) {
  MX_SPEC("api.pool.reuse.disabled-policies-respected");
  mcEvent_t freed = nullptr;
  ASSERT_EQ(mcEventCreate(&freed), mcSuccess);
  int* first = Allocate(a_);
  ASSERT_EQ(mcFreeAsync(first, a_), mcSuccess);
  ASSERT_EQ(mcEventRecord(freed, a_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(b_, freed, 0), mcSuccess);
  int* second = Allocate(b_);
  EXPECT_NE(second, first);
  // Control: the freeing stream itself may still take it back.
  int* third = Allocate(a_);
  EXPECT_NE(third, second);
  ASSERT_EQ(mcFreeAsync(second, b_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(third, a_), mcSuccess);
  ASSERT_EQ(mcEventDestroy(freed), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(AllOff, ReuseWithoutPolicies,
                         testing::ValuesIn(DisabledParams(false)), ParamName);

}  // namespace
}  // namespace mxcts::conformance
