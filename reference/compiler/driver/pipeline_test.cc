// Copyright mxcts authors.
//
// Tests of the whole driver: the mxcc binary of an SDK tree (:test_sdk)
// compiles small programs in a scratch directory, and the tests check the
// objects, images, diagnostics and programs it produces. The tree holds the
// real headers, translator and device runtime library; its libmcruntime.so
// is a test double (testdata/runtime_stub.cc) that runs kernels one thread
// after another, so that these tests check the driver's output rather than
// the runtime.

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/compiler/driver/process.h"

namespace mxcts::driver {
namespace {

namespace fs = std::filesystem;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

std::string SdkRoot() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir != nullptr ? srcdir : ".") + "/" +
         (workspace != nullptr ? workspace : "mxcts") +
         "/reference/compiler/driver/test_sdk";
}

std::string MxccPath() { return SdkRoot() + "/mxgpu_llvm/bin/mxcc"; }

// The real directory of the SDK's lib/, as the driver finds it.
std::string LibDir() {
  return fs::canonical(MxccPath()).parent_path().parent_path().parent_path() /
         "lib";
}

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("MACA_PATH");
    unsetenv("MXCC_HOST_CXX");
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("pipeline-test");
    ASSERT_TRUE(directory.ok()) << directory.status();
    directory_.push_back(std::move(*directory));
    previous_ = fs::current_path();
    fs::current_path(directory_.front().path());
  }
  void TearDown() override { fs::current_path(previous_); }

  void Write(const std::string& path, const std::string& text) {
    fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent);
    ASSERT_TRUE(WriteFile(path, text).ok());
  }

  // Runs a command in the scratch directory; stdout and stderr captured.
  ProcessResult Run(const std::vector<std::string>& argv) {
    absl::StatusOr<ProcessResult> result =
        RunProcess(argv, ProcessOptions{true, true, {}});
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{127, 0, "", ""};
  }

  // Runs mxcc with `arguments`; expects success unless told otherwise.
  ProcessResult Mxcc(std::vector<std::string> arguments, bool succeed = true) {
    arguments.insert(arguments.begin(), MxccPath());
    ProcessResult result = Run(arguments);
    EXPECT_EQ(result.succeeded(), succeed)
        << FormatCommand(arguments) << "\n"
        << result.stdout_text << result.stderr_text;
    return result;
  }

  // Runs a program built here; returns its stdout, expecting status 0.
  std::string RunProgram(const std::string& program) {
    ProcessResult result = Run({"./" + program});
    EXPECT_TRUE(result.succeeded())
        << program << ": " << result.Describe() << "\n"
        << result.stderr_text;
    return result.stdout_text;
  }

  static bool Exists(const std::string& path) { return fs::exists(path); }

  // Writes a.cu and b.cu, each defining kernel K as `a_kernel` and
  // `b_kernel` say and a function Run_a/Run_b that launches it and returns
  // what it stored, and main.cpp, which prints both results.
  void WriteTwoSourcesWithKernelK(const std::string& a_kernel,
                                  const std::string& b_kernel) {
    const std::string launch =
        "  int* d; mcMalloc((void**)&d, sizeof(int)); K<<<1, 1>>>(d);\n"
        "  int h = 0; mcMemcpy(&h, d, sizeof(int), mcMemcpyDeviceToHost);\n"
        "  return h;\n";
    for (const auto& [name, kernel] :
         {std::pair<std::string, std::string>{"a", a_kernel},
          {"b", b_kernel}}) {
      Write(name + ".cu", "#include <mc_runtime.h>\n" + kernel + "\nint Run_" +
                              name + "() {\n" + launch + "}\n");
    }
    Write("main.cpp",
          "#include <stdio.h>\nint Run_a();\nint Run_b();\n"
          "int main() { printf(\"%d %d\\n\", Run_a(), Run_b()); }\n");
  }

  std::vector<TemporaryDirectory> directory_;
  fs::path previous_;
};

constexpr char kScaleProgram[] = R"(#include <mc_runtime.h>
__global__ void Scale(float* v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}
int main() {
  const int n = 200;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  float* d;
  mcMalloc((void**)&d, sizeof(h));
  mcMemcpy(d, h, sizeof(h), mcMemcpyHostToDevice);
  Scale<<<(n + 63) / 64, 64>>>(d, 3.0f, n);
  mcMemcpy(h, d, sizeof(h), mcMemcpyDeviceToHost);
  printf("%g %g\n", h[1], h[199]);
  return 0;
}
)";

// --- Plain C and C++ sources. ---

TEST_F(PipelineTest, HostOnlyCppCompilesWithTheSdkHeaders) {
  // A .cpp without -x maca is plain C++: no __MACA__, but __MACACC__ and
  // the installation's headers [api.compile.mxcc.maca-macro].
  Write("host.cpp", R"(#include <mc_runtime_api.h>
#include <stdio.h>
int main() {
#ifdef __MACA__
  printf("maca\n");
#endif
  printf("maccc %d version %d\n", __MACACC__, MACART_VERSION > 0);
}
)");
  Mxcc({"host.cpp", "-o", "host"});
  EXPECT_EQ(RunProgram("host"), "maccc 1 version 1\n");
}

TEST_F(PipelineTest, PlainCppDoesNotKnowMacaSyntax) {
  // [api.compile.mxcc.language-option]: without -x maca, a .cpp holding a
  // kernel fails; with it, the same file builds.
  Write("scale.cpp", kScaleProgram);
  ProcessResult plain = Mxcc({"scale.cpp", "-o", "plain"}, /*succeed=*/false);
  EXPECT_THAT(plain.stderr_text, HasSubstr("scale.cpp:2"));
  EXPECT_FALSE(Exists("plain"));
  Mxcc({"-x", "maca", "scale.cpp", "-o", "scale"});
  EXPECT_EQ(RunProgram("scale"), "3 597\n");
}

TEST_F(PipelineTest, PlainCSource) {
  Write("c.c",
        "#include <stdio.h>\nint main(void) { printf(\"c %d\\n\", "
        "__MACACC__); return 0; }\n");
  Mxcc({"c.c", "-o", "c"});
  EXPECT_EQ(RunProgram("c"), "c 1\n");
}

// --- MXMACA sources. ---

TEST_F(PipelineTest, KernelProgramRuns) {
  // [api.compile.mxcc.source-to-executable]
  Write("scale.cu", kScaleProgram);
  Mxcc({"scale.cu", "-o", "scale"});
  EXPECT_EQ(RunProgram("scale"), "3 597\n");
}

TEST_F(PipelineTest, MacrosOfEachPass) {
  // [api.compile.mxcc.maca-arch-device-pass-only] [api.compile.mxcc.maca-macro]
  Write("macros.cu", R"(#include <mc_runtime.h>
__global__ void Which(int* out) {
#ifdef __MACA_ARCH__
  *out = __MACA_ARCH__;
#else
  *out = -1;
#endif
}
int main() {
  int* d;
  mcMalloc((void**)&d, sizeof(int));
  Which<<<1, 1>>>(d);
  int h = 0;
  mcMemcpy(&h, d, sizeof(int), mcMemcpyDeviceToHost);
#ifdef __MACA_ARCH__
  printf("host pass sees __MACA_ARCH__\n");
#endif
  printf("device %d maca %d maccc %d\n", h, __MACA__, __MACACC__);
}
)");
  Mxcc({"macros.cu", "-o", "macros"});
  EXPECT_EQ(RunProgram("macros"), "device 1000 maca 1 maccc 1\n");
}

TEST_F(PipelineTest, KernelObjectCarriesItsImage) {
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  Mxcc({"-c", "k.cu", "-o", "k.o"});
  ProcessResult nm = Run({"nm", "k.o"});
  EXPECT_THAT(nm.stdout_text, ContainsRegex(" D __mc_image_[0-9a-f]{16}\n"));
  // Control: a source without kernels or device variables gets no image.
  Write("h.cu", "int Twice(int x) { return 2 * x; }\n");
  Mxcc({"-c", "h.cu", "-o", "h.o"});
  nm = Run({"nm", "h.o"});
  EXPECT_THAT(nm.stdout_text, HasSubstr("T _Z5Twicei"));
  EXPECT_THAT(nm.stdout_text, Not(HasSubstr("__mc_image_")));
}

TEST_F(PipelineTest, EachObjectHasItsOwnImageSymbol) {
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  Mxcc({"-c", "k.cu", "-o", "one.o"});
  Mxcc({"-c", "k.cu", "-o", "two.o"});
  std::string one = Run({"nm", "one.o"}).stdout_text;
  std::string two = Run({"nm", "two.o"}).stdout_text;
  std::string symbol = one.substr(one.find("__mc_image_"), 27);
  EXPECT_THAT(two, HasSubstr("__mc_image_"));
  EXPECT_THAT(two, Not(HasSubstr(symbol)));
}

TEST_F(PipelineTest, DeviceImageExportsRecordsOnly) {
  Write("k.cu", R"(#include <mc_runtime.h>
int HostHelper(int x) { return x * 2; }
__global__ void K(int* p) { *p = 1; }
int main() { return HostHelper(0); }
)");
  ProcessResult result = Mxcc({"-save-temps", "-c", "k.cu", "-o", "k.o"});
  const std::string marker = "temporary files kept in ";
  size_t at = result.stderr_text.find(marker);
  ASSERT_NE(at, std::string::npos) << result.stderr_text;
  std::string kept = result.stderr_text.substr(at + marker.size());
  kept = kept.substr(0, kept.find('\n'));
  std::string image = kept + "/0-k.image.so";
  ASSERT_TRUE(Exists(image)) << image;
  std::string exported = Run({"nm", "-D", "--defined-only", image}).stdout_text;
  EXPECT_THAT(exported, HasSubstr("__mc_image_bind"));
  EXPECT_THAT(
      exported,
      ContainsRegex("__mcdev__ZN13__mc_internal12DeviceKernel.*6recordE"));
  EXPECT_THAT(exported, Not(HasSubstr("HostHelper")));
  EXPECT_THAT(exported, Not(HasSubstr("main")));
  for (const char* stage : {"host.ii", "host.tr.ii", "device.ii",
                            "device.tr.ii", "device.sep.o", "embed.s"}) {
    EXPECT_TRUE(Exists(kept + "/0-k." + stage)) << stage;
  }
  fs::remove_all(kept);
}

TEST_F(PipelineTest, DeviceOnlyWritesTheImage) {
  Write("k.cu", R"(#include <mc_runtime.h>
int HostHelper(int x) { return x * 2; }
__global__ void K(int* p) { *p = 1; }
)");
  Mxcc({"--offload-device-only", "-c", "k.cu", "-o", "k.so"});
  std::string exported =
      Run({"nm", "-D", "--defined-only", "k.so"}).stdout_text;
  EXPECT_THAT(exported, HasSubstr("__mc_image_bind"));
  EXPECT_THAT(
      exported,
      ContainsRegex("__mcdev__ZN13__mc_internal12DeviceKernel.*6recordE"));
  EXPECT_THAT(exported, Not(HasSubstr("HostHelper")));
  // Without -o the image is named after the source.
  Mxcc({"--offload-device-only", "-c", "k.cu"});
  EXPECT_TRUE(Exists("k.image.so"));
}

TEST_F(PipelineTest, DeviceOnlyWithoutDeviceCodeFails) {
  Write("h.cu", "int Twice(int x) { return 2 * x; }\n");
  ProcessResult result =
      Mxcc({"--offload-device-only", "-c", "h.cu", "-o", "h.so"},
           /*succeed=*/false);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("h.cu has no device code, so '--offload-device-only' "
                        "has no device image to write"));
  EXPECT_FALSE(Exists("h.so"));
}

// [api.compile.mxcc.genco] The module image: the container's magic, then
// the same device image --offload-device-only writes.
TEST_F(PipelineTest, GencoWritesAModuleImage) {
  Write("k.cu", R"(#include <mc_runtime.h>
extern "C" __global__ void K(int* p) { *p = 1; }
)");
  Mxcc({"--genco", "k.cu"});
  ASSERT_TRUE(Exists("k.mcbin"));
  std::ifstream in("k.mcbin", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 36u);
  EXPECT_EQ(bytes.substr(0, 8), "MCMODULE");
  EXPECT_EQ(bytes.substr(32, 4),
            "\x7f"
            "ELF");
  Mxcc({"--genco", "-x", "maca", "k.cu", "-o", "named.bin"});
  EXPECT_TRUE(Exists("named.bin"));
  Write("h.cu", "int Twice(int x) { return 2 * x; }\n");
  ProcessResult result = Mxcc({"--genco", "h.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("h.cu has no device code, so '--genco' has no device "
                        "image to write"));
}

// The sections of the image of c.cu, compiled with -save-temps, as
// `readelf -S -W` shows them; the kept files are removed.
std::string ImageSections(const ProcessResult& compiled) {
  const std::string marker = "temporary files kept in ";
  size_t at = compiled.stderr_text.find(marker);
  if (at == std::string::npos) return "";
  std::string kept = compiled.stderr_text.substr(at + marker.size());
  kept = kept.substr(0, kept.find('\n'));
  absl::StatusOr<ProcessResult> sections =
      RunProcess({"readelf", "-S", "-W", kept + "/0-c.image.so"},
                 ProcessOptions{true, true, {}});
  fs::remove_all(kept);
  return sections.ok() ? sections->stdout_text : "";
}

TEST_F(PipelineTest, ConstantVariablesLieOnPagesOfTheirOwn) {
  // [lang.ub.memory.constant-write] stage 8's linker script: one section,
  // page-aligned at both ends, holding const and non-const constants.
  Write("c.cu", R"(#include <mc_runtime.h>
__constant__ float weights[3] = {1, 2, 3};
const __constant__ int kLimit = 9;
__device__ int counter = 1;
__global__ void K(float* out) { out[0] = weights[2] + kLimit + counter; }
)");
  std::string sections =
      ImageSections(Mxcc({"-save-temps", "-c", "c.cu", "-o", "c.o"}));
  // [Nr] Name Type Address Off Size ES Flg Lk Inf Al
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      sections, match,
      std::regex(R"(__mc_constant +PROGBITS +([0-9a-f]+) [0-9a-f]+ )"
                 R"(([0-9a-f]+) [0-9a-f]+ +WA )")))
      << sections;
  const unsigned long address = std::stoul(match[1].str(), nullptr, 16);
  const unsigned long size = std::stoul(match[2].str(), nullptr, 16);
  EXPECT_EQ(address % 4096, 0u);
  EXPECT_EQ(size, 4096u);
  // Control: the __device__ variable stays in ordinary data.
  EXPECT_THAT(sections, Not(HasSubstr("__mc_constant.")));
}

TEST_F(PipelineTest, ImageWithoutConstantsHasNoConstantPages) {
  Write("c.cu", R"(#include <mc_runtime.h>
__device__ int counter = 1;
__global__ void K(int* out) { out[0] = counter; }
)");
  std::string sections =
      ImageSections(Mxcc({"-save-temps", "-c", "c.cu", "-o", "c.o"}));
  ASSERT_THAT(sections, HasSubstr(".text"));
  EXPECT_THAT(sections, Not(ContainsRegex("__mc_constant +PROGBITS +[0-9a-f]+ "
                                          "[0-9a-f]+ 0*[1-9a-f]")));
}

TEST_F(PipelineTest, TemporaryFilesAreRemovedByDefault) {
  std::string tmp = (fs::current_path() / "tmp").string();
  fs::create_directories(tmp);
  setenv("TMPDIR", tmp.c_str(), 1);
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  Mxcc({"-c", "k.cu"});
  unsetenv("TMPDIR");
  EXPECT_TRUE(Exists("k.o"));
  EXPECT_TRUE(fs::is_empty(tmp));
}

// --- Diagnostics. ---

TEST_F(PipelineTest, DeviceCodeCallingAHostFunctionIsNamedWithItsLine) {
  // [lang.function.call.device-calls-host-only]
  // [api.compile.mxcc.rejects-ill-formed-device-code]
  Write("bad.cu", R"(#include <mc_runtime.h>
int HostOnly(int x) { return x + 1; }
__global__ void K(int* p) {
  *p = HostOnly(1);
}
int main() { K<<<1, 1>>>(nullptr); }
)");
  ProcessResult result = Mxcc({"bad.cu", "-o", "bad"}, /*succeed=*/false);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("bad.cu:4: error: device code calls host-only "
                        "function 'HostOnly(int)'"));
  EXPECT_THAT(result.stderr_text, HasSubstr("In function 'K(int*)'"));
  EXPECT_FALSE(Exists("bad"));
}

TEST_F(PipelineTest, ControlHostDeviceFunctionIsCallable) {
  Write("good.cu", R"(#include <mc_runtime.h>
__host__ __device__ int Both(int x) { return x + 1; }
__global__ void K(int* p) { *p = Both(1); }
int main() {
  int* d;
  mcMalloc((void**)&d, sizeof(int));
  K<<<1, 1>>>(d);
  int h = 0;
  mcMemcpy(&h, d, sizeof(int), mcMemcpyDeviceToHost);
  printf("%d %d\n", h, Both(10));
}
)");
  Mxcc({"good.cu", "-o", "good"});
  EXPECT_EQ(RunProgram("good"), "2 11\n");
}

TEST_F(PipelineTest, TranslatorErrorsStopTheBuild) {
  // [lang.function.global.return-type-void]
  Write("ret.cu",
        "#include <mc_runtime.h>\n__global__ int K() { return 0; }\n");
  ProcessResult result = Mxcc({"-c", "ret.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text, HasSubstr("ret.cu:2:"));
  EXPECT_FALSE(Exists("ret.o"));
}

TEST_F(PipelineTest, HostCompileErrorsPointAtTheUsersLine) {
  Write("err.cu", R"(#include <mc_runtime.h>
__global__ void K(int* p) { *p = 1; }

int main() {
  undeclared_name = 3;
}
)");
  ProcessResult result = Mxcc({"-c", "err.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text, HasSubstr("err.cu:5:"));
  EXPECT_THAT(result.stderr_text, HasSubstr("undeclared_name"));
}

TEST_F(PipelineTest, StrictWarningsAcceptCleanMacaCode) {
  Write("scale.cu", kScaleProgram);
  Mxcc({"-Wall", "-Wextra", "-Werror", "-O2", "-g", "-std=c++17", "scale.cu",
        "-o", "scale"});
  EXPECT_EQ(RunProgram("scale"), "3 597\n");
}

// The device pass compiles host code too; `main` must stay as it is there,
// or its implicit `return 0` would be lost and -Werror would fail.
TEST_F(PipelineTest, MainWithoutReturnUnderWerror) {
  Write("k.cu", R"(#include <mc_runtime.h>
__global__ void K(int* p) { *p = 1; }
int main() { K<<<1, 1>>>(nullptr); }
)");
  Mxcc({"-Wall", "-Werror", "-c", "k.cu"});
}

TEST_F(PipelineTest, UsageErrors) {
  ProcessResult result = Mxcc({"-S", "a.cu"}, /*succeed=*/false);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "mxcc: error: unknown option '-S'\n");
  result = Mxcc({"--offload-arch=gfx90a", "a.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text, HasSubstr("'gfx90a'"));
  result = Mxcc({"--maca-path=/nonexistent/sdk", "a.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text, HasSubstr("/nonexistent/sdk"));
  result = Mxcc({"--version"});
  EXPECT_THAT(result.stdout_text, HasSubstr("mxcc"));
  result = Mxcc({"--help"});
  EXPECT_THAT(result.stdout_text, HasSubstr("--offload-arch"));
}

TEST_F(PipelineTest, MacaPathEnvironmentIsUsedAndNamed) {
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  setenv("MACA_PATH", "/nonexistent/env-sdk", 1);
  ProcessResult result = Mxcc({"-c", "k.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text, HasSubstr("/nonexistent/env-sdk"));
  EXPECT_THAT(result.stderr_text, HasSubstr("MACA_PATH"));
  // --maca-path wins over the environment.
  std::string root =
      fs::canonical(MxccPath()).parent_path().parent_path().parent_path();
  Mxcc({"--maca-path=" + root, "-c", "k.cu"});
  unsetenv("MACA_PATH");
}

// --- Separate compilation and several inputs. ---

constexpr char kKernels[] = R"(#include <mc_runtime.h>
#include "add.h"
__global__ void AddOne(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}
void LaunchAddOne(int* v, int n) { AddOne<<<(n + 63) / 64, 64>>>(v, n); }
)";

constexpr char kMain[] = R"(#include <mc_runtime_api.h>
#include <stdio.h>
#include "add.h"
int main() {
  int h[100];
  for (int i = 0; i < 100; ++i) h[i] = i;
  int* d;
  mcMalloc((void**)&d, sizeof(h));
  mcMemcpy(d, h, sizeof(h), mcMemcpyHostToDevice);
  LaunchAddOne(d, 100);
  mcMemcpy(h, d, sizeof(h), mcMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[99]);
}
)";

TEST_F(PipelineTest, CompileThenLink) {
  // [api.compile.mxcc.separate-compilation]
  Write("add.h", "void LaunchAddOne(int* v, int n);\n");
  Write("kernels.cu", kKernels);
  Write("main.cpp", kMain);
  Mxcc({"-c", "kernels.cu"});
  Mxcc({"-c", "main.cpp"});
  EXPECT_TRUE(Exists("kernels.o"));
  EXPECT_TRUE(Exists("main.o"));
  Mxcc({"kernels.o", "main.o", "-o", "prog"});
  EXPECT_EQ(RunProgram("prog"), "1 100\n");
  // The objects link with plain g++ and the runtime too.
  ProcessResult link =
      Run({"g++", "kernels.o", "main.o", "-L" + LibDir(), "-lmcruntime",
           "-Wl,-rpath," + LibDir(), "-o", "prog_gxx"});
  ASSERT_TRUE(link.succeeded()) << link.stderr_text;
  EXPECT_EQ(RunProgram("prog_gxx"), "1 100\n");
}

TEST_F(PipelineTest, SeveralSourcesInOneCall) {
  Write("add.h", "void LaunchAddOne(int* v, int n);\n");
  Write("kernels.cu", kKernels);
  Write("main.cpp", kMain);
  Mxcc({"kernels.cu", "main.cpp", "-o", "prog"});
  EXPECT_EQ(RunProgram("prog"), "1 100\n");
  // Linking without -c leaves no object behind; -c makes one per source.
  EXPECT_FALSE(Exists("kernels.o"));
  Mxcc({"-c", "kernels.cu", "main.cpp"});
  EXPECT_TRUE(Exists("kernels.o"));
  EXPECT_TRUE(Exists("main.o"));
}

TEST_F(PipelineTest, SameInternalKernelNameInTwoSources) {
  // The records of a `static` kernel and of one in an unnamed namespace
  // have internal linkage; the runtime must still find them, each in its
  // own source's image.
  WriteTwoSourcesWithKernelK(
      "static __global__ void K(int* p) { *p = 1; }",
      "namespace { __global__ void K(int* p) { *p = 2; } }");
  Mxcc({"a.cu", "b.cu", "main.cpp", "-o", "prog"});
  EXPECT_EQ(RunProgram("prog"), "1 2\n");
}

// --- Relocatable device code. ---

// A kernel in one source that calls a device function of another.
constexpr char kRdcKernel[] = R"(#include <mc_runtime.h>
#include <stdio.h>
__device__ int Twice(int x);
__global__ void K(int* p) { p[threadIdx.x] = Twice(threadIdx.x) + 1; }
int main() {
  int* d;
  mcMalloc((void**)&d, 4 * sizeof(int));
  K<<<1, 4>>>(d);
  int h[4];
  mcMemcpy(h, d, sizeof(h), mcMemcpyDeviceToHost);
  printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
}
)";
constexpr char kRdcHelper[] = "__device__ int Twice(int x) { return 2 * x; }\n";

// [api.compile.mxcc.relocatable-device-code]
TEST_F(PipelineTest, RelocatableDeviceCodeLinksAcrossSources) {
  Write("k.cu", kRdcKernel);
  Write("twice.cu", kRdcHelper);
  Mxcc({"-fgpu-rdc", "k.cu", "twice.cu", "-o", "one_call"});
  EXPECT_EQ(RunProgram("one_call"), "1 3 5 7\n");

  // -dc, then a link that needs no option: the objects say what they hold.
  Mxcc({"-dc", "k.cu", "twice.cu"});
  Mxcc({"k.o", "twice.o", "-o", "separate"});
  EXPECT_EQ(RunProgram("separate"), "1 3 5 7\n");

  // A static library of relocatable objects, by path and by -l.
  ProcessResult archive = Run({"ar", "rcs", "libtwice.a", "twice.o"});
  ASSERT_TRUE(archive.succeeded()) << archive.stderr_text;
  Mxcc({"k.o", "libtwice.a", "-o", "by_path"});
  EXPECT_EQ(RunProgram("by_path"), "1 3 5 7\n");
  Mxcc({"k.o", "-L.", "-ltwice", "-o", "by_name"});
  EXPECT_EQ(RunProgram("by_name"), "1 3 5 7\n");

  // --device-link makes an object that another linker links.
  Mxcc({"--device-link", "k.o", "twice.o", "-o", "dlink.o"});
  ProcessResult link =
      Run({"g++", "k.o", "twice.o", "dlink.o", "-L" + LibDir(), "-lmcruntime",
           "-Wl,-rpath," + LibDir(), "-o", "by_gxx"});
  ASSERT_TRUE(link.succeeded()) << link.stderr_text;
  EXPECT_EQ(RunProgram("by_gxx"), "1 3 5 7\n");
  // Control: without the device link object, the images are missing.
  link = Run({"g++", "k.o", "twice.o", "-L" + LibDir(), "-lmcruntime", "-o",
              "no_dlink"});
  EXPECT_FALSE(link.succeeded());
  EXPECT_THAT(link.stderr_text,
              HasSubstr("undefined reference to `__mc_image_"));
}

TEST_F(PipelineTest, WithoutRelocatableDeviceCodeTheDiagnosticNamesTheOption) {
  Write("k.cu", kRdcKernel);
  ProcessResult result = Mxcc({"-c", "k.cu"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("k.cu:4: error: 'Twice(int)' is declared for device "
                        "code in this source but defined in another"));
  EXPECT_THAT(result.stderr_text, HasSubstr("-fgpu-rdc"));
  // Control: with the option the same source compiles; the link of it
  // alone says no source defines the function.
  Mxcc({"-fgpu-rdc", "-c", "k.cu"});
  result = Mxcc({"k.o", "-o", "alone"}, /*succeed=*/false);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("error: device code uses 'Twice(int)', which no "
                        "source of the device link defines"));
}

TEST_F(PipelineTest, RelocatableObjectsKeepTheirOwnInternalKernels) {
  WriteTwoSourcesWithKernelK("static __global__ void K(int* p) { *p = 1; }",
                             "static __global__ void K(int* p) { *p = 2; }");
  Mxcc({"-fgpu-rdc", "a.cu", "b.cu", "main.cpp", "-o", "prog"});
  EXPECT_EQ(RunProgram("prog"), "1 2\n");
}

TEST_F(PipelineTest, DamagedArchiveIsNamed) {
  Write("k.cu", kRdcKernel);
  Mxcc({"-dc", "k.cu"});
  Write("libbad.a", "!<arch>\nshort");
  ProcessResult result = Mxcc({"k.o", "libbad.a", "-o", "p"}, false);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("mxcc: error: libbad.a: truncated archive member "
                        "header"));
}

TEST_F(PipelineTest, PathsWithSpaces) {
  Write("my dir/scale prog.cu", kScaleProgram);
  Mxcc({"my dir/scale prog.cu", "-o", "my dir/scale prog"});
  EXPECT_EQ(RunProgram("my dir/scale prog"), "3 597\n");
}

// --- Dependencies, -E, -v, the host compiler. ---

TEST_F(PipelineTest, DependencyFileOfAMacaObject) {
  Write("inc/my.h", "#define VALUE 7\n");
  Write("k.cu",
        "#include \"my.h\"\n__global__ void K(int* p) { *p = VALUE; }\n");
  fs::create_directories("obj");
  Mxcc({"-Iinc", "-MD", "-MP", "-c", "k.cu", "-o", "obj/k.o"});
  absl::StatusOr<std::string> deps = ReadFile("obj/k.d");
  ASSERT_TRUE(deps.ok()) << deps.status();
  EXPECT_THAT(*deps, ::testing::StartsWith("obj/k.o: k.cu"));
  EXPECT_THAT(*deps, HasSubstr("inc/my.h"));
  EXPECT_THAT(*deps, HasSubstr("\ninc/my.h:"));  // -MP's phony target
  // Explicit -MF and -MT are kept.
  Mxcc({"-Iinc", "-MD", "-MF", "custom.d", "-MT", "target", "-c", "k.cu"});
  deps = ReadFile("custom.d");
  ASSERT_TRUE(deps.ok());
  EXPECT_THAT(*deps, ::testing::StartsWith("target: k.cu"));
}

TEST_F(PipelineTest, DependenciesOnly) {
  Write("my.h", "int x;\n");
  Write("k.cu", "#include \"my.h\"\n__global__ void K(int* p) { *p = 1; }\n");
  ProcessResult result = Mxcc({"-M", "k.cu"});
  EXPECT_THAT(result.stdout_text, ::testing::StartsWith("k.o: k.cu"));
  EXPECT_THAT(result.stdout_text, HasSubstr("my.h"));
  EXPECT_THAT(result.stdout_text, HasSubstr("mc_runtime.h"));
  EXPECT_FALSE(Exists("k.o"));
}

TEST_F(PipelineTest, PreprocessOnlyShowsTheHostPass) {
  Write("k.cu",
        "#ifdef __MACA_ARCH__\ndevice_pass\n#else\nhost_pass\n#endif\n");
  ProcessResult result = Mxcc({"-E", "k.cu"});
  EXPECT_THAT(result.stdout_text, HasSubstr("host_pass"));
  EXPECT_THAT(result.stdout_text, Not(HasSubstr("device_pass")));
}

TEST_F(PipelineTest, VerbosePrintsEveryCommand) {
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  ProcessResult result = Mxcc({"-v", "-c", "k.cu"});
  for (const char* expected :
       {"g++ -E -x c++", "-D__MACA_ARCH__=1000", "translate --pass=host",
        "translate --pass=device", "-x c++-cpp-output",
        "--prefix-symbols=__mcdev_", "-Wl,--no-undefined", "-x assembler",
        "ld -r"}) {
    EXPECT_THAT(result.stderr_text, HasSubstr(expected));
  }
  // Control: without -v, nothing is printed.
  result = Mxcc({"-c", "k.cu"});
  EXPECT_EQ(result.stderr_text, "");
}

TEST_F(PipelineTest, AnInterruptRemovesTheTemporaryFiles) {
  // The host compiler interrupts mxcc when the device link starts; mxcc
  // lets the link finish, runs nothing more, cleans up and dies of the
  // signal, as a compiler interrupted from the terminal should.
  std::string tmp = (fs::current_path() / "tmp").string();
  fs::create_directories(tmp);
  Write("cxx",
        "#!/bin/sh\n"
        "case \"$*\" in *-shared*) kill -INT $PPID ;; esac\n"
        "exec g++ \"$@\"\n");
  chmod("cxx", 0755);
  setenv("MXCC_HOST_CXX", (fs::current_path() / "cxx").c_str(), 1);
  setenv("TMPDIR", tmp.c_str(), 1);
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  ProcessResult result = Run({MxccPath(), "-c", "k.cu"});
  unsetenv("MXCC_HOST_CXX");
  unsetenv("TMPDIR");
  EXPECT_EQ(result.signal, SIGINT) << result.Describe() << result.stderr_text;
  EXPECT_FALSE(Exists("k.o"));
  EXPECT_TRUE(fs::is_empty(tmp));
}

TEST_F(PipelineTest, HostCompilerFromTheEnvironment) {
  std::string log = (fs::current_path() / "cxx.log").string();
  Write("cxx", "#!/bin/sh\necho \"$@\" >>'" + log + "'\nexec g++ \"$@\"\n");
  chmod("cxx", 0755);
  setenv("MXCC_HOST_CXX", (fs::current_path() / "cxx").c_str(), 1);
  Write("k.cu", "__global__ void K(int* p) { *p = 1; }\n");
  Mxcc({"-c", "k.cu"});
  unsetenv("MXCC_HOST_CXX");
  absl::StatusOr<std::string> calls = ReadFile(log);
  ASSERT_TRUE(calls.ok());
  EXPECT_THAT(*calls, HasSubstr("-E -x c++"));
  EXPECT_THAT(*calls, HasSubstr("-shared"));
}

}  // namespace
}  // namespace mxcts::driver
