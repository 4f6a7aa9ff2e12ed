// Control of float_matrix_b.cu: with __maca_bfloat16 elements the fragment
// is declared. [lang.wmma.fragment.float-multiplicands-rejected]
using namespace mxmaca;
__global__ void FloatMatrixB() {
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __maca_bfloat16, wmma::col_major> b;
  (void)b;
}
