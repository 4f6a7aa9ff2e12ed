// Links Boost.Context and switches to a fiber and back twice.
#include <gtest/gtest.h>

#include <boost/context/fiber.hpp>
#include <utility>
#include <vector>

namespace {

namespace ctx = boost::context;

TEST(BoostContextLink, FiberResumesAndReturns) {
  std::vector<int> trace;
  ctx::fiber child([&trace](ctx::fiber&& caller) {
    trace.push_back(1);
    caller = std::move(caller).resume();
    trace.push_back(3);
    return std::move(caller);
  });
  child = std::move(child).resume();
  trace.push_back(2);
  child = std::move(child).resume();
  EXPECT_EQ(trace, (std::vector<int>{1, 2, 3}));
  EXPECT_FALSE(static_cast<bool>(child));
}

}  // namespace
