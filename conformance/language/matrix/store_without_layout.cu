// Must not compile: store_matrix_sync without its layout_t argument.
// [lang.wmma.store.layout-argument-required]
using namespace mxmaca;
__global__ void StoreAccumulator(float* c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::store_matrix_sync(c, fc, 16);
}
