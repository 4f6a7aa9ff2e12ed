// Conformance: the saturating form mma_sync(d, a, b, c, satf)
// (docs/spec/lang-matrix.md "mma_sync"). Whether it exists is
// implementation-defined and stated by the capability manifest's
// matrix_mma_satf; this file compiles either way, finding the form by
// overload resolution, and the tests of its results run only where the
// backend claims it.

#include <mc_runtime.h>

#include <cmath>
#include <type_traits>
#include <utility>

#include "conformance/language/matrix/matrix_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

namespace wmma = mxmaca::wmma;
using matrix_test::Managed;

using FragmentA =
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major>;
using FragmentB =
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major>;
template <typename T>
using Accumulator = wmma::fragment<wmma::accumulator, 16, 16, 16, T>;

// Whether mma_sync(d, a, b, c, bool) is declared for these fragments.
template <typename D, typename = void>
struct HasSatf : std::false_type {};
template <typename D>
struct HasSatf<D, std::void_t<decltype(wmma::mma_sync(
                      std::declval<D&>(), std::declval<const FragmentA&>(),
                      std::declval<const FragmentB&>(),
                      std::declval<const D&>(), std::declval<bool>()))>>
    : std::true_type {};

// D = A x B + C with A = `a`, B = `b`, C = `c` everywhere, through the
// five-argument form with `satf` where it exists (else the four-argument
// form, which these tests do not reach: they are skipped).
template <typename T>
__global__ void SaturatingProduct(float a, float b, float c, int satf, T* out) {
  FragmentA fa;
  FragmentB fb;
  Accumulator<T> fc;
  wmma::fill_fragment(fa, __half(a));
  wmma::fill_fragment(fb, __half(b));
  wmma::fill_fragment(fc, T(c));
  if constexpr (HasSatf<Accumulator<T>>::value) {
    wmma::mma_sync(fc, fa, fb, fc, satf != 0);
  } else {
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(out, fc, 16, wmma::mem_row_major);
}

template <typename T>
double SaturatingElement(float a, float b, float c, bool satf) {
  Managed<T> out(256);
  SaturatingProduct<T><<<1, 64>>>(a, b, c, satf ? 1 : 0, out.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  return static_cast<float>(out[37]);
}

TEST(MmaSatf, DeclaredExactlyWhereTheManifestClaimsIt) {
  MX_SPEC("lang.wmma.mma.satf-availability");
  const bool declared = HasSatf<Accumulator<float>>::value;
  EXPECT_EQ(HasSatf<Accumulator<__half>>::value, declared);
  if (declared) {
    MX_REQUIRE_CAPABILITY("matrix_mma_satf");
  } else {
    // Control: the four-argument form is found by the same test.
    EXPECT_TRUE((std::is_same<decltype(wmma::mma_sync(
                                  std::declval<Accumulator<float>&>(),
                                  std::declval<const FragmentA&>(),
                                  std::declval<const FragmentB&>(),
                                  std::declval<const Accumulator<float>&>())),
                              void>::value));
    EXPECT_FALSE(mxcts::conformance::Claimed("matrix_mma_satf"))
        << "the manifest claims matrix_mma_satf, but mma_sync has no "
           "five-argument form";
  }
}

TEST(MmaSatf, FalseBehavesAsTheFourArgumentForm) {
  MX_SPEC("lang.wmma.mma.satf-availability");
  MX_REQUIRE_CAPABILITY("matrix_mma_satf");
  EXPECT_EQ(SaturatingElement<float>(2, 3, 1, false), 97);
  EXPECT_TRUE(std::isinf(SaturatingElement<__half>(300, 300, 0, false)));
}

TEST(MmaSatf, InfinityBecomesTheLargestFiniteValue) {
  MX_SPEC("lang.wmma.mma.satf-infinity-to-max-norm");
  MX_REQUIRE_CAPABILITY("matrix_mma_satf");
  EXPECT_EQ(SaturatingElement<__half>(300, 300, 0, true), 65504);
  EXPECT_EQ(SaturatingElement<__half>(300, -300, 0, true), -65504);
  // Control: a finite result is left alone.
  EXPECT_EQ(SaturatingElement<__half>(2, 3, 1, true), 97);
}

TEST(MmaSatf, NanBecomesZero) {
  MX_SPEC("lang.wmma.mma.satf-nan-to-zero");
  MX_REQUIRE_CAPABILITY("matrix_mma_satf");
  EXPECT_EQ(SaturatingElement<float>(1, 1, NAN, true), 0);
  // Control: without satf the NaN stays.
  EXPECT_TRUE(std::isnan(SaturatingElement<float>(1, 1, NAN, false)));
}

}  // namespace
