// Copyright mxcts authors.

#include "tools/spec/markup_escape.h"

#include <gtest/gtest.h>

namespace mxcts::spec {
namespace {

TEST(EscapeMarkup, EscapesEachSpecialCharacter) {
  EXPECT_EQ(EscapeMarkup("a<b>&\"c\"\nd"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#10;d");
}

TEST(EscapeMarkup, LeavesPlainTextAlone) {
  EXPECT_EQ(EscapeMarkup("plain text, 'quoted' too"),
            "plain text, 'quoted' too");
  EXPECT_EQ(EscapeMarkup(""), "");
}

}  // namespace
}  // namespace mxcts::spec
