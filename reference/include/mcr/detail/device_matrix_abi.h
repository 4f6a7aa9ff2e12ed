// Copyright mxcts authors.
//
// mcr/detail/device_matrix_abi.h: the matrix functions (`mxmaca::wmma`,
// __clang_maca_mma_functions.h) as compiled code sees them. Not for
// programs.
//
// Every matrix function is a wave collective: each of the 64 lanes
// describes its call in one __mc_matrix_request on its own stack and passes
// the request's address as the value of a __mc_dev_wave_collective call
// with operation __MC_WAVE_MATRIX and the full wave mask
// (mcr/detail/device_abi.h). Once the whole wave has arrived, the engine
// checks that the requests agree and performs the operation for the whole
// tile, reading and writing every lane's fragment elements through the
// `elements` pointers of the requests (reference/device/collectives/
// matrix_operations.h).

#ifndef MCR_DETAIL_DEVICE_MATRIX_ABI_H_
#define MCR_DETAIL_DEVICE_MATRIX_ABI_H_

extern "C" {

// What a matrix function call does.
enum __mc_matrix_operation {
  __MC_MATRIX_FILL = 1,  // fill_fragment: fragments[0]; each lane fills its own
  __MC_MATRIX_LOAD,      // load_matrix_sync: memory -> fragments[0]
  __MC_MATRIX_STORE,     // store_matrix_sync: fragments[0] -> memory
  __MC_MATRIX_MMA,       // mma_sync: fragments d, a, b, c
};

// A fragment's use.
enum __mc_matrix_use {
  __MC_MATRIX_A = 1,
  __MC_MATRIX_B,
  __MC_MATRIX_ACCUMULATOR,
};

// A fragment's element type.
enum __mc_matrix_element {
  __MC_MATRIX_HALF = 1,
  __MC_MATRIX_BFLOAT16,
  __MC_MATRIX_FLOAT,
};

// A fragment's Layout template argument, or the layout_t of a call.
enum __mc_matrix_layout {
  __MC_MATRIX_NO_LAYOUT = 0,  // an accumulator's `void`
  __MC_MATRIX_ROW_MAJOR,
  __MC_MATRIX_COL_MAJOR,
};

// One lane's fragment: its type and the address of its `x[]`.
struct __mc_matrix_fragment_ref {
  int use;      // an __mc_matrix_use
  int m, n, k;  // the shape
  int element;  // an __mc_matrix_element
  int layout;   // an __mc_matrix_layout
  int num_elements;
  void* elements;  // this lane's x[num_elements]
};

// One lane's call of a matrix function.
#define __MC_MATRIX_MMA_D 0
#define __MC_MATRIX_MMA_A 1
#define __MC_MATRIX_MMA_B 2
#define __MC_MATRIX_MMA_C 3
struct __mc_matrix_request {
  int operation;       // an __mc_matrix_operation
  int fragment_count;  // 1, or 4 for mma_sync (d, a, b, c)
  struct __mc_matrix_fragment_ref fragments[4];
  const void* memory;    // load: the source; store: the destination
  unsigned ldm;          // load and store: the leading dimension, in elements
  int memory_layout;     // load and store: an __mc_matrix_layout
  const char* function;  // "mxmaca::wmma::load_matrix_sync" and so on
};

}  // extern "C"

#endif  // MCR_DETAIL_DEVICE_MATRIX_ABI_H_
