// Must not compile: an accumulator loaded without a layout_t argument.
// [lang.wmma.load.accumulator-without-layout-rejected]
using namespace mxmaca;
__global__ void LoadAccumulator(const float* c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, c, 16);
}
