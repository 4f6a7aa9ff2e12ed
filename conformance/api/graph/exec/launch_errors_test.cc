// Copyright mxcts authors.
//
// Conformance: the errors of mcGraphLaunch, mcGraphUpload and
// mcGraphExecDestroy (docs/spec/api-graph.md, "Instantiation and launch"):
// a null or destroyed executable graph, a stream that names no live
// stream. Each refused call is shown to enqueue nothing and to leave the
// executable graph launchable, beside a control launch that runs.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/bad_handles.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Adds `amount` to *cell.
__global__ void AddTo(int* cell, int amount) { *cell += amount; }

// An executable graph that adds 1 to the cell, and a stream of the
// parameter's kind on the parameter's device.
class LaunchErrors : public StreamOnDeviceTest {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    StreamOnDeviceTest::SetUp();
    if (IsSkipped()) return;
    KernelCall add(AddTo, dim3(1), dim3(1), cell(), 1);
    mcGraphNode_t node;
    ASSERT_EQ(add.Add(&node, graph_.get(), {}), mcSuccess);
    ASSERT_EQ(
        mcGraphInstantiate(exec_.out(), graph_.get(), nullptr, nullptr, 0),
        mcSuccess);
  }

  // Nothing ran; the executable graph still launches into the stream
  // (control).
  void ExpectNothingRanAndExecLaunches() {
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(*cell(), 0);
    EXPECT_EQ(mcStreamQuery(stream()), mcSuccess);
    ASSERT_EQ(mcGraphLaunch(exec_.get(), stream()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell(), 1);
  }

  ScopedGraph graph_;
  ScopedExec exec_;
};

TEST_P(LaunchErrors, NullExecIsInvalidValue) {
  MX_SPEC("api.graph.launch.null-exec-invalid-value");
  EXPECT_EQ(mcGraphLaunch(nullptr, stream()), mcErrorInvalidValue);
  ExpectNothingRanAndExecLaunches();
}

TEST_P(LaunchErrors, DestroyedExecIsInvalidValue) {
  MX_SPEC("api.graph.launch.null-exec-invalid-value",
          "api.graph.exec-destroy.releases");
  mcGraphExec_t other = nullptr;
  ASSERT_EQ(mcGraphInstantiate(&other, graph_.get(), nullptr, nullptr, 0),
            mcSuccess);
  ASSERT_EQ(mcGraphExecDestroy(other), mcSuccess);
  EXPECT_EQ(mcGraphLaunch(other, stream()), mcErrorInvalidValue);
  ExpectNothingRanAndExecLaunches();
}

TEST_P(LaunchErrors, UploadNullExecIsInvalidValue) {
  MX_SPEC("api.graph.launch.null-exec-invalid-value");
  EXPECT_EQ(mcGraphUpload(nullptr, stream()), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphUpload(exec_.get(), stream()), mcSuccess);
  ExpectNothingRanAndExecLaunches();
}

TEST_P(LaunchErrors, ExecDestroyNullIsInvalidValue) {
  MX_SPEC("api.graph.exec-destroy.null-invalid-value");
  EXPECT_EQ(mcGraphExecDestroy(nullptr), mcErrorInvalidValue);
  ExpectNothingRanAndExecLaunches();
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, LaunchErrors,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

// mcGraphLaunch into a stream handle of each bad kind.
class LaunchIntoBadStream : public testing::TestWithParam<BadStream> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(LaunchIntoBadStream, IsInvalidResourceHandle) {
  MX_SPEC("api.graph.launch.invalid-stream-resource-handle");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", DevicesNeeded(GetParam()));
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell, 1);
  mcGraphNode_t node;
  ASSERT_EQ(add.Add(&node, graph.get(), {}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  {
    InvalidStream bad(GetParam());
    ASSERT_EQ(bad.status(), mcSuccess);
    EXPECT_EQ(mcGraphLaunch(exec.get(), bad.get()),
              mcErrorInvalidResourceHandle);
    EXPECT_EQ(mcGraphUpload(exec.get(), bad.get()),
              mcErrorInvalidResourceHandle);
  }
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell, 0);
  // Control: the executable graph launches into a live stream.
  ASSERT_EQ(mcGraphLaunch(exec.get(), nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell, 1);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(BadStreams, LaunchIntoBadStream,
                         testing::Values(BadStream::kDestroyed,
                                         BadStream::kDestroyedOnOtherDevice,
                                         BadStream::kNotAStream,
                                         BadStream::kEventHandle),
                         [](const testing::TestParamInfo<BadStream>& info) {
                           return std::string(BadStreamName(info.param));
                         });

}  // namespace
}  // namespace mxcts::conformance
