// Copyright mxcts authors.
//
// Conformance: what each kind of node does when its graph runs
// (docs/spec/api-graph.md, "Adding nodes"): kernels with their
// configuration and arguments in either form, copies of boxes, of bytes in
// every direction and of symbols, sets of every element size and of rows,
// host functions between their dependencies and dependents, empty nodes
// that join, child graphs copied when added, event records and waits,
// allocations and frees; parameters are copied when a node is added, and a
// node starts after its dependencies. Each graph is run with
// mcGraphInstantiate, mcGraphLaunch and mcStreamSynchronize. Holds in
// every timeline mode, on every device.

#include <mc_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

__global__ void StoreValue(int* cell, int value) { *cell = value; }

// out[i] = base + i for every thread of the grid.
__global__ void FillIndex(int* out, int base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = base + i;
}

// Moves *cell from `expected` to `value`, or marks it -1 when it ran
// before the node that leaves `expected`.
__global__ void Step(int* cell, int expected, int value) {
  *cell = *cell == expected ? value : -1;
}

// Each thread puts its index in dynamic shared memory; thread 0 writes
// the sum.
__global__ void SumThroughShared(int* out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) sum += scratch[i];
    *out = sum;
  }
}

__global__ void CopyCell(int* to, const int* from) { *to = *from; }

__global__ void AddToCell(int* cell, int value) { *cell += value; }

// out[n] = out[0] + ... + out[n - 1].
__global__ void SumCells(int* out, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i];
  out[n] = sum;
}

__device__ unsigned char graph_symbol[NodeMaker::kBytes];

// A stream on the parameter's device, managed cells both sides may touch,
// and a graph.
class NodeRun : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(GetParam());
    ASSERT_TRUE(device_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, kCells * sizeof(int)), mcSuccess);
    std::memset(cells_, 0, kCells * sizeof(int));
    ASSERT_EQ(graph_.status(), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (cells_ != nullptr) mcFree(cells_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    device_.reset();
  }
  mcGraph_t graph() const { return graph_.get(); }
  mcError_t Run() { return RunOnce(graph(), stream_); }
  mcGraphNode_t Kernel(const void* function, void** args, dim3 grid, dim3 block,
                       const std::vector<mcGraphNode_t>& deps,
                       unsigned shared = 0) {
    mcKernelNodeParams params{};
    params.func = const_cast<void*>(function);
    params.gridDim = grid;
    params.blockDim = block;
    params.sharedMemBytes = shared;
    params.kernelParams = args;
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddKernelNode(&node, graph(),
                                   deps.empty() ? nullptr : deps.data(),
                                   deps.size(), &params),
              mcSuccess);
    return node;
  }
  // A Step node on `cell`, after `deps`.
  mcGraphNode_t StepNode(int* cell, int expected, int value,
                         const std::vector<mcGraphNode_t>& deps) {
    void* args[] = {&cell, &expected, &value};
    return Kernel(reinterpret_cast<const void*>(Step), args, dim3(1), dim3(1),
                  deps);
  }

  static constexpr int kCells = 1024;
  std::optional<ScopedDevice> device_;
  mcStream_t stream_ = nullptr;
  int* cells_ = nullptr;
  ScopedGraph graph_;
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

// Kernel nodes.

TEST_P(NodeRun, KernelNodeRunsTheKernelWithItsConfiguration) {
  MX_SPEC("api.graph.kernel-node.runs-kernel");
  int* out = cells_;
  int base = 100;
  void* args[] = {&out, &base};
  Kernel(reinterpret_cast<const void*>(FillIndex), args, dim3(4), dim3(64), {});
  // Nothing ran when the node was added.
  EXPECT_EQ(cells_[5], 0);
  ASSERT_EQ(Run(), mcSuccess);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(cells_[i], 100 + i) << i;
  // Control: the grid covered 256 threads, no more.
  EXPECT_EQ(cells_[256], 0);
}

TEST_P(NodeRun, KernelNodeGetsItsDynamicSharedMemory) {
  MX_SPEC("api.graph.kernel-node.runs-kernel");
  int* out = cells_;
  void* args[] = {&out};
  Kernel(reinterpret_cast<const void*>(SumThroughShared), args, dim3(1),
         dim3(128), {}, 128 * sizeof(int));
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 127 * 128 / 2);
}

TEST_P(NodeRun, KernelNodeWithArgumentsInExtraRuns) {
  MX_SPEC("api.graph.kernel-node.extra-argument-form");
  struct {
    int* out;
    int base;
  } packed = {cells_ + 8, 7000};
  size_t size = sizeof(packed);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(FillIndex);
  params.gridDim = dim3(2);
  params.blockDim = dim3(32);
  params.extra = extra;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[7], 0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(cells_[8 + i], 7000 + i) << i;
  EXPECT_EQ(cells_[72], 0);
}

TEST_P(NodeRun, KernelNodeArgumentsAreCopiedWhenAdded) {
  MX_SPEC("api.graph.node.parameters-copied-at-add");
  int* out = cells_;
  int base = 10;
  void* args[] = {&out, &base};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(FillIndex);
  params.gridDim = dim3(1);
  params.blockDim = dim3(16);
  params.kernelParams = args;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  // Change the arguments, the pointer array and the structure.
  out = cells_ + 512;
  base = 99;
  int* other = cells_ + 600;
  args[0] = &other;
  params.gridDim = dim3(4);
  params.blockDim = dim3(64);
  ASSERT_EQ(Run(), mcSuccess);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(cells_[i], 10 + i) << i;
  EXPECT_EQ(cells_[16], 0);
  EXPECT_EQ(cells_[512], 0);
  EXPECT_EQ(cells_[600], 0);
}

// Memcpy nodes.

TEST_P(NodeRun, MemcpyNodeCopiesABoxBetweenPitchedBuffers) {
  MX_SPEC("api.graph.memcpy-node.copies");
  constexpr size_t kPitch = 64, kRows = 6;
  unsigned char* src = nullptr;
  unsigned char* dst = nullptr;
  ASSERT_EQ(mcMalloc(&src, kPitch * kRows), mcSuccess);
  ASSERT_EQ(mcMalloc(&dst, kPitch * kRows), mcSuccess);
  std::vector<unsigned char> pattern(kPitch * kRows);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = i * 3 + 1;
  ASSERT_EQ(mcMemcpy(src, pattern.data(), pattern.size(), mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemset(dst, 0, kPitch * kRows), mcSuccess);
  mcMemcpy3DParms params{};
  params.srcPtr = make_mcPitchedPtr(src, kPitch, kPitch, kRows);
  params.srcPos = make_mcPos(8, 1, 0);
  params.dstPtr = make_mcPitchedPtr(dst, kPitch, kPitch, kRows);
  params.dstPos = make_mcPos(4, 2, 0);
  params.extent = make_mcExtent(16, 3, 1);
  params.kind = mcMemcpyDeviceToDevice;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  std::vector<unsigned char> result(kPitch * kRows);
  ASSERT_EQ(mcMemcpy(result.data(), dst, result.size(), mcMemcpyDeviceToHost),
            mcSuccess);
  for (size_t row = 0; row < kRows; ++row) {
    for (size_t x = 0; x < kPitch; ++x) {
      const bool inside = row >= 2 && row < 5 && x >= 4 && x < 20;
      const unsigned char expected =
          inside ? pattern[(row - 1) * kPitch + (x + 4)] : 0;
      ASSERT_EQ(result[row * kPitch + x], expected) << row << "," << x;
    }
  }
  mcFree(src);
  mcFree(dst);
}

TEST_P(NodeRun, MemcpyNodeCopiesAHostBoxToTheDeviceAndBack) {
  MX_SPEC("api.graph.memcpy-node.copies");
  constexpr size_t kWidth = 32, kRows = 4;
  std::vector<unsigned char> host(kWidth * kRows), back(kWidth * kRows, 0);
  for (size_t i = 0; i < host.size(); ++i) host[i] = 255 - i;
  unsigned char* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, kWidth * kRows), mcSuccess);
  mcMemcpy3DParms up{};
  up.srcPtr = make_mcPitchedPtr(host.data(), kWidth, kWidth, kRows);
  up.dstPtr = make_mcPitchedPtr(device, kWidth, kWidth, kRows);
  up.extent = make_mcExtent(kWidth, kRows, 1);
  up.kind = mcMemcpyHostToDevice;
  mcMemcpy3DParms down{};
  down.srcPtr = make_mcPitchedPtr(device, kWidth, kWidth, kRows);
  down.dstPtr = make_mcPitchedPtr(back.data(), kWidth, kWidth, kRows);
  down.extent = make_mcExtent(kWidth, kRows, 1);
  down.kind = mcMemcpyDeviceToHost;
  mcGraphNode_t first = nullptr, second = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode(&first, graph(), nullptr, 0, &up), mcSuccess);
  ASSERT_EQ(mcGraphAddMemcpyNode(&second, graph(), &first, 1, &down),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(back, host);
  mcFree(device);
}

TEST_P(NodeRun, MemcpyNodeParametersAreCopiedWhenAdded) {
  MX_SPEC("api.graph.node.parameters-copied-at-add",
          "api.graph.memcpy-node.copies");
  int* src = cells_;
  int* dst = cells_ + 64;
  for (int i = 0; i < 16; ++i) src[i] = 40 + i;
  mcMemcpy3DParms params{};
  params.srcPtr = make_mcPitchedPtr(src, 64, 64, 1);
  params.dstPtr = make_mcPitchedPtr(dst, 64, 64, 1);
  params.extent = make_mcExtent(64, 1, 1);
  params.kind = mcMemcpyDefault;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  params.dstPtr.ptr = cells_ + 200;
  params.extent.width = 4;
  ASSERT_EQ(Run(), mcSuccess);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(dst[i], 40 + i) << i;
  EXPECT_EQ(cells_[200], 0);
}

// The directions of a one-dimensional copy, and where each side lives.
enum class Direction {
  kHostToDevice,
  kDeviceToHost,
  kDeviceToDevice,
  kHostToHost,
  kDefaultHostToDevice,
  kDefaultDeviceToDevice,
};

const char* DirectionName(Direction direction) {
  switch (direction) {
    case Direction::kHostToDevice:
      return "HostToDevice";
    case Direction::kDeviceToHost:
      return "DeviceToHost";
    case Direction::kDeviceToDevice:
      return "DeviceToDevice";
    case Direction::kHostToHost:
      return "HostToHost";
    case Direction::kDefaultHostToDevice:
      return "DefaultHostToDevice";
    case Direction::kDefaultDeviceToDevice:
      return "DefaultDeviceToDevice";
  }
  return "Unknown";
}

class Memcpy1D : public testing::TestWithParam<std::tuple<int, Direction>> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    device_.reset();
  }
  std::optional<ScopedDevice> device_;
  mcStream_t stream_ = nullptr;
};

TEST_P(Memcpy1D, CopiesTheBytesAsMemcpyAsyncWould) {
  MX_SPEC("api.graph.memcpy-node.one-dimensional-form");
  constexpr size_t kBytes = 3000;
  const Direction direction = std::get<1>(GetParam());
  const bool src_on_device = direction == Direction::kDeviceToHost ||
                             direction == Direction::kDeviceToDevice ||
                             direction == Direction::kDefaultDeviceToDevice;
  const bool dst_on_device = direction != Direction::kDeviceToHost &&
                             direction != Direction::kHostToHost;
  mcMemcpyKind kind = mcMemcpyDefault;
  switch (direction) {
    case Direction::kHostToDevice:
      kind = mcMemcpyHostToDevice;
      break;
    case Direction::kDeviceToHost:
      kind = mcMemcpyDeviceToHost;
      break;
    case Direction::kDeviceToDevice:
      kind = mcMemcpyDeviceToDevice;
      break;
    case Direction::kHostToHost:
      kind = mcMemcpyHostToHost;
      break;
    default:
      kind = mcMemcpyDefault;
  }
  std::vector<unsigned char> pattern(kBytes), host_src(kBytes),
      host_dst(kBytes + 1, 0xee);
  for (size_t i = 0; i < kBytes; ++i) pattern[i] = (i * 13) ^ 0x5a;
  host_src = pattern;
  unsigned char* device_src = nullptr;
  unsigned char* device_dst = nullptr;
  ASSERT_EQ(mcMalloc(&device_src, kBytes), mcSuccess);
  ASSERT_EQ(mcMalloc(&device_dst, kBytes + 1), mcSuccess);
  ASSERT_EQ(mcMemcpy(device_src, pattern.data(), kBytes, mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemset(device_dst, 0xee, kBytes + 1), mcSuccess);
  void* src = src_on_device ? static_cast<void*>(device_src)
                            : static_cast<void*>(host_src.data());
  void* dst = dst_on_device ? static_cast<void*>(device_dst)
                            : static_cast<void*>(host_dst.data());
  ScopedGraph graph;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode1D(&node, graph.get(), nullptr, 0, dst, src,
                                   kBytes, kind),
            mcSuccess);
  EXPECT_EQ(NodeType(node), mcGraphNodeTypeMemcpy);
  ASSERT_EQ(RunOnce(graph.get(), stream_), mcSuccess);
  std::vector<unsigned char> result(kBytes + 1);
  if (dst_on_device) {
    ASSERT_EQ(
        mcMemcpy(result.data(), device_dst, kBytes + 1, mcMemcpyDeviceToHost),
        mcSuccess);
  } else {
    result = host_dst;
  }
  EXPECT_TRUE(std::equal(pattern.begin(), pattern.end(), result.begin()));
  // Control: the byte after the copy is untouched.
  EXPECT_EQ(result[kBytes], 0xee);
  mcFree(device_src);
  mcFree(device_dst);
}

std::string DirectionOnDeviceName(
    const testing::TestParamInfo<std::tuple<int, Direction>>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) +
         DirectionName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    EveryDirectionOnEveryDevice, Memcpy1D,
    testing::Combine(testing::ValuesIn(GraphDevices()),
                     testing::Values(Direction::kHostToDevice,
                                     Direction::kDeviceToHost,
                                     Direction::kDeviceToDevice,
                                     Direction::kHostToHost,
                                     Direction::kDefaultHostToDevice,
                                     Direction::kDefaultDeviceToDevice)),
    DirectionOnDeviceName);

TEST_P(NodeRun, MemcpySymbolNodesCopyToAndFromTheVariable) {
  MX_SPEC("api.graph.memcpy-node.one-dimensional-form",
          "api.graph.memcpy-node.copies");
  std::vector<unsigned char> in(64), out(NodeMaker::kBytes, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0x80 + i;
  std::vector<unsigned char> zero(NodeMaker::kBytes, 0);
  ASSERT_EQ(mcMemcpyToSymbol(graph_symbol, zero.data(), zero.size()),
            mcSuccess);
  mcGraphNode_t to = nullptr, from = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNodeToSymbol(&to, graph(), nullptr, 0,
                                         &graph_symbol, in.data(), in.size(),
                                         32, mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcGraphAddMemcpyNodeFromSymbol(&from, graph(), &to, 1, out.data(),
                                           &graph_symbol, NodeMaker::kBytes, 0,
                                           mcMemcpyDeviceToHost),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  for (size_t i = 0; i < out.size(); ++i) {
    const unsigned char expected = i >= 32 && i < 96 ? in[i - 32] : 0;
    ASSERT_EQ(out[i], expected) << i;
  }
}

// Memset nodes, for each element size.

class MemsetRun : public testing::TestWithParam<std::tuple<int, unsigned>> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_EQ(mcMalloc(&buffer_, kBytes), mcSuccess);
    ASSERT_EQ(mcMemset(buffer_, 0xab, kBytes), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (buffer_ != nullptr) mcFree(buffer_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    device_.reset();
  }
  unsigned element_size() const { return std::get<1>(GetParam()); }
  std::vector<unsigned char> Read() {
    std::vector<unsigned char> bytes(kBytes);
    EXPECT_EQ(mcMemcpy(bytes.data(), buffer_, kBytes, mcMemcpyDeviceToHost),
              mcSuccess);
    return bytes;
  }
  // The byte at `offset` within an element set to kValue.
  unsigned char ElementByte(size_t offset) const {
    return static_cast<unsigned char>(kValue >> (8 * offset));
  }

  static constexpr size_t kBytes = 1024;
  static constexpr unsigned kValue = 0x12345678;
  std::optional<ScopedDevice> device_;
  mcStream_t stream_ = nullptr;
  unsigned char* buffer_ = nullptr;
};

TEST_P(MemsetRun, SetsTheValueTruncatedToTheElementSize) {
  MX_SPEC("api.graph.memset-node.sets");
  ScopedGraph graph;
  mcMemsetParams params{};
  params.dst = buffer_ + 16;
  params.value = kValue;
  params.elementSize = element_size();
  params.width = 40;
  params.height = 1;
  params.pitch = 40 * element_size();
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&node, graph.get(), nullptr, 0, &params),
            mcSuccess);
  ASSERT_EQ(RunOnce(graph.get(), stream_), mcSuccess);
  const std::vector<unsigned char> bytes = Read();
  const size_t end = 16 + 40 * element_size();
  for (size_t i = 0; i < kBytes; ++i) {
    const unsigned char expected =
        i >= 16 && i < end ? ElementByte((i - 16) % element_size()) : 0xab;
    ASSERT_EQ(bytes[i], expected) << i;
  }
}

TEST_P(MemsetRun, SetsRowsAPitchApartAndLeavesTheGaps) {
  MX_SPEC("api.graph.memset-node.sets");
  ScopedGraph graph;
  constexpr size_t kPitch = 100, kWidth = 6, kHeight = 5;
  mcMemsetParams params{};
  params.dst = buffer_;
  params.value = kValue;
  params.elementSize = element_size();
  params.width = kWidth;
  params.height = kHeight;
  params.pitch = kPitch;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&node, graph.get(), nullptr, 0, &params),
            mcSuccess);
  ASSERT_EQ(RunOnce(graph.get(), stream_), mcSuccess);
  const std::vector<unsigned char> bytes = Read();
  const size_t row_bytes = kWidth * element_size();
  for (size_t i = 0; i < kBytes; ++i) {
    const size_t row = i / kPitch, x = i % kPitch;
    const bool inside = row < kHeight && x < row_bytes;
    const unsigned char expected =
        inside ? ElementByte(x % element_size()) : 0xab;
    ASSERT_EQ(bytes[i], expected) << i;
  }
}

TEST_P(MemsetRun, ParametersAreCopiedWhenAdded) {
  MX_SPEC("api.graph.node.parameters-copied-at-add",
          "api.graph.memset-node.sets");
  ScopedGraph graph;
  mcMemsetParams params{};
  params.dst = buffer_;
  params.value = kValue;
  params.elementSize = element_size();
  params.width = 4;
  params.height = 1;
  params.pitch = 4 * element_size();
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&node, graph.get(), nullptr, 0, &params),
            mcSuccess);
  params.dst = buffer_ + 512;
  params.value = 0;
  params.width = 64;
  ASSERT_EQ(RunOnce(graph.get(), stream_), mcSuccess);
  const std::vector<unsigned char> bytes = Read();
  EXPECT_EQ(bytes[0], ElementByte(0));
  EXPECT_EQ(bytes[4 * element_size()], 0xab);
  EXPECT_EQ(bytes[512], 0xab);
}

std::string SizeOnDeviceName(
    const testing::TestParamInfo<std::tuple<int, unsigned>>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) + "Element" +
         std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(EveryElementSizeOnEveryDevice, MemsetRun,
                         testing::Combine(testing::ValuesIn(GraphDevices()),
                                          testing::Values(1u, 2u, 4u)),
                         SizeOnDeviceName);

// Host nodes.

// What a host node saw: the cell it read, then it moves the cell on.
struct HostVisit {
  int* cell;
  int seen = -100;
  std::atomic<int> calls{0};
};

void VisitCell(void* data) {
  HostVisit* visit = static_cast<HostVisit*>(data);
  visit->seen = *visit->cell;
  *visit->cell = 2;
  visit->calls.fetch_add(1);
}

TEST_P(NodeRun, HostNodeRunsAfterItsDependenciesAndBeforeItsDependents) {
  MX_SPEC("api.graph.host-node.calls-function",
          "api.graph.node.dependencies-become-edges");
  HostVisit visit;
  visit.cell = cells_;
  mcGraphNode_t before = StepNode(cells_, 0, 1, {});
  mcHostNodeParams params{VisitCell, &visit};
  mcGraphNode_t host = nullptr;
  ASSERT_EQ(mcGraphAddHostNode(&host, graph(), &before, 1, &params), mcSuccess);
  StepNode(cells_, 2, 3, {host});
  EXPECT_EQ(visit.calls.load(), 0);
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(visit.calls.load(), 1);
  EXPECT_EQ(visit.seen, 1);
  EXPECT_EQ(cells_[0], 3);
}

TEST_P(NodeRun, HostNodeParametersAreCopiedWhenAdded) {
  MX_SPEC("api.graph.node.parameters-copied-at-add",
          "api.graph.host-node.calls-function");
  std::atomic<int> first{0}, second{0};
  mcHostNodeParams params{&NodeMaker::CountCall, &first};
  mcGraphNode_t host = nullptr;
  ASSERT_EQ(mcGraphAddHostNode(&host, graph(), nullptr, 0, &params), mcSuccess);
  params.userData = &second;
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(first.load(), 1);
  EXPECT_EQ(second.load(), 0);
}

// The results of the runtime calls a host node makes.
struct InsideCalls {
  void* device_memory;
  std::vector<mcError_t> results;
};

void CallTheRuntime(void* data) {
  InsideCalls* inside = static_cast<InsideCalls*>(data);
  int device = -1;
  inside->results.push_back(mcGetDevice(&device));
  inside->results.push_back(mcMemset(inside->device_memory, 1, 16));
  inside->results.push_back(mcDeviceSynchronize());
  void* p = nullptr;
  inside->results.push_back(mcMalloc(&p, 64));
}

TEST_P(NodeRun, ReferenceRefusesRuntimeCallsFromAHostNode) {
  MX_SPEC("api.graph.host-node.runtime-calls-forbidden",
          "api.callback.reference.api-call-not-permitted");
  // The spec leaves the call undefined; refusing it is the reference's.
  MX_REQUIRE_CAPABILITY("reference_choices");
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  void* memory = nullptr;
  ASSERT_EQ(mcMalloc(&memory, 64), mcSuccess);
  ASSERT_EQ(mcMemset(memory, 0, 64), mcSuccess);
  InsideCalls inside{memory, {}};
  mcHostNodeParams params{CallTheRuntime, &inside};
  mcGraphNode_t host = nullptr;
  ASSERT_EQ(mcGraphAddHostNode(&host, graph(), nullptr, 0, &params), mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  ASSERT_EQ(inside.results.size(), 4u);
  for (size_t i = 0; i < inside.results.size(); ++i) {
    EXPECT_EQ(inside.results[i], mcErrorNotPermitted) << "call " << i;
  }
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  unsigned char byte = 0xff;
  ASSERT_EQ(mcMemcpy(&byte, memory, 1, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(byte, 0);  // the refused memset did nothing
  // Control: the same calls outside the graph succeed.
  InsideCalls outside{memory, {}};
  CallTheRuntime(&outside);
  for (size_t i = 0; i < outside.results.size(); ++i) {
    EXPECT_EQ(outside.results[i], mcSuccess) << "call " << i;
  }
  mcFree(memory);
}

// Empty nodes.

TEST_P(NodeRun, EmptyNodeJoinsItsDependencies) {
  MX_SPEC("api.graph.empty-node.no-operation",
          "api.graph.node.dependencies-become-edges");
  std::vector<mcGraphNode_t> writers;
  for (int i = 0; i < 6; ++i) {
    int* cell = cells_ + i;
    int value = i + 1;
    void* args[] = {&cell, &value};
    writers.push_back(Kernel(reinterpret_cast<const void*>(StoreValue), args,
                             dim3(1), dim3(1), {}));
  }
  mcGraphNode_t join = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&join, graph(), writers.data(), writers.size()),
            mcSuccess);
  int* out = cells_;
  int n = 6;
  void* args[] = {&out, &n};
  Kernel(reinterpret_cast<const void*>(SumCells), args, dim3(1), dim3(1),
         {join});
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[6], 21);
}

TEST_P(NodeRun, EmptyNodeForksToItsDependents) {
  MX_SPEC("api.graph.empty-node.no-operation");
  mcGraphNode_t first = StepNode(cells_, 0, 1, {});
  mcGraphNode_t fork = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&fork, graph(), &first, 1), mcSuccess);
  // Each dependent copies what the first node left.
  for (int i = 1; i <= 4; ++i) {
    int* to = cells_ + i;
    const int* from = cells_;
    void* args[] = {&to, &from};
    Kernel(reinterpret_cast<const void*>(CopyCell), args, dim3(1), dim3(1),
           {fork});
  }
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 1);
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(cells_[i], 1) << i;
}

TEST_P(NodeRun, GraphOfOnlyEmptyNodesRunsAndDoesNothing) {
  MX_SPEC("api.graph.empty-node.no-operation");
  mcGraphNode_t a = nullptr, b = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&a, graph(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&b, graph(), &a, 1), mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(cells_[i], 0);
  // Control: a kernel after the empty nodes does run.
  StepNode(cells_, 0, 5, {b});
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 5);
}

// Dependencies.

TEST_P(NodeRun, ChainRunsInDependencyOrder) {
  MX_SPEC("api.graph.node.dependencies-become-edges");
  std::vector<mcGraphNode_t> previous;
  for (int i = 0; i < 12; ++i) {
    previous = {StepNode(cells_, i, i + 1, previous)};
  }
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 12);
}

TEST_P(NodeRun, ChainBuiltWithAddDependenciesRunsInThatOrder) {
  MX_SPEC("api.graph.add-dependencies.adds-edges",
          "api.graph.node.dependencies-become-edges");
  // Added in reverse order, ordered by the edges alone.
  std::vector<mcGraphNode_t> steps(8);
  for (int i = 7; i >= 0; --i) steps[i] = StepNode(cells_, i, i + 1, {});
  for (int i = 0; i < 7; ++i) {
    ASSERT_EQ(mcGraphAddDependencies(graph(), &steps[i], &steps[i + 1], 1),
              mcSuccess);
  }
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 8);
}

TEST_P(NodeRun, NodeWithSeveralDependenciesStartsAfterAllOfThem) {
  MX_SPEC("api.graph.node.dependencies-become-edges");
  std::vector<mcGraphNode_t> writers;
  for (int i = 0; i < 5; ++i)
    writers.push_back(StepNode(cells_ + i, 0, 10, {}));
  int* out = cells_;
  int n = 5;
  void* args[] = {&out, &n};
  Kernel(reinterpret_cast<const void*>(SumCells), args, dim3(1), dim3(1),
         writers);
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[5], 50);
}

// Child graph nodes.

TEST_P(NodeRun, ChildGraphNodeRunsTheGraphAsItWasWhenAdded) {
  MX_SPEC("api.graph.child-graph-node.embeds-copy");
  ScopedGraph child;
  int* cell = cells_;
  int value = 5;
  void* args[] = {&cell, &value};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(StoreValue);
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  params.kernelParams = args;
  mcGraphNode_t inside = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&inside, child.get(), nullptr, 0, &params),
            mcSuccess);
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, child.get()),
            mcSuccess);
  // Change the child after the add: the node keeps its copy.
  value = 6;
  ASSERT_EQ(mcGraphKernelNodeSetParams(inside, &params), mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 5);
  // Control: a child graph node added now runs the changed child.
  ScopedGraph later;
  mcGraphNode_t later_node = nullptr;
  ASSERT_EQ(mcGraphAddChildGraphNode(&later_node, later.get(), nullptr, 0,
                                     child.get()),
            mcSuccess);
  ASSERT_EQ(RunOnce(later.get(), stream_), mcSuccess);
  EXPECT_EQ(cells_[0], 6);
}

TEST_P(NodeRun, ChangesToTheEmbeddedGraphReachTheNode) {
  MX_SPEC("api.graph.child-graph-node.embeds-copy",
          "api.graph.node-params.get-returns-set-values");
  ScopedGraph child;
  mcGraphNode_t first = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&first, child.get(), nullptr, 0), mcSuccess);
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, child.get()),
            mcSuccess);
  // The graph the node holds (not the one it was copied from) is the one
  // it runs: a node added to it runs with the node.
  mcGraph_t embedded = nullptr;
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(node, &embedded), mcSuccess);
  std::vector<mcGraphNode_t> inside = Nodes(embedded);
  ASSERT_EQ(inside.size(), 1u);
  int* cell = cells_;
  int value = 31;
  void* args[] = {&cell, &value};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(StoreValue);
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  params.kernelParams = args;
  mcGraphNode_t added = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&added, embedded, &inside[0], 1, &params),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 31);
  // Control: the graph it was copied from did not change.
  EXPECT_EQ(NodeCount(child.get()), 1u);
}

TEST_P(NodeRun, ChildGraphRunsBetweenItsDependenciesAndDependents) {
  MX_SPEC("api.graph.child-graph-node.embeds-copy",
          "api.graph.node.dependencies-become-edges");
  ScopedGraph child;
  {
    // The child: two steps in a chain.
    mcGraphNode_t a = nullptr, b = nullptr;
    int* cell = cells_;
    int e1 = 1, v1 = 2, e2 = 2, v2 = 3;
    void* args1[] = {&cell, &e1, &v1};
    void* args2[] = {&cell, &e2, &v2};
    mcKernelNodeParams p{};
    p.func = reinterpret_cast<void*>(Step);
    p.gridDim = dim3(1);
    p.blockDim = dim3(1);
    p.kernelParams = args1;
    ASSERT_EQ(mcGraphAddKernelNode(&a, child.get(), nullptr, 0, &p), mcSuccess);
    p.kernelParams = args2;
    ASSERT_EQ(mcGraphAddKernelNode(&b, child.get(), &a, 1, &p), mcSuccess);
  }
  mcGraphNode_t first = StepNode(cells_, 0, 1, {});
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddChildGraphNode(&node, graph(), &first, 1, child.get()),
            mcSuccess);
  StepNode(cells_, 3, 4, {node});
  ASSERT_EQ(Run(), mcSuccess);
  EXPECT_EQ(cells_[0], 4);
}

// Event nodes.

TEST_P(NodeRun, EventRecordNodeRecordsWhenItsDependenciesAreDone) {
  MX_SPEC("api.graph.event-record-node.records");
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  mcStream_t other = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&other, mcStreamNonBlocking), mcSuccess);
  mcGraphNode_t step = StepNode(cells_, 0, 1, {});
  mcGraphNode_t record = nullptr;
  ASSERT_EQ(mcGraphAddEventRecordNode(&record, graph(), &step, 1, event),
            mcSuccess);
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  // Work in another stream that waits for the event sees the step done.
  ASSERT_EQ(mcStreamWaitEvent(other, event, 0), mcSuccess);
  int* cell = cells_;
  int expected = 1, value = 2;
  void* args[] = {&cell, &expected, &value};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(Step), dim3(1),
                           dim3(1), args, 0, other),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(other), mcSuccess);
  EXPECT_EQ(cells_[0], 2);
  // And the host's wait on it too.
  ASSERT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(mcEventQuery(event), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  mcStreamDestroy(other);
  mcEventDestroy(event);
}

TEST_P(NodeRun, EventWaitNodeWaitsForTheLastRecordBeforeTheLaunch) {
  MX_SPEC("api.graph.event-wait-node.waits");
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  mcStream_t producer = nullptr, consumer = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&producer, mcStreamNonBlocking), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&consumer, mcStreamNonBlocking), mcSuccess);
  mcGraphNode_t wait = nullptr;
  ASSERT_EQ(mcGraphAddEventWaitNode(&wait, graph(), nullptr, 0, event),
            mcSuccess);
  StepNode(cells_, 1, 2, {wait});
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  // The producer's step, then the record the graph waits for.
  int* cell = cells_;
  int expected = 0, value = 1;
  void* args[] = {&cell, &expected, &value};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(Step), dim3(1),
                           dim3(1), args, 0, producer),
            mcSuccess);
  ASSERT_EQ(mcEventRecord(event, producer), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), consumer), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(consumer), mcSuccess);
  EXPECT_EQ(cells_[0], 2);
  ASSERT_EQ(mcStreamSynchronize(producer), mcSuccess);
  mcStreamDestroy(producer);
  mcStreamDestroy(consumer);
  mcEventDestroy(event);
}

TEST_P(NodeRun, EventRecordAndWaitNodesOrderTwoGraphs) {
  MX_SPEC("api.graph.event-record-node.records",
          "api.graph.event-wait-node.waits");
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  mcStream_t second_stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&second_stream, mcStreamNonBlocking),
            mcSuccess);
  // First graph: step 0 -> 1, then record.
  mcGraphNode_t step = StepNode(cells_, 0, 1, {});
  mcGraphNode_t record = nullptr;
  ASSERT_EQ(mcGraphAddEventRecordNode(&record, graph(), &step, 1, event),
            mcSuccess);
  // Second graph: wait, then step 1 -> 2.
  ScopedGraph second;
  mcGraphNode_t wait = nullptr;
  ASSERT_EQ(mcGraphAddEventWaitNode(&wait, second.get(), nullptr, 0, event),
            mcSuccess);
  {
    mcKernelNodeParams p{};
    int* cell = cells_;
    int expected = 1, value = 2;
    void* args[] = {&cell, &expected, &value};
    p.func = reinterpret_cast<void*>(Step);
    p.gridDim = dim3(1);
    p.blockDim = dim3(1);
    p.kernelParams = args;
    mcGraphNode_t after = nullptr;
    ASSERT_EQ(mcGraphAddKernelNode(&after, second.get(), &wait, 1, &p),
              mcSuccess);
  }
  ScopedExec first_exec(graph());
  ScopedExec second_exec(second.get());
  ASSERT_EQ(first_exec.status(), mcSuccess);
  ASSERT_EQ(second_exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(first_exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(second_exec.get(), second_stream), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(second_stream), mcSuccess);
  EXPECT_EQ(cells_[0], 2);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  mcStreamDestroy(second_stream);
  mcEventDestroy(event);
}

// Memory allocation and free nodes.

TEST_P(NodeRun, AllocationNodeMemoryIsUsableUntilTheFreeNode) {
  MX_SPEC("api.graph.mem-alloc-node.allocates",
          "api.graph.mem-free-node.frees");
  mcMemAllocNodeParams params =
      DeviceAllocationParams(GetParam(), 128 * sizeof(int));
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  // The address is known when the node is added.
  ASSERT_NE(params.dptr, nullptr);
  int* memory = static_cast<int*>(params.dptr);
  int base = 300;
  void* args[] = {&memory, &base};
  mcGraphNode_t fill = Kernel(reinterpret_cast<const void*>(FillIndex), args,
                              dim3(2), dim3(64), {alloc});
  std::vector<int> host(128, 0);
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(
      mcGraphAddMemcpyNode1D(&copy, graph(), &fill, 1, host.data(), memory,
                             128 * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  mcGraphNode_t free_node = nullptr;
  ASSERT_EQ(mcGraphAddMemFreeNode(&free_node, graph(), &copy, 1, memory),
            mcSuccess);
  mcMemAllocNodeParams held{};
  ASSERT_EQ(mcGraphMemAllocNodeGetParams(alloc, &held), mcSuccess);
  EXPECT_EQ(held.dptr, params.dptr);
  EXPECT_EQ(held.bytesize, params.bytesize);
  void* freed = nullptr;
  ASSERT_EQ(mcGraphMemFreeNodeGetParams(free_node, &freed), mcSuccess);
  EXPECT_EQ(freed, params.dptr);
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  // Twice: the graph frees what it allocates, so it can run again, at the
  // same address.
  for (int round = 0; round < 2; ++round) {
    std::fill(host.begin(), host.end(), 0);
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
    for (int i = 0; i < 128; ++i) ASSERT_EQ(host[i], 300 + i) << i;
  }
  ASSERT_EQ(mcGraphMemAllocNodeGetParams(alloc, &held), mcSuccess);
  EXPECT_EQ(held.dptr, params.dptr);
}

TEST_P(NodeRun, AllocationNodeMemoryIsOnTheDeviceItNames) {
  MX_SPEC("api.graph.mem-alloc-node.allocates");
  mcMemAllocNodeParams params = DeviceAllocationParams(GetParam(), 4096);
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  mcPointerAttribute_t attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, params.dptr), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  EXPECT_EQ(attributes.device, GetParam());
  EXPECT_EQ(mcFree(params.dptr), mcSuccess);
}

TEST_P(NodeRun, UnfreedAllocationPersistsUntilFreed) {
  MX_SPEC("api.graph.mem-alloc-node.unfreed-memory-persists",
          "api.graph.mem-alloc-node.relaunch-needs-free");
  mcMemAllocNodeParams params =
      DeviceAllocationParams(GetParam(), 64 * sizeof(int));
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  int* memory = static_cast<int*>(params.dptr);
  int base = 77;
  void* args[] = {&memory, &base};
  Kernel(reinterpret_cast<const void*>(FillIndex), args, dim3(1), dim3(64),
         {alloc});
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  // The memory outlives the graph's run.
  std::vector<int> host(64, 0);
  ASSERT_EQ(
      mcMemcpy(host.data(), memory, 64 * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(host[i], 77 + i) << i;
  // Launching again before it is freed is an error, and enqueues nothing:
  // the kernel does not run again.
  ASSERT_EQ(mcMemset(memory, 0, 64 * sizeof(int)), mcSuccess);
  EXPECT_EQ(mcGraphLaunch(exec.get(), stream_), mcErrorInvalidValue);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  ASSERT_EQ(
      mcMemcpy(host.data(), memory, 64 * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  EXPECT_EQ(host[5], 0);
  mcGetLastError();
  // Control: once freed with mcFree, the graph runs again.
  ASSERT_EQ(mcFree(memory), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(memory, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(mcFree(memory), mcSuccess);
}

TEST_P(NodeRun, FreeOfAGraphAllocationThatIsNotAllocatedIsInvalidValue) {
  MX_SPEC("api.graph.mem-alloc-node.relaunch-needs-free");
  mcMemAllocNodeParams params = DeviceAllocationParams(GetParam(), 512);
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  // Not allocated before the graph runs.
  EXPECT_EQ(mcFree(params.dptr), mcErrorInvalidValue);
  mcGetLastError();
  ASSERT_EQ(Run(), mcSuccess);
  // Control: allocated once the graph ran; freed once, not twice.
  EXPECT_EQ(mcFree(params.dptr), mcSuccess);
  EXPECT_EQ(mcFree(params.dptr), mcErrorInvalidValue);
  mcGetLastError();
}

TEST_P(NodeRun, AutoFreeOnLaunchFreesTheLastLaunchsAllocation) {
  MX_SPEC("api.graph.mem-alloc-node.relaunch-needs-free");
  mcMemAllocNodeParams params =
      DeviceAllocationParams(GetParam(), 64 * sizeof(int));
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  int* memory = static_cast<int*>(params.dptr);
  int base = 0;
  void* args[] = {&memory, &base};
  mcGraphNode_t fill = Kernel(reinterpret_cast<const void*>(FillIndex), args,
                              dim3(1), dim3(64), {alloc});
  // Each launch counts itself in cells_[0].
  int* counter = cells_;
  int one = 1;
  void* count_args[] = {&counter, &one};
  Kernel(reinterpret_cast<const void*>(AddToCell), count_args, dim3(1), dim3(1),
         {fill});
  mcGraphExec_t exec = nullptr;
  ASSERT_EQ(mcGraphInstantiateWithFlags(&exec, graph(),
                                        mcGraphInstantiateFlagAutoFreeOnLaunch),
            mcSuccess);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(mcGraphLaunch(exec, stream_), mcSuccess) << i;
    ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  }
  EXPECT_EQ(cells_[0], 3);
  EXPECT_EQ(mcFree(memory), mcSuccess);
  EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
  // Control: instantiated without the flag, the second launch is refused.
  ASSERT_EQ(mcGraphInstantiate(&exec, graph(), nullptr, nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(mcGraphLaunch(exec, stream_), mcErrorInvalidValue);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(cells_[0], 4);
  mcGetLastError();
  EXPECT_EQ(mcFree(memory), mcSuccess);
  EXPECT_EQ(mcGraphExecDestroy(exec), mcSuccess);
}

TEST_P(NodeRun, UnfreedAllocationIsFreedByAnotherGraphsFreeNode) {
  MX_SPEC("api.graph.mem-alloc-node.unfreed-memory-persists",
          "api.graph.mem-free-node.frees");
  mcMemAllocNodeParams params = DeviceAllocationParams(GetParam(), 256);
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  ScopedGraph freeing;
  mcGraphNode_t free_node = nullptr;
  ASSERT_EQ(
      mcGraphAddMemFreeNode(&free_node, freeing.get(), nullptr, 0, params.dptr),
      mcSuccess);
  ASSERT_EQ(RunOnce(freeing.get(), stream_), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(mcFree(params.dptr), mcSuccess);
}

TEST_P(NodeRun, FreeNodeFreesAStreamOrderedAllocation) {
  MX_SPEC("api.graph.mem-free-node.frees");
  MX_REQUIRE_CAPABILITY("memory_pools");
  int* memory = nullptr;
  ASSERT_EQ(mcMallocAsync(&memory, 64 * sizeof(int), stream_), mcSuccess);
  int base = 5;
  void* fill_args[] = {&memory, &base};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(FillIndex), dim3(1),
                           dim3(64), fill_args, 0, stream_),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  // The graph reads the memory, then frees it.
  std::vector<int> host(64, 0);
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(
      mcGraphAddMemcpyNode1D(&copy, graph(), nullptr, 0, host.data(), memory,
                             64 * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  mcGraphNode_t free_node = nullptr;
  ASSERT_EQ(mcGraphAddMemFreeNode(&free_node, graph(), &copy, 1, memory),
            mcSuccess);
  ASSERT_EQ(Run(), mcSuccess);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(host[i], 5 + i) << i;
  // Freed: freeing it again is refused.
  EXPECT_NE(mcFreeAsync(memory, stream_), mcSuccess);
  mcStreamSynchronize(stream_);
  mcGetLastError();
}

// Graph destruction.

TEST_P(NodeRun, ExecutableGraphOutlivesTheGraph) {
  MX_SPEC("api.graph.destroy.releases-graph-and-nodes");
  StepNode(cells_, 0, 1, {});
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphDestroy(graph_.release()), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(cells_[0], 1);
}

// ---------------------------------------------------------------------------
// Every kind of node, run between two steps of a chain: the node starts
// after the step before it, the step after it starts after the node, and
// the node does its work.

class EveryKindRuns : public testing::TestWithParam<std::tuple<int, NodeKind>> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
    ASSERT_EQ(graph_.status(), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (cell_ != nullptr) mcFree(cell_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    maker_.reset();
    device_.reset();
  }
  NodeKind kind() const { return std::get<1>(GetParam()); }
  mcGraphNode_t StepNode(int expected, int value,
                         const std::vector<mcGraphNode_t>& deps) {
    int* cell = cell_;
    void* args[] = {&cell, &expected, &value};
    mcKernelNodeParams params{};
    params.func = reinterpret_cast<void*>(Step);
    params.gridDim = dim3(1);
    params.blockDim = dim3(1);
    params.kernelParams = args;
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddKernelNode(&node, graph_.get(),
                                   deps.empty() ? nullptr : deps.data(),
                                   deps.size(), &params),
              mcSuccess);
    return node;
  }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  mcStream_t stream_ = nullptr;
  int* cell_ = nullptr;
  ScopedGraph graph_;
};

std::vector<unsigned char> Pattern(unsigned char seed) {
  std::vector<unsigned char> bytes(NodeMaker::kBytes);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = seed + i * 5;
  return bytes;
}

std::vector<unsigned char> DeviceBytes(const void* p) {
  std::vector<unsigned char> bytes(NodeMaker::kBytes);
  EXPECT_EQ(mcMemcpy(bytes.data(), p, bytes.size(), mcMemcpyDeviceToHost),
            mcSuccess);
  return bytes;
}

TEST_P(EveryKindRuns, BetweenItsDependenciesAndDependents) {
  MX_SPEC("api.graph.node.dependencies-become-edges");
  NodeMaker& maker = *maker_;
  // What the node works on, set apart from what it leaves.
  ASSERT_EQ(mcMemcpy(maker.device_src(), Pattern(1).data(), NodeMaker::kBytes,
                     mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemset(maker.device_dst(), 0, NodeMaker::kBytes), mcSuccess);
  ASSERT_EQ(
      mcMemcpyToSymbol(graph_symbol, Pattern(2).data(), NodeMaker::kBytes),
      mcSuccess);
  const std::vector<unsigned char> host_pattern = Pattern(3);
  std::copy(host_pattern.begin(), host_pattern.end(), maker.host());
  int zero = 0;
  ASSERT_EQ(mcMemcpy(maker.cell(), &zero, sizeof(int), mcMemcpyHostToDevice),
            mcSuccess);

  mcGraphNode_t before = StepNode(0, 1, {});
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(maker.Add(kind(), &node, graph_.get(), &before, 1), mcSuccess);
  StepNode(1, 2, {node});
  ASSERT_EQ(RunOnce(graph_.get(), stream_), mcSuccess);
  // The chain went through the node in order.
  EXPECT_EQ(*cell_, 2);

  switch (kind()) {
    case NodeKind::kKernel: {
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.kernel-node.runs-kernel");
      int stored = 0;
      ASSERT_EQ(
          mcMemcpy(&stored, maker.cell(), sizeof(int), mcMemcpyDeviceToHost),
          mcSuccess);
      EXPECT_EQ(stored, NodeMaker::kStoredValue);
      break;
    }
    case NodeKind::kMemcpy:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.memcpy-node.copies");
      EXPECT_EQ(DeviceBytes(maker.device_dst()), Pattern(1));
      break;
    case NodeKind::kMemcpy1D:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.memcpy-node.one-dimensional-form");
      EXPECT_EQ(DeviceBytes(maker.device_dst()), Pattern(3));
      break;
    case NodeKind::kMemcpyToSymbol: {
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.memcpy-node.copies");
      std::vector<unsigned char> symbol(NodeMaker::kBytes);
      ASSERT_EQ(mcMemcpyFromSymbol(symbol.data(), graph_symbol, symbol.size()),
                mcSuccess);
      EXPECT_EQ(symbol, Pattern(1));
      break;
    }
    case NodeKind::kMemcpyFromSymbol:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.memcpy-node.copies");
      EXPECT_TRUE(std::equal(maker.host(), maker.host() + NodeMaker::kBytes,
                             Pattern(2).begin()));
      break;
    case NodeKind::kMemset:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.memset-node.sets");
      EXPECT_EQ(DeviceBytes(maker.device_dst()),
                std::vector<unsigned char>(NodeMaker::kBytes,
                                           NodeMaker::kMemsetByte));
      break;
    case NodeKind::kHost:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.host-node.calls-function");
      EXPECT_EQ(maker.host_calls(), 1);
      break;
    case NodeKind::kChildGraph:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.child-graph-node.embeds-copy");
      EXPECT_EQ(NodeType(node), mcGraphNodeTypeGraph);
      break;
    case NodeKind::kEmpty:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.empty-node.no-operation");
      EXPECT_EQ(DeviceBytes(maker.device_dst()),
                std::vector<unsigned char>(NodeMaker::kBytes, 0));
      break;
    case NodeKind::kEventRecord:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.event-record-node.records");
      EXPECT_EQ(mcEventQuery(maker.record_event()), mcSuccess);
      EXPECT_EQ(mcEventSynchronize(maker.record_event()), mcSuccess);
      break;
    case NodeKind::kEventWait:
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.event-wait-node.waits");
      EXPECT_EQ(mcEventQuery(maker.wait_event()), mcSuccess);
      break;
    case NodeKind::kMemAlloc: {
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.mem-alloc-node.allocates",
              "api.graph.mem-alloc-node.unfreed-memory-persists");
      ASSERT_EQ(maker.allocations().size(), 1u);
      void* p = maker.allocations()[0];
      mcPointerAttribute_t attributes{};
      ASSERT_EQ(mcPointerGetAttributes(&attributes, p), mcSuccess);
      EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
      EXPECT_EQ(attributes.device, std::get<0>(GetParam()));
      EXPECT_EQ(mcFree(p), mcSuccess);
      break;
    }
    case NodeKind::kMemFree: {
      MX_SPEC("api.graph.node.dependencies-become-edges",
              "api.graph.mem-free-node.frees");
      ASSERT_EQ(maker.allocations().size(), 1u);
      // Freed by the graph: mcFree has nothing left to free.
      EXPECT_NE(mcFree(maker.allocations()[0]), mcSuccess);
      mcGetLastError();
      break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKindOnEveryDevice, EveryKindRuns,
                         testing::Combine(testing::ValuesIn(GraphDevices()),
                                          testing::ValuesIn(kAllNodeKinds)),
                         KindOnDeviceName);

INSTANTIATE_TEST_SUITE_P(EveryDevice, NodeRun,
                         testing::ValuesIn(GraphDevices()), DeviceName);

}  // namespace
}  // namespace mxcts::conformance::graph
