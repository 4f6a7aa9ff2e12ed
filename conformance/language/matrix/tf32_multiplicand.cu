// Must not compile: a matrix_a fragment of precision::tf32 elements; tf32
// multiplicands are not a supported combination.
// [lang.wmma.fragment.unsupported-combination-rejected]
// [lang.wmma.fragment.float-multiplicands-rejected]
using namespace mxmaca;
__global__ void Tf32Multiplicand() {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wmma::precision::tf32,
                 wmma::row_major> a;
  (void)a;
}
