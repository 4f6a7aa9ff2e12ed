// Must not compile: a matrix_b fragment of float elements.
// [lang.wmma.fragment.float-multiplicands-rejected]
using namespace mxmaca;
__global__ void FloatMatrixB() {
  wmma::fragment<wmma::matrix_b, 16, 16, 16, float, wmma::col_major> b;
  (void)b;
}
