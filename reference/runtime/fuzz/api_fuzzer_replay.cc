// Copyright mxcts authors.
//
// The API fuzzer without libFuzzer: replays inputs from files and runs
// inputs from a seeded generator, so any compiler (gcc included) and any
// machine can run the fuzzer's checks for a bounded count.
//
// Usage: api_fuzzer_replay [--runs=N] [--seed=S] [--max_len=L] [PATH...]
//
// Each PATH is an input file or a directory of them (its regular files, in
// name order); each is run once. Then N inputs (default 0) of up to L bytes
// (default 512) are generated from seed S (default 1) and run. A violated
// check aborts the process after naming the input (the file, or the seed
// and index, which --dump=DIR writes out as a file for the corpus).
// Exit status: 0 all ran, 2 usage error or an unreadable file.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "reference/runtime/fuzz/api_fuzzer.h"

namespace {

// The input running now, for the crash handler to name.
char g_current[512] = "";

void NameInputAndDie(int signal_number) {
  static const char kPrefix[] = "api_fuzzer_replay: the failing input is ";
  ssize_t ignored = write(2, kPrefix, sizeof(kPrefix) - 1);
  ignored = write(2, g_current, std::strlen(g_current));
  ignored = write(2, "\n", 1);
  (void)ignored;
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

void SetCurrent(const std::string& text) {
  std::snprintf(g_current, sizeof(g_current), "%s", text.c_str());
}

bool ParseNumber(const char* text, uint64_t* value) {
  char* end = nullptr;
  *value = std::strtoull(text, &end, 10);
  return end != text && *end == '\0';
}

bool ReadFile(const std::string& path, std::vector<uint8_t>* bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  bytes->assign(std::istreambuf_iterator<char>(file),
                std::istreambuf_iterator<char>());
  return !file.bad();
}

int Usage() {
  std::fprintf(stderr,
               "usage: api_fuzzer_replay [--runs=N] [--seed=S] [--max_len=L] "
               "[--dump=DIR] [PATH...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t runs = 0, seed = 1, max_len = 512;
  std::string dump;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag, uint64_t* out) {
      const size_t n = std::strlen(flag);
      return arg.compare(0, n, flag) == 0 && ParseNumber(argv[i] + n, out);
    };
    if (value("--runs=", &runs) || value("--seed=", &seed) ||
        value("--max_len=", &max_len)) {
      continue;
    }
    if (arg.compare(0, 7, "--dump=") == 0) {
      dump = arg.substr(7);
      continue;
    }
    if (arg.compare(0, 2, "--") == 0) return Usage();
    std::error_code error;
    if (std::filesystem::is_directory(arg, error)) {
      std::vector<std::string> entries;
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.is_regular_file()) entries.push_back(entry.path().string());
      }
      std::sort(entries.begin(), entries.end());
      files.insert(files.end(), entries.begin(), entries.end());
    } else if (std::filesystem::is_regular_file(arg, error)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "api_fuzzer_replay: %s: no such file or directory\n",
                   arg.c_str());
      return 2;
    }
  }
  if (max_len == 0) return Usage();
  for (int signal_number : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
    signal(signal_number, NameInputAndDie);
  }

  for (const std::string& path : files) {
    std::vector<uint8_t> bytes;
    if (!ReadFile(path, &bytes)) {
      std::fprintf(stderr, "api_fuzzer_replay: %s: cannot be read\n",
                   path.c_str());
      return 2;
    }
    SetCurrent(path);
    mxcts::fuzz::RunApiFuzzInput(bytes.data(), bytes.size());
  }

  std::mt19937_64 random(seed);
  for (uint64_t run = 0; run < runs; ++run) {
    std::vector<uint8_t> bytes(1 + random() % max_len);
    for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(random());
    SetCurrent("generated input " + std::to_string(run) + " of --seed=" +
               std::to_string(seed) + " --max_len=" + std::to_string(max_len) +
               " (--dump=DIR writes it out)");
    if (!dump.empty()) {
      // Written before the run, so a crash leaves the input behind.
      const std::string path =
          dump + "/seed" + std::to_string(seed) + "-" + std::to_string(run);
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    }
    mxcts::fuzz::RunApiFuzzInput(bytes.data(), bytes.size());
    if (!dump.empty()) {
      std::filesystem::remove(dump + "/seed" + std::to_string(seed) + "-" +
                              std::to_string(run));
    }
  }
  std::printf(
      "api_fuzzer_replay: %zu files and %llu generated inputs ran, "
      "no violation\n",
      files.size(), static_cast<unsigned long long>(runs));
  return 0;
}
