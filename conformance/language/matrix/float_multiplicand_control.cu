// Control of float_multiplicand.cu: with __half elements the fragment is
// declared. [lang.wmma.fragment.float-multiplicands-rejected]
using namespace mxmaca;
__global__ void FloatMultiplicand() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  (void)a;
}
