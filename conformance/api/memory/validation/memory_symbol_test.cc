// Copyright mxcts authors.
//
// Conformance: the errors of bad symbol calls (docs/spec/api-memory.md):
// copy kinds a direction does not allow, ranges past the end of the
// variable, symbols that are not device variables, null outputs and dead
// streams. Each failure leaves the variable and the other side as they
// were, beside a control that succeeds.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

__device__ int counters[16];

std::vector<int> Counters() {
  std::vector<int> values(16, -1);
  EXPECT_EQ(mcMemcpyFromSymbol(values.data(), counters, sizeof(int) * 16),
            mcSuccess);
  return values;
}

class SymbolErrors : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMemcpyToSymbol(counters, initial_.data(), sizeof(int) * 16),
              mcSuccess);
  }
  void TearDown() override { EXPECT_EQ(Counters(), initial_); }

  const std::vector<int> initial_ = std::vector<int>(16, 7);
  std::vector<int> host_ = std::vector<int>(16, 3);
};

class ToSymbolKind : public SymbolErrors,
                     public testing::WithParamInterface<int> {};

TEST_P(ToSymbolKind, IsInvalidMemcpyDirection) {
  MX_SPEC("api.memory.symbol.to-symbol-wrong-kind");
  const mcMemcpyKind kind = static_cast<mcMemcpyKind>(GetParam());
  EXPECT_EQ(mcMemcpyToSymbol(counters, host_.data(), 4, 0, kind),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(mcMemcpyToSymbolAsync(counters, host_.data(), 4, 0, kind),
            mcErrorInvalidMemcpyDirection);
  // Control: mcMemcpyHostToDevice, writing the value the variable holds.
  std::vector<int> same(16, 7);
  EXPECT_EQ(mcMemcpyToSymbol(counters, same.data(), 4, 0, mcMemcpyHostToDevice),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Kinds, ToSymbolKind,
                         testing::Values(int{mcMemcpyHostToHost},
                                         int{mcMemcpyDeviceToHost}, 5, -1));

class FromSymbolKind : public SymbolErrors,
                       public testing::WithParamInterface<int> {};

TEST_P(FromSymbolKind, IsInvalidMemcpyDirection) {
  MX_SPEC("api.memory.symbol.from-symbol-wrong-kind");
  const mcMemcpyKind kind = static_cast<mcMemcpyKind>(GetParam());
  EXPECT_EQ(mcMemcpyFromSymbol(host_.data(), counters, 4, 0, kind),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(mcMemcpyFromSymbolAsync(host_.data(), counters, 4, 0, kind),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(host_[0], 3);
  EXPECT_EQ(
      mcMemcpyFromSymbol(host_.data(), counters, 4, 0, mcMemcpyDeviceToHost),
      mcSuccess);
  EXPECT_EQ(host_[0], 7);
}

INSTANTIATE_TEST_SUITE_P(Kinds, FromSymbolKind,
                         testing::Values(int{mcMemcpyHostToHost},
                                         int{mcMemcpyHostToDevice}, 5, -1));

struct RangeCase {
  size_t offset;
  size_t count;
};

class SymbolPastEnd : public SymbolErrors,
                      public testing::WithParamInterface<RangeCase> {};

TEST_P(SymbolPastEnd, IsInvalidValueAndCopiesNothing) {
  MX_SPEC("api.memory.symbol.past-end");
  const RangeCase& c = GetParam();
  std::vector<int> big(32, 3);
  EXPECT_EQ(mcMemcpyToSymbol(counters, big.data(), c.count, c.offset),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyToSymbolAsync(counters, big.data(), c.count, c.offset,
                                  mcMemcpyHostToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyFromSymbol(big.data(), counters, c.count, c.offset),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyFromSymbolAsync(big.data(), counters, c.count, c.offset,
                                    mcMemcpyDeviceToHost),
            mcErrorInvalidValue);
  for (int value : big) EXPECT_EQ(value, 3);
  // Control: exactly to the end.
  EXPECT_EQ(mcMemcpyFromSymbol(big.data(), counters, 64 - c.offset % 64,
                               c.offset % 64),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ranges, SymbolPastEnd,
                         testing::Values(RangeCase{0, 65}, RangeCase{1, 64},
                                         RangeCase{60, 5}, RangeCase{64, 1},
                                         RangeCase{100, 0}),
                         [](const testing::TestParamInfo<RangeCase>& info) {
                           return "offset" + std::to_string(info.param.offset) +
                                  "_count" + std::to_string(info.param.count);
                         });

TEST_F(SymbolErrors, NotASymbolIsInvalidSymbol) {
  MX_SPEC("api.memory.symbol.not-a-symbol");
  int host_variable = 0;
  void* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 64), mcSuccess);
  const void* const symbols[] = {&host_variable, device, nullptr};
  for (const void* symbol : symbols) {
    EXPECT_EQ(mcMemcpyToSymbol(symbol, host_.data(), 4), mcErrorInvalidSymbol);
    EXPECT_EQ(mcMemcpyFromSymbol(host_.data(), symbol, 4),
              mcErrorInvalidSymbol);
    void* address = nullptr;
    size_t size = 0;
    EXPECT_EQ(mcGetSymbolAddress(&address, symbol), mcErrorInvalidSymbol);
    EXPECT_EQ(mcGetSymbolSize(&size, symbol), mcErrorInvalidSymbol);
  }
  EXPECT_EQ(host_[0], 3);
  ASSERT_EQ(mcFree(device), mcSuccess);
  size_t size = 0;
  EXPECT_EQ(mcGetSymbolSize(&size, counters), mcSuccess);
  EXPECT_EQ(size, sizeof(int) * 16);
}

TEST_F(SymbolErrors, NullOutputsAreInvalidValue) {
  MX_SPEC("api.memory.symbol.get-address-null-out");
  EXPECT_EQ(mcGetSymbolAddress(nullptr, counters), mcErrorInvalidValue);
  EXPECT_EQ(mcGetSymbolSize(nullptr, counters), mcErrorInvalidValue);
  void* address = nullptr;
  size_t size = 0;
  EXPECT_EQ(mcGetSymbolAddress(&address, counters), mcSuccess);
  EXPECT_EQ(mcGetSymbolSize(&size, counters), mcSuccess);
}

TEST_F(SymbolErrors, DeadStreamIsInvalidResourceHandle) {
  MX_SPEC("api.memory.symbol.async-invalid-stream");
  mcStream_t dead = nullptr;
  ASSERT_EQ(mcStreamCreate(&dead), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(dead), mcSuccess);
  EXPECT_EQ(mcMemcpyToSymbolAsync(counters, host_.data(), 4, 0,
                                  mcMemcpyHostToDevice, dead),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcMemcpyFromSymbolAsync(host_.data(), counters, 4, 0,
                                    mcMemcpyDeviceToHost, dead),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(host_[0], 3);
  mcStream_t live = nullptr;
  ASSERT_EQ(mcStreamCreate(&live), mcSuccess);
  EXPECT_EQ(mcMemcpyFromSymbolAsync(host_.data(), counters, 4, 0,
                                    mcMemcpyDeviceToHost, live),
            mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(live), mcSuccess);
  EXPECT_EQ(host_[0], 7);
  EXPECT_EQ(mcStreamDestroy(live), mcSuccess);
}

}  // namespace
