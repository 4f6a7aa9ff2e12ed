// Control of tf32_multiplicand.cu: with __maca_bfloat16 elements the
// fragment is declared. [lang.wmma.fragment.unsupported-combination-rejected]
// [lang.wmma.fragment.float-multiplicands-rejected]
using namespace mxmaca;
__global__ void Tf32Multiplicand() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __maca_bfloat16,
                 wmma::row_major> a;
  (void)a;
}
