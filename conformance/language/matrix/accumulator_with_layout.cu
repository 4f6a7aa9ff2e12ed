// Must not compile: an accumulator fragment declared with row_major; an
// accumulator's layout is given to each load and store instead.
// [lang.wmma.fragment.accumulator-layout-void]
using namespace mxmaca;
__global__ void AccumulatorLayout() {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float, wmma::row_major> c;
  (void)c;
}
