// Conformance: misuse of the matrix functions that an implementation may
// detect, and the reference does, by trapping with mcErrorLaunchFailure and
// a diagnostic naming the kernel, block, thread, lanes and call sites
// (docs/spec/lang-matrix.md "Rules common to the matrix functions",
// "load_matrix_sync", "store_matrix_sync").
//
// Each trap test breaks one rule; the control beside it runs the same
// kernel with the rule kept and must not trap. A backend that leaves the
// undefined behaviour undetected lists the trap tests as known failures.

#include <mc_runtime.h>

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

namespace wmma = mxmaca::wmma;
using matrix_test::Managed;

// A 16 x 16 x 16 product of tiles at a, b, c into d (ldm 16), by every
// thread of the block; lanes at or above `exit_from` return first.
__global__ void Product(const __half* a, const __half* b, float* c,
                        unsigned exit_from) {
  if (threadIdx.x % 64 >= exit_from) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

mcError_t LaunchProduct(unsigned threads, unsigned exit_from) {
  Managed<__half> a(256);
  Managed<__half> b(256);
  Managed<float> c(256);
  Product<<<1, threads>>>(a.get(), b.get(), c.get(), exit_from);
  return mcDeviceSynchronize();
}

// ---------------------------------------------------------------------------
// The whole wave calls.
// ---------------------------------------------------------------------------

TEST(MatrixMisuse, PartialLastWaveTraps) {
  MX_SPEC("lang.wmma.collective.partial-wave-undefined");
  MX_EXPECT_TRAP(LaunchProduct(96, 64), mcErrorLaunchFailure,
                 "Product.*block \\(0,0,0\\).*wave 1: "
                 "mxmaca::wmma::load_matrix_sync\\(\\) at .*misuse_test.cc:.* "
                 "partial wave of 32 lanes");
}

TEST(MatrixMisuse, FullWavesAreFine) {
  MX_SPEC("lang.wmma.collective.partial-wave-undefined",
          "lang.wmma.fragment.spread-over-one-wave");
  MX_EXPECT_NO_TRAP(LaunchProduct(128, 64));
}

TEST(MatrixMisuse, OneLaneShortOfAWaveTraps) {
  MX_SPEC("lang.wmma.collective.partial-wave-undefined");
  MX_EXPECT_TRAP(LaunchProduct(63, 64), mcErrorLaunchFailure,
                 "partial wave of 63 lanes");
}

TEST(MatrixMisuse, LanesThatExitTrap) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_TRAP(LaunchProduct(64, 32), mcErrorLaunchFailure,
                 "Product.*lanes 32-63 \\(the first: thread \\(32,0,0\\)\\) "
                 "exited without calling mxmaca::wmma::load_matrix_sync");
}

TEST(MatrixMisuse, OneLaneThatExitsTraps) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_TRAP(LaunchProduct(64, 63), mcErrorLaunchFailure,
                 "lanes 63 \\(the first: thread \\(63,0,0\\)\\) exited");
}

TEST(MatrixMisuse, NoLaneExitingIsFine) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_NO_TRAP(LaunchProduct(64, 64));
}

// Lanes below `split` load at one call site, the others at another.
__global__ void DivergentLoads(const float* c, unsigned split) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  if (threadIdx.x < split) {
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  } else {
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  }
}

mcError_t LaunchDivergentLoads(unsigned split) {
  Managed<float> c(256);
  DivergentLoads<<<1, 64>>>(c.get(), split);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, DivergentCallSitesTrap) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_TRAP(LaunchDivergentLoads(16), mcErrorLaunchFailure,
                 "DivergentLoads.*diverge at matrix functions: lanes 16-63 "
                 "\\(the first: thread \\(16,0,0\\)\\) call "
                 "mxmaca::wmma::load_matrix_sync\\(\\) at .*misuse_test.cc");
}

TEST(MatrixMisuse, OneBranchForTheWaveIsFine) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_NO_TRAP(LaunchDivergentLoads(64));
}

// Lanes below `split` call mma_sync, the others __syncwave over the wave.
__global__ void MmaOrSyncwave(unsigned split) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fa, __half(1.0f));
  wmma::fill_fragment(fb, __half(1.0f));
  wmma::fill_fragment(fc, 0.0f);
  if (threadIdx.x < split) {
    wmma::mma_sync(fc, fa, fb, fc);
  } else {
    __syncwave();
  }
}

mcError_t LaunchMmaOrSyncwave(unsigned split) {
  MmaOrSyncwave<<<1, 64>>>(split);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, LanesAtAnotherWaveCollectiveTrap) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_TRAP(LaunchMmaOrSyncwave(32), mcErrorLaunchFailure,
                 "MmaOrSyncwave.*different wave collectives");
}

TEST(MatrixMisuse, EveryLaneAtMmaIsFine) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call");
  MX_EXPECT_NO_TRAP(LaunchMmaOrSyncwave(64));
}

// Lanes below `split` store, then every thread meets at a block barrier:
// the other lanes never reach the store.
__global__ void StoreThenBarrier(float* c, unsigned split) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 1.0f);
  if (threadIdx.x < split)
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  __syncthreads();
}

mcError_t LaunchStoreThenBarrier(unsigned split) {
  Managed<float> c(256);
  StoreThenBarrier<<<1, 64>>>(c.get(), split);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, LanesWaitingAtABarrierDeadlock) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call",
          "lang.wmma.collective.waits-for-wave");
  MX_EXPECT_TRAP(LaunchStoreThenBarrier(40), mcErrorLaunchFailure,
                 "StoreThenBarrier.*deadlock.*lanes 0-39 wait in "
                 "mxmaca::wmma::store_matrix_sync");
}

TEST(MatrixMisuse, EveryLaneStoringBeforeTheBarrierIsFine) {
  MX_SPEC("lang.wmma.collective.all-lanes-must-call",
          "lang.wmma.collective.waits-for-wave");
  MX_EXPECT_NO_TRAP(LaunchStoreThenBarrier(64));
}

// ---------------------------------------------------------------------------
// Uniform arguments.
// ---------------------------------------------------------------------------

enum class Argument { kPointer, kLeadingDimension, kLayout };

// Lanes at or above `from` pass a different `argument` to an accumulator
// load (from == 64: every lane passes the same).
__global__ void NonUniformLoad(const float* c, int argument, unsigned from) {
  const bool other = threadIdx.x >= from;
  const float* pointer = c;
  unsigned ldm = 16;
  wmma::layout_t layout = wmma::mem_row_major;
  if (other && argument == static_cast<int>(Argument::kPointer)) pointer += 16;
  if (other && argument == static_cast<int>(Argument::kLeadingDimension)) {
    ldm = 20;
  }
  if (other && argument == static_cast<int>(Argument::kLayout)) {
    layout = wmma::mem_col_major;
  }
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, pointer, ldm, layout);
}

mcError_t LaunchNonUniformLoad(Argument argument, unsigned from) {
  Managed<float> c(512);
  NonUniformLoad<<<1, 64>>>(c.get(), static_cast<int>(argument), from);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, NonUniformPointerTraps) {
  MX_SPEC("lang.wmma.collective.uniform-arguments");
  MX_EXPECT_TRAP(LaunchNonUniformLoad(Argument::kPointer, 48),
                 mcErrorLaunchFailure,
                 "NonUniformLoad.*different pointers: lanes 48-63 \\(the "
                 "first: thread \\(48,0,0\\)\\)");
}

TEST(MatrixMisuse, NonUniformLeadingDimensionTraps) {
  MX_SPEC("lang.wmma.collective.uniform-arguments");
  MX_EXPECT_TRAP(LaunchNonUniformLoad(Argument::kLeadingDimension, 1),
                 mcErrorLaunchFailure,
                 "different leading dimensions: lanes 1-63 .* pass ldm 20, "
                 "while lane 0 .* passes ldm 16");
}

TEST(MatrixMisuse, NonUniformLayoutTraps) {
  MX_SPEC("lang.wmma.collective.uniform-arguments");
  MX_EXPECT_TRAP(LaunchNonUniformLoad(Argument::kLayout, 63),
                 mcErrorLaunchFailure,
                 "different layouts: lanes 63 .* pass column major");
}

TEST(MatrixMisuse, UniformArgumentsAreFine) {
  MX_SPEC("lang.wmma.collective.uniform-arguments");
  MX_EXPECT_NO_TRAP(LaunchNonUniformLoad(Argument::kPointer, 64));
  MX_EXPECT_NO_TRAP(LaunchNonUniformLoad(Argument::kLeadingDimension, 64));
  MX_EXPECT_NO_TRAP(LaunchNonUniformLoad(Argument::kLayout, 64));
}

// Lanes at or above 32 store to a different pointer.
__global__ void NonUniformStore(float* c, unsigned from) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 2.0f);
  wmma::store_matrix_sync(threadIdx.x >= from ? c + 256 : c, fc, 16,
                          wmma::mem_col_major);
}

mcError_t LaunchNonUniformStore(unsigned from) {
  Managed<float> c(512);
  NonUniformStore<<<1, 64>>>(c.get(), from);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, NonUniformStorePointerTraps) {
  MX_SPEC("lang.wmma.collective.uniform-arguments");
  MX_EXPECT_TRAP(LaunchNonUniformStore(32), mcErrorLaunchFailure,
                 "NonUniformStore.*store_matrix_sync.*different pointers");
}

TEST(MatrixMisuse, UniformStorePointerIsFine) {
  MX_SPEC("lang.wmma.collective.uniform-arguments");
  MX_EXPECT_NO_TRAP(LaunchNonUniformStore(64));
}

// ---------------------------------------------------------------------------
// Alignment and leading dimension.
// ---------------------------------------------------------------------------

// Loads A from `a + offset` with `ldm`.
__global__ void LoadAt(const __half* a, unsigned offset, unsigned ldm) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
  wmma::load_matrix_sync(fa, a + offset, ldm);
}

mcError_t LaunchLoadAt(unsigned offset, unsigned ldm) {
  Managed<__half> a(1024);
  LoadAt<<<1, 64>>>(a.get(), offset, ldm);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, LoadFromMisalignedPointerTraps) {
  MX_SPEC("lang.wmma.load.pointer-alignment");
  MX_EXPECT_TRAP(LaunchLoadAt(4, 16), mcErrorLaunchFailure,
                 "LoadAt.*load_matrix_sync\\(\\) at .* is called with pointer "
                 ".*not aligned to 16 bytes");
}

TEST(MatrixMisuse, LoadFromAlignedPointerIsFine) {
  MX_SPEC("lang.wmma.load.pointer-alignment");
  MX_EXPECT_NO_TRAP(LaunchLoadAt(8, 16));
}

TEST(MatrixMisuse, HalfLeadingDimensionNotAMultipleOfEightTraps) {
  MX_SPEC("lang.wmma.load.ldm-multiple-of-16-bytes");
  MX_EXPECT_TRAP(LaunchLoadAt(0, 20), mcErrorLaunchFailure,
                 "LoadAt.*ldm 20, which is not a multiple of 8");
}

TEST(MatrixMisuse, HalfLeadingDimensionMultipleOfEightIsFine) {
  MX_SPEC("lang.wmma.load.ldm-multiple-of-16-bytes");
  MX_EXPECT_NO_TRAP(LaunchLoadAt(0, 24));
}

// Stores an accumulator to `c + offset` with `ldm`.
__global__ void StoreAt(float* c, unsigned offset, unsigned ldm) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 1.0f);
  wmma::store_matrix_sync(c + offset, fc, ldm, wmma::mem_row_major);
}

mcError_t LaunchStoreAt(unsigned offset, unsigned ldm) {
  Managed<float> c(1024);
  StoreAt<<<1, 64>>>(c.get(), offset, ldm);
  return mcDeviceSynchronize();
}

TEST(MatrixMisuse, StoreToMisalignedPointerTraps) {
  MX_SPEC("lang.wmma.store.pointer-alignment");
  MX_EXPECT_TRAP(LaunchStoreAt(2, 16), mcErrorLaunchFailure,
                 "StoreAt.*store_matrix_sync\\(\\) at .* is called with "
                 "pointer .*not aligned to 16 bytes");
}

TEST(MatrixMisuse, StoreToAlignedPointerIsFine) {
  MX_SPEC("lang.wmma.store.pointer-alignment");
  MX_EXPECT_NO_TRAP(LaunchStoreAt(4, 16));
}

TEST(MatrixMisuse, FloatLeadingDimensionNotAMultipleOfFourTraps) {
  MX_SPEC("lang.wmma.store.pointer-alignment",
          "lang.wmma.load.ldm-multiple-of-16-bytes");
  MX_EXPECT_TRAP(LaunchStoreAt(0, 18), mcErrorLaunchFailure,
                 "StoreAt.*ldm 18, which is not a multiple of 4");
}

TEST(MatrixMisuse, FloatLeadingDimensionMultipleOfFourIsFine) {
  MX_SPEC("lang.wmma.store.pointer-alignment",
          "lang.wmma.load.ldm-multiple-of-16-bytes");
  MX_EXPECT_NO_TRAP(LaunchStoreAt(0, 20));
}

}  // namespace
