// Control of accumulator_with_layout.cu: without a Layout argument the
// accumulator is declared. [lang.wmma.fragment.accumulator-layout-void]
using namespace mxmaca;
__global__ void AccumulatorLayout() {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  (void)c;
}
