// Copyright mxcts authors.
//
// Tests of the matrix functions in the engine: the reference's element
// mapping, the product's summation order, and the checks that only a
// request built by hand can break (fragment types that differ between
// lanes, an invalid layout, a null pointer, different functions at one
// rendezvous), each beside a control. Kernels call the header's functions,
// or __mc_dev_wave_collective with requests of their own, as compiled
// device code does. The conformance tests (conformance/language/matrix)
// cover the rest through the public API.

#include "reference/device/collectives/matrix_operations.h"

#include <cstdint>
#include <string>
#include <vector>

#include "__clang_maca_mma_functions.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "mcr/detail/device_matrix_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

namespace wmma = mxmaca::wmma;
using ::testing::HasSubstr;

// Lane l's x[t] after loading a tile whose element number e is e.
void MappingKernel(void** args) {
  const float* tile = Arg<const float*>(args, 0);
  float* out = Arg<float*>(args, 1);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
  wmma::load_matrix_sync(f, tile, 16, wmma::mem_row_major);
  for (int t = 0; t < f.num_elements; ++t) {
    out[LinearThread() * f.num_elements + t] = f.x[t];
  }
}

TEST(MatrixOperations, LaneHoldsConsecutiveRowMajorElements) {
  // [lang.wmma.fragment.element-mapping-unspecified] The reference's
  // mapping: lane l holds elements l * num_elements onwards.
  alignas(16) float tile[256];
  for (int e = 0; e < 256; ++e) tile[e] = static_cast<float>(e);
  std::vector<float> out(256, -1);
  const float* in = tile;
  float* data = out.data();
  RunResult result = RunCapturingStderr("MappingKernel", &MappingKernel,
                                        {&in, &data}, dim3(1), dim3(64));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (int e = 0; e < 256; ++e) EXPECT_EQ(out[e], e) << "element " << e;
}

// c(i, j) = 2^24 and A x B adds 16 ones: in double the ones survive.
void SummationKernel(void** args) {
  float* out = Arg<float*>(args, 0);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(a, __half(1.0f));
  wmma::fill_fragment(b, __half(1.0f));
  wmma::fill_fragment(c, 16777216.0f);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(out, c, 16, wmma::mem_col_major);
}

TEST(MatrixOperations, SumsInDoubleAndRoundsOnce) {
  // [lang.wmma.mma.summation-order]
  alignas(16) float out[256] = {};
  float* data = out;
  RunResult result = RunCapturingStderr("SummationKernel", &SummationKernel,
                                        {&data}, dim3(1), dim3(64));
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  EXPECT_EQ(out[0], 16777232.0f);
  EXPECT_EQ(out[255], 16777232.0f);
}

// A hand-made accumulator load of `tile`: lanes at or above `from` describe
// their fragment with `other_m`, pass `other_layout` and `other_memory`,
// or call `other_operation`.
struct Variation {
  unsigned from = 64;
  int other_m = 16;
  int other_layout = __MC_MATRIX_ROW_MAJOR;
  bool null_memory = false;
  int other_operation = __MC_MATRIX_LOAD;
};

void HandMadeLoad(void** args) {
  const float* tile = Arg<const float*>(args, 0);
  const Variation& variation = *Arg<const Variation*>(args, 1);
  float x[4];
  const bool other = LinearThread() >= variation.from;
  __mc_matrix_request request = {};
  request.operation = other ? variation.other_operation : __MC_MATRIX_LOAD;
  request.function = "load";
  request.fragment_count = 1;
  request.fragments[0] = {
      __MC_MATRIX_ACCUMULATOR, other ? variation.other_m : 16, 16, 16,
      __MC_MATRIX_FLOAT,       __MC_MATRIX_NO_LAYOUT,          4,  x};
  request.memory = variation.null_memory ? nullptr : tile;
  request.ldm = 16;
  request.memory_layout =
      other ? variation.other_layout : __MC_MATRIX_ROW_MAJOR;
  const __mc_wave_request wave = {
      __MC_WAVE_MATRIX,
      0,
      0,
      8,
      ~0ull,
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&request)),
      0,
      "hand.cc",
      7,
      nullptr};
  __mc_dev_wave_collective(&wave);
}

RunResult RunHandMadeLoad(const Variation& variation) {
  alignas(16) static float tile[256] = {};
  const float* in = tile;
  const Variation* v = &variation;
  return RunCapturingStderr("HandMadeLoad", &HandMadeLoad, {&in, &v}, dim3(1),
                            dim3(64));
}

TEST(MatrixOperations, HandMadeLoadIsFine) {
  // Control of the traps below.
  RunResult result = RunHandMadeLoad(Variation());
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

TEST(MatrixOperations, DifferentFragmentTypesTrap) {
  // [lang.wmma.collective.uniform-arguments]
  Variation variation;
  variation.from = 60;
  variation.other_m = 32;
  RunResult result = RunHandMadeLoad(variation);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("different fragment types: lanes 60-63"));
  EXPECT_THAT(result.stderr_text,
              HasSubstr("pass fragment<accumulator, 32, 16, 16, float>"));
}

TEST(MatrixOperations, InvalidLayoutTraps) {
  Variation variation;
  variation.from = 0;
  variation.other_layout = __MC_MATRIX_NO_LAYOUT;
  RunResult result = RunHandMadeLoad(variation);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text, HasSubstr("invalid layout_t value"));
}

TEST(MatrixOperations, NullPointerTraps) {
  Variation variation;
  variation.null_memory = true;
  RunResult result = RunHandMadeLoad(variation);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text, HasSubstr("with a null pointer"));
}

TEST(MatrixOperations, DifferentFunctionsAtOneSiteTrap) {
  // [lang.wmma.collective.all-lanes-must-call]
  Variation variation;
  variation.from = 32;
  variation.other_operation = __MC_MATRIX_STORE;
  RunResult result = RunHandMadeLoad(variation);
  EXPECT_EQ(result.error, mcErrorLaunchFailure);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("diverge at matrix functions: lanes 32-63"));
}

}  // namespace
}  // namespace mxcts::device
