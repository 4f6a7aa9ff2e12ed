// -----------------------------------------------------------------------------
// File: json_writer.h
// -----------------------------------------------------------------------------
//
// A minimal streaming JSON writer for the index and report files. Output is
// pretty-printed with two-space indentation, and strings are escaped per
// RFC 8259. Misuse (a value without a key inside an
// object, unbalanced End calls) is a programming error and aborts.
//
// Example:
//
//   mxcts::spec::JsonWriter json;
//   json.BeginObject();
//   json.Key("clauses_total").Int(1234);
//   json.Key("chapters").BeginArray();
//   json.String("api-stream");
//   json.EndArray();
//   json.EndObject();
//   std::string text = json.Take();

#ifndef MXCTS_TOOLS_SPEC_JSON_WRITER_H_
#define MXCTS_TOOLS_SPEC_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::spec {

// Returns `text` as a quoted JSON string literal.
std::string JsonQuote(absl::string_view text);

class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // Inside an object: the next value's member name.
  JsonWriter& Key(absl::string_view key);
  JsonWriter& String(absl::string_view value);
  JsonWriter& Int(int64_t value);
  // Written with up to 6 significant decimals; non-finite values as null.
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // Returns the document, ending in a newline. All containers must be closed.
  std::string Take();

 private:
  struct Level {
    bool is_object;
    int members;
  };
  void BeforeValue();
  void NewLine();

  std::string out_;
  std::vector<Level> levels_;
  bool have_key_ = false;
};

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_JSON_WRITER_H_
