// Conformance: compiling with mcrtc (docs/spec/api-compilation.md,
// "Runtime compilation with mcrtc"): options and what they change, the
// log of a failed compilation at the program's file and line, headers given
// as strings, name expressions and their lowered names, the code and
// bitcode getters. What a compiled image does is checked by launching it
// through the module API.

#include <dirent.h>
#include <mc_runtime.h>
#include <mcrtc.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cctype>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "conformance/api/testing/rtc_module.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::CompiledProgram;
using mxcts::conformance::CompileProgram;
using mxcts::conformance::ScopedModule;

// Runs `kernel` (taking an int* with room for 4 values) once on a block of
// 4 threads and returns what it wrote, or {-1} if it could not run.
std::vector<int> RunOnFour(const CompiledProgram& program, const char* kernel) {
  std::vector<int> result(4, -1);
  ScopedModule module(program.image);
  if (module.result() != mcSuccess) return {-1};
  mcFunction_t f = module.Function(kernel);
  if (f == nullptr) return {-1};
  int* out = nullptr;
  if (mcMalloc(&out, 4 * sizeof(int)) != mcSuccess) return {-1};
  mcMemset(out, 0, 4 * sizeof(int));
  void* args[] = {&out};
  if (mcModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr) !=
          mcSuccess ||
      mcMemcpy(result.data(), out, 4 * sizeof(int), mcMemcpyDeviceToHost) !=
          mcSuccess) {
    result = {-1};
  }
  mcFree(out);
  return result;
}

class McrtcCompile : public ::testing::Test {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("runtime_compilation"); }
};

constexpr char kValueKernel[] = R"(
extern "C" __global__ void value(int* out) { out[threadIdx.x] = VALUE + threadIdx.x; }
)";

TEST_F(McrtcCompile, ValidSourceCompilesToALoadableImage) {
  MX_SPEC("api.rtc.compile.success", "api.rtc.code.get-code",
          "api.module.load-data.loads-image");
  CompiledProgram p = CompileProgram(kValueKernel, "value.cu", {"-DVALUE=10"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  ASSERT_FALSE(p.image.empty());
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{10, 11, 12, 13}));
}

TEST_F(McrtcCompile, TheGuideExampleCompilesWithDashXMaca) {
  MX_SPEC("api.rtc.compile.options", "api.rtc.compile.success");
  const char* source =
      "extern \"C\" __global__ void test_kernel() { /* kernel code */ }\n";
  CompiledProgram p = CompileProgram(source, "", {"-x maca"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  ScopedModule module(p.image);
  ASSERT_EQ(module.result(), mcSuccess);
  mcFunction_t f = module.Function("test_kernel");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(
      mcModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
      mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

TEST_F(McrtcCompile, SuccessfulCompilationOfCleanCodeHasAnEmptyLog) {
  MX_SPEC("api.rtc.log.size-includes-terminator");
  CompiledProgram p = CompileProgram(kValueKernel, "value.cu", {"-DVALUE=1"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(p.log, "");
}

// --- Errors and the log. ---

TEST_F(McrtcCompile, ErrorIsCompilationWithFileAndLine) {
  MX_SPEC("api.rtc.compile.error-returns-compilation",
          "api.rtc.compile.log-names-program-and-headers");
  const char* source =
      "extern \"C\" __global__ void broken(int* out) {\n"
      "  out[0] = 1;\n"
      "  out[1] = undeclared_name;\n"
      "}\n";
  CompiledProgram p = CompileProgram(source, "broken.cu");
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("broken.cu:3"), std::string::npos) << p.log;
  EXPECT_NE(p.log.find("undeclared_name"), std::string::npos) << p.log;
  EXPECT_TRUE(p.image.empty());
}

TEST_F(McrtcCompile, LanguageRuleViolationIsCompilation) {
  MX_SPEC("api.rtc.compile.error-returns-compilation");
  const char* source = "\n__global__ int returns_int() { return 1; }\n";
  CompiledProgram p = CompileProgram(source, "kernel_returns.cu");
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("kernel_returns.cu:2"), std::string::npos) << p.log;
}

TEST_F(McrtcCompile, ErrorInAHeaderNamesTheHeader) {
  MX_SPEC("api.rtc.compile.log-names-program-and-headers",
          "api.rtc.compile.error-returns-compilation");
  CompiledProgram p = CompileProgram(
      "#include \"bad.h\"\nextern \"C\" __global__ void k() {}\n", "main.cu",
      {}, {}, {{"bad.h", "// line 1\nint x = ;\n"}});
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("bad.h:2"), std::string::npos) << p.log;
  EXPECT_EQ(p.log.find("mcrtc-"), std::string::npos) << p.log;
}

TEST_F(McrtcCompile, UnnamedProgramIsDefaultProgramInTheLog) {
  MX_SPEC("api.rtc.create.default-name");
  CompiledProgram p = CompileProgram(
      "int x = ;\nextern \"C\" __global__ void k() {}\n", nullptr);
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("default_program:1"), std::string::npos) << p.log;
}

TEST_F(McrtcCompile, EmptyNameIsDefaultProgramInTheLog) {
  MX_SPEC("api.rtc.create.default-name");
  CompiledProgram p =
      CompileProgram("\nint x = ;\nextern \"C\" __global__ void k() {}\n", "");
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("default_program:2"), std::string::npos) << p.log;
}

TEST_F(McrtcCompile, DeviceCodeCallingHostCodeIsCompilation) {
  MX_SPEC("api.rtc.compile.error-returns-compilation");
  const char* source =
      "int host_only(int x) { return x + 1; }\n"
      "extern \"C\" __global__ void k(int* out) { out[0] = host_only(1); }\n";
  CompiledProgram p = CompileProgram(source, "host_call.cu");
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("host_only"), std::string::npos) << p.log;
}

TEST_F(McrtcCompile, ProgramWithoutDeviceCodeDoesNotCompile) {
  MX_SPEC("api.compile.mxcc.genco");
  CompiledProgram p = CompileProgram("int host_only() { return 1; }\n", "h.cu");
  EXPECT_NE(p.result, MCRTC_SUCCESS);
  EXPECT_FALSE(p.log.empty());
}

// --- Options. ---

TEST_F(McrtcCompile, DefineWithValueReachesTheSource) {
  MX_SPEC("api.rtc.compile.options");
  CompiledProgram p = CompileProgram(kValueKernel, "v.cu", {"-DVALUE=7"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{7, 8, 9, 10}));
}

TEST_F(McrtcCompile, DefineAsTwoOptionsReachesTheSource) {
  MX_SPEC("api.rtc.compile.options");
  CompiledProgram p = CompileProgram(kValueKernel, "v.cu", {"-D", "VALUE=3"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{3, 4, 5, 6}));
}

TEST_F(McrtcCompile, LongDefineFormReachesTheSource) {
  MX_SPEC("api.rtc.compile.options");
  CompiledProgram p =
      CompileProgram(kValueKernel, "v.cu", {"--define-macro=VALUE=20"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{20, 21, 22, 23}));
}

TEST_F(McrtcCompile, DefineWithoutValueIsOne) {
  MX_SPEC("api.rtc.compile.options");
  const char* source =
      "extern \"C\" __global__ void value(int* out) { out[threadIdx.x] = "
      "FLAG; }\n";
  CompiledProgram p = CompileProgram(source, "flag.cu", {"-DFLAG"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{1, 1, 1, 1}));
}

TEST_F(McrtcCompile, MissingDefineIsACompilationError) {
  MX_SPEC("api.rtc.compile.options",
          "api.rtc.compile.error-returns-compilation");
  CompiledProgram p = CompileProgram(kValueKernel, "v.cu");
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("VALUE"), std::string::npos) << p.log;
}

TEST_F(McrtcCompile, UndefineRemovesADefinition) {
  MX_SPEC("api.rtc.compile.options");
  const char* source =
      "#define CHOICE 5\n"
      "extern \"C\" __global__ void value(int* out) {\n"
      "#ifdef CHOICE\n  out[threadIdx.x] = CHOICE;\n#else\n"
      "  out[threadIdx.x] = 9;\n#endif\n}\n";
  CompiledProgram control = CompileProgram(source, "u.cu");
  ASSERT_EQ(control.result, MCRTC_SUCCESS) << control.log;
  EXPECT_EQ(RunOnFour(control, "value"), (std::vector<int>{5, 5, 5, 5}));
  const char* defines_later =
      "extern \"C\" __global__ void value(int* out) {\n"
      "#ifdef CHOICE\n  out[threadIdx.x] = CHOICE;\n#else\n"
      "  out[threadIdx.x] = 9;\n#endif\n}\n";
  CompiledProgram undone =
      CompileProgram(defines_later, "u.cu", {"-DCHOICE=4", "-UCHOICE"});
  ASSERT_EQ(undone.result, MCRTC_SUCCESS) << undone.log;
  EXPECT_EQ(RunOnFour(undone, "value"), (std::vector<int>{9, 9, 9, 9}));
}

class IncludeDirectory : public McrtcCompile {
 protected:
  void SetUp() override {
    McrtcCompile::SetUp();
    if (IsSkipped()) return;
    const char* tmp = getenv("TEST_TMPDIR");
    directory_ =
        std::string(tmp ? tmp : "/tmp") + "/mcrtc_include_" +
        ::testing::UnitTest::GetInstance()->current_test_info()->name();
    mkdir(directory_.c_str(), 0755);
    std::ofstream(directory_ + "/offset.h") << "#define OFFSET 100\n";
  }
  std::string directory_;
};

constexpr char kIncludesOffset[] =
    "#include \"offset.h\"\n"
    "extern \"C\" __global__ void value(int* out) { out[threadIdx.x] = OFFSET; "
    "}\n";

TEST_F(IncludeDirectory, IncludePathOptionFindsHeaders) {
  MX_SPEC("api.rtc.compile.options");
  CompiledProgram p = CompileProgram(kIncludesOffset, "inc.cu",
                                     {"--include-path=" + directory_});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{100, 100, 100, 100}));
}

TEST_F(IncludeDirectory, DashIFindsHeaders) {
  MX_SPEC("api.rtc.compile.options");
  CompiledProgram p =
      CompileProgram(kIncludesOffset, "inc.cu", {"-I" + directory_});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{100, 100, 100, 100}));
}

TEST_F(IncludeDirectory, DashIAsTwoOptionsFindsHeaders) {
  MX_SPEC("api.rtc.compile.options");
  CompiledProgram p =
      CompileProgram(kIncludesOffset, "inc.cu", {"-I", directory_});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{100, 100, 100, 100}));
}

TEST_F(IncludeDirectory, WithoutTheDirectoryTheHeaderIsMissing) {
  MX_SPEC("api.rtc.compile.options",
          "api.rtc.compile.error-returns-compilation");
  CompiledProgram p = CompileProgram(kIncludesOffset, "inc.cu");
  EXPECT_EQ(p.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(p.log.find("offset.h"), std::string::npos) << p.log;
}

TEST_F(IncludeDirectory, GivenHeadersTakePrecedence) {
  MX_SPEC("api.rtc.create.headers-take-precedence");
  CompiledProgram p =
      CompileProgram(kIncludesOffset, "inc.cu", {"-I" + directory_}, {},
                     {{"offset.h", "#define OFFSET 7\n"}});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{7, 7, 7, 7}));
}

TEST_F(McrtcCompile, HeadersInSubdirectoriesAndNestedIncludes) {
  MX_SPEC("api.rtc.create.creates-program",
          "api.rtc.create.headers-take-precedence");
  const char* source =
      "#include \"lib/outer.h\"\n"
      "extern \"C\" __global__ void value(int* out) { out[threadIdx.x] = "
      "Outer(); }\n";
  CompiledProgram p =
      CompileProgram(source, "nested.cu", {}, {},
                     {{"lib/outer.h",
                       "#include \"inner.h\"\n__device__ int Outer() { "
                       "return INNER * 2; }\n"},
                      {"inner.h", "#define INNER 21\n"}});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{42, 42, 42, 42}));
}

constexpr char kStandardKernel[] =
    "extern \"C\" __global__ void value(int* out) { out[threadIdx.x] = "
    "static_cast<int>(__cplusplus / 100); }\n";

struct StandardCase {
  const char* option;
  int year;
};

class Standard : public ::testing::TestWithParam<StandardCase> {};

TEST_P(Standard, SelectsTheLanguageStandard) {
  MX_SPEC("api.rtc.compile.standards", "api.rtc.compile.options");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  CompiledProgram p =
      CompileProgram(kStandardKernel, "std.cu", {GetParam().option});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  const int year = GetParam().year;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{year, year, year, year}));
}

INSTANTIATE_TEST_SUITE_P(
    Standards, Standard,
    ::testing::Values(StandardCase{"-std=c++17", 2017},
                      StandardCase{"-std=c++20", 2020},
                      StandardCase{"-std=gnu++17", 2017},
                      StandardCase{"--std=c++20", 2020}),
    [](const ::testing::TestParamInfo<StandardCase>& info) {
      std::string name = info.param.option;
      std::string out;
      for (char c : name)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return out;
    });

TEST_F(McrtcCompile, Cxx20FeatureNeedsCxx20) {
  MX_SPEC("api.rtc.compile.standards");
  const char* source =
      "template <typename T> concept Small = sizeof(T) <= 4;\n"
      "template <Small T> __device__ int Size() { return sizeof(T); }\n"
      "extern \"C\" __global__ void value(int* out) { out[threadIdx.x] = "
      "Size<int>(); }\n";
  CompiledProgram with = CompileProgram(source, "concepts.cu", {"-std=c++20"});
  ASSERT_EQ(with.result, MCRTC_SUCCESS) << with.log;
  EXPECT_EQ(RunOnFour(with, "value"), (std::vector<int>{4, 4, 4, 4}));
  CompiledProgram without =
      CompileProgram(source, "concepts.cu", {"-std=c++17"});
  EXPECT_EQ(without.result, MCRTC_ERROR_COMPILATION);
  EXPECT_NE(without.log.find("concepts.cu:1"), std::string::npos)
      << without.log;
}

class Optimization : public ::testing::TestWithParam<const char*> {};

TEST_P(Optimization, EveryLevelGivesTheSameResults) {
  MX_SPEC("api.rtc.compile.options");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  CompiledProgram p =
      CompileProgram(kValueKernel, "o.cu", {GetParam(), "-DVALUE=2"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{2, 3, 4, 5}));
}

INSTANTIATE_TEST_SUITE_P(Levels, Optimization,
                         ::testing::Values("-O0", "-O1", "-O2", "-O3"));

class OffloadArch : public ::testing::TestWithParam<const char*> {};

TEST_P(OffloadArch, KnownArchitectureCompilesAndRunsOnThisDevice) {
  MX_SPEC("api.rtc.compile.options", "api.compile.mxcc.offload-arch");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  int major = 0;
  ASSERT_EQ(
      mcDeviceGetAttribute(&major, mcDeviceAttributeComputeCapabilityMajor, 0),
      mcSuccess);
  if (std::string(GetParam()) == "--offload-arch=xcore1000" && major != 10) {
    GTEST_SKIP() << "device 0 is not an xcore1000 device";
  }
  CompiledProgram p =
      CompileProgram(kValueKernel, "a.cu", {GetParam(), "-DVALUE=0"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{0, 1, 2, 3}));
}

INSTANTIATE_TEST_SUITE_P(Archs, OffloadArch,
                         ::testing::Values("--offload-arch=xcore1000",
                                           "--offload-arch=native"));

class IgnoredOption : public ::testing::TestWithParam<const char*> {};

TEST_P(IgnoredOption, IsAcceptedAndChangesNothing) {
  MX_SPEC("api.rtc.compile.options");
  MX_REQUIRE_CAPABILITY("runtime_compilation");
  CompiledProgram p =
      CompileProgram(kValueKernel, "i.cu", {GetParam(), "-DVALUE=5"});
  ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  EXPECT_EQ(RunOnFour(p, "value"), (std::vector<int>{5, 6, 7, 8}));
}

INSTANTIATE_TEST_SUITE_P(Options, IgnoredOption,
                         ::testing::Values("-x maca", "-w", "-G", "-lineinfo",
                                           "-default-device"));

TEST_F(McrtcCompile, ProgramCompilesAgainAfterAnError) {
  MX_SPEC("api.rtc.compile.success",
          "api.rtc.compile.unknown-option-invalid-option");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(
      mcrtcCreateProgram(&p, kValueKernel, "again.cu", 0, nullptr, nullptr),
      MCRTC_SUCCESS);
  const char* bad[] = {"--no-such-option"};
  EXPECT_EQ(mcrtcCompileProgram(p, 1, bad), MCRTC_ERROR_INVALID_OPTION);
  size_t size = 7;
  EXPECT_EQ(mcrtcGetCodeSize(p, &size), MCRTC_SUCCESS);
  EXPECT_EQ(size, 0u);
  const char* good[] = {"-DVALUE=1"};
  EXPECT_EQ(mcrtcCompileProgram(p, 1, good), MCRTC_SUCCESS);
  EXPECT_EQ(mcrtcGetCodeSize(p, &size), MCRTC_SUCCESS);
  EXPECT_GT(size, 0u);
  mcrtcDestroyProgram(&p);
}

// --- Code, bitcode, destroy. ---

TEST_F(McrtcCompile, BitcodeLoadsAndRunsLikeTheCode) {
  MX_SPEC("api.rtc.code.get-bitcode", "api.rtc.code.bitcode-is-the-image");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kValueKernel, "bc.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  const char* options[] = {"-DVALUE=30"};
  ASSERT_EQ(mcrtcCompileProgram(p, 1, options), MCRTC_SUCCESS);
  size_t code_size = 0, bitcode_size = 0;
  ASSERT_EQ(mcrtcGetCodeSize(p, &code_size), MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcGetBitcodeSize(p, &bitcode_size), MCRTC_SUCCESS);
  ASSERT_GT(bitcode_size, 0u);
  CompiledProgram bitcode;
  bitcode.image.resize(bitcode_size);
  ASSERT_EQ(mcrtcGetBitcode(p, bitcode.image.data()), MCRTC_SUCCESS);
  std::vector<char> code(code_size);
  ASSERT_EQ(mcrtcGetCode(p, code.data()), MCRTC_SUCCESS);
  EXPECT_EQ(code, bitcode.image);
  mcrtcDestroyProgram(&p);
  EXPECT_EQ(RunOnFour(bitcode, "value"), (std::vector<int>{30, 31, 32, 33}));
}

TEST_F(McrtcCompile, CodeStaysValidAfterTheProgramIsDestroyed) {
  MX_SPEC("api.rtc.destroy.releases-program");
  mcrtcProgram p = nullptr;
  ASSERT_EQ(mcrtcCreateProgram(&p, kValueKernel, "d.cu", 0, nullptr, nullptr),
            MCRTC_SUCCESS);
  const char* options[] = {"-DVALUE=40"};
  ASSERT_EQ(mcrtcCompileProgram(p, 1, options), MCRTC_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(mcrtcGetCodeSize(p, &size), MCRTC_SUCCESS);
  CompiledProgram kept;
  kept.image.resize(size);
  ASSERT_EQ(mcrtcGetCode(p, kept.image.data()), MCRTC_SUCCESS);
  ASSERT_EQ(mcrtcDestroyProgram(&p), MCRTC_SUCCESS);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(RunOnFour(kept, "value"), (std::vector<int>{40, 41, 42, 43}));
}

TEST_F(McrtcCompile, CompilationLeavesNoTemporaryFiles) {
  MX_SPEC("api.rtc.compile.isolated-and-bounded");
  const char* tmp = getenv("TEST_TMPDIR");
  std::string directory = std::string(tmp ? tmp : "/tmp") + "/mcrtc_scratch";
  mkdir(directory.c_str(), 0700);
  const char* previous = getenv("TMPDIR");
  std::string saved = previous ? previous : "";
  setenv("TMPDIR", directory.c_str(), 1);
  CompiledProgram good = CompileProgram(kValueKernel, "t.cu", {"-DVALUE=1"});
  CompiledProgram bad = CompileProgram(
      "int x = ;\nextern \"C\" __global__ void k() {}\n", "t.cu");
  if (previous) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_EQ(good.result, MCRTC_SUCCESS) << good.log;
  EXPECT_EQ(bad.result, MCRTC_ERROR_COMPILATION);
  int entries = 0;
  if (DIR* dir = opendir(directory.c_str())) {
    while (dirent* entry = readdir(dir)) {
      if (std::strcmp(entry->d_name, ".") != 0 &&
          std::strcmp(entry->d_name, "..") != 0) {
        ++entries;
      }
    }
    closedir(dir);
  }
  EXPECT_EQ(entries, 0);
}

TEST_F(McrtcCompile, ShellCharactersInNamesAndOptionsAreNotInterpreted) {
  MX_SPEC("api.rtc.compile.isolated-and-bounded");
  const char* tmp = getenv("TEST_TMPDIR");
  std::string marker = std::string(tmp ? tmp : "/tmp") + "/mcrtc_shell_marker";
  std::string name = "k.cu; touch " + marker;
  CompiledProgram p = CompileProgram(
      kValueKernel, name.c_str(), {"-DVALUE=1", "-DX=$(touch " + marker + ")"});
  EXPECT_EQ(p.result, MCRTC_SUCCESS) << p.log;
  struct stat info;
  EXPECT_NE(stat(marker.c_str(), &info), 0) << "a shell ran a command";
}

TEST_F(McrtcCompile, DistinctProgramsCompileConcurrently) {
  MX_SPEC("api.rtc.thread-safety.distinct-programs");
  std::vector<CompiledProgram> results(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&results, i] {
      results[i] = CompileProgram(kValueKernel, "thread.cu",
                                  {"-DVALUE=" + std::to_string(i * 10)});
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(results[i].result, MCRTC_SUCCESS) << results[i].log;
    EXPECT_EQ(RunOnFour(results[i], "value"),
              (std::vector<int>{i * 10, i * 10 + 1, i * 10 + 2, i * 10 + 3}));
  }
}

}  // namespace
