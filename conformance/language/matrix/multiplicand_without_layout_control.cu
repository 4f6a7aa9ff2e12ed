// Control of multiplicand_without_layout.cu: with col_major the fragment is
// declared. [lang.wmma.fragment.layout-required-for-multiplicands]
using namespace mxmaca;
__global__ void NoLayout() {
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  (void)b;
}
