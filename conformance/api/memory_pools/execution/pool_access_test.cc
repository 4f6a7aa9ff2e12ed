// Copyright mxcts authors.
//
// Conformance: access of other devices to a pool's memory
// (docs/spec/api-memory-pools.md, "Access from other devices"): the pool's
// own device always reads and writes it; others as mcMemPoolSetAccess
// says, for every allocation of the pool, whatever the peer access. Holds
// in every timeline mode.

#include <mc_runtime.h>

#include <algorithm>
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

__global__ void AddOne(int* p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] += 1;
}

mcMemAccessFlags AccessOf(mcMemPool_t pool, int device) {
  mcMemAccessFlags flags = static_cast<mcMemAccessFlags>(-1);
  mcMemLocation location{mcMemLocationTypeDevice, device};
  EXPECT_EQ(mcMemPoolGetAccess(&flags, pool, &location), mcSuccess);
  return flags;
}

// (pool device, other device, elements)
using Param = std::tuple<int, int, int>;

// Every ordered pair of the devices, and at least of devices 0 and 1: where
// the backend has a single device those cases report themselves
// unsupported (the fixture's requirement) rather than leave the test empty.
std::vector<Param> Pairs() {
  std::vector<Param> params;
  const int devices = std::max(DeviceCount(), 2);
  for (int owner = 0; owner < devices; ++owner) {
    for (int other = 0; other < devices; ++other) {
      if (other == owner) continue;
      for (int n : {1, 1000, 70000}) params.emplace_back(owner, other, n);
    }
  }
  return params;
}

std::string PairName(const testing::TestParamInfo<Param>& info) {
  return "Pool" + std::to_string(std::get<0>(info.param)) + "Device" +
         std::to_string(std::get<1>(info.param)) + "Ints" +
         std::to_string(std::get<2>(info.param));
}

class PoolAccess : public testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count",
                                   std::max(owner(), other()) + 1);
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    mcMemPoolProps props{};
    props.allocType = mcMemAllocationTypePinned;
    props.location.type = mcMemLocationTypeDevice;
    props.location.id = owner();
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    {
      ScopedDevice other(this->other());
      mcDeviceSynchronize();
    }
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
  }
  int owner() const { return std::get<0>(GetParam()); }
  int other() const { return std::get<1>(GetParam()); }
  int n() const { return std::get<2>(GetParam()); }

  void Grant(int device, mcMemAccessFlags flags) {
    mcMemAccessDesc desc{{mcMemLocationTypeDevice, device}, flags};
    ASSERT_EQ(mcMemPoolSetAccess(pool_, &desc, 1), mcSuccess);
  }
  int* Allocate() {
    int* p = nullptr;
    EXPECT_EQ(mcMallocFromPoolAsync(&p, n() * sizeof(int), pool_, nullptr),
              mcSuccess);
    EXPECT_EQ(mcMemset(p, 0, n() * sizeof(int)), mcSuccess);
    // The memset may still be pending; kernels of the other device are not
    // ordered after it.
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    return p;
  }
  // Runs AddOne on `device` over `p` and returns the host's view of p[0]
  // and p[n-1] summed.
  int AddOneOn(int device, int* p) {
    ScopedDevice on(device);
    EXPECT_TRUE(on.ok());
    AddOne<<<1, 128>>>(p, n());
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    int first = 0;
    int last = 0;
    EXPECT_EQ(mcMemcpy(&first, p, sizeof(int), mcMemcpyDeviceToHost),
              mcSuccess);
    EXPECT_EQ(mcMemcpy(&last, p + n() - 1, sizeof(int), mcMemcpyDeviceToHost),
              mcSuccess);
    return first + last;
  }

  mcMemPool_t pool_ = nullptr;
};

TEST_P(PoolAccess, OwnDeviceAlwaysReadsAndWrites) {
  MX_SPEC("api.pool.access.resident-device-always",
          "api.pool.access.get-reports-flags");
  EXPECT_EQ(AccessOf(pool_, owner()), mcMemAccessFlagsProtReadWrite);
  mcMemPool_t default_pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&default_pool, owner()), mcSuccess);
  EXPECT_EQ(AccessOf(default_pool, owner()), mcMemAccessFlagsProtReadWrite);
  int* p = Allocate();
  EXPECT_EQ(AddOneOn(owner(), p), 2);
  // Asking again for read and write on the own device is accepted.
  Grant(owner(), mcMemAccessFlagsProtReadWrite);
  EXPECT_EQ(AccessOf(pool_, owner()), mcMemAccessFlagsProtReadWrite);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
}

TEST_P(PoolAccess, GetReportsTheFlagsLastSet) {
  MX_SPEC("api.pool.access.get-reports-flags");
  EXPECT_EQ(AccessOf(pool_, other()), mcMemAccessFlagsProtNone);
  for (mcMemAccessFlags flags :
       {mcMemAccessFlagsProtRead, mcMemAccessFlagsProtReadWrite,
        mcMemAccessFlagsProtNone, mcMemAccessFlagsProtReadWrite}) {
    Grant(other(), flags);
    EXPECT_EQ(AccessOf(pool_, other()), flags);
    EXPECT_EQ(AccessOf(pool_, owner()), mcMemAccessFlagsProtReadWrite);
  }
}

TEST_P(PoolAccess, GrantedDeviceReadsAndWrites) {
  MX_SPEC("api.pool.access.set-grants-peer");
  Grant(other(), mcMemAccessFlagsProtReadWrite);
  int* p = Allocate();
  EXPECT_EQ(AddOneOn(other(), p), 2);
  EXPECT_EQ(AddOneOn(owner(), p), 4);  // control: both see one memory
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
}

TEST_P(PoolAccess, GrantAppliesToEarlierAllocationsToo) {
  MX_SPEC("api.pool.access.applies-to-all-allocations");
  int* before = Allocate();
  Grant(other(), mcMemAccessFlagsProtReadWrite);
  int* after = Allocate();
  EXPECT_EQ(AddOneOn(other(), before), 2);
  EXPECT_EQ(AddOneOn(other(), after), 2);
  ASSERT_EQ(mcFreeAsync(before, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(after, nullptr), mcSuccess);
}

TEST_P(PoolAccess, PeerAccessNeitherGrantsNorRevokes) {
  MX_SPEC("api.pool.access.independent-of-peer-access");
  int can = 0;
  ASSERT_EQ(mcDeviceCanAccessPeer(&can, other(), owner()), mcSuccess);
  if (can == 0) GTEST_SKIP() << "the devices cannot be peers";
  {
    ScopedDevice on(other());
    mcError_t enabled = mcDeviceEnablePeerAccess(owner(), 0);
    ASSERT_TRUE(enabled == mcSuccess ||
                enabled == mcErrorPeerAccessAlreadyEnabled);
  }
  EXPECT_EQ(AccessOf(pool_, other()), mcMemAccessFlagsProtNone);
  Grant(other(), mcMemAccessFlagsProtReadWrite);
  {
    ScopedDevice on(other());
    ASSERT_EQ(mcDeviceDisablePeerAccess(owner()), mcSuccess);
  }
  EXPECT_EQ(AccessOf(pool_, other()), mcMemAccessFlagsProtReadWrite);
  int* p = Allocate();
  EXPECT_EQ(AddOneOn(other(), p), 2);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryPair, PoolAccess, testing::ValuesIn(Pairs()),
                         PairName);

}  // namespace
}  // namespace mxcts::conformance
