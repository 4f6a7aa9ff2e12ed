// Compiles against nlohmann/json (header-only) and checks that an ordered
// object keeps its keys in insertion order and round-trips through text.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace {

TEST(NlohmannJsonLink, OrderedObjectKeepsInsertionOrder) {
  nlohmann::ordered_json object;
  object["zeta"] = 1;
  object["alpha"] = "a\"b";
  EXPECT_EQ(object.dump(), R"({"zeta":1,"alpha":"a\"b"})");
  EXPECT_EQ(nlohmann::ordered_json::parse(object.dump()), object);
  EXPECT_FALSE(nlohmann::json::accept("{\"unterminated\": "));
}

}  // namespace
