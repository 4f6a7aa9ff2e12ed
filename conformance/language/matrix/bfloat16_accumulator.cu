// Must not compile: an accumulator of __maca_bfloat16 elements is not a
// supported combination.
// [lang.wmma.fragment.unsupported-combination-rejected]
using namespace mxmaca;
__global__ void Bfloat16Accumulator() {
  wmma::fragment<wmma::accumulator, 16, 16, 16, __maca_bfloat16> c;
  (void)c;
}
