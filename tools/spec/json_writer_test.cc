// Tests of the JSON writer: structure, separators, escaping.
#include "tools/spec/json_writer.h"

#include <gtest/gtest.h>

#include <limits>

namespace mxcts::spec {
namespace {

TEST(JsonQuote, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(JsonQuote("plain"), "\"plain\"");
  EXPECT_EQ(JsonQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonQuote("line\nnext\ttab"), "\"line\\nnext\\ttab\"");
  EXPECT_EQ(JsonQuote(std::string("\x01", 1)), "\"\\u0001\"");
  // UTF-8 passes through unchanged.
  EXPECT_EQ(JsonQuote("流"), "\"流\"");
}

TEST(JsonWriter, WritesNestedContainersWithSeparators) {
  JsonWriter json;
  json.BeginObject();
  json.Key("total").Int(3);
  json.Key("ratio").Double(0.5);
  json.Key("names").BeginArray().String("a").String("b").EndArray();
  json.Key("empty").BeginObject().EndObject();
  json.Key("ok").Bool(true);
  json.Key("none").Null();
  json.EndObject();
  EXPECT_EQ(json.Take(),
            "{\n"
            "  \"total\": 3,\n"
            "  \"ratio\": 0.5,\n"
            "  \"names\": [\n"
            "    \"a\",\n"
            "    \"b\"\n"
            "  ],\n"
            "  \"empty\": {},\n"
            "  \"ok\": true,\n"
            "  \"none\": null\n"
            "}\n");
}

TEST(JsonWriter, NonFiniteDoublesBecomeNull) {
  JsonWriter json;
  json.BeginArray().Double(std::numeric_limits<double>::infinity()).EndArray();
  EXPECT_EQ(json.Take(), "[\n  null\n]\n");
}

TEST(JsonWriterDeathTest, ValueWithoutKeyInObjectAborts) {
  EXPECT_DEATH(
      {
        JsonWriter json;
        json.BeginObject().Int(1);
      },
      "without Key");
}

}  // namespace
}  // namespace mxcts::spec
