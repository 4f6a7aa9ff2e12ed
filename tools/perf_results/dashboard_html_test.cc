// Tests the dashboard page's content: the regression table at the top,
// one chart per backend per ratio, backends side by side with an empty cell
// where one lacks a ratio, the library inlined, markup escaped. (That the
// charts draw is dashboard_browser_test.sh's part.)
#include "tools/perf_results/dashboard_html.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mxcts::perf_results {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

int Count(const std::string& text, const std::string& part) {
  int count = 0;
  for (size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

Series MakeSeries(const std::string& backend, const std::string& benchmark,
                  const std::vector<double>& levels) {
  Series series{backend, benchmark, "ratio_to_native", {}};
  for (size_t i = 0; i < levels.size(); ++i) {
    series.points.push_back(
        SeriesPoint{static_cast<int64_t>(i + 1),
                    absl::StrCat("commit", i, "abcdefabcdef"),
                    absl::StrCat("2026-11-", 10 + i, "T00:00:00Z"),
                    {levels[i] * 0.99, levels[i], levels[i] * 1.01}});
  }
  return series;
}

DashboardInput MakeInput() {
  DashboardInput input;
  input.series = {
      MakeSeries("cuda", "BM_Launch", {2, 2, 2, 2, 2, 2}),
      MakeSeries("reference", "BM_Launch", {1, 1, 1, 1.5, 1.5, 1.5}),
      MakeSeries("reference", "BM_<Copy></script>", {1, 1, 1, 1, 1, 1}),
  };
  RunInfo run;
  run.backend = "reference";
  run.commit = "commit5abcdefabcdef";
  run.date = "2026-11-15T00:00:00Z";
  run.machine = Machine{"Test CPU", 2, int64_t{2} << 30, "Linux 6.1"};
  input.runs = {run};
  run.backend = "cuda";
  input.runs.push_back(run);
  input.changes = DetectChanges(input.series, input.options);
  input.generated = "2026-11-27 10:00 UTC";
  return input;
}

TEST(DashboardHtml, ListsTheCurrentRegressionFirst) {
  const DashboardInput input = MakeInput();
  ASSERT_EQ(input.changes.size(), 1u);
  const std::string page = RenderDashboard(input);
  const size_t table = page.find("<table id=\"current-regressions\">");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(table, page.find("class=\"chart\""));
  const std::string row =
      page.substr(table, page.find("</table>", table) - table);
  EXPECT_TRUE(absl::StrContains(row, "BM_Launch")) << "BM_Launch";
  EXPECT_TRUE(absl::StrContains(row, "commit2abcde..commit3abcde"))
      << "commit2abcde..commit3abcde";
  EXPECT_TRUE(absl::StrContains(row, "+50.0%")) << "+50.0%";
  EXPECT_FALSE(absl::StrContains(page, "id=\"no-regressions\""))
      << "id=\"no-regressions\"";
}

TEST(DashboardHtml, ListsAChangeWithinOneCommitAsTheMachines) {
  DashboardInput input = MakeInput();
  for (SeriesPoint& point : input.series[1].points) point.commit = "same";
  input.changes = DetectChanges(input.series, input.options);
  ASSERT_EQ(input.changes.size(), 1u);
  const std::string page = RenderDashboard(input);
  EXPECT_TRUE(absl::StrContains(page, "id=\"no-regressions\""));
  EXPECT_TRUE(absl::StrContains(page, "<tr class=\"machine\">"));
  EXPECT_TRUE(absl::StrContains(page, "<td>same commit: machine</td>"));
  EXPECT_TRUE(absl::StrContains(page, "\"machine\":true"));
}

TEST(DashboardHtml, PutsTheRowOfACurrentRegressionFirst) {
  const std::string page = RenderDashboard(MakeInput());
  // BM_<Copy> sorts before BM_Launch by name, but BM_Launch regressed.
  EXPECT_LT(page.find("<h3>BM_Launch"), page.find("<h3>BM_&lt;Copy"));
  // Control: without the change, the name decides.
  DashboardInput input = MakeInput();
  input.changes.clear();
  const std::string plain = RenderDashboard(input);
  EXPECT_GT(plain.find("<h3>BM_Launch"), plain.find("<h3>BM_&lt;Copy"));
}

TEST(DashboardHtml, SaysNoneWithoutARegression) {
  DashboardInput input = MakeInput();
  input.changes.clear();
  const std::string page = RenderDashboard(input);
  EXPECT_TRUE(absl::StrContains(page, "id=\"no-regressions\""))
      << "id=\"no-regressions\"";
  EXPECT_FALSE(absl::StrContains(page, "current-regressions"))
      << "current-regressions";
}

TEST(DashboardHtml, PutsBackendsSideBySide) {
  const std::string page = RenderDashboard(MakeInput());
  // Three series, three charts; BM_<Copy> has no cuda series: one empty
  // cell keeps the columns aligned.
  EXPECT_EQ(Count(page, "<div class=\"chart\" id=\"chart-"), 3);
  EXPECT_EQ(Count(page, "<div class=\"empty\">no results</div>"), 1);
  EXPECT_EQ(Count(page, "<section class=\"row\""), 2);
  // Backends in the order of their first run: reference, then cuda.
  const size_t launch = page.find("BM_Launch <span");
  ASSERT_NE(launch, std::string::npos);
  EXPECT_LT(page.find("data-backend=\"reference\"", launch),
            page.find("data-backend=\"cuda\"", launch));
}

TEST(DashboardHtml, InlinesTheLibraryAndTheData) {
  const std::string page = RenderDashboard(MakeInput());
  EXPECT_FALSE(absl::StrContains(page, "<script src")) << "<script src";
  EXPECT_FALSE(absl::StrContains(page, "<link")) << "<link";
  EXPECT_TRUE(absl::StrContains(page, "Dygraph")) << "Dygraph";
  EXPECT_TRUE(absl::StrContains(page, "id=\"dashboard-data\""))
      << "id=\"dashboard-data\"";
  // Every run's commit and the change's flag text are in the data.
  EXPECT_TRUE(absl::StrContains(page, "\"commit\":\"commit0abcde\""))
      << "\"commit\":\"commit0abcde\"";
  EXPECT_TRUE(absl::StrContains(page, "regression +50.0%"))
      << "regression +50.0%";
  EXPECT_EQ(Count(page, "</script>"), 3);
}

TEST(DashboardHtml, EscapesMarkupInNames) {
  const std::string page = RenderDashboard(MakeInput());
  EXPECT_TRUE(
      absl::StrContains(page, "<h3>BM_&lt;Copy&gt;&lt;/script&gt; <span"));
  EXPECT_FALSE(absl::StrContains(page, "<h3>BM_<Copy>"));
  // In the JSON blob the name cannot end the script element early.
  EXPECT_TRUE(absl::StrContains(page, "BM_<Copy><\\/script>"));
  EXPECT_EQ(Count(page, "</script>"), 3);
}

TEST(DashboardHtml, StatesTheMethod) {
  const std::string page = RenderDashboard(MakeInput());
  EXPECT_TRUE(absl::StrContains(page, "Mann-Whitney U")) << "Mann-Whitney U";
  EXPECT_TRUE(absl::StrContains(page, "below 0.01")) << "below 0.01";
  EXPECT_TRUE(absl::StrContains(page, "at least 10%")) << "at least 10%";
  EXPECT_TRUE(absl::StrContains(page, "up to 5 runs")) << "up to 5 runs";
}

}  // namespace
}  // namespace mxcts::perf_results
