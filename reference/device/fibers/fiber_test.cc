// Copyright mxcts authors.
//
// Tests of fibers: switching back and forth, restarting a fiber on its
// stack, and fibers handing over among themselves.

#include "reference/device/fibers/fiber.h"

#include <vector>

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/device/fibers/stack_pool.h"

namespace mxcts::device_internal {
namespace {

using ::testing::ElementsAre;

struct PingPong {
  Fiber* host;
  std::vector<int>* log;
};

void PingPongBody(Fiber* self) {
  auto* game = static_cast<PingPong*>(self->argument());
  for (int round = 0;; ++round) {
    game->log->push_back(100 + round);
    Fiber::Switch(self, game->host);
  }
}

TEST(Fiber, SwitchesBackAndForthKeepingState) {
  StackPool pool(64 * 1024);
  absl::StatusOr<Stack> stack = pool.Acquire();
  ASSERT_TRUE(stack.ok());
  Fiber host;
  Fiber fiber;
  std::vector<int> log;
  PingPong game{&host, &log};
  fiber.Start(*stack, &PingPongBody, &game);
  for (int i = 0; i < 3; ++i) {
    log.push_back(i);
    Fiber::Switch(&host, &fiber);
  }
  EXPECT_THAT(log, ElementsAre(0, 100, 1, 101, 2, 102));
  // Restarted, the fiber begins again from round 0.
  fiber.Start(fiber.stack(), &PingPongBody, &game);
  log.clear();
  Fiber::Switch(&host, &fiber);
  EXPECT_THAT(log, ElementsAre(100));
  pool.Release(*stack);
}

struct Relay {
  Fiber* next;
  std::vector<int>* log;
  int id;
};

void RelayBody(Fiber* self) {
  auto* relay = static_cast<Relay*>(self->argument());
  relay->log->push_back(relay->id);
  Fiber::Switch(self, relay->next);
}

TEST(Fiber, FibersHandOverAmongThemselves) {
  StackPool pool(64 * 1024);
  Fiber host;
  Fiber a;
  Fiber b;
  std::vector<int> log;
  Relay to_b{&b, &log, 1};
  Relay to_host{&host, &log, 2};
  a.Start(*pool.Acquire(), &RelayBody, &to_b);
  b.Start(*pool.Acquire(), &RelayBody, &to_host);
  Fiber::Switch(&host, &a);
  EXPECT_THAT(log, ElementsAre(1, 2));
}

}  // namespace
}  // namespace mxcts::device_internal
