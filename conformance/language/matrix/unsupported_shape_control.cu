// Control of unsupported_shape.cu: the shape 16 x 16 x 16 is supported.
// [lang.wmma.fragment.unsupported-combination-rejected]
using namespace mxmaca;
__global__ void UnsupportedShape() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  (void)a;
}
