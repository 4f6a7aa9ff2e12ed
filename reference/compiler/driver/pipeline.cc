// Copyright mxcts authors.
//
// The Driver runs the stages of reference/compiler/design.md in the order
// that lets it stop early: the host pass first (stages 1, 3, 5), because
// the host translation decides whether a device image is needed and
// reports the language errors; then the device pass and the image (2, 4,
// 6-9), then the combination (10). Sources are compiled one after another;
// after a failure the remaining sources are still compiled, so one run
// reports every file's errors, as gcc does, but nothing is linked.
//
// Flags travel as the command line sorted them: preprocessor flags and
// dependency flags to the host preprocessing only (the text is then
// compiled as `c++-cpp-output`, which ignores them), code flags (-O, -g,
// -std, -f, -m, warnings) to every compiler call, link flags to the link.
// The device pass adds its own flags after the user's, so that they win,
// and drops instrumentation (sanitizers, profiling, LTO) whose runtime a
// device image does not link.
//
// Tested by pipeline_test.cc.

#include "reference/compiler/driver/pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "reference/compiler/driver/device_link_diagnostics.h"
#include "reference/compiler/driver/embed.h"
#include "reference/compiler/driver/relocatable_device_code.h"
#include "reference/compiler/translator/translator.h"
#include "reference/module_image/module_image.h"

namespace mxcts::driver {
namespace {

namespace fs = std::filesystem;

// The status of a step whose tool has already printed why it failed.
absl::Status Reported() { return absl::AbortedError("reported"); }

bool IsReported(const absl::Status& status) {
  return absl::IsAborted(status) && status.message() == "reported";
}

std::string BaseName(const std::string& path) {
  return fs::path(path).filename().string();
}

// `path` with its last suffix replaced by `suffix` ("a/b.cu", ".o" ->
// "a/b.o"); a name without a suffix gets `suffix` appended.
std::string ReplaceSuffix(const std::string& path, const std::string& suffix) {
  fs::path p(path);
  p.replace_extension(suffix);
  return p.string();
}

std::string Absolute(const std::string& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

void Append(std::vector<std::string>* to,
            const std::vector<std::string>& from) {
  to->insert(to->end(), from.begin(), from.end());
}

const char* LanguageFlag(InputKind kind) {
  return kind == InputKind::kCSource ? "c" : "c++";
}

}  // namespace

Toolchain ToolchainFromEnvironment() {
  Toolchain toolchain;
  const char* host_cxx = std::getenv("MXCC_HOST_CXX");
  if (host_cxx != nullptr && *host_cxx != '\0') toolchain.host_cxx = host_cxx;
  return toolchain;
}

Driver::Driver(CommandLine command_line, Installation installation,
               Toolchain toolchain, std::ostream& diagnostics)
    : command_line_(std::move(command_line)),
      installation_(std::move(installation)),
      toolchain_(std::move(toolchain)),
      diagnostics_(diagnostics) {}

int Driver::Run() {
  const CommandLine& cl = command_line_;
  bool failed = false;
  auto report = [&](const absl::Status& status) {
    if (status.ok()) return;
    failed = true;
    if (!IsReported(status) && !absl::IsCancelled(status)) {
      diagnostics_ << "mxcc: error: " << status.message() << "\n";
    }
  };

  if (cl.mode == Mode::kPreprocess) {
    for (const Input& input : cl.inputs) {
      if (input.is_source()) report(Preprocess(input));
    }
    return failed ? 1 : 0;
  }

  if (cl.mode == Mode::kDeviceLink) {
    // [api.compile.mxcc.relocatable-device-code]
    std::vector<std::string> items;
    for (const Input& input : cl.inputs) items.push_back(input.value);
    absl::StatusOr<std::vector<RelocatableDeviceCode>> code =
        CollectDeviceCode(items);
    report(code.ok() ? DeviceLink(*code, cl.output) : code.status());
    return failed ? 1 : 0;
  }

  std::vector<std::string> link_items;  // objects and linker options, in order
  int index = 0;
  for (const Input& input : cl.inputs) {
    if (!input.is_source()) {
      if (cl.mode == Mode::kCompile && input.kind == InputKind::kLinkerInput) {
        diagnostics_ << "mxcc: warning: " << input.value
                     << ": linker input file unused because linking not "
                        "done\n";
      }
      link_items.push_back(input.value);
      continue;
    }
    Job job;
    job.source = input;
    job.stem =
        absl::StrCat(index++, "-", fs::path(input.value).stem().string());
    if (cl.mode == Mode::kCompile) {
      job.object = !cl.output.empty() ? cl.output
                   : cl.genco ? ReplaceSuffix(BaseName(input.value), ".mcbin")
                   : cl.device_only
                       ? ReplaceSuffix(BaseName(input.value), ".image.so")
                       : ReplaceSuffix(BaseName(input.value), ".o");
    } else {
      job.object = TemporaryFile(job, ".o");
      if (job.object.empty()) {
        report(Temporary().status());
        break;
      }
    }
    absl::Status status = CompileSource(job);
    report(status);
    link_items.push_back(job.object);
  }
  if (!failed && cl.mode == Mode::kLink) report(Link(link_items));

  if (cl.save_temps && !temporary_.empty()) {
    temporary_.front().Keep();
    diagnostics_ << "mxcc: temporary files kept in "
                 << temporary_.front().path() << "\n";
  }
  return failed ? 1 : 0;
}

absl::Status Driver::Preprocess(const Input& source) {
  const CommandLine& cl = command_line_;
  Job job{source, "", ""};
  std::vector<std::string> argv;
  if (source.kind == InputKind::kMacaSource) {
    argv = MacaPreprocessCommand(job, /*device_pass=*/false);
    Append(&argv, cl.dependency_flags);
  } else {
    argv = {toolchain_.host_cxx, "-E", "-x", LanguageFlag(source.kind)};
    Append(&argv, cl.code_flags);
    argv.push_back("-D__MACACC__=1");  // [api.compile.mxcc.maca-macro]
    Append(&argv, cl.preprocessor_flags);
    Append(&argv, {"-isystem", installation_.include_dir()});
    Append(&argv, cl.dependency_flags);
    argv.push_back(source.value);
  }
  if (!cl.output.empty()) Append(&argv, {"-o", cl.output});
  return RunTool(argv);
}

absl::Status Driver::CompileSource(const Job& job) {
  if (job.source.kind == InputKind::kMacaSource) return CompileMaca(job);
  return CompilePlain(job);
}

// A plain C or C++ source: one host compiler call, with the installation's
// headers available and __MACACC__ defined.
absl::Status Driver::CompilePlain(const Job& job) {
  const CommandLine& cl = command_line_;
  std::vector<std::string> argv = {toolchain_.host_cxx, "-c", "-x",
                                   LanguageFlag(job.source.kind)};
  Append(&argv, cl.code_flags);
  argv.push_back("-D__MACACC__=1");  // [api.compile.mxcc.maca-macro]
  Append(&argv, cl.preprocessor_flags);
  Append(&argv, {"-isystem", installation_.include_dir()});
  Append(&argv, DependencyFlags(job));
  Append(&argv, {job.source.value, "-o", job.object});
  return RunTool(argv);
}

// [api.compile.mxcc.two-passes]
absl::Status Driver::CompileMaca(const Job& job) {
  const CommandLine& cl = command_line_;
  // Stage 1: preprocess, host.
  std::string host_ii = TemporaryFile(job, ".host.ii");
  if (host_ii.empty()) return Temporary().status();
  std::vector<std::string> preprocess =
      MacaPreprocessCommand(job, /*device_pass=*/false);
  Append(&preprocess, DependencyFlags(job));
  Append(&preprocess, {"-o", host_ii});
  absl::Status status = RunTool(preprocess);
  if (!status.ok()) return status;

  absl::StatusOr<std::string> host_text = ReadFile(host_ii);
  if (!host_text.ok()) return host_text.status();
  std::string identity = cl.mode == Mode::kCompile
                             ? job.object
                             : (cl.output.empty() ? "a.out" : cl.output);
  std::string symbol =
      ImageSymbol(Absolute(job.source.value), Absolute(identity), *host_text);

  // Stage 3: translate, host.
  std::string host_tr = TemporaryFile(job, ".host.tr.ii");
  bool needs_image = false;
  status =
      Translate(host_ii, host_tr, /*device_pass=*/false, symbol, &needs_image);
  if (!status.ok()) return status;

  // --offload-device-only: the device image is the output; there is no host
  // object to build.
  if (cl.device_only) {
    if (!needs_image) {
      diagnostics_ << "mxcc: error: " << job.source.value
                   << " has no device code, so '"
                   << (cl.genco ? "--genco" : "--offload-device-only")
                   << "' has no device image to write\n";
      return Reported();
    }
    return BuildDeviceObject(job, symbol, /*host_object=*/"");
  }

  // Stage 5: compile, host. Without device code this is the object; with
  // relocatable device code every source has some (its device functions).
  bool device_code = needs_image || cl.relocatable_device_code;
  std::string host_o = device_code ? TemporaryFile(job, ".host.o") : job.object;
  std::vector<std::string> compile = {toolchain_.host_cxx, "-c", "-x",
                                      "c++-cpp-output"};
  Append(&compile, cl.code_flags);
  Append(&compile, {host_tr, "-o", host_o});
  status = RunTool(compile);
  if (!status.ok() || !device_code) return status;
  return BuildDeviceObject(job, symbol, host_o);
}

absl::Status Driver::BuildDeviceObject(const Job& job,
                                       const std::string& symbol,
                                       const std::string& host_object) {
  absl::Status status = CheckDeviceLibrary(installation_);
  if (!status.ok()) return status;

  // Stage 2: preprocess, device. [api.compile.mxcc.maca-arch-device-pass-only]
  std::string device_ii = TemporaryFile(job, ".device.ii");
  std::vector<std::string> preprocess =
      MacaPreprocessCommand(job, /*device_pass=*/true);
  Append(&preprocess, {"-o", device_ii});
  status = RunTool(preprocess);
  if (!status.ok()) return status;

  // Stage 4: translate, device.
  std::string device_tr = TemporaryFile(job, ".device.tr.ii");
  bool needs_image = false;
  status = Translate(device_ii, device_tr, /*device_pass=*/true, symbol,
                     &needs_image);
  if (!status.ok()) return status;

  // Stage 6: compile, device.
  std::string device_o = TemporaryFile(job, ".device.o");
  std::vector<std::string> compile = {toolchain_.host_cxx, "-c", "-x",
                                      "c++-cpp-output"};
  Append(&compile, DeviceCodeFlags());
  // -fno-semantic-interposition: an image exports only its records (the
  // version script), so nothing can interpose a kernel, and its thread
  // loop (launch_abi.h) may inline the kernel's body. The inlining limit
  // for functions not declared inline is raised from -O2's 15 to 64
  // (-O3's is 30): a kernel is a function not declared inline, and one
  // inlined into its thread loop costs a few instructions per thread
  // instead of a call with its arguments reloaded.
  Append(&compile,
         {"-fPIC", "-fno-semantic-interposition",
          "--param=max-inline-insns-auto=64", "-ffunction-sections",
          "-fdata-sections", "-fno-stack-protector", "-fno-threadsafe-statics",
          "-fno-gnu-unique", "-g1", device_tr, "-o", device_o});
  status = RunTool(compile);
  if (!status.ok()) return status;

  // Stage 7: separate. objcopy renames before it prefixes, so the GOT symbol
  // is restored in a second call. That call also makes every kernel and
  // variable record global: the record of a `static` kernel, or of one in an
  // unnamed namespace, has internal linkage, and only global symbols can be
  // exported for the runtime to find.
  std::string separated = TemporaryFile(job, ".device.sep.o");
  std::vector<std::string> separate = {
      toolchain_.objcopy,
      absl::StrCat("--prefix-symbols=", kDeviceSymbolPrefix)};
  for (const char* section :
       {".init_array", ".fini_array", ".ctors", ".dtors"}) {
    Append(&separate,
           {"--remove-section", absl::StrCat(section, "*"), "--remove-section",
            absl::StrCat(".rela", section, "*")});
  }
  Append(&separate, {device_o, separated});
  status = RunTool(separate);
  if (!status.ok()) return status;
  status = RunTool({toolchain_.objcopy, "--wildcard", "--globalize-symbol",
                    absl::StrCat(kDeviceSymbolPrefix,
                                 "_ZN13__mc_internal12DeviceKernel*6recordE"),
                    "--globalize-symbol",
                    absl::StrCat(kDeviceSymbolPrefix, "__mc_variable_record_*"),
                    // mcrtc's name expression probes (reference/rtc),
                    // exported so that it can lower static entities too.
                    "--globalize-symbol",
                    absl::StrCat(kDeviceSymbolPrefix, "_ZN15__mcrtc_lowered*"),
                    "--redefine-sym",
                    absl::StrCat(kDeviceSymbolPrefix,
                                 "_GLOBAL_OFFSET_TABLE_=_GLOBAL_OFFSET_TABLE_"),
                    separated});
  if (!status.ok()) return status;

  // With relocatable device code the object carries device.sep.o
  // unlinked; the program's link links it with the other sources'.
  // [api.compile.mxcc.relocatable-device-code]
  if (command_line_.relocatable_device_code && !command_line_.device_only) {
    std::string carrier_s = TemporaryFile(job, ".device-code.s");
    std::string carrier_o = TemporaryFile(job, ".device-code.o");
    status = WriteFile(carrier_s, DeviceCodeCarrierAssembly(symbol, separated));
    if (!status.ok()) return status;
    status = RunTool({toolchain_.host_cxx, "-c", "-x", "assembler", carrier_s,
                      "-o", carrier_o});
    if (!status.ok()) return status;
    return RunTool(
        {toolchain_.linker, "-r", host_object, carrier_o, "-o", job.object});
  }

  // Stage 8: device link.
  std::string image = TemporaryFile(job, ".image.so");
  DeviceLinkSources sources;
  sources.source = job.source.value;
  sources.absolute_source = Absolute(job.source.value);
  sources.declared_without_definition = device_declarations_;
  status = LinkDeviceImage({separated}, image, job.stem, sources);
  if (!status.ok()) return status;
  if (command_line_.device_only) {
    absl::StatusOr<std::string> image_bytes = ReadFile(image);
    if (!image_bytes.ok()) return image_bytes.status();
    // [api.compile.mxcc.genco] The module image container around it.
    if (command_line_.genco) {
      return WriteFile(job.object, module_image::Wrap(*image_bytes));
    }
    return WriteFile(job.object, *image_bytes);
  }

  // Stage 9: embed.
  std::string embed_s = TemporaryFile(job, ".embed.s");
  std::string embed_o = TemporaryFile(job, ".embed.o");
  status = WriteFile(embed_s, EmbedAssembly(symbol, image));
  if (!status.ok()) return status;
  status = RunTool(
      {toolchain_.host_cxx, "-c", "-x", "assembler", embed_s, "-o", embed_o});
  if (!status.ok()) return status;

  // Stage 10: combine.
  return RunTool(
      {toolchain_.linker, "-r", host_object, embed_o, "-o", job.object});
}

absl::Status Driver::LinkDeviceImage(
    const std::vector<std::string>& device_objects, const std::string& image,
    const std::string& stem, const DeviceLinkSources& sources) {
  absl::StatusOr<TemporaryDirectory*> directory = Temporary();
  if (!directory.ok()) return directory.status();
  // Every image defines __mc_image_bind (image_abi.h); nothing in device
  // code refers to it, so it is named to pull it out of the archive. The
  // linker script puts the __constant__ sections on pages of their own
  // [lang.ub.memory.constant-write].
  std::vector<std::string> device_link = {
      toolchain_.host_cxx,
      "-shared",
      "-Wl,--gc-sections",
      "-Wl,--no-undefined",
      "-Wl,--undefined=__mc_image_bind",
      "-Wl,--version-script=" + installation_.device_version_script(),
      "-Wl,-T," + installation_.device_linker_script()};
  Append(&device_link, device_objects);
  // [api.compile.mxcc.offload-arch] An image for named architectures
  // records them; without one, or with `native`, it runs on any device.
  std::vector<int> archs;
  for (const std::string& arch : command_line_.offload_archs) {
    if (OffloadArchNumber(arch) == 0) {
      archs.clear();
      break;
    }
    archs.push_back(OffloadArchNumber(arch));
  }
  if (!archs.empty()) {
    std::string archs_s = (*directory)->File(stem + ".archs.s");
    std::string archs_o = (*directory)->File(stem + ".archs.o");
    absl::Status status = WriteFile(archs_s, ImageArchsAssembly(archs));
    if (!status.ok()) return status;
    status = RunTool(
        {toolchain_.host_cxx, "-c", "-x", "assembler", archs_s, "-o", archs_o});
    if (!status.ok()) return status;
    Append(&device_link, {archs_o, "-Wl,--undefined=__mcdev___mc_image_archs"});
  }
  Append(&device_link, {installation_.device_library(), "-lm", "-o", image});
  ProcessOptions options;
  options.capture_stderr = true;
  options.environment_overrides = {"LC_ALL=C"};
  absl::StatusOr<ProcessResult> link = Spawn(device_link, options);
  if (!link.ok()) return link.status();
  if (!link->succeeded()) {
    DeviceLinkReport report =
        RewriteDeviceLinkErrors(link->stderr_text, sources);
    diagnostics_ << report.text;
    if (report.host_only_calls == 0) {
      diagnostics_ << "mxcc: error: the device link of "
                   << (sources.source.empty() ? "the relocatable device code"
                                              : sources.source)
                   << " failed (" << link->Describe() << ")\n";
    }
    return Reported();
  }
  diagnostics_ << link->stderr_text;  // warnings, if any
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RelocatableDeviceCode>> Driver::CollectDeviceCode(
    const std::vector<std::string>& items) {
  std::vector<std::string> search;  // -L directories, in order
  for (const std::string& flag : command_line_.link_flags) {
    if (StartsWith(flag, "-L")) search.push_back(flag.substr(2));
  }
  std::vector<RelocatableDeviceCode> found;
  for (const std::string& item : items) {
    std::string path = item;
    if (StartsWith(item, "-l")) {
      // Only a static library can carry device code; a shared one found
      // first in a directory is what the linker takes.
      path.clear();
      std::string name = item.substr(2);
      for (const std::string& directory : search) {
        std::string base = fs::path(directory) / ("lib" + name);
        if (fs::exists(base + ".so")) break;
        if (fs::exists(base + ".a")) {
          path = base + ".a";
          break;
        }
      }
      if (path.empty()) continue;
    } else if (StartsWith(item, "-") || !fs::is_regular_file(item)) {
      continue;  // linker options; a missing file is the linker's to report
    }
    absl::StatusOr<std::vector<RelocatableDeviceCode>> code =
        FindRelocatableDeviceCode(path);
    if (!code.ok()) return code.status();
    for (RelocatableDeviceCode& one : *code) found.push_back(std::move(one));
  }
  return found;
}

// [api.compile.mxcc.relocatable-device-code]
absl::Status Driver::DeviceLink(const std::vector<RelocatableDeviceCode>& code,
                                const std::string& object) {
  absl::StatusOr<TemporaryDirectory*> directory = Temporary();
  if (!directory.ok()) return directory.status();
  const std::string stem = "device-link";
  std::string assembly = (*directory)->File(stem + ".s");
  absl::Status status;
  if (code.empty()) {
    status = WriteFile(assembly, "\t.section .note.GNU-stack,\"\",@progbits\n");
  } else {
    status = CheckDeviceLibrary(installation_);
    if (!status.ok()) return status;
    // An object named twice (directly and in an archive) is linked once.
    std::vector<std::string> symbols;
    std::vector<std::string> device_objects;
    std::string all_symbols;
    for (const RelocatableDeviceCode& one : code) {
      if (std::find(symbols.begin(), symbols.end(), one.image_symbol) !=
          symbols.end()) {
        continue;
      }
      symbols.push_back(one.image_symbol);
      all_symbols += one.image_symbol + "\n";
      std::string file =
          (*directory)
              ->File(absl::StrCat(stem, "-", device_objects.size(), ".o"));
      status = WriteFile(file, one.object);
      if (!status.ok()) return status;
      device_objects.push_back(file);
    }
    std::string image = (*directory)->File(stem + ".image.so");
    DeviceLinkSources sources;
    sources.relocatable = true;
    status = LinkDeviceImage(device_objects, image, stem, sources);
    if (!status.ok()) return status;
    std::string primary = ImageSymbol(Absolute(object), "", all_symbols);
    status = WriteFile(assembly, EmbedAssembly(primary, image, symbols));
  }
  if (!status.ok()) return status;
  return RunTool(
      {toolchain_.host_cxx, "-c", "-x", "assembler", assembly, "-o", object});
}

absl::Status Driver::Translate(const std::string& input,
                               const std::string& output, bool device_pass,
                               const std::string& symbol, bool* needs_image) {
  if (command_line_.verbose) {
    diagnostics_ << "# mxcc translate --pass="
                 << (device_pass ? "device" : "host")
                 << " --image-symbol=" << symbol << " " << input << " -o "
                 << output << "\n";
  }
  absl::StatusOr<std::string> text = ReadFile(input);
  if (!text.ok()) return text.status();
  compiler::TranslationOptions options;
  options.pass = device_pass ? compiler::Pass::kDevice : compiler::Pass::kHost;
  options.image_symbol = symbol;
  options.relocatable_device_code = command_line_.relocatable_device_code;
  compiler::Translation translation = compiler::Translate(*text, options);
  // Both passes see the same source; a message of the device pass that the
  // host pass printed already is not repeated.
  for (const compiler::Diagnostic& diagnostic : translation.diagnostics) {
    std::string line = compiler::FormatDiagnostic(diagnostic);
    if (printed_diagnostics_.insert(line).second) diagnostics_ << line << "\n";
  }
  if (!translation.ok()) return Reported();
  *needs_image = translation.needs_image;
  if (device_pass) {
    device_declarations_ = translation.device_declarations_without_definition;
  }
  return WriteFile(output, translation.text);
}

absl::Status Driver::Link(const std::vector<std::string>& objects) {
  const CommandLine& cl = command_line_;
  // Objects with relocatable device code get their image from one device
  // link of all of them, as nvcc links device code whenever it links.
  // [api.compile.mxcc.relocatable-device-code]
  absl::StatusOr<std::vector<RelocatableDeviceCode>> code =
      CollectDeviceCode(objects);
  if (!code.ok()) return code.status();
  std::string device_link;
  if (!code->empty()) {
    absl::StatusOr<TemporaryDirectory*> directory = Temporary();
    if (!directory.ok()) return directory.status();
    device_link = (*directory)->File("device-link.o");
    absl::Status status = DeviceLink(*code, device_link);
    if (!status.ok()) return status;
  }
  std::vector<std::string> argv = {toolchain_.host_cxx};
  Append(&argv, cl.code_flags);
  Append(&argv, cl.link_flags);
  Append(&argv, objects);
  if (!device_link.empty()) argv.push_back(device_link);
  Append(&argv, {"-L" + installation_.lib_dir(), "-lmcruntime"});
  // Programs call mcrtc after including mcrtc.h, without naming its
  // library (the runtime guide's rtc_test.cpp); it is linked where the
  // installation has it, and recorded only when the program uses it.
  // [api.rtc.library.linked-by-mxcc]
  std::error_code error;
  if (fs::exists(installation_.lib_dir() + "/libmcrtc.so", error)) {
    Append(&argv,
           {"-Wl,--push-state,--as-needed", "-lmcrtc", "-Wl,--pop-state"});
  }
  Append(&argv, {"-Wl,-rpath," + installation_.lib_dir(), "-o",
                 cl.output.empty() ? "a.out" : cl.output});
  return RunTool(argv);
}

std::vector<std::string> Driver::MacaPreprocessCommand(const Job& job,
                                                       bool device_pass) const {
  const CommandLine& cl = command_line_;
  std::vector<std::string> argv = {toolchain_.host_cxx, "-E", "-x", "c++"};
  Append(&argv, device_pass ? DeviceCodeFlags() : cl.code_flags);
  // [api.compile.mxcc.maca-macro] [api.compile.mxcc.maca-arch-device-pass-only]
  Append(&argv, {"-D__MACA__=1", "-D__MACACC__=1"});
  if (device_pass) argv.push_back(absl::StrCat("-D__MACA_ARCH__=", kMacaArch));
  // The installation's headers are system headers: the translator leaves
  // their functions alone, and the user's warning flags do not apply there.
  // The matrix functions' header comes without an include, as the vendor
  // compiler's resource header of that name does.
  // [lang.wmma.header.available-without-include]
  Append(&argv, {"-isystem", installation_.include_dir(), "-include",
                 "mc_runtime.h", "-include", "__clang_maca_mma_functions.h"});
  Append(&argv, cl.preprocessor_flags);
  argv.push_back(job.source.value);
  return argv;
}

std::vector<std::string> Driver::DependencyFlags(const Job& job) const {
  const CommandLine& cl = command_line_;
  std::vector<std::string> flags = cl.dependency_flags;
  if (!cl.writes_dependencies_while_compiling()) return flags;
  // gcc derives the file and target of -MD from the object it writes; the
  // host preprocessing writes a temporary file instead, so both are given.
  // Linking without -c, the source's name stands in for the object's.
  std::string object = cl.mode == Mode::kCompile
                           ? job.object
                           : ReplaceSuffix(BaseName(job.source.value), ".o");
  if (!cl.has_dependency_file()) {
    Append(&flags, {"-MF", ReplaceSuffix(object, ".d")});
  }
  if (!cl.has_dependency_target()) Append(&flags, {"-MT", object});
  return flags;
}

std::vector<std::string> Driver::DeviceCodeFlags() const {
  std::vector<std::string> flags;
  for (const std::string& flag : command_line_.code_flags) {
    if (StartsWith(flag, "-fsanitize") || StartsWith(flag, "-fprofile") ||
        StartsWith(flag, "-flto") || StartsWith(flag, "-fcoverage") ||
        flag == "-ftest-coverage") {
      continue;
    }
    flags.push_back(flag);
  }
  return flags;
}

absl::Status Driver::RunTool(const std::vector<std::string>& argv) {
  absl::StatusOr<ProcessResult> result = Spawn(argv, {});
  if (!result.ok()) return result.status();
  if (result->succeeded()) return absl::OkStatus();
  if (result->signal != 0) {
    return absl::InternalError(
        absl::StrCat("'", argv[0], "' terminated by ", result->Describe()));
  }
  return Reported();
}

absl::StatusOr<ProcessResult> Driver::Spawn(
    const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (command_line_.verbose) diagnostics_ << FormatCommand(argv) << "\n";
  diagnostics_.flush();
  return RunProcess(argv, options);
}

absl::StatusOr<TemporaryDirectory*> Driver::Temporary() {
  if (temporary_.empty()) {
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("mxcc");
    if (!directory.ok()) return directory.status();
    temporary_.push_back(std::move(*directory));
  }
  return &temporary_.front();
}

std::string Driver::TemporaryFile(const Job& job, const std::string& suffix) {
  absl::StatusOr<TemporaryDirectory*> directory = Temporary();
  if (!directory.ok()) return "";
  return (*directory)->File(job.stem + suffix);
}

}  // namespace mxcts::driver
