// Conformance: the wave barrier __syncwave(mask) and its synonym
// __syncwarp(mask) (docs/spec/lang-synchronization.md "The wave barrier").
//
// Lanes store to memory, synchronize, and read what a later lane of their
// mask stored: without the barrier, a lane may read before its partner has
// written, so each read value shows that the barrier waited.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using wave_test::kFullMask;
using wave_test::Managed;
using wave_test::NamedMask;
using wave_test::Shape;

constexpr int kUnwritten = -1;

// The next lane after `lane` that `lanes` names, cyclically.
__host__ __device__ inline unsigned NextNamedLane(unsigned long lanes,
                                                  unsigned lane) {
  for (unsigned step = 1; step <= 64; ++step) {
    const unsigned next = (lane + step) % 64;
    if ((lanes >> next & 1ul) != 0) return next;
  }
  return lane;
}

// The value thread `id` stores.
__host__ __device__ inline int StoredBy(unsigned id) {
  return static_cast<int>(id * 7 + 3);
}

// Lanes named by `mask` store to shared memory, synchronize with
// __syncwave (or __syncwarp), and read the next named lane's value.
__global__ void ExchangeThroughShared(bool syncwarp, unsigned long mask,
                                      int* out) {
  __shared__ int stored[1024];
  const unsigned id = wave_test::LinearId();
  const unsigned lane = wave_test::Lane();
  if ((mask >> lane & 1ul) == 0) return;
  stored[id] = StoredBy(id);
  if (syncwarp) {
    __syncwarp(mask);
  } else {
    __syncwave(mask);
  }
  // The lanes that exist in this wave and are named.
  const unsigned first = id - lane;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lanes = threads - first < 64 ? threads - first : 64;
  const unsigned long existing = lanes == 64 ? kFullMask : (1ul << lanes) - 1;
  out[id] = stored[first + NextNamedLane(mask & existing, lane)];
}

void CheckExchange(bool syncwarp, const Shape& shape, unsigned long mask) {
  const unsigned threads = shape.threads();
  Managed<int> out(threads, 0xff);  // kUnwritten everywhere
  ExchangeThroughShared<<<1, shape.dims()>>>(syncwarp, mask, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int checked = 0;
  for (unsigned id = 0; id < threads; ++id) {
    const unsigned lane = id % 64;
    const unsigned long named = mask & shape.ExistingLanesOf(id);
    if ((named >> lane & 1ul) == 0) {
      EXPECT_EQ(out[id], kUnwritten) << "thread " << id;
      continue;
    }
    ++checked;
    EXPECT_EQ(out[id], StoredBy(id - lane + NextNamedLane(named, lane)))
        << "thread " << id;
  }
  EXPECT_GT(checked, 0);
}

using MaskParam = std::tuple<NamedMask, bool>;

class SyncwaveMasks : public testing::TestWithParam<MaskParam> {};

TEST_P(SyncwaveMasks, NamedLanesSeeEachOthersStores) {
  MX_SPEC("lang.sync.syncwave.waits-for-named-lanes",
          "lang.sync.syncwave.memory-ordering", "lang.sync.syncwave.mask-width",
          "lang.sync.syncwave.syncwarp-is-synonym");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  // Naming lanes 32 to 63 needs a 64-bit mask, the reference's width.
  if ((std::get<0>(GetParam()).mask >> 32) != 0) {
    MX_REQUIRE_CAPABILITY("reference_choices");
  }
  CheckExchange(std::get<1>(GetParam()), {"Threads64", 64, 1, 1},
                std::get<0>(GetParam()).mask);
}

INSTANTIATE_TEST_SUITE_P(AllMasks, SyncwaveMasks,
                         testing::Combine(testing::ValuesIn(wave_test::kMasks),
                                          testing::Bool()),
                         [](const testing::TestParamInfo<MaskParam>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) ? "Syncwarp"
                                                           : "Syncwave");
                         });

// The reference's default mask: every lane of the wave.
__global__ void ExchangeWithDefaultMask(int* out) {
  __shared__ int stored[1024];
  const unsigned id = wave_test::LinearId();
  const unsigned lane = wave_test::Lane();
  stored[id] = StoredBy(id);
  __syncwave();
  const unsigned first = id - lane;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lanes = threads - first < 64 ? threads - first : 64;
  out[id] = stored[first + (lane + 1) % lanes];
}

class SyncwaveShapes : public testing::TestWithParam<Shape> {};

TEST_P(SyncwaveShapes, DefaultMaskSynchronizesEachWholeWave) {
  MX_SPEC("lang.sync.syncwave.default-mask",
          "lang.sync.syncwave.absent-lanes-count-as-exited",
          "lang.sync.syncwave.memory-ordering",
          "lang.wave.formation.consecutive-linear-ids");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  MX_REQUIRE_CAPABILITY("reference_choices");
  const Shape shape = GetParam();
  Managed<int> out(shape.threads());
  ExchangeWithDefaultMask<<<1, shape.dims()>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < shape.threads(); ++id) {
    const unsigned lane = id % 64;
    const unsigned lanes = shape.LanesInWaveOf(id);
    EXPECT_EQ(out[id], StoredBy(id - lane + (lane + 1) % lanes))
        << "thread " << id;
  }
}

INSTANTIATE_TEST_SUITE_P(AllShapes, SyncwaveShapes,
                         testing::ValuesIn(wave_test::kShapes),
                         wave_test::ParamName());

// Even and odd lanes reach the barrier at different call sites; the
// values go through global memory.
__global__ void DivergentSyncwave(int* stored, int* out) {
  const unsigned lane = wave_test::Lane();
  stored[lane] = StoredBy(lane);
  if (lane % 2 == 0) {
    __syncwave();
  } else {
    __syncwarp();
  }
  out[lane] = stored[(lane + 1) % 64];
}

TEST(Syncwave, DivergentCallSitesSynchronizeTogether) {
  MX_SPEC("lang.sync.syncwave.divergent-lanes-allowed",
          "lang.sync.syncwave.syncwarp-is-synonym",
          "lang.sync.syncwave.memory-ordering");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<int> stored(64);
  Managed<int> out(64);
  DivergentSyncwave<<<1, 64>>>(stored.get(), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(out[lane], StoredBy((lane + 1) % 64)) << lane;
  }
}

// Lanes at or above `stay` exit; the others synchronize with a full mask.
__global__ void SyncwaveAfterExits(unsigned stay, int* out) {
  __shared__ int stored[64];
  const unsigned lane = wave_test::Lane();
  if (lane >= stay) return;
  stored[lane] = StoredBy(lane);
  __syncwave(kFullMask);
  out[lane] = stored[(lane + 1) % stay];
}

TEST(Syncwave, ExitedLanesAreNotAwaited) {
  MX_SPEC("lang.sync.syncwave.exited-lanes-not-awaited");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<int> out(64, 0xff);
  SyncwaveAfterExits<<<1, 64>>>(40, out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(out[lane], lane < 40 ? StoredBy((lane + 1) % 40) : kUnwritten)
        << lane;
  }
}

// Wave 0 synchronizes; wave 1 never calls __syncwave and exits.
__global__ void OnlyWaveZeroSynchronizes(int* out) {
  __shared__ int stored[64];
  const unsigned id = wave_test::LinearId();
  if (id >= 64) return;
  stored[id] = StoredBy(id);
  __syncwave();
  out[id] = stored[63 - id];
}

TEST(Syncwave, WaitsOnlyForLanesOfTheCallingWave) {
  MX_SPEC("lang.sync.syncwave.wave-scope-only");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<int> out(64);
  OnlyWaveZeroSynchronizes<<<1, 128>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < 64; ++id) EXPECT_EQ(out[id], StoredBy(63 - id));
}

}  // namespace
