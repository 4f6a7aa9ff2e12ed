// Control of mma_shape_mismatch.cu: with every fragment 16 x 16 x 16 the
// call compiles. [lang.wmma.mma.shapes-must-match]
using namespace mxmaca;
__global__ void Mismatch() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(a, 1.0f);
  wmma::fill_fragment(b, 1.0f);
  wmma::fill_fragment(c, 0.0f);
  wmma::mma_sync(c, a, b, c);
}
