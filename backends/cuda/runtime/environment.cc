// Copyright mxcts authors.
//
// MACA_VISIBLE_DEVICES, MACA_DEVICE_ORDER and MACA_LAUNCH_BLOCKING as
// CUDA's CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER and CUDA_LAUNCH_BLOCKING
// (environment.h says when and why).

#include "backends/cuda/runtime/environment.h"

#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace mxcts::cuda_backend {
namespace {

std::optional<std::string> Variable(const char* name) {
  const char* value = getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// CUDA's variables as the process started with them: what an unset MXMACA
// variable leaves in force.
struct CudaAtStart {
  std::optional<std::string> visible_devices = Variable("CUDA_VISIBLE_DEVICES");
  std::optional<std::string> device_order = Variable("CUDA_DEVICE_ORDER");
  std::optional<std::string> launch_blocking = Variable("CUDA_LAUNCH_BLOCKING");
};

const CudaAtStart& Started() {
  static const CudaAtStart* started = new CudaAtStart;
  return *started;
}

void Set(const char* name, const std::optional<std::string>& value) {
  if (value.has_value()) {
    setenv(name, value->c_str(), 1);
  } else {
    unsetenv(name);
  }
}

bool IsDecimalIndex(const std::string& entry) {
  if (entry.empty()) return false;
  for (char c : entry) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// "GPU-" and 32 hexadecimal digits grouped 8-4-4-4-12.
bool IsUuid(const std::string& entry) {
  static constexpr char kPrefix[] = "GPU-";
  static constexpr size_t kPrefixSize = sizeof(kPrefix) - 1;
  if (entry.size() != kPrefixSize + 36 || entry.compare(0, 4, kPrefix) != 0) {
    return false;
  }
  for (size_t i = 0; i < 36; ++i) {
    const char c = entry[kPrefixSize + i];
    const bool dash_here = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_here ? c != '-' : !std::isxdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return true;
}

std::string LowerCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(c));
  return text;
}

// MACA_DEVICE_ORDER's value in force: the variable's when valid, else the
// default [api.env.general.invalid-value-uses-default].
std::string DeviceOrder(const std::string& maca_value) {
  if (maca_value == "FASTEST_FIRST" || maca_value == "PCI_BUS_ID") {
    return maca_value;
  }
  return "FASTEST_FIRST";
}

// MACA_LAUNCH_BLOCKING's: 1 blocks; 0 and every invalid value do not.
std::string LaunchBlocking(const std::string& maca_value) {
  return maca_value == "1" ? "1" : "0";
}

void Translate() {
  const CudaAtStart& started = Started();
  const std::optional<std::string> visible = Variable("MACA_VISIBLE_DEVICES");
  Set("CUDA_VISIBLE_DEVICES", visible.has_value() ? CudaVisibleDevices(*visible)
                                                  : started.visible_devices);
  const std::optional<std::string> order = Variable("MACA_DEVICE_ORDER");
  Set("CUDA_DEVICE_ORDER",
      order.has_value() ? DeviceOrder(*order) : started.device_order);
  const std::optional<std::string> blocking = Variable("MACA_LAUNCH_BLOCKING");
  Set("CUDA_LAUNCH_BLOCKING", blocking.has_value() ? LaunchBlocking(*blocking)
                                                   : started.launch_blocking);
}

// At program start, for programs whose first call reaches CUDA without the
// adapter; ApplyEnvironment translates again at the adapter's first call.
const bool translated_at_start = (Translate(), true);

}  // namespace

std::string CudaVisibleDevices(const std::string& maca_value) {
  std::string cuda;
  std::set<std::string> seen;
  size_t begin = 0;
  while (begin <= maca_value.size()) {
    size_t end = maca_value.find(',', begin);
    if (end == std::string::npos) end = maca_value.size();
    std::string entry = maca_value.substr(begin, end - begin);
    if (IsUuid(entry)) {
      entry = "GPU-" + LowerCase(entry.substr(4));
    } else if (!IsDecimalIndex(entry)) {
      break;
    }
    // "01" and "1" name one device: indices are compared, and given to
    // CUDA, without their leading zeros.
    std::string key = entry;
    if (IsDecimalIndex(key)) {
      key.erase(0, std::min(key.find_first_not_of('0'), key.size() - 1));
    }
    if (!seen.insert(key).second) break;
    if (!cuda.empty()) cuda += ',';
    cuda += key;
    begin = end + 1;
  }
  return cuda;
}

void ApplyEnvironment() {
  static std::once_flag once;
  std::call_once(once, [] {
    (void)translated_at_start;
    Translate();
  });
}

bool LaunchBlocking() {
  ApplyEnvironment();
  static const bool blocking = [] {
    const std::optional<std::string> cuda = Variable("CUDA_LAUNCH_BLOCKING");
    return cuda.has_value() && *cuda == "1";
  }();
  return blocking;
}

}  // namespace mxcts::cuda_backend
