// Copyright mxcts authors.
//
// A device image written by hand, for the runtime's tests: a shared object
// shaped as mxcc's stage 8 makes them (reference/compiler/design.md), with
// kernel and variable records exported under the names the runtime looks
// for, an __mc_image_bind, and everything else internal. Its device code
// calls no engine service and reads no built-in variable, so it runs under
// any grid runner.
//
// Kernels (keys in the form KernelKey produces):
//   count(int* counter)              each thread adds 1 to *counter
//   read_variables(int* out)         out[0] = device_var, out[1] = managed_var
//   bump_managed()                   each thread adds 1 to managed_var
//   mixed(char c, double d, int* out)  *out = c + (int)d
// Variables:
//   device_var = 7                   __device__
//   ns::constant_table = {1,2,3,4}   __constant__ float[4]
//   managed_var = 40                 __managed__

#include "mcr/detail/launch_abi.h"
#include "reference/device/image/image_abi.h"

using __mc_internal::DeviceVariableRecord;
using __mc_internal::KernelRecord;

namespace {

int device_var = 7;
float constant_table[4] = {1, 2, 3, 4};
int managed_var = 40;

void CountEntry(void** args) {
  __atomic_fetch_add(*static_cast<int**>(args[0]), 1, __ATOMIC_RELAXED);
}

void ReadVariablesEntry(void** args) {
  int* out = *static_cast<int**>(args[0]);
  out[0] = device_var;
  out[1] = managed_var;
}

void BumpManagedEntry(void**) { ++managed_var; }

void MixedEntry(void** args) {
  char c = *static_cast<char*>(args[0]);
  double d = *static_cast<double*>(args[1]);
  **static_cast<int**>(args[2]) = c + static_cast<int>(d);
}

const unsigned kPointerSizes[] = {sizeof(int*)};
const unsigned kPointerAlignments[] = {alignof(int*)};
const unsigned kMixedSizes[] = {sizeof(char), sizeof(double), sizeof(int*)};
const unsigned kMixedAlignments[] = {alignof(char), alignof(double),
                                     alignof(int*)};

}  // namespace

#define MC_EXPORT extern "C" __attribute__((used, visibility("default")))

MC_EXPORT unsigned __mc_image_bind(const __mc_image_runtime*) {
  return MC_IMAGE_ABI_VERSION;
}

MC_EXPORT const KernelRecord
    __mcdev__ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z5countPiEEE6recordE = {
        "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
        "(*)(int*); Sig F = count]",
        &CountEntry, 1, kPointerSizes, kPointerAlignments};

MC_EXPORT const KernelRecord
    __mcdev__ZN13__mc_internal12DeviceKernelIPFvPiEXadL_Z14read_variablesPiEEE6recordE =
        {"constexpr const char* __mc_internal::KernelKey() [with Sig = void "
         "(*)(int*); Sig F = read_variables]",
         &ReadVariablesEntry, 1, kPointerSizes, kPointerAlignments};

MC_EXPORT const KernelRecord
    __mcdev__ZN13__mc_internal12DeviceKernelIPFvvEXadL_Z12bump_managedvEEE6recordE =
        {"constexpr const char* __mc_internal::KernelKey() [with Sig = void "
         "(*)(); Sig F = bump_managed]",
         &BumpManagedEntry, 0, kPointerSizes, kPointerAlignments};

MC_EXPORT const KernelRecord
    __mcdev__ZN13__mc_internal12DeviceKernelIPFvcdPiEXadL_Z5mixedcdPiEEE6recordE =
        {"constexpr const char* __mc_internal::KernelKey() [with Sig = void "
         "(*)(char, double, int*); Sig F = mixed]",
         &MixedEntry, 3, kMixedSizes, kMixedAlignments};

MC_EXPORT const DeviceVariableRecord __mcdev___mc_variable_record_0 = {
    "device_var", &device_var, sizeof(device_var), 0};

MC_EXPORT const DeviceVariableRecord __mcdev___mc_variable_record_1 = {
    "ns::constant_table", constant_table, sizeof(constant_table),
    __mc_internal::kVariableConstant};

MC_EXPORT const DeviceVariableRecord __mcdev___mc_variable_record_2 = {
    "managed_var", &managed_var, sizeof(managed_var),
    __mc_internal::kVariableManaged};
