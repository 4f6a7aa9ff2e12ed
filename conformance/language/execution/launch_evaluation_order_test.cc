// Conformance: when the configuration and the arguments of a launch are
// evaluated, and that arguments are copied at the launch
// (docs/spec/lang-execution-configuration.md, "Evaluation order").

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

struct Observed {
  unsigned grid_x;
  int argument;
};

__global__ void Observe(Observed* observed, int argument) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    observed->grid_x = gridDim.x;
    observed->argument = argument;
  }
}

class EvaluationOrder : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&observed_, sizeof(Observed)), mcSuccess);
    *observed_ = Observed{0, 0};
  }
  void TearDown() override { mcFree(observed_); }
  Observed* observed_ = nullptr;
};

TEST_F(EvaluationOrder, ConfigurationBeforeArguments) {
  MX_SPEC("lang.launch.config-evaluated-before-args");
  int i = 1;
  Observe<<<++i, 1>>>(observed_, i);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(observed_->grid_x, 2u);
  EXPECT_EQ(observed_->argument, 2);
}

TEST_F(EvaluationOrder, ArgumentSideEffectDoesNotReachConfiguration) {
  MX_SPEC("lang.launch.config-evaluated-before-args");
  // Control of the rule above: a side effect in the argument list happens
  // after the configuration was taken, so the grid keeps the old value.
  int i = 1;
  Observe<<<i, 1>>>(observed_, ++i);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(observed_->grid_x, 1u);
  EXPECT_EQ(observed_->argument, 2);
}

TEST_F(EvaluationOrder, EachOperandAndArgumentEvaluatedOnce) {
  MX_SPEC("lang.launch.args-evaluated-once");
  int grid_evaluations = 0;
  int block_evaluations = 0;
  int argument_evaluations = 0;
  Observe<<<(++grid_evaluations, 1), (++block_evaluations, 1)>>>(
      observed_, (++argument_evaluations, 7));
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(grid_evaluations, 1);
  EXPECT_EQ(block_evaluations, 1);
  EXPECT_EQ(argument_evaluations, 1);
  EXPECT_EQ(observed_->argument, 7);
}

TEST_F(EvaluationOrder, OperandsEvaluatedOnceWhenLaunchFails) {
  MX_SPEC("lang.launch.args-evaluated-once");
  int block_evaluations = 0;
  int argument_evaluations = 0;
  Observe<<<1, (++block_evaluations, 2048)>>>(observed_,
                                              (++argument_evaluations, 7));
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  EXPECT_EQ(block_evaluations, 1);
  EXPECT_EQ(argument_evaluations, 1);
}

TEST_F(EvaluationOrder, ArgumentsCopiedAtLaunch) {
  MX_SPEC("lang.launch.args-copied-at-launch");
  int value = 5;
  Observe<<<1, 1>>>(observed_, value);
  value = 9;  // after the launch call returned: must not reach the kernel
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(observed_->argument, 5);
}

}  // namespace
