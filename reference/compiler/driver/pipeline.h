// Copyright mxcts authors.
//
// pipeline.h: what mxcc does with a parsed command line: the stages of
// reference/compiler/design.md for each MXMACA source, one host compiler
// call for each plain C or C++ source, and the link.
//
// For an MXMACA source `a.cu` compiled to `a.o`:
//
//   1  g++ -E (host pass)          a.cu          -> host.ii
//   3  Translate(kHost)            host.ii       -> host.tr.ii
//   5  g++ -c -x c++-cpp-output    host.tr.ii    -> host.o
//   2  g++ -E -D__MACA_ARCH__      a.cu          -> device.ii
//   4  Translate(kDevice)          device.ii     -> device.tr.ii
//   6  g++ -c (device flags)       device.tr.ii  -> device.o
//   7  objcopy (prefix, strip)     device.o      -> device.sep.o
//   8  g++ -shared (device link)   device.sep.o  -> image.so
//   9  g++ -c -x assembler         embed.s       -> embed.o
//   10 ld -r                       host.o embed.o -> a.o
//
// Stages 2, 4 and 6-10 are skipped when the host translation says the
// source needs no device image; host.o is then a.o. With relocatable
// device code (-fgpu-rdc) every MXMACA source gets stages 2-7, and stage 9
// embeds device.sep.o itself, unlinked; the link (or --device-link) finds
// the device code of all its inputs and runs stages 8 and 9 once for all
// of them (relocatable_device_code.h). With
// --offload-device-only, stages 5, 9 and 10 are skipped and image.so is
// the output. The intermediate files
// live in a private temporary directory.
//
// Example:
//
//   mxcts::driver::Driver driver(*command_line, *installation,
//                                mxcts::driver::ToolchainFromEnvironment());
//   return driver.Run();  // the exit status

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_PIPELINE_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_PIPELINE_H_

#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "reference/compiler/driver/command_line.h"
#include "reference/compiler/driver/device_link_diagnostics.h"
#include "reference/compiler/driver/installation.h"
#include "reference/compiler/driver/process.h"
#include "reference/compiler/driver/relocatable_device_code.h"

namespace mxcts::driver {

// The host tools, as names looked up on PATH or paths.
struct Toolchain {
  std::string host_cxx = "g++";
  std::string objcopy = "objcopy";
  std::string linker = "ld";
};

// The host compiler is $MXCC_HOST_CXX when set and non-empty, else g++.
Toolchain ToolchainFromEnvironment();

// The value of __MACA_ARCH__ in the device pass.
inline constexpr int kMacaArch = 1000;

// Runs the whole command line. Errors go to `diagnostics`, each tool's own
// messages to mxcc's stderr, -v's command lines to `diagnostics`.
class Driver {
 public:
  Driver(CommandLine command_line, Installation installation,
         Toolchain toolchain, std::ostream& diagnostics);

  // Does what the command line asks; returns mxcc's exit status: 0 when
  // every output was produced, 1 otherwise
  // [api.compile.mxcc.exit-status].
  int Run();

 private:
  // One source and where its object goes.
  struct Job {
    Input source;
    std::string object;  // as the user would name it
    std::string stem;    // unique prefix of its temporary files
  };

  absl::Status Preprocess(const Input& source);
  absl::Status CompileSource(const Job& job);
  absl::Status CompileMaca(const Job& job);
  absl::Status CompilePlain(const Job& job);
  absl::Status BuildDeviceObject(const Job& job, const std::string& symbol,
                                 const std::string& host_object);
  absl::Status Translate(const std::string& input, const std::string& output,
                         bool device_pass, const std::string& symbol,
                         bool* needs_image);
  absl::Status Link(const std::vector<std::string>& objects);

  // Stage 8: links `device_objects` (separated, stage 7) and the device
  // library into the image `image`, with ld's complaints rewritten in the
  // terms of `sources`. `stem` names the temporary files.
  absl::Status LinkDeviceImage(const std::vector<std::string>& device_objects,
                               const std::string& image,
                               const std::string& stem,
                               const DeviceLinkSources& sources);
  // The relocatable device code of the link inputs `items` (objects,
  // archives, and -l libraries found as archives in the -L directories).
  absl::StatusOr<std::vector<RelocatableDeviceCode>> CollectDeviceCode(
      const std::vector<std::string>& items);
  // Links `code` into one image and writes the object that embeds it under
  // every source's image symbol to `object`; with no code, an empty object.
  absl::Status DeviceLink(const std::vector<RelocatableDeviceCode>& code,
                          const std::string& object);

  // The host preprocessing command of an MXMACA source (stage 1 or 2),
  // without its output.
  std::vector<std::string> MacaPreprocessCommand(const Job& job,
                                                 bool device_pass) const;
  // -MD's file and target made explicit, for the object `job.object`.
  std::vector<std::string> DependencyFlags(const Job& job) const;
  // The user's code flags, less those the device image cannot link.
  std::vector<std::string> DeviceCodeFlags() const;

  // Runs a tool; a tool that cannot be started or fails is an error that
  // the caller returns (the tool has printed its own messages).
  absl::Status RunTool(const std::vector<std::string>& argv);
  absl::StatusOr<ProcessResult> Spawn(const std::vector<std::string>& argv,
                                      const ProcessOptions& options);
  absl::StatusOr<TemporaryDirectory*> Temporary();
  std::string TemporaryFile(const Job& job, const std::string& suffix);

  CommandLine command_line_;
  Installation installation_;
  Toolchain toolchain_;
  std::ostream& diagnostics_;
  std::vector<TemporaryDirectory> temporary_;  // zero or one
  std::set<std::string> printed_diagnostics_;  // translator messages shown
  // The device pass's Translation::device_declarations_without_definition
  // of the source being compiled.
  std::set<std::string> device_declarations_;
};

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_PIPELINE_H_
