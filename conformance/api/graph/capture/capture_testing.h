// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/graph/capture/capture_testing.h
// -----------------------------------------------------------------------------
//
// The parameters and fixture of the stream capture tests
// (docs/spec/api-graph.md, "Stream capture"): every kind of stream that can
// capture (all but the legacy default stream), every capture mode, every
// device; CaptureTest makes the device current, makes a stream of the kind
// and managed cells, and ends any capture a test leaves open, so that the
// streams that outlive a test (the per-thread default stream) start the
// next one idle.
//
//   class Capture : public CaptureTest {};
//   TEST_P(Capture, KernelIsRecorded) {
//     ASSERT_EQ(Begin(), mcSuccess);
//     Work<<<1, 1, 0, stream()>>>(cell());
//     ScopedGraph graph;
//     ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
//   }
//   INSTANTIATE_TEST_SUITE_P(KindsModesDevices, Capture,
//                            CaptureParameters(), CaptureParameterName);
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_GRAPH_CAPTURE_CAPTURE_TESTING_H_
#define MXCTS_CONFORMANCE_API_GRAPH_CAPTURE_CAPTURE_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"

namespace mxcts::conformance {

// The kinds of stream a capture may begin on: every kind but the legacy
// default stream [api.graph.capture.legacy-null-stream-unsupported].
inline constexpr StreamKind kCapturableStreamKinds[] = {
    StreamKind::kPerThread, StreamKind::kBlocking, StreamKind::kNonBlocking,
    StreamKind::kPriority};

// (stream kind, capture mode, device).
using CaptureParameter = std::tuple<StreamKind, mcStreamCaptureMode, int>;

inline auto CaptureParameters() {
  return testing::Combine(testing::ValuesIn(kCapturableStreamKinds),
                          testing::ValuesIn(kAllCaptureModes),
                          testing::Values(0, 1));
}

// "NonBlocking_ThreadLocal_Device1".
inline std::string CaptureParameterName(
    const testing::TestParamInfo<CaptureParameter>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
         CaptureModeName(std::get<1>(info.param)) + "_Device" +
         std::to_string(std::get<2>(info.param));
}

// Ends the capture `stream` is part of, if any, and destroys its graph.
inline void EndAnyCapture(mcStream_t stream) {
  mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
  if (mcStreamIsCapturing(stream, &status) != mcSuccess) return;
  if (status == mcStreamCaptureStatusNone) return;
  mcGraph_t graph = nullptr;
  mcStreamEndCapture(stream, &graph);
  if (graph != nullptr) mcGraphDestroy(graph);
}

// The device current, a stream of the kind on it, managed cells holding 0;
// at the end, any capture left open on the stream is ended and the device
// synchronized.
class CaptureTest : public testing::TestWithParam<CaptureParameter> {
 protected:
  static constexpr int kCells = 8;

  StreamKind kind() const { return std::get<0>(GetParam()); }
  mcStreamCaptureMode mode() const { return std::get<1>(GetParam()); }
  int device() const { return std::get<2>(GetParam()); }

  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    stream_ = std::make_unique<TestStream>(kind());
    ASSERT_EQ(stream_->status(), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, kCells * sizeof(int)), mcSuccess);
    for (int i = 0; i < kCells; ++i) cells_[i] = 0;
  }
  void TearDown() override {
    if (stream_ != nullptr) EndAnyCapture(stream());
    mcGetLastError();
    if (on_ != nullptr) mcDeviceSynchronize();
    if (cells_ != nullptr) mcFree(cells_);
    stream_.reset();
    on_.reset();
  }

  mcStream_t stream() const { return stream_->get(); }
  int* cell(int i = 0) const { return cells_ + i; }
  // Begins capturing the stream in the parameter's mode.
  mcError_t Begin() { return mcStreamBeginCapture(stream(), mode()); }
  // Whether the parameter's stream orders against the legacy default
  // stream.
  bool SynchronizesWithLegacy() const { return IsBlockingKind(kind()); }

 private:
  std::unique_ptr<ScopedDevice> on_;
  std::unique_ptr<TestStream> stream_;
  int* cells_ = nullptr;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_GRAPH_CAPTURE_CAPTURE_TESTING_H_
