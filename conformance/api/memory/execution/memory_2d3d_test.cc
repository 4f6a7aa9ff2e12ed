// Copyright mxcts authors.
//
// Conformance: results of pitched memory (docs/spec/api-memory.md):
// mcMallocPitch and mcMalloc3D and their layout, mcMemcpy2D(Async) and
// mcMemcpy3D(Async) between kinds of memory for many shapes and pitches,
// and mcMemset2D/3D(Async). Every check compares the whole destination,
// padding included, with what the rule allows.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::ExplicitKind;
using mxcts::conformance::memory::FirstDifference;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;
using mxcts::conformance::memory::SynchronizeAllDevices;

struct KindPair {
  Kind dst;
  Kind src;
};

const std::vector<KindPair>& Pairs() {
  static const std::vector<KindPair> pairs = {
      {Kind::kDevice, Kind::kPageable}, {Kind::kPageable, Kind::kDevice},
      {Kind::kDevice, Kind::kDevice},   {Kind::kPinned, Kind::kPinned},
      {Kind::kManaged, Kind::kDevice},  {Kind::kDevice, Kind::kPinned},
      {Kind::kPeer, Kind::kDevice},
  };
  return pairs;
}

// --- mcMemcpy2D. ---

struct Shape2D {
  size_t width;
  size_t height;
  size_t dst_pad;  // dpitch - width
  size_t src_pad;  // spitch - width
};

struct Copy2DCase {
  KindPair kinds;
  Shape2D shape;
  bool async;
};

std::string Copy2DName(const testing::TestParamInfo<Copy2DCase>& info) {
  const Copy2DCase& c = info.param;
  return std::string(KindName(c.kinds.src)) + "To" + KindName(c.kinds.dst) +
         "_" + std::to_string(c.shape.width) + "x" +
         std::to_string(c.shape.height) + "_pad" +
         std::to_string(c.shape.dst_pad) + "_" +
         std::to_string(c.shape.src_pad) + (c.async ? "_Async" : "_Sync");
}

class Copy2D : public testing::TestWithParam<Copy2DCase> {};

TEST_P(Copy2D, CopiesRowsAndLeavesPadding) {
  MX_SPEC("api.memory.memcpy-2d.copies-rows",
          "api.memory.memcpy-2d.synchronization-as-memcpy");
  const Copy2DCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kinds.dst);
  MX_REQUIRE_MEMORY_KIND(c.kinds.src);
  const size_t dpitch = c.shape.width + c.shape.dst_pad;
  const size_t spitch = c.shape.width + c.shape.src_pad;
  Buffer dst(c.kinds.dst, dpitch * c.shape.height + 8, 1);
  Buffer src(c.kinds.src, spitch * c.shape.height + 8, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  const mcMemcpyKind kind = ExplicitKind(c.kinds.dst, c.kinds.src);
  if (c.async) {
    mcStream_t stream = nullptr;
    ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
    ASSERT_EQ(mcMemcpy2DAsync(dst.data(), dpitch, src.data(), spitch,
                              c.shape.width, c.shape.height, kind, stream),
              mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
    ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  } else {
    ASSERT_EQ(mcMemcpy2D(dst.data(), dpitch, src.data(), spitch, c.shape.width,
                         c.shape.height, kind),
              mcSuccess);
  }
  std::vector<unsigned char> want = dst.Initial();
  const std::vector<unsigned char> from = src.Initial();
  for (size_t r = 0; r < c.shape.height; ++r) {
    for (size_t x = 0; x < c.shape.width; ++x) {
      want[r * dpitch + x] = from[r * spitch + x];
    }
  }
  EXPECT_EQ(FirstDifference(dst.Read(), want), "");
}

std::vector<Copy2DCase> Copy2DCases() {
  const std::vector<Shape2D> shapes = {
      {1, 1, 0, 0},   {1, 5, 0, 3},     {3, 4, 1, 0},    {7, 3, 0, 0},
      {64, 2, 0, 64}, {257, 3, 255, 1}, {4096, 2, 5, 0},
  };
  std::vector<Copy2DCase> cases;
  for (const KindPair& pair : Pairs()) {
    for (const Shape2D& shape : shapes) {
      for (bool async : {false, true}) cases.push_back({pair, shape, async});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Shapes, Copy2D, testing::ValuesIn(Copy2DCases()),
                         Copy2DName);

class Copy2DZero : public testing::TestWithParam<Shape2D> {};

TEST_P(Copy2DZero, ZeroWidthOrHeightCopiesNothing) {
  MX_SPEC("api.memory.memcpy-2d.zero-extent");
  const Shape2D& s = GetParam();
  Buffer dst(Kind::kDevice, 64, 1);
  Buffer src(Kind::kPageable, 64, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  EXPECT_EQ(mcMemcpy2D(dst.data(), 8, src.data(), 8, s.width, s.height,
                       mcMemcpyHostToDevice),
            mcSuccess);
  EXPECT_EQ(mcMemcpy2DAsync(dst.data(), 8, src.data(), 8, s.width, s.height,
                            mcMemcpyHostToDevice),
            mcSuccess);
  EXPECT_EQ(dst.FirstChange(), "");
}

INSTANTIATE_TEST_SUITE_P(Extents, Copy2DZero,
                         testing::Values(Shape2D{0, 4, 0, 0},
                                         Shape2D{4, 0, 0, 0},
                                         Shape2D{0, 0, 0, 0},
                                         Shape2D{100, 0, 0, 0}));

// --- mcMallocPitch. ---

__global__ void WriteRows(unsigned char* base, size_t pitch, size_t width,
                          size_t height) {
  for (size_t r = threadIdx.x; r < height; r += blockDim.x) {
    for (size_t x = 0; x < width; ++x) {
      base[r * pitch + x] = static_cast<unsigned char>(r * 31 + x);
    }
  }
}

struct PitchShape {
  size_t width;
  size_t height;
};

class MallocPitch : public testing::TestWithParam<PitchShape> {};

TEST_P(MallocPitch, RowsArePaddedAlignedAndUsable) {
  MX_SPEC("api.memory.malloc-pitch.pitch-at-least-width",
          "api.memory.malloc-pitch.row-alignment",
          "api.memory.malloc-pitch.rows-usable",
          "api.memory.malloc-pitch.typed-overload",
          "api.memory.free.releases-allocation");
  const PitchShape& s = GetParam();
  unsigned char* base = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(mcMallocPitch(&base, &pitch, s.width, s.height), mcSuccess);
  ASSERT_NE(base, nullptr);
  EXPECT_GE(pitch, s.width);
  EXPECT_EQ(pitch % 32, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % 256, 0u);
  WriteRows<<<1, 64>>>(base, pitch, s.width, s.height);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  std::vector<unsigned char> rows(s.width * s.height);
  ASSERT_EQ(mcMemcpy2D(rows.data(), s.width, base, pitch, s.width, s.height,
                       mcMemcpyDeviceToHost),
            mcSuccess);
  for (size_t r = 0; r < s.height; ++r) {
    for (size_t x = 0; x < s.width; ++x) {
      ASSERT_EQ(rows[r * s.width + x], static_cast<unsigned char>(r * 31 + x))
          << r << "," << x;
    }
  }
  EXPECT_EQ(mcFree(base), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Shapes, MallocPitch,
                         testing::Values(PitchShape{1, 1}, PitchShape{1, 9},
                                         PitchShape{31, 2}, PitchShape{32, 3},
                                         PitchShape{33, 3}, PitchShape{255, 4},
                                         PitchShape{256, 2}, PitchShape{257, 2},
                                         PitchShape{4097, 3}),
                         [](const testing::TestParamInfo<PitchShape>& info) {
                           return std::to_string(info.param.width) + "x" +
                                  std::to_string(info.param.height);
                         });

TEST(MallocPitchZero, ZeroExtentIsNullOrInvalidValue) {
  MX_SPEC("api.memory.malloc-pitch.zero-extent");
  for (const PitchShape& s : {PitchShape{0, 4}, PitchShape{16, 0}}) {
    void* p = &p;
    size_t pitch = 0;
    const mcError_t result = mcMallocPitch(&p, &pitch, s.width, s.height);
    // Implementation-defined: success (with an address mcFree accepts) or
    // mcErrorInvalidValue.
    ASSERT_TRUE(result == mcSuccess || result == mcErrorInvalidValue);
    if (result == mcSuccess) {
      EXPECT_EQ(mcFree(p), mcSuccess);
    }
  }
  mcPitchedPtr pp = {};
  const mcError_t result = mcMalloc3D(&pp, make_mcExtent(8, 8, 0));
  ASSERT_TRUE(result == mcSuccess || result == mcErrorInvalidValue);
  if (result == mcSuccess) {
    EXPECT_EQ(mcFree(pp.ptr), mcSuccess);
  }
}

// --- mcMalloc3D and mcMemcpy3D. ---

__global__ void WriteBox(mcPitchedPtr p, mcExtent e) {
  unsigned char* base = static_cast<unsigned char*>(p.ptr);
  for (size_t z = 0; z < e.depth; ++z) {
    for (size_t y = threadIdx.x; y < e.height; y += blockDim.x) {
      for (size_t x = 0; x < e.width; ++x) {
        base[z * p.pitch * p.ysize + y * p.pitch + x] =
            static_cast<unsigned char>(z * 77 + y * 13 + x);
      }
    }
  }
}

TEST(Malloc3D, SlicesFollowTheDocumentedLayout) {
  MX_SPEC("api.memory.malloc-3d.allocates", "api.memory.malloc-3d.slice-layout",
          "api.memory.memcpy-3d.copies-box");
  const mcExtent extent = make_mcExtent(21, 5, 3);
  mcPitchedPtr p;
  ASSERT_EQ(mcMalloc3D(&p, extent), mcSuccess);
  EXPECT_GE(p.pitch, extent.width);
  EXPECT_EQ(p.xsize, extent.width);
  EXPECT_EQ(p.ysize, extent.height);
  WriteBox<<<1, 4>>>(p, extent);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  std::vector<unsigned char> packed(21 * 5 * 3);
  mcMemcpy3DParms parms = {};
  parms.srcPtr = p;
  parms.dstPtr = make_mcPitchedPtr(packed.data(), 21, 21, 5);
  parms.extent = extent;
  parms.kind = mcMemcpyDeviceToHost;
  ASSERT_EQ(mcMemcpy3D(&parms), mcSuccess);
  for (size_t z = 0; z < 3; ++z) {
    for (size_t y = 0; y < 5; ++y) {
      for (size_t x = 0; x < 21; ++x) {
        ASSERT_EQ(packed[z * 105 + y * 21 + x],
                  static_cast<unsigned char>(z * 77 + y * 13 + x));
      }
    }
  }
  EXPECT_EQ(mcFree(p.ptr), mcSuccess);
}

TEST(Malloc3D, MakeFunctionsFillFieldsInOrder) {
  MX_SPEC("api.memory.make-extent.fields", "api.memory.make-pitched-ptr.fields",
          "api.memory.make-pos.fields");
  int anchor = 0;
  mcPitchedPtr p = make_mcPitchedPtr(&anchor, 1, 2, 3);
  EXPECT_EQ(p.ptr, &anchor);
  EXPECT_EQ(p.pitch, 1u);
  EXPECT_EQ(p.xsize, 2u);
  EXPECT_EQ(p.ysize, 3u);
  mcExtent e = make_mcExtent(4, 5, 6);
  EXPECT_EQ(e.width, 4u);
  EXPECT_EQ(e.height, 5u);
  EXPECT_EQ(e.depth, 6u);
  mcPos q = make_mcPos(7, 8, 9);
  EXPECT_EQ(q.x, 7u);
  EXPECT_EQ(q.y, 8u);
  EXPECT_EQ(q.z, 9u);
}

struct Box3D {
  size_t w, h, d;             // the extent
  size_t sx, sy, sz;          // source position
  size_t dx, dy, dz;          // destination position
  size_t src_pad, dst_pad;    // pitch beyond pos.x + width
  size_t src_rows, dst_rows;  // ysize beyond pos.y + height
};

struct Copy3DCase {
  KindPair kinds;
  Box3D box;
  bool async;
};

std::string Copy3DName(const testing::TestParamInfo<Copy3DCase>& info) {
  const Copy3DCase& c = info.param;
  const Box3D& b = c.box;
  return std::string(KindName(c.kinds.src)) + "To" + KindName(c.kinds.dst) +
         "_" + std::to_string(b.w) + "x" + std::to_string(b.h) + "x" +
         std::to_string(b.d) + "_at" + std::to_string(b.sx) +
         std::to_string(b.sy) + std::to_string(b.sz) + "_to" +
         std::to_string(b.dx) + std::to_string(b.dy) + std::to_string(b.dz) +
         (c.async ? "_Async" : "_Sync");
}

class Copy3D : public testing::TestWithParam<Copy3DCase> {};

TEST_P(Copy3D, CopiesTheBoxOnly) {
  MX_SPEC("api.memory.memcpy-3d.copies-box",
          "api.memory.memcpy-3d.untouched-outside-box",
          "api.memory.memcpy-3d.async-stream-ordered",
          "api.memory.malloc-3d.slice-layout");
  const Copy3DCase& c = GetParam();
  const Box3D& b = c.box;
  MX_REQUIRE_MEMORY_KIND(c.kinds.dst);
  MX_REQUIRE_MEMORY_KIND(c.kinds.src);
  const size_t spitch = b.sx + b.w + b.src_pad;
  const size_t sysize = b.sy + b.h + b.src_rows;
  const size_t dpitch = b.dx + b.w + b.dst_pad;
  const size_t dysize = b.dy + b.h + b.dst_rows;
  Buffer src(c.kinds.src, spitch * sysize * (b.sz + b.d), 2);
  Buffer dst(c.kinds.dst, dpitch * dysize * (b.dz + b.d), 1);
  ASSERT_TRUE(dst.ok() && src.ok());
  mcMemcpy3DParms p = {};
  p.srcPtr = make_mcPitchedPtr(src.data(), spitch, b.sx + b.w, sysize);
  p.srcPos = make_mcPos(b.sx, b.sy, b.sz);
  p.dstPtr = make_mcPitchedPtr(dst.data(), dpitch, b.dx + b.w, dysize);
  p.dstPos = make_mcPos(b.dx, b.dy, b.dz);
  p.extent = make_mcExtent(b.w, b.h, b.d);
  p.kind = ExplicitKind(c.kinds.dst, c.kinds.src);
  if (c.async) {
    mcStream_t stream = nullptr;
    ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
    ASSERT_EQ(mcMemcpy3DAsync(&p, stream), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
    ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  } else {
    ASSERT_EQ(mcMemcpy3D(&p), mcSuccess);
  }
  std::vector<unsigned char> want = dst.Initial();
  const std::vector<unsigned char> from = src.Initial();
  for (size_t z = 0; z < b.d; ++z) {
    for (size_t y = 0; y < b.h; ++y) {
      for (size_t x = 0; x < b.w; ++x) {
        want[(b.dz + z) * dpitch * dysize + (b.dy + y) * dpitch + b.dx + x] =
            from[(b.sz + z) * spitch * sysize + (b.sy + y) * spitch + b.sx + x];
      }
    }
  }
  EXPECT_EQ(FirstDifference(dst.Read(), want), "");
}

std::vector<Copy3DCase> Copy3DCases() {
  const std::vector<Box3D> boxes = {
      {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {5, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {5, 3, 2, 1, 2, 1, 3, 0, 2, 4, 0, 1, 2},
      {64, 2, 3, 0, 1, 0, 7, 1, 1, 64, 3, 0, 0},
      {3, 7, 1, 2, 2, 3, 0, 0, 0, 0, 9, 0, 5},
      {300, 2, 2, 11, 0, 0, 0, 3, 0, 1, 0, 0, 0},
  };
  const std::vector<KindPair> pairs = {{Kind::kDevice, Kind::kPageable},
                                       {Kind::kPageable, Kind::kDevice},
                                       {Kind::kDevice, Kind::kDevice},
                                       {Kind::kManaged, Kind::kPinned}};
  std::vector<Copy3DCase> cases;
  for (const KindPair& pair : pairs) {
    for (const Box3D& box : boxes) {
      for (bool async : {false, true}) cases.push_back({pair, box, async});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Boxes, Copy3D, testing::ValuesIn(Copy3DCases()),
                         Copy3DName);

class Copy3DZero : public testing::TestWithParam<mcExtent> {};

TEST_P(Copy3DZero, ZeroExtentCopiesNothing) {
  MX_SPEC("api.memory.memcpy-3d.zero-extent");
  Buffer dst(Kind::kDevice, 64, 1);
  Buffer src(Kind::kDevice, 64, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  mcMemcpy3DParms p = {};
  p.srcPtr = make_mcPitchedPtr(src.data(), 8, 8, 8);
  p.dstPtr = make_mcPitchedPtr(dst.data(), 8, 8, 8);
  p.extent = GetParam();
  p.kind = mcMemcpyDeviceToDevice;
  EXPECT_EQ(mcMemcpy3D(&p), mcSuccess);
  EXPECT_EQ(mcMemcpy3DAsync(&p), mcSuccess);
  EXPECT_EQ(dst.FirstChange(), "");
}

INSTANTIATE_TEST_SUITE_P(Extents, Copy3DZero,
                         testing::Values(mcExtent{0, 1, 1}, mcExtent{1, 0, 1},
                                         mcExtent{1, 1, 0}, mcExtent{0, 0, 0}));

// --- mcMemset2D and mcMemset3D. ---

struct Set2DCase {
  Kind kind;
  size_t width;
  size_t height;
  size_t pitch;
  bool async;
};

class Set2D : public testing::TestWithParam<Set2DCase> {};

TEST_P(Set2D, SetsRowsAndLeavesPadding) {
  MX_SPEC("api.memory.memset-2d.sets-rows", "api.memory.memset-2d.zero-extent");
  const Set2DCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  Buffer buffer(c.kind, c.pitch * (c.height + 1) + 4, 1);
  ASSERT_TRUE(buffer.ok());
  if (c.async) {
    ASSERT_EQ(mcMemset2DAsync(buffer.data(), c.pitch, 0x1C3, c.width, c.height),
              mcSuccess);
  } else {
    ASSERT_EQ(mcMemset2D(buffer.data(), c.pitch, 0x1C3, c.width, c.height),
              mcSuccess);
  }
  std::vector<unsigned char> want = buffer.Initial();
  for (size_t r = 0; r < c.height; ++r) {
    for (size_t x = 0; x < c.width; ++x) want[r * c.pitch + x] = 0xC3;
  }
  EXPECT_EQ(FirstDifference(buffer.Read(), want), "");
}

std::vector<Set2DCase> Set2DCases() {
  struct Shape {
    size_t width, height, pitch;
  };
  const std::vector<Shape> shapes = {{1, 1, 1},     {3, 4, 3}, {5, 3, 8},
                                     {300, 2, 512}, {0, 3, 8}, {4, 0, 8},
                                     {7, 1, 2}};
  std::vector<Set2DCase> cases;
  for (Kind kind : {Kind::kDevice, Kind::kManaged, Kind::kPinned}) {
    for (const Shape& s : shapes) {
      for (bool async : {false, true}) {
        cases.push_back({kind, s.width, s.height, s.pitch, async});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Shapes, Set2D, testing::ValuesIn(Set2DCases()),
                         [](const testing::TestParamInfo<Set2DCase>& info) {
                           const Set2DCase& c = info.param;
                           return std::string(KindName(c.kind)) + "_" +
                                  std::to_string(c.width) + "x" +
                                  std::to_string(c.height) + "_pitch" +
                                  std::to_string(c.pitch) +
                                  (c.async ? "_Async" : "_Sync");
                         });

struct Set3DCase {
  Kind kind;
  mcExtent extent;
  size_t pitch;
  size_t ysize;
  bool async;
};

class Set3D : public testing::TestWithParam<Set3DCase> {};

TEST_P(Set3D, SetsTheBoxOnly) {
  MX_SPEC("api.memory.memset-3d.sets-box", "api.memory.memset-3d.zero-extent",
          "api.memory.malloc-3d.slice-layout");
  const Set3DCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  const size_t slices = c.extent.depth + 1;
  Buffer buffer(c.kind, c.pitch * c.ysize * slices, 1);
  ASSERT_TRUE(buffer.ok());
  mcPitchedPtr p =
      make_mcPitchedPtr(buffer.data(), c.pitch, c.extent.width, c.ysize);
  if (c.async) {
    mcStream_t stream = nullptr;
    ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
    ASSERT_EQ(mcMemset3DAsync(p, 0x5E, c.extent, stream), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
    ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  } else {
    ASSERT_EQ(mcMemset3D(p, 0x5E, c.extent), mcSuccess);
  }
  std::vector<unsigned char> want = buffer.Initial();
  for (size_t z = 0; z < c.extent.depth; ++z) {
    for (size_t y = 0; y < c.extent.height; ++y) {
      for (size_t x = 0; x < c.extent.width; ++x) {
        want[z * c.pitch * c.ysize + y * c.pitch + x] = 0x5E;
      }
    }
  }
  EXPECT_EQ(FirstDifference(buffer.Read(), want), "");
}

std::vector<Set3DCase> Set3DCases() {
  struct Shape {
    mcExtent extent;
    size_t pitch, ysize;
  };
  const std::vector<Shape> shapes = {
      {{1, 1, 1}, 1, 1},  {{3, 2, 2}, 4, 3}, {{8, 3, 3}, 8, 3},
      {{5, 4, 2}, 64, 6}, {{0, 2, 2}, 8, 2}, {{2, 2, 0}, 8, 2},
  };
  std::vector<Set3DCase> cases;
  for (Kind kind : {Kind::kDevice, Kind::kManaged}) {
    for (const Shape& s : shapes) {
      for (bool async : {false, true}) {
        cases.push_back({kind, s.extent, s.pitch, s.ysize, async});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Boxes, Set3D, testing::ValuesIn(Set3DCases()),
                         [](const testing::TestParamInfo<Set3DCase>& info) {
                           const Set3DCase& c = info.param;
                           return std::string(KindName(c.kind)) + "_" +
                                  std::to_string(c.extent.width) + "x" +
                                  std::to_string(c.extent.height) + "x" +
                                  std::to_string(c.extent.depth) + "_pitch" +
                                  std::to_string(c.pitch) + "_ysize" +
                                  std::to_string(c.ysize) +
                                  (c.async ? "_Async" : "_Sync");
                         });

TEST(Set3DOnMalloc3D, SetsWholeAllocation) {
  MX_SPEC("api.memory.memset-3d.sets-box", "api.memory.malloc-3d.allocates");
  const mcExtent extent = make_mcExtent(40, 3, 4);
  mcPitchedPtr p;
  ASSERT_EQ(mcMalloc3D(&p, extent), mcSuccess);
  ASSERT_EQ(mcMemset3D(p, 0xAB, extent), mcSuccess);
  std::vector<unsigned char> packed(40 * 3 * 4, 0);
  mcMemcpy3DParms parms = {};
  parms.srcPtr = p;
  parms.dstPtr = make_mcPitchedPtr(packed.data(), 40, 40, 3);
  parms.extent = extent;
  parms.kind = mcMemcpyDefault;
  ASSERT_EQ(mcMemcpy3D(&parms), mcSuccess);
  for (unsigned char byte : packed) ASSERT_EQ(byte, 0xAB);
  EXPECT_EQ(mcFree(p.ptr), mcSuccess);
}

}  // namespace
