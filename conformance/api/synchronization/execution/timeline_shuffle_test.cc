// Copyright mxcts authors.
//
// Conformance: the shuffle timeline mode runs device work in a seeded
// random order among the orders the streams, events and the legacy
// default stream permit (docs/spec/api-synchronization.md, "When device
// work runs"; api-stream.md, "Stream model").
//
// One program, run in a fresh process per seed with
// MXCTS_TIMELINE=shuffle:<seed>: two non-blocking streams A and B each run
// host functions that log; B waits on an event recorded in A after a3; a
// blocking stream C and the legacy stream log too, and kernels check what
// the event orders. In every run each stream's order, the event's order and
// the legacy stream's order hold (the program checks them itself); across
// seeds the interleaving of A and B differs, which shows that the two
// streams are not ordered with each other; the same seed gives the same
// order. The eager and deferred modes, which run the program in one fixed
// order, are the controls. Each run leaves its log in a file of the test's
// temporary folder for the comparison.

#include <mc_runtime.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/result_file.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kPieces = 8;

std::string Label(char stream, int index) {
  return std::string(1, stream) + std::to_string(index);
}

// Runs the program, checks the orders it must keep, and writes the log of
// A's and B's host functions (in the order they ran) to `path`.
std::string RunProgram(const std::string& path) {
  std::string problems;
  TestStream a(StreamKind::kNonBlocking);
  TestStream b(StreamKind::kNonBlocking);
  TestStream c(StreamKind::kBlocking);
  mcEvent_t event = nullptr;
  int* cell = nullptr;
  problems += Expect("creating stream A", a.status(), mcSuccess);
  problems += Expect("creating stream B", b.status(), mcSuccess);
  problems += Expect("creating stream C", c.status(), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  if (!problems.empty()) return problems;
  *cell = 0;
  OrderLog log;   // A and B
  OrderLog side;  // C and the legacy stream
  for (int i = 0; i < kPieces; ++i) {
    log.Append(a.get(), Label('a', i));
    if (i == 3) {
      Follow<<<1, 1, 0, a.get()>>>(cell, 0, 1);
      mcEventRecord(event, a.get());
      mcStreamWaitEvent(b.get(), event, 0);
      Follow<<<1, 1, 0, b.get()>>>(cell, 1, 2);
    }
    log.Append(b.get(), Label('b', i));
    side.Append(c.get(), Label('c', i));
    if (i % 3 == 1) side.Append(mcStreamLegacy, Label('l', i));
  }
  problems += Expect("submitting", mcGetLastError(), mcSuccess);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  // [api.stream.model.in-order-execution]
  for (int i = 0; i + 1 < kPieces; ++i) {
    for (char stream : {'a', 'b', 'c'}) {
      const OrderLog& which = stream == 'c' ? side : log;
      if (!which.RanBefore(Label(stream, i), Label(stream, i + 1))) {
        problems += Label(stream, i) + " did not run before " +
                    Label(stream, i + 1) + "; ";
      }
    }
  }
  // [api.stream.wait-event.delays-later-work]: B's work after the wait
  // follows a3, and the kernels ran in the event's order.
  for (int i = 4; i < kPieces; ++i) {
    if (!log.RanBefore("a3", Label('b', i))) {
      problems += "b" + std::to_string(i) + " ran before a3; ";
    }
  }
  if (*cell != 2) problems += "the kernels ran out of the event's order; ";
  // [api.sync.legacy.waits-for-blocking-streams]
  // [api.sync.legacy.blocking-streams-wait-for-it]
  for (int i = 1; i < kPieces; i += 3) {
    if (!side.RanBefore(Label('c', i), Label('l', i)) ||
        (i + 1 < kPieces &&
         !side.RanBefore(Label('l', i), Label('c', i + 1)))) {
      problems += "l" + std::to_string(i) + " is out of the legacy order; ";
    }
  }
  if (log.size() != 2 * kPieces) problems += "work is missing; ";
  if (!WriteTextFile(path, log.Joined())) problems += "cannot write " + path;
  mcEventDestroy(event);
  mcFree(cell);
  return problems;
}

std::string SeedName(const testing::TestParamInfo<uint64_t>& info) {
  return "Seed" + std::to_string(info.param);
}

std::string Mode(uint64_t seed) { return "shuffle:" + std::to_string(seed); }

class ShuffleSeed : public testing::TestWithParam<uint64_t> {};

TEST_P(ShuffleSeed, EveryPermittedOrderHolds) {
  MX_SPEC("api.sync.timeline.shuffle-permitted-order",
          "api.stream.model.in-order-execution",
          "api.stream.wait-event.delays-later-work",
          "api.sync.legacy.waits-for-blocking-streams",
          "api.sync.legacy.blocking-streams-wait-for-it",
          "api.sync.host.device-synchronize-waits-all");
  ScopedTimelineMode mode(Mode(GetParam()).c_str());
  MX_EXPECT_IN_FRESH_PROCESS(RunProgram(
      ResultFilePath("shuffle_order_" + std::to_string(GetParam()) + ".log")));
}

INSTANTIATE_TEST_SUITE_P(Seeds, ShuffleSeed,
                         testing::Values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                         42, 1000, 65535, 20261121, 123456789,
                                         4294967295u, 4294967296u,
                                         9223372036854775807u,
                                         18446744073709551615u),
                         SeedName);

// Runs the program in a fresh process under MXCTS_TIMELINE=`mode` and
// returns its log (or "<missing>").
std::string LogUnder(const std::string& mode, const std::string& file) {
  const std::string path = ResultFilePath(file);
  std::remove(path.c_str());
  ScopedTimelineMode timeline(mode.c_str());
  MX_EXPECT_IN_FRESH_PROCESS(RunProgram(path));
  return ReadTextFile(path);
}

// The order in which the program issued A's and B's host functions.
std::string IssueOrder() {
  std::string order;
  for (int i = 0; i < kPieces; ++i) {
    order += (i == 0 ? "" : " ") + Label('a', i) + " " + Label('b', i);
  }
  return order;
}

TEST(Shuffle, DifferentSeedsGiveDifferentInterleavings) {
  MX_SPEC("api.sync.timeline.shuffle-permitted-order",
          "api.stream.model.no-order-between-streams");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  std::set<std::string> orders;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    orders.insert(LogUnder(Mode(seed), "shuffle_seed.log"));
  }
  EXPECT_EQ(orders.count("<missing>"), 0u);
  EXPECT_GE(orders.size(), 2u) << *orders.begin();
  // At least one seed left the issue order, which the eager mode keeps.
  orders.erase(IssueOrder());
  EXPECT_GE(orders.size(), 1u);
}

TEST(Shuffle, SameSeedGivesTheSameOrder) {
  MX_SPEC("api.sync.timeline.shuffle-permitted-order");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  for (uint64_t seed : {3u, 20261121u}) {
    const std::string first = LogUnder(Mode(seed), "shuffle_first.log");
    const std::string second = LogUnder(Mode(seed), "shuffle_second.log");
    EXPECT_NE(first, "<missing>");
    EXPECT_EQ(first, second) << "seed " << seed;
  }
}

TEST(Shuffle, ControlEagerRunsInIssueOrder) {
  MX_SPEC("api.sync.timeline.eager-runs-at-submission",
          "api.sync.timeline.default-eager");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  EXPECT_EQ(LogUnder("eager", "shuffle_eager.log"), IssueOrder());
  EXPECT_EQ(LogUnder("", "shuffle_eager_empty.log"), IssueOrder());
}

TEST(Shuffle, ControlDeferredRunsOneFixedOrder) {
  // The deferred mode runs only what a wait needs, oldest first: the same
  // order in every run, whatever seed a shuffle would have used.
  MX_SPEC("api.sync.timeline.deferred-runs-when-host-waits");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  const std::string first = LogUnder("deferred", "shuffle_deferred1.log");
  const std::string second = LogUnder("deferred", "shuffle_deferred2.log");
  EXPECT_NE(first, "<missing>");
  EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace mxcts::conformance
