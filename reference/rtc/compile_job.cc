// Copyright mxcts authors.
//
// One runtime compilation (compile_job.h). Every file is written with
// O_EXCL inside a directory only this process can enter, and the directory
// is removed, whatever the outcome, before Compile returns.
//
// Tested by compile_job_test.cc and conformance/api/compilation.

#include "reference/rtc/compile_job.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "reference/module_image/module_image.h"
#include "reference/rtc/bounded_process.h"
#include "reference/rtc/lowered_names.h"

namespace mxcts::rtc {
namespace {

namespace fs = std::filesystem;

// A private temporary directory, removed with its contents.
class ScratchDirectory {
 public:
  static absl::StatusOr<ScratchDirectory> Create() {
    const char* tmp = getenv("TMPDIR");
    std::string pattern = absl::StrCat(
        tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp", "/mcrtc-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError(
          absl::StrCat("cannot create a temporary directory ", pattern));
    }
    return ScratchDirectory(pattern);
  }
  ScratchDirectory(ScratchDirectory&& other) : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  ~ScratchDirectory() {
    if (path_.empty()) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  explicit ScratchDirectory(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

absl::Status WriteNewFile(const std::string& path, const std::string& text) {
  std::error_code error;
  fs::create_directories(fs::path(path).parent_path(), error);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

// `name` quoted for a #line directive.
std::string Quoted(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (c == '\n') {
      quoted += ' ';
      continue;
    }
    quoted += c;
  }
  return quoted + "\"";
}

bool Executable(const std::string& path) {
  return access(path.c_str(), X_OK) == 0;
}

}  // namespace

absl::StatusOr<std::string> FindCompiler() {
  std::vector<std::string> candidates;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&FindCompiler), &info) != 0 &&
      info.dli_fname != nullptr) {
    fs::path library(info.dli_fname);
    if (library.filename() == "libmcrtc.so" ||
        library.filename().string().rfind("libmcrtc.so.", 0) == 0) {
      candidates.push_back(
          (library.parent_path().parent_path() / "mxgpu_llvm/bin/mxcc")
              .string());
    }
  }
  if (const char* maca_path = getenv("MACA_PATH");
      maca_path != nullptr && maca_path[0] != '\0') {
    candidates.push_back(absl::StrCat(maca_path, "/mxgpu_llvm/bin/mxcc"));
  }
  candidates.push_back("/opt/maca/mxgpu_llvm/bin/mxcc");
  for (const std::string& candidate : candidates) {
    if (Executable(candidate)) return candidate;
  }
  return absl::NotFoundError(absl::StrCat(
      "mcrtc: no compiler found (looked for ", absl::StrJoin(candidates, ", "),
      "); set MACA_PATH to the installation"));
}

absl::StatusOr<CompileOutputs> Compile(const CompileInputs& inputs) {
  std::string compiler = inputs.compiler;
  if (compiler.empty()) {
    absl::StatusOr<std::string> found = FindCompiler();
    if (!found.ok()) return found.status();
    compiler = *found;
  }
  absl::StatusOr<ScratchDirectory> scratch = ScratchDirectory::Create();
  if (!scratch.ok()) return scratch.status();
  const std::string& dir = scratch->path();
  const std::string include_dir = dir + "/include";
  for (const auto& [include_name, text] : inputs.headers) {
    if (absl::Status s = WriteNewFile(include_dir + "/" + include_name, text);
        !s.ok()) {
      return s;
    }
  }
  const std::string source_path = dir + "/program.cu";
  const std::string image_path = dir + "/program.mcbin";
  std::string text =
      absl::StrCat("#line 1 ", Quoted(inputs.name), "\n", inputs.source, "\n",
                   ProbeSource(inputs.name_expressions));
  if (absl::Status s = WriteNewFile(source_path, text); !s.ok()) return s;

  std::vector<std::string> argv = {compiler, "--genco", "-x", "maca",
                                   "-I" + include_dir};
  argv.insert(argv.end(), inputs.compiler_arguments.begin(),
              inputs.compiler_arguments.end());
  argv.insert(argv.end(), {source_path, "-o", image_path});
  absl::StatusOr<BoundedResult> run = RunBounded(argv, inputs.timeout);
  if (!run.ok()) return run.status();

  CompileOutputs outputs;
  // Diagnostics name headers by their include names and the program by
  // its name, not by the temporary directory.
  outputs.log = absl::StrReplaceAll(run->output,
                                    {{include_dir + "/", ""}, {dir + "/", ""}});
  if (run->timed_out) {
    return absl::DeadlineExceededError(
        absl::StrCat("mcrtc: the compiler ran longer than ",
                     absl::FormatDuration(inputs.timeout), " and was stopped"));
  }
  if (run->signal != 0) {
    return absl::InternalError(
        absl::StrCat("mcrtc: the compiler was killed "
                     "by signal ",
                     run->signal, "\n", outputs.log));
  }
  if (run->exit_code != 0) return outputs;  // the source has errors

  std::ifstream in(image_path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  outputs.image = bytes.str();
  absl::StatusOr<module_image::Payload> payload = module_image::Open(
      reinterpret_cast<const unsigned char*>(outputs.image.data()),
      outputs.image.size());
  if (!payload.ok()) {
    return absl::InternalError(
        absl::StrCat("mcrtc: the compiler wrote no valid image: ",
                     payload.status().message()));
  }
  absl::StatusOr<std::vector<std::string>> lowered =
      LowerNames(payload->data, payload->size, inputs.name_expressions.size());
  if (!lowered.ok()) {
    return absl::InternalError(
        absl::StrCat("mcrtc: ", lowered.status().message()));
  }
  outputs.lowered_names = std::move(*lowered);
  outputs.compiled = true;
  return outputs;
}

}  // namespace mxcts::rtc
