// The JSON writer keeps a stack of open containers so it knows where commas
// and newlines go; values are appended to one string.
//
// Tested by json_writer_test.cc.

#include "tools/spec/json_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mxcts::spec {
namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "JsonWriter misuse: %s\n", what);
    std::abort();
  }
}

}  // namespace

std::string JsonQuote(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += absl::StrFormat("\\u%04x", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

void JsonWriter::NewLine() {
  out_ += '\n';
  out_.append(2 * levels_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  if (levels_.empty()) {
    Check(out_.empty(), "a second top-level value");
    return;
  }
  Level& level = levels_.back();
  if (level.is_object) {
    Check(have_key_, "a value inside an object without Key()");
    have_key_ = false;
    return;
  }
  if (level.members++ > 0) out_ += ',';
  NewLine();
}

JsonWriter& JsonWriter::Key(absl::string_view key) {
  Check(!levels_.empty() && levels_.back().is_object && !have_key_,
        "Key() outside an object or twice in a row");
  if (levels_.back().members++ > 0) out_ += ',';
  NewLine();
  out_ += JsonQuote(key);
  out_ += ": ";
  have_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_ += '{';
  levels_.push_back({true, 0});
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  Check(!levels_.empty() && levels_.back().is_object && !have_key_,
        "EndObject() without a matching BeginObject()");
  bool empty = levels_.back().members == 0;
  levels_.pop_back();
  if (!empty) NewLine();
  out_ += '}';
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_ += '[';
  levels_.push_back({false, 0});
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  Check(!levels_.empty() && !levels_.back().is_object,
        "EndArray() without a matching BeginArray()");
  bool empty = levels_.back().members == 0;
  levels_.pop_back();
  if (!empty) NewLine();
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::String(absl::string_view value) {
  BeforeValue();
  out_ += JsonQuote(value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  absl::StrAppend(&out_, value);
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  if (std::isfinite(value)) {
    absl::StrAppend(&out_, absl::StrFormat("%.6g", value));
  } else {
    out_ += "null";
  }
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
  return *this;
}

std::string JsonWriter::Take() {
  Check(levels_.empty() && !out_.empty(), "Take() with open containers");
  out_ += '\n';
  return std::move(out_);
}

}  // namespace mxcts::spec
