// Links pugixml and checks that a document parses and a malformed one does
// not.
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <string>

namespace {

TEST(PugixmlLink, ParsesAttributesAndRejectsAMismatchedTag) {
  pugi::xml_document document;
  ASSERT_TRUE(
      document.load_string("<testsuite><testcase name=\"A&amp;B\"/>"
                           "</testsuite>"));
  EXPECT_EQ(std::string(document.child("testsuite")
                            .child("testcase")
                            .attribute("name")
                            .value()),
            "A&B");

  pugi::xml_document broken;
  EXPECT_FALSE(broken.load_string("<testsuite><testcase></testsuite>"));
}

}  // namespace
