#include "tools/mutate/mutator.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::mutate {
namespace {

using ::testing::ElementsAre;

constexpr char kSource[] =
    "int F(int size) {\n"
    "  if (size == 0) {  // [fix.alpha.size-zero]\n"
    "    return 0;\n"
    "  }\n"
    "  // [fix.beta.checked]\n"
    "  MX_RETURN_IF_ERROR(\n"
    "      Check(size));\n"
    "  if (size > 9) return 9;\n"
    "  return size;\n"
    "}\n";

std::vector<Mutant> Mutants() {
  return MakeMutants(FindTaggedChecks("f.cc", kSource));
}

TEST(MutatorTest, IfGetsNegateAndSkipReturnIfErrorGetsDrop) {
  std::vector<std::string> ids;
  for (const Mutant& mutant : Mutants()) ids.push_back(mutant.id);
  // The untagged `if (size > 9)` (control) has no mutant.
  EXPECT_THAT(ids, ElementsAre("f.cc:2:negate", "f.cc:2:skip", "f.cc:6:drop"));
}

TEST(MutatorTest, NegateInvertsOnlyTheTaggedCondition) {
  const std::string mutated = ApplyMutant(kSource, Mutants()[0]);
  EXPECT_EQ(mutated,
            "int F(int size) {\n"
            "  if (!(size == 0)) {  // [fix.alpha.size-zero]\n"
            "    return 0;\n"
            "  }\n"
            "  // [fix.beta.checked]\n"
            "  MX_RETURN_IF_ERROR(\n"
            "      Check(size));\n"
            "  if (size > 9) return 9;\n"
            "  return size;\n"
            "}\n");
}

TEST(MutatorTest, SkipMakesTheCheckNeverFire) {
  const std::string mutated = ApplyMutant(kSource, Mutants()[1]);
  EXPECT_NE(mutated.find("  if (false && (size == 0)) {"), std::string::npos);
  EXPECT_NE(mutated.find("  if (size > 9) return 9;"), std::string::npos);
}

TEST(MutatorTest, DropRemovesTheCallAndKeepsLineNumbers) {
  const std::string mutated = ApplyMutant(kSource, Mutants()[2]);
  EXPECT_EQ(mutated.find("Check(size)"), std::string::npos);
  EXPECT_NE(mutated.find("  static_cast<void>(0);\n\n  if (size > 9)"),
            std::string::npos);
  EXPECT_EQ(std::count(mutated.begin(), mutated.end(), '\n'),
            std::count(kSource, kSource + sizeof kSource - 1, '\n'));
}

TEST(MutatorTest, TwoChecksOnOneLineGetDistinctIds) {
  std::vector<Mutant> mutants = MakeMutants(FindTaggedChecks(
      "g.cc",
      "  if (a) { if (b) { return; } }  // [fix.alpha.both-checked]\n"));
  std::vector<std::string> ids;
  for (const Mutant& mutant : mutants) ids.push_back(mutant.id);
  EXPECT_THAT(ids, ElementsAre("g.cc:1:negate", "g.cc:1:skip",
                               "g.cc:1:negate#2", "g.cc:1:skip#2"));
}

TEST(MutatorTest, OperatorNamesRoundTrip) {
  for (Operator op : {Operator::kNegate, Operator::kSkip, Operator::kDrop}) {
    Operator parsed = Operator::kNegate;
    ASSERT_TRUE(ParseOperator(OperatorName(op), &parsed));
    EXPECT_EQ(parsed, op);
  }
  Operator unused;
  EXPECT_FALSE(ParseOperator("invert", &unused));
}

}  // namespace
}  // namespace mxcts::mutate
