// Copyright mxcts authors.
//
// Tests of ParseCommandLine(): every option form mxcc accepts, the errors
// that name the offending argument, the -x ordering rule and the
// classification of inputs.

#include "reference/compiler/driver/command_line.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::driver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

CommandLine Parse(const std::vector<std::string>& arguments) {
  absl::StatusOr<CommandLine> parsed = ParseCommandLine(arguments);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return parsed.ok() ? *parsed : CommandLine{};
}

std::string ParseError(const std::vector<std::string>& arguments) {
  absl::StatusOr<CommandLine> parsed = ParseCommandLine(arguments);
  EXPECT_FALSE(parsed.ok());
  return parsed.ok() ? "" : std::string(parsed.status().message());
}

Input Maca(const std::string& path) { return {InputKind::kMacaSource, path}; }
Input Cxx(const std::string& path) { return {InputKind::kCxxSource, path}; }
Input C(const std::string& path) { return {InputKind::kCSource, path}; }
Input LinkFile(const std::string& path) {
  return {InputKind::kLinkerInput, path};
}
Input LinkOption(const std::string& word) {
  return {InputKind::kLinkerOption, word};
}

TEST(CommandLineTest, TypicalMacaCompileAndLink) {
  CommandLine cl = Parse({"-x", "maca", "a.cpp", "-o", "a"});
  EXPECT_EQ(cl.mode, Mode::kLink);
  EXPECT_THAT(cl.inputs, ElementsAre(Maca("a.cpp")));
  EXPECT_EQ(cl.output, "a");
}

TEST(CommandLineTest, CompileOnlyAndJoinedOutput) {
  CommandLine cl = Parse({"-c", "a.cu", "-oa.o"});
  EXPECT_EQ(cl.mode, Mode::kCompile);
  EXPECT_EQ(cl.output, "a.o");
}

TEST(CommandLineTest, PreprocessOnly) {
  EXPECT_EQ(Parse({"-E", "a.cu"}).mode, Mode::kPreprocess);
  // -E wins over -c, as in gcc.
  EXPECT_EQ(Parse({"-c", "-E", "a.cu"}).mode, Mode::kPreprocess);
  EXPECT_EQ(Parse({"-M", "a.cu"}).mode, Mode::kPreprocess);
  EXPECT_EQ(Parse({"-MM", "a.cu"}).mode, Mode::kPreprocess);
  // -MD writes dependencies while compiling: the mode stays.
  EXPECT_EQ(Parse({"-MD", "-c", "a.cu"}).mode, Mode::kCompile);
}

TEST(CommandLineTest, PreprocessorFlagsKeepTheirOrderInBothForms) {
  CommandLine cl = Parse(
      {"-I",       "inc", "-Iinc2",     "-D",       "A=1",      "-DB",
       "-U",       "C",   "-UD",        "-isystem", "sys",      "-isystemsys2",
       "-iquote",  "q",   "-idirafter", "after",    "-include", "pre.h",
       "-imacros", "m.h", "-Wp,-DX",    "a.cu"});
  EXPECT_THAT(
      cl.preprocessor_flags,
      ElementsAre("-Iinc", "-Iinc2", "-DA=1", "-DB", "-UC", "-UD", "-isystem",
                  "sys", "-isystem", "sys2", "-iquote", "q", "-idirafter",
                  "after", "-include", "pre.h", "-imacros", "m.h", "-Wp,-DX"));
  EXPECT_THAT(cl.code_flags, IsEmpty());
}

TEST(CommandLineTest, CodeFlags) {
  CommandLine cl = Parse({"-O0",
                          "-O1",
                          "-O2",
                          "-O3",
                          "-Os",
                          "-O",
                          "-g",
                          "-g3",
                          "-std=c++17",
                          "--std=c++14",
                          "-fPIC",
                          "-fno-exceptions",
                          "-m64",
                          "-march=native",
                          "-Wall",
                          "-Wextra",
                          "-Werror",
                          "-Wno-unused",
                          "-W",
                          "-w",
                          "-pedantic",
                          "-pthread",
                          "-Wa,--noexecstack",
                          "a.cu"});
  EXPECT_THAT(cl.code_flags,
              ElementsAre("-O0", "-O1", "-O2", "-O3", "-Os", "-O", "-g", "-g3",
                          "-std=c++17", "-std=c++14", "-fPIC",
                          "-fno-exceptions", "-m64", "-march=native", "-Wall",
                          "-Wextra", "-Werror", "-Wno-unused", "-W", "-w",
                          "-pedantic", "-pthread", "-Wa,--noexecstack"));
  EXPECT_THAT(cl.preprocessor_flags, IsEmpty());
  EXPECT_THAT(cl.link_flags, IsEmpty());
}

TEST(CommandLineTest, LinkFlagsAndPositionalLinkerOptions) {
  CommandLine cl = Parse({"-L", "lib", "-Llib2", "a.o", "-l", "foo", "-lbar",
                          "b.o", "-Wl,-rpath,/x", "-Xlinker", "--as-needed",
                          "-shared", "-static-libstdc++", "-rdynamic"});
  EXPECT_THAT(cl.link_flags, ElementsAre("-Llib", "-Llib2", "-shared",
                                         "-static-libstdc++", "-rdynamic"));
  EXPECT_THAT(
      cl.inputs,
      ElementsAre(LinkFile("a.o"), LinkOption("-lfoo"), LinkOption("-lbar"),
                  LinkFile("b.o"), LinkOption("-Wl,-rpath,/x"),
                  LinkOption("-Xlinker"), LinkOption("--as-needed")));
}

TEST(CommandLineTest, DependencyFlags) {
  CommandLine cl = Parse({"-MD", "-MT", "obj/a.o", "-MFobj/a.d", "-MP", "-MQ",
                          "q", "-MMD", "-c", "a.cu"});
  EXPECT_THAT(cl.dependency_flags,
              ElementsAre("-MD", "-MT", "obj/a.o", "-MF", "obj/a.d", "-MP",
                          "-MQ", "q", "-MMD"));
  EXPECT_TRUE(cl.writes_dependencies_while_compiling());
  EXPECT_TRUE(cl.has_dependency_file());
  EXPECT_TRUE(cl.has_dependency_target());

  CommandLine plain = Parse({"-MP", "-c", "a.cu"});
  EXPECT_FALSE(plain.writes_dependencies_while_compiling());
  EXPECT_FALSE(plain.has_dependency_file());
  EXPECT_FALSE(plain.has_dependency_target());
}

TEST(CommandLineTest, DriverFlags) {
  CommandLine cl = Parse({"-v", "-save-temps", "-pipe", "a.cu"});
  EXPECT_TRUE(cl.verbose);
  EXPECT_TRUE(cl.save_temps);
  CommandLine quiet = Parse({"a.cu"});
  EXPECT_FALSE(quiet.verbose);
  EXPECT_FALSE(quiet.save_temps);
}

TEST(CommandLineTest, MacaOptions) {
  CommandLine cl = Parse({"--offload-arch=xcore1000", "--offload-arch=native",
                          "--maca-path=/opt/maca", "a.cu"});
  EXPECT_THAT(cl.offload_archs, ElementsAre("xcore1000", "native"));
  EXPECT_EQ(cl.maca_path, "/opt/maca");
  EXPECT_EQ(Parse({"--maca-path", "/sdk", "a.cu"}).maca_path, "/sdk");
  EXPECT_FALSE(Parse({"a.cu"}).maca_path.has_value());
}

TEST(CommandLineTest, DeviceOnlyWithCompile) {
  EXPECT_TRUE(Parse({"--offload-device-only", "-c", "-x", "maca", "k.cpp"})
                  .device_only);
  EXPECT_TRUE(Parse({"--cuda-device-only", "-c", "k.cu"}).device_only);
  EXPECT_FALSE(Parse({"-c", "k.cu"}).device_only);
}

TEST(CommandLineErrorTest, DeviceOnlyNeedsCompile) {
  EXPECT_EQ(ParseError({"--offload-device-only", "k.cu"}),
            "'--offload-device-only' writes device images and needs '-c'");
  // Control: the same with -c is accepted (DeviceOnlyWithCompile).
}

TEST(CommandLineErrorTest, DeviceOnlyNeedsMacaSource) {
  EXPECT_EQ(ParseError({"--offload-device-only", "-c", "host.cpp"}),
            "'--offload-device-only' compiles MXMACA sources only, and "
            "'host.cpp' is not one (use -x maca)");
}

// [api.compile.mxcc.genco] --genco implies -c and device code only.
TEST(CommandLineTest, GencoIsADeviceOnlyCompile) {
  CommandLine cl = Parse({"--genco", "k.cu"});
  EXPECT_TRUE(cl.genco);
  EXPECT_TRUE(cl.device_only);
  EXPECT_EQ(cl.mode, Mode::kCompile);
  EXPECT_FALSE(Parse({"-c", "k.cu"}).genco);
}

TEST(CommandLineErrorTest, GencoNeedsMacaSource) {
  EXPECT_EQ(ParseError({"--genco", "host.cpp"}),
            "'--genco' compiles MXMACA sources only, and 'host.cpp' is not "
            "one (use -x maca)");
  EXPECT_TRUE(Parse({"--genco", "-x", "maca", "host.cpp"}).genco);  // control
}

// [api.compile.mxcc.relocatable-device-code]
TEST(CommandLineTest, RelocatableDeviceCodeSpellings) {
  EXPECT_FALSE(Parse({"-c", "a.cu"}).relocatable_device_code);
  for (const std::vector<std::string>& arguments :
       std::vector<std::vector<std::string>>{
           {"-fgpu-rdc", "-c", "a.cu"},
           {"-rdc=true", "-c", "a.cu"},
           {"-rdc", "true", "-c", "a.cu"},
           {"--relocatable-device-code=true", "-c", "a.cu"},
           {"-fno-gpu-rdc", "-fgpu-rdc", "-c", "a.cu"}}) {
    CommandLine cl = Parse(arguments);
    EXPECT_TRUE(cl.relocatable_device_code) << arguments[0];
    EXPECT_EQ(cl.mode, Mode::kCompile);
    // The option is the driver's: it never reaches the host compiler.
    EXPECT_THAT(cl.code_flags, IsEmpty()) << arguments[0];
  }
  EXPECT_FALSE(
      Parse({"-fgpu-rdc", "-fno-gpu-rdc", "a.cu"}).relocatable_device_code);
  EXPECT_FALSE(Parse({"-rdc=false", "a.cu"}).relocatable_device_code);
  // -dc is nvcc's -c -rdc=true.
  CommandLine dc = Parse({"-dc", "a.cu", "b.cu"});
  EXPECT_EQ(dc.mode, Mode::kCompile);
  EXPECT_TRUE(dc.relocatable_device_code);
}

TEST(CommandLineTest, DeviceLinkReadsObjectsAndArchives) {
  for (const char* spelling : {"--device-link", "-dlink"}) {
    CommandLine cl =
        Parse({spelling, "a.o", "libk.a", "-L.", "-lk", "-o", "dlink.o"});
    EXPECT_EQ(cl.mode, Mode::kDeviceLink) << spelling;
    EXPECT_THAT(cl.inputs, ElementsAre(LinkFile("a.o"), LinkFile("libk.a"),
                                       LinkOption("-lk")));
    EXPECT_EQ(cl.output, "dlink.o");
  }
}

TEST(CommandLineErrorTest, RelocatableDeviceCodeMistakesAreNamed) {
  EXPECT_EQ(ParseError({"-rdc=yes", "a.cu"}),
            "invalid value 'yes' of '-rdc=yes' (known: true, false)");
  EXPECT_EQ(ParseError({"-rdc"}), "missing argument to '-rdc'");
  EXPECT_EQ(ParseError({"--device-link", "a.o"}),
            "'--device-link' needs '-o' to name the object it writes");
  EXPECT_EQ(ParseError({"--device-link", "a.cu", "-o", "d.o"}),
            "'--device-link' links objects and archives, and 'a.cu' is a "
            "source (compile it with -c -fgpu-rdc first)");
}

// [api.sync.per-thread.compile-option-selects]
constexpr char kPerThreadDefine[] = "-DMACA_API_PER_THREAD_DEFAULT_STREAM";

TEST(DefaultStreamTest, PerThreadDefinesTheMacroInEverySpelling) {
  for (const std::vector<std::string>& option :
       std::vector<std::vector<std::string>>{
           {"--default-stream", "per-thread"},
           {"--default-stream=per-thread"},
           {"-fgpu-default-stream=per-thread"}}) {
    std::vector<std::string> arguments = option;
    arguments.insert(arguments.end(), {"-DUSER=1", "a.cu", "b.cpp"});
    CommandLine cl = Parse(arguments);
    EXPECT_TRUE(cl.per_thread_default_stream) << option[0];
    // After the user's flags, once; not a flag of the host compiler.
    EXPECT_THAT(cl.preprocessor_flags,
                ElementsAre("-DUSER=1", kPerThreadDefine))
        << option[0];
    EXPECT_THAT(cl.code_flags, IsEmpty()) << option[0];
    EXPECT_THAT(cl.inputs, ElementsAre(Maca("a.cu"), Cxx("b.cpp")));
  }
}

TEST(DefaultStreamTest, LegacyIsTheDefaultAndDefinesNothing) {
  CommandLine unset = Parse({"a.cu"});
  EXPECT_FALSE(unset.per_thread_default_stream);
  EXPECT_THAT(unset.preprocessor_flags, IsEmpty());
  for (const std::vector<std::string>& option :
       std::vector<std::vector<std::string>>{{"--default-stream", "legacy"},
                                             {"--default-stream", "null"},
                                             {"--default-stream=legacy"},
                                             {"--default-stream=null"},
                                             {"-fgpu-default-stream=legacy"}}) {
    std::vector<std::string> arguments = option;
    arguments.push_back("a.cu");
    CommandLine cl = Parse(arguments);
    EXPECT_FALSE(cl.per_thread_default_stream) << option.back();
    EXPECT_THAT(cl.preprocessor_flags, IsEmpty()) << option.back();
    EXPECT_THAT(cl.code_flags, IsEmpty()) << option.back();
  }
}

TEST(DefaultStreamTest, TheLastOptionWins) {
  CommandLine legacy = Parse(
      {"--default-stream=per-thread", "-fgpu-default-stream=legacy", "a.cu"});
  EXPECT_FALSE(legacy.per_thread_default_stream);
  EXPECT_THAT(legacy.preprocessor_flags, IsEmpty());
  CommandLine per_thread =
      Parse({"--default-stream", "null", "--default-stream", "per-thread",
             "-fgpu-default-stream=per-thread", "a.cu"});
  EXPECT_TRUE(per_thread.per_thread_default_stream);
  EXPECT_THAT(per_thread.preprocessor_flags, ElementsAre(kPerThreadDefine));
}

TEST(DefaultStreamErrorTest, UnknownValueNamesTheArgument) {
  EXPECT_EQ(ParseError({"--default-stream", "per_thread", "a.cu"}),
            "unknown default stream 'per_thread' in '--default-stream "
            "per_thread' (known: legacy, null, per-thread)");
  EXPECT_EQ(ParseError({"--default-stream=", "a.cu"}),
            "unknown default stream '' in '--default-stream=' (known: "
            "legacy, null, per-thread)");
  // clang's spelling takes clang's values.
  EXPECT_EQ(ParseError({"-fgpu-default-stream=null", "a.cu"}),
            "unknown default stream 'null' in '-fgpu-default-stream=null' "
            "(known: legacy, per-thread)");
  EXPECT_EQ(ParseError({"a.cu", "--default-stream"}),
            "missing argument to '--default-stream'");
  // Control: the same arguments with a known value parse
  // (PerThreadDefinesTheMacroInEverySpelling).
}

TEST(DefaultStreamTest, HelpNamesTheOption) {
  EXPECT_THAT(HelpText(), HasSubstr("--default-stream legacy|null|per-thread"));
  EXPECT_THAT(HelpText(), HasSubstr("-fgpu-default-stream="));
}

TEST(CommandLineTest, HelpAndVersionNeedNoInput) {
  EXPECT_TRUE(Parse({"--help"}).show_help);
  EXPECT_TRUE(Parse({"--version"}).show_version);
  EXPECT_THAT(HelpText(), HasSubstr("-x maca"));
  EXPECT_THAT(VersionText(), HasSubstr("mxcc"));
}

TEST(CommandLineErrorTest, UnknownOptionIsNamed) {
  EXPECT_EQ(ParseError({"-S", "a.cu"}), "unknown option '-S'");
  EXPECT_EQ(ParseError({"--frobnicate", "a.cu"}),
            "unknown option '--frobnicate'");
  EXPECT_EQ(ParseError({"-O9", "a.cu"}), "unknown option '-O9'");
  EXPECT_EQ(ParseError({"-f", "a.cu"}), "unknown option '-f'");
}

TEST(CommandLineErrorTest, MissingArgumentIsNamed) {
  for (const char* option :
       {"-o", "-I", "-D", "-U", "-x", "-L", "-l", "-isystem", "-include", "-MF",
        "-MT", "-Xlinker", "--maca-path"}) {
    EXPECT_EQ(ParseError({"a.cu", option}),
              std::string("missing argument to '") + option + "'");
  }
}

TEST(CommandLineErrorTest, UnknownLanguageIsNamed) {
  EXPECT_THAT(ParseError({"-x", "fortran", "a.f"}),
              HasSubstr("language not recognized: 'fortran'"));
  EXPECT_THAT(ParseError({"-xcuda", "a.cu"}), HasSubstr("'cuda'"));
}

TEST(CommandLineErrorTest, UnknownOffloadArchIsNamed) {
  std::string message = ParseError({"--offload-arch=gfx90a", "a.cu"});
  EXPECT_THAT(message, HasSubstr("unknown offload architecture 'gfx90a'"));
  EXPECT_THAT(message, HasSubstr("xcore1000"));
}

TEST(CommandLineErrorTest, NoInputFiles) {
  EXPECT_EQ(ParseError({}), "no input files");
  EXPECT_EQ(ParseError({"-O2", "-lfoo"}), "no input files");
  EXPECT_EQ(ParseError({"-c"}), "no input files");
}

TEST(CommandLineErrorTest, OutputWithSeveralCompiledFiles) {
  EXPECT_THAT(ParseError({"-c", "a.cu", "b.cu", "-o", "x.o"}),
              HasSubstr("cannot specify '-o'"));
  EXPECT_THAT(ParseError({"-E", "a.cu", "b.cu", "-o", "x.i"}),
              HasSubstr("cannot specify '-o'"));
  // Control: linking several sources into one output is fine, and so is -c
  // of several sources without -o.
  EXPECT_EQ(Parse({"a.cu", "b.cu", "-o", "x"}).inputs.size(), 2u);
  EXPECT_EQ(Parse({"-c", "a.cu", "b.cu"}).inputs.size(), 2u);
}

TEST(CommandLineErrorTest, StandardInputAndHeadersAreRejected) {
  EXPECT_THAT(ParseError({"-"}), HasSubstr("standard input"));
  EXPECT_THAT(ParseError({"a.h"}), HasSubstr("'a.h' is a header file"));
  // Under an explicit language a header is a source like any other.
  EXPECT_THAT(Parse({"-x", "maca", "a.h"}).inputs, ElementsAre(Maca("a.h")));
}

TEST(InputClassificationTest, BySuffix) {
  CommandLine cl =
      Parse({"a.cu", "b.maca", "c.cpp", "d.cc", "e.cxx", "f.C", "g.c", "h.o",
             "i.a", "j.so", "k.so.1.2", "l.obj", "m.ld"});
  EXPECT_THAT(cl.inputs, ElementsAre(Maca("a.cu"), Maca("b.maca"), Cxx("c.cpp"),
                                     Cxx("d.cc"), Cxx("e.cxx"), Cxx("f.C"),
                                     C("g.c"), LinkFile("h.o"), LinkFile("i.a"),
                                     LinkFile("j.so"), LinkFile("k.so.1.2"),
                                     LinkFile("l.obj"), LinkFile("m.ld")));
}

TEST(InputClassificationTest, LanguageAppliesToTheInputsThatFollow) {
  // [api.compile.mxcc.language-option]
  CommandLine cl =
      Parse({"a.cpp", "-x", "maca", "b.cpp", "c.c", "-x", "c++", "d.cu", "-xc",
             "e.cpp", "-x", "none", "f.cpp", "g.cu"});
  EXPECT_THAT(cl.inputs,
              ElementsAre(Cxx("a.cpp"), Maca("b.cpp"), Maca("c.c"), Cxx("d.cu"),
                          C("e.cpp"), Cxx("f.cpp"), Maca("g.cu")));
}

TEST(InputClassificationTest, LinkerFilesIgnoreTheLanguage) {
  // A link line that repeats `-x maca` from the compile flags still links.
  CommandLine cl = Parse({"-x", "maca", "a.o", "libx.a", "liby.so.3", "b.cpp"});
  EXPECT_THAT(cl.inputs, ElementsAre(LinkFile("a.o"), LinkFile("libx.a"),
                                     LinkFile("liby.so.3"), Maca("b.cpp")));
  // Control: ".so." followed by something that is not a version is not a
  // shared library.
  EXPECT_THAT(Parse({"-x", "maca", "a.so.cu"}).inputs,
              ElementsAre(Maca("a.so.cu")));
}

TEST(InputClassificationTest, PathsWithDirectoriesAndOddCharacters) {
  CommandLine cl = Parse({"dir.cu/a.cpp", "my file.cu", "/abs/x.o"});
  EXPECT_THAT(cl.inputs, ElementsAre(Cxx("dir.cu/a.cpp"), Maca("my file.cu"),
                                     LinkFile("/abs/x.o")));
}

}  // namespace
}  // namespace mxcts::driver
