// Control of bfloat16_into_half_accumulator.cu: __half multiplicands into
// a __half accumulator compile. [lang.wmma.shape.half-accumulator]
// [lang.wmma.fragment.unsupported-combination-rejected]
using namespace mxmaca;
__global__ void Bfloat16IntoHalf() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c;
  wmma::fill_fragment(a, 1.0f);
  wmma::fill_fragment(b, 1.0f);
  wmma::fill_fragment(c, 0.0f);
  wmma::mma_sync(c, a, b, c);
}
