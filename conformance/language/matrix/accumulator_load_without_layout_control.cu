// Control of accumulator_load_without_layout.cu: with mem_row_major the
// load compiles. [lang.wmma.load.accumulator-without-layout-rejected]
using namespace mxmaca;
__global__ void LoadAccumulator(const float* c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
}
