// Copyright mxcts authors.
//
// Runs representative MXMACA programs through the compiler's first stages
// as mxcc does (reference/compiler/design.md, stages 1 to 4): `g++ -E` with
// the runtime header (from `-isystem`, as the driver has it), Translate() for
// each pass, and then `g++ -fsyntax-only -x c++-cpp-output` on the translation,
// which must compile without a warning. The control case shows that the
// untranslated text does not compile. Needs g++ on PATH and the headers of
// //reference/include as runfiles.

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/translator/translator.h"
#include "reference/compiler/translator/translator_testing.h"

namespace mxcts::compiler::testing {
namespace {

struct Program {
  const char* name;
  const char* source;
};

constexpr Program kPrograms[] = {
    {"vector_add", R"(#include <math.h>
__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
void Run(const float* a, const float* b, float* c, int n) {
  vectorAdd<<<ceil(n / 256.0), 256>>>(a, b, c, n);
}
)"},
    {"template_kernel", R"(template <typename T, int N = 2, class... Ts>
__global__ void Fill(T* out, T value, Ts... extra) {
  out[threadIdx.x % N] = value + static_cast<T>(sizeof...(extra));
}
template <typename T, typename = void>
__global__ void Unnamed(T*, int) {}
#define LAUNCH(k, ...) k<<<1, 64>>>(__VA_ARGS__)
void Run(float* f, int* i) {
  Fill<float><<<dim3(2, 2), dim3(8, 8)>>>(f, 1.0f);
  Fill<int, 4, char, short><<<1, 1, 0, 0>>>(i, 2, 'c', short{3});
  LAUNCH(Unnamed<int>, i, 5);
}
)"},
    {"namespaces_and_linkage", R"(namespace outer { namespace inner {
__global__ void Kernel(int* p) { p[0] = 1; }
} }
extern "C" __global__ void CKernel(int* p) { p[0] = 2; }
static __global__ void StaticKernel(int* p, int n = 3) { p[0] = n; }
__global__ void Overloaded(int* p) { p[0] = 3; }
__global__ void Overloaded(float* p) { p[0] = 4.0f; }
void Run(int* i, float* f, mcStream_t s) {
  outer::inner::Kernel<<<1, 1>>>(i);
  ::outer::inner::Kernel<<<1, 1, 0, s>>>(i);
  CKernel<<<1, 1>>>(i);
  StaticKernel<<<1, 1>>>(i);
  Overloaded<<<1, 1>>>(i);
  Overloaded<<<1, 1>>>(f);
}
)"},
    {"shared_memory", R"(__shared__ float g_tile[32];
__global__ void Reduce(const float* in, float* out) {
  __shared__ float tile[64], *cursor;
  static __shared__ int count;
  extern __shared__ char dynamic_area[];
  float* scratch = reinterpret_cast<float*>(dynamic_area);
  tile[threadIdx.x] = in[threadIdx.x];
  cursor = tile;
  count = 1;
  g_tile[0] = scratch[0];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = cursor[0] + count + g_tile[0];
}
void Run(const float* in, float* out) {
  Reduce<<<4, 64, 64 * sizeof(float)>>>(in, out);
}
)"},
    {"device_variables",
     R"(namespace cfg { __constant__ float kScale[4] = {1, 2, 3, 4}; }
__device__ int g_counter = 0, g_values[8];
__managed__ int g_managed = 7;
static __device__ double g_static;
extern __device__ int g_elsewhere;
__device__ __forceinline__ float Scale(float x) { return x * cfg::kScale[0]; }
__device__ __noinline__ int Next() { return ++g_counter + g_values[0]; }
__host__ __device__ int Both(int x) { return x + 1; }
struct Params { int n; float f; };
__global__ void __launch_bounds__(128)
UseAll(__grid_constant__ const Params p, float* out) {
  out[0] = Scale(p.f) + Next() + Both(g_managed) + g_static;
}
int HostHelper(int x) { return Both(x) + g_managed; }
void Run(float* out) {
  Params p{1, 2.0f};
  UseAll<<<1, 128>>>(p, out);
}
)"},
    {"constant_variables",
     R"(typedef const int ConstInt;
namespace tables { __constant__ float kWeights[8] = {1, 2}; }
__constant__ int g_zero, g_pair[2] = {3, 4};
static __constant__ double g_static = 0.5;
const __constant__ int g_const = 5;
constexpr __constant__ int g_constexpr = 6;
__constant__ ConstInt g_through_typedef = 7;
inline __constant__ short g_inline = 8;
[[maybe_unused]] __constant__ char g_attributed = 'x';
__global__ void Read(float* out) {
  out[0] = tables::kWeights[0] + g_zero + g_pair[1] + g_static + g_const +
           g_constexpr + g_through_typedef + g_inline + g_attributed;
}
void Run(float* out) { Read<<<1, 1>>>(out); }
)"},
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

bool Exists(const std::string& path) {
  struct stat status;
  return stat(path.c_str(), &status) == 0;
}

class GxxIntegrationTest
    : public ::testing::TestWithParam<std::tuple<Program, Pass>> {
 protected:
  void SetUp() override {
    const char* srcdir = std::getenv("TEST_SRCDIR");
    const char* workspace = std::getenv("TEST_WORKSPACE");
    const char* tmpdir = std::getenv("TEST_TMPDIR");
    ASSERT_NE(srcdir, nullptr);
    ASSERT_NE(tmpdir, nullptr);
    include_ = std::string(srcdir) + "/" +
               (workspace != nullptr ? workspace : "mxcts") +
               "/reference/include";
    ASSERT_TRUE(Exists(include_ + "/mcr/detail/launch_abi.h")) << include_;
    // mc_runtime.h is what mxcc includes; the ABI headers are its core.
    runtime_header_ = Exists(include_ + "/mc_runtime.h")
                          ? "-include mc_runtime.h"
                          : "-include mcr/detail/launch_abi.h -include "
                            "mcr/detail/device_abi.h";
    Pass pass = std::get<1>(GetParam());
    base_ = std::string(tmpdir) + "/" + std::get<0>(GetParam()).name +
            (pass == Pass::kHost ? "_host" : "_device");
  }

  // Stages 1-2: the preprocessed source.
  std::string Preprocess(const std::string& source, Pass pass) {
    WriteFile(base_ + ".cu", source);
    std::string command =
        "g++ -E -std=c++17 -x c++ -isystem '" + include_ + "' " +
        runtime_header_ + " -D__MACA__=1 -D__MACACC__=1 " +
        (pass == Pass::kDevice ? "-D__MACA_ARCH__=1000 " : "") + "'" + base_ +
        ".cu' -o '" + base_ + ".ii' 2> '" + base_ + ".pre.err'";
    EXPECT_EQ(std::system(command.c_str()), 0) << ReadFile(base_ + ".pre.err");
    return ReadFile(base_ + ".ii");
  }

  // Stages 5-6 without code generation; the compiler's messages on failure.
  bool Compiles(const std::string& text, std::string* errors) {
    WriteFile(base_ + ".tr.ii", text);
    std::string command =
        "g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -x "
        "c++-cpp-output -isystem '" +
        include_ + "' '" + base_ + ".tr.ii' 2> '" + base_ + ".err'";
    int status = std::system(command.c_str());
    *errors = ReadFile(base_ + ".err");
    return status == 0;
  }

  std::string include_;
  std::string runtime_header_;
  std::string base_;
};

TEST_P(GxxIntegrationTest, TranslationCompiles) {
  auto [program, pass] = GetParam();
  std::string preprocessed = Preprocess(program.source, pass);
  TranslationOptions options;
  options.pass = pass;
  options.image_symbol = kImage;
  Translation t = Translate(preprocessed, options);
  EXPECT_THAT(Messages(t), ::testing::IsEmpty());
  EXPECT_TRUE(t.needs_image);
  EXPECT_EQ(CountLines(t.text), CountLines(preprocessed));
  std::string errors;
  EXPECT_TRUE(Compiles(t.text, &errors)) << errors;
}

TEST_P(GxxIntegrationTest, UntranslatedTextDoesNotCompile) {
  auto [program, pass] = GetParam();
  std::string errors;
  EXPECT_FALSE(Compiles(Preprocess(program.source, pass), &errors));
}

std::string Name(
    const ::testing::TestParamInfo<std::tuple<Program, Pass>>& info) {
  return std::string(std::get<0>(info.param).name) +
         (std::get<1>(info.param) == Pass::kHost ? "_host" : "_device");
}

INSTANTIATE_TEST_SUITE_P(Programs, GxxIntegrationTest,
                         ::testing::Combine(::testing::ValuesIn(kPrograms),
                                            ::testing::Values(Pass::kHost,
                                                              Pass::kDevice)),
                         Name);

}  // namespace
}  // namespace mxcts::compiler::testing
