#include "tools/mutate/equivalents.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/mutate/finder.h"
#include "tools/mutate/mutator.h"

namespace mxcts::mutate {
namespace {

using ::testing::HasSubstr;

constexpr char kSource[] =
    "int Clamp(int v) {\n"
    "  if (v >\n"
    "      kMax) {  // [a.b.c]\n"
    "    return kMax;\n"
    "  }\n"
    "  return v;\n"
    "}\n";

std::vector<Mutant> Mutants() {
  return MakeMutants(FindTaggedChecks("lib/clamp.cc", kSource));
}

TEST(EquivalentsTest, CheckTextCollapsesWhiteSpace) {
  std::vector<Mutant> mutants = Mutants();
  ASSERT_FALSE(mutants.empty());
  EXPECT_EQ(CheckText(kSource, mutants[0].check), "v > kMax");
}

TEST(EquivalentsTest, EntryMatchesItsFileOperatorAndCheckOnly) {
  absl::StatusOr<std::vector<Equivalent>> table = ParseEquivalents(
      "e.tsv",
      "# file\toperator\tcheck\treason\n"
      "\n"
      "lib/clamp.cc\tskip\tv  >   kMax\tThe caller clamps first.\n");
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->size(), 1u);
  EXPECT_EQ((*table)[0].check, "v > kMax");
  EXPECT_EQ((*table)[0].line, 3);
  std::vector<Mutant> mutants = Mutants();
  ASSERT_EQ(mutants.size(), 2u);  // negate, skip
  const std::string text = CheckText(kSource, mutants[0].check);
  const Mutant& negate = mutants[0];
  const Mutant& skip = mutants[1];
  ASSERT_EQ(skip.op, Operator::kSkip);
  const Equivalent* found = FindEquivalent(*table, skip, text);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->reason, "The caller clamps first.");
  // Controls: another operator, another check text, another file.
  EXPECT_EQ(FindEquivalent(*table, negate, text), nullptr);
  EXPECT_EQ(FindEquivalent(*table, skip, "v >= kMax"), nullptr);
  Mutant elsewhere = skip;
  elsewhere.check.file = "lib/other.cc";
  EXPECT_EQ(FindEquivalent(*table, elsewhere, text), nullptr);
}

TEST(EquivalentsTest, MalformedLinesAreNamed) {
  absl::StatusOr<std::vector<Equivalent>> fields =
      ParseEquivalents("e.tsv", "# ok\nlib/a.cc\tskip\tv > 0\n");
  ASSERT_FALSE(fields.ok());
  EXPECT_THAT(fields.status().message(), HasSubstr("e.tsv:2: expected 4"));
  absl::StatusOr<std::vector<Equivalent>> op =
      ParseEquivalents("e.tsv", "lib/a.cc\tinvert\tv > 0\twhy\n");
  ASSERT_FALSE(op.ok());
  EXPECT_THAT(op.status().message(), HasSubstr("e.tsv:1: unknown operator"));
  absl::StatusOr<std::vector<Equivalent>> reason =
      ParseEquivalents("e.tsv", "lib/a.cc\tskip\tv > 0\t  \n");
  ASSERT_FALSE(reason.ok());
  EXPECT_THAT(reason.status().message(), HasSubstr("e.tsv:1: no reason"));
}

}  // namespace
}  // namespace mxcts::mutate
