// Control of bfloat16_accumulator.cu: a float accumulator is supported.
// [lang.wmma.fragment.unsupported-combination-rejected]
using namespace mxmaca;
__global__ void Bfloat16Accumulator() {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  (void)c;
}
