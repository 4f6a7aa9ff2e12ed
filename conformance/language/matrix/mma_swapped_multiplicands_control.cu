// Control of mma_swapped_multiplicands.cu: a first, b second compiles.
// [lang.wmma.mma.shapes-must-match] [lang.wmma.fragment.use-roles]
using namespace mxmaca;
__global__ void Swapped() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(a, 1.0f);
  wmma::fill_fragment(b, 1.0f);
  wmma::fill_fragment(c, 0.0f);
  wmma::mma_sync(c, a, b, c);
}
