// Must not compile: a matrix_b fragment without a Layout argument.
// [lang.wmma.fragment.layout-required-for-multiplicands]
using namespace mxmaca;
__global__ void NoLayout() {
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half> b;
  (void)b;
}
