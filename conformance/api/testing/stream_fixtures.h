// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/stream_fixtures.h
// -----------------------------------------------------------------------------
//
// Parameters and fixtures of the stream, event and callback conformance
// tests: (stream kind, device) and (flags, stream kind) parameters with
// their test names, KindOnDeviceTest (skipped where the device does not
// exist) and StreamOnDeviceTest (the device current, a stream of the kind
// on it and a managed int cell).
//
//   class Order : public StreamOnDeviceTest {};
//   TEST_P(Order, KernelsRunInIssueOrder) {
//     Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
//     ...
//   }
//   INSTANTIATE_TEST_SUITE_P(
//       KindsAndDevices, Order,
//       testing::Combine(testing::ValuesIn(kAllStreamKinds),
//                        testing::Values(0, 1)),
//       KindOnDeviceName);  // "NonBlocking_Device1"
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_STREAM_FIXTURES_H_
#define MXCTS_CONFORMANCE_API_TESTING_STREAM_FIXTURES_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <cstdio>
#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"

namespace mxcts::conformance {

// Parameters (stream kind, device ordinal), and their test names
// ("NonBlocking_Device1").
using KindOnDevice = std::tuple<StreamKind, int>;

inline std::string KindOnDeviceName(
    const testing::TestParamInfo<KindOnDevice>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_Device" +
         std::to_string(std::get<1>(info.param));
}

// The test name of a StreamKind parameter ("NonBlocking").
inline std::string KindName(const testing::TestParamInfo<StreamKind>& info) {
  return StreamKindName(info.param);
}

// Flags in hexadecimal for test names: "0x80000000".
inline std::string HexName(unsigned flags) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", flags);
  return hex;
}

// Parameters (flags, stream kind), and their test names
// ("Flags0x80000000_NonBlocking").
using FlagsOnKind = std::tuple<unsigned, StreamKind>;

inline std::string FlagsOnKindName(
    const testing::TestParamInfo<FlagsOnKind>& info) {
  return "Flags" + HexName(std::get<0>(info.param)) + "_" +
         StreamKindName(std::get<1>(info.param));
}

// A test parameterized over (stream kind, device ordinal); skipped where
// the device does not exist.
class KindOnDeviceTest : public testing::TestWithParam<KindOnDevice> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
  }

  StreamKind kind() const { return std::get<0>(GetParam()); }
  int device() const { return std::get<1>(GetParam()); }
};

// A KindOnDeviceTest whose device is current for the whole test, with a
// stream of the kind on it and a managed int cell holding 0; TearDown
// waits for the device's work before releasing them.
class StreamOnDeviceTest : public KindOnDeviceTest {
 protected:
  void SetUp() override {
    KindOnDeviceTest::SetUp();
    if (IsSkipped()) return;
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    stream_ = std::make_unique<TestStream>(kind());
    ASSERT_EQ(stream_->status(), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
  }
  void TearDown() override {
    if (on_ != nullptr) mcDeviceSynchronize();
    if (cell_ != nullptr) {
      EXPECT_EQ(mcFree(cell_), mcSuccess);
    }
    stream_.reset();
    on_.reset();
  }

  mcStream_t stream() const { return stream_->get(); }
  int* cell() const { return cell_; }

 private:
  std::unique_ptr<ScopedDevice> on_;
  std::unique_ptr<TestStream> stream_;
  int* cell_ = nullptr;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_STREAM_FIXTURES_H_
