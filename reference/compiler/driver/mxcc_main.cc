// Copyright mxcts authors.
//
// mxcc: the MXMACA compiler driver of the reference implementation. Parses
// the command line, finds the installation (MACA_PATH) and runs the
// pipeline of reference/compiler/design.md. Usage errors print
// "mxcc: error: ..." and exit with status 1, as gcc does.
//
// Tested by pipeline_test.cc, which runs this binary.

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "reference/compiler/driver/command_line.h"
#include "reference/compiler/driver/installation.h"
#include "reference/compiler/driver/pipeline.h"
#include "reference/compiler/driver/process.h"

namespace {

int Fail(const absl::Status& status) {
  std::cerr << "mxcc: error: " << status.message() << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mxcts::driver;  // NOLINT(build/namespaces): one small main
  std::vector<std::string> arguments(argv + 1, argv + argc);
  absl::StatusOr<CommandLine> command_line = ParseCommandLine(arguments);
  if (!command_line.ok()) return Fail(command_line.status());
  if (command_line->show_help) {
    std::cout << HelpText();
    return 0;
  }
  if (command_line->show_version) {
    std::cout << VersionText();
    return 0;
  }
  absl::StatusOr<Installation> installation = FindInstallation(
      command_line->maca_path, std::getenv("MACA_PATH"), ExecutablePath());
  if (!installation.ok()) return Fail(installation.status());
  absl::Status headers = CheckHeaders(*installation);
  if (!headers.ok()) return Fail(headers);
  InstallInterruptHandlers();
  int status;
  {
    // The driver's temporary directory is gone when this scope ends.
    Driver driver(*std::move(command_line), *std::move(installation),
                  ToolchainFromEnvironment(), std::cerr);
    status = driver.Run();
  }
  if (int signal_number = PendingInterrupt(); signal_number != 0) {
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
  }
  return status;
}
