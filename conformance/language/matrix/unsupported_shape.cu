// Must not compile: the shape 16 x 16 x 8 is not supported.
// [lang.wmma.fragment.unsupported-combination-rejected]
using namespace mxmaca;
__global__ void UnsupportedShape() {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, __half, wmma::row_major> a;
  (void)a;
}
