// Must not compile: a matrix_a fragment of float elements; float
// multiplicands are not supported.
// [lang.wmma.fragment.float-multiplicands-rejected]
using namespace mxmaca;
__global__ void FloatMultiplicand() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, float, wmma::row_major> a;
  (void)a;
}
