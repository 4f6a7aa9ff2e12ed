#!/bin/bash
# Draws the dashboard in a real headless browser (Debian's chromium) and
# checks that every chart was drawn: a history of two backends with a
# planted step becomes a page, chromium loads it from file:// with no
# network, runs its scripts and dumps the resulting DOM, which must show
# each chart marked drawn with its canvas, the change's flag on the chart
# of the step, and the legend naming the commit of the run pointed at.
#
# Usage: dashboard_browser_test.sh PATH_TO_PERF_DASHBOARD PATH_TO_INJECT_STEP
#
# Runs as root on CI machines without a GPU or a display: chromium gets
# --no-sandbox (its sandbox refuses root), --disable-gpu, and a profile
# and HOME in the test's temporary directory.
set -u
tool="$1"
inject="$2"
data="$(dirname "$tool")/testdata"
work="$(mktemp -d "${TEST_TMPDIR:-/tmp}/dashboard_browser.XXXXXX")"
source tools/testing/check.sh

browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "FAIL: chromium is not installed (tools/setup installs it)"
  exit 1
fi

db="$work/history.sqlite"
for i in 0 1 2 3 4 5; do
  "$tool" import --db="$db" --backend=reference --commit="c$i" \
    --date="2026-11-1${i}T02:30:00+00:00" "$data/reference.json" >/dev/null ||
    exit 1
  "$tool" import --db="$db" --backend=cuda --commit="c$i" \
    --date="2026-11-1${i}T04:00:00+00:00" "$data/cuda.json" >/dev/null ||
    exit 1
done
"$inject" --db="$db" --out="$work/injected.sqlite" --backend=reference \
  --benchmark=BM_EmptyLaunchAndSynchronize/real_time \
  --counter=ratio_to_context_switch --from_run=3 --factor=1.5 >/dev/null ||
  exit 1
"$tool" html --db="$work/injected.sqlite" --out="$work/dashboard.html" >/dev/null ||
  exit 1

# The DOM once the page's scripts have run (virtual time lets timers run
# without waiting for them in real time).
draw() {
  HOME="$work" timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --disable-dev-shm-usage --no-first-run --user-data-dir="$work/profile" \
    --virtual-time-budget=10000 "$@" 2>"$work/browser.log"
}
run draw --dump-dom "file://$work/dashboard.html"
dom="$output"
echo "$dom" >"$work/dom.html"
# A failed check shows this instead of the whole DOM (kept in dom.html).
output="(the DOM after the scripts ran: $work/dom.html, $(wc -c <"$work/dom.html") bytes)"
check browser-ran '[ "$status" -eq 0 ] && [[ "$dom" == *"</html>"* ]]'
check_context() {
  echo "browser log:"
  grep -v dbus "$work/browser.log" | tail -n 20
}

charts="$(grep -o 'class="chart" id="chart-[0-9]*"' "$work/dashboard.html" | wc -l)"
check three-charts-on-page '[ "$charts" -eq 3 ]'
check all-drawn '[[ "$dom" == *"data-charts-drawn=\"$charts\""* ]]'
check each-marked-drawn '[ "$(grep -o "data-drawn=\"true\"" <<<"$dom" | wc -l)" -eq "$charts" ]'
check canvases '[ "$(grep -o "<canvas" <<<"$dom" | wc -l)" -ge "$charts" ]'
# The step's flag (an annotation) is on the page, and the legend of each
# chart was written by the page's formatter.
check change-flagged '[[ "$dom" == *"dygraph-default-annotation regression\" title=\"regression +50.0%"* ]]'
check legend-filled '[[ "$dom" == *"reference: 6 runs; point at a run for its commit"* ]]'
check cuda-side-by-side '[[ "$dom" == *"cuda: 6 runs; point at a run for its commit"* ]]'

# Pointing at a run shows its commit: select the fifth run of the
# reference's launch chart (as the pointer does) in a copy of the page.
launch_chart="$(grep -o 'class="chart" id="chart-[0-9]*" data-backend="reference"' \
  "$work/dashboard.html" | head -n 1 | grep -o 'chart-[0-9]*')"
sed "s|</body>|<script>window.dashboardCharts['$launch_chart'].setSelection(4);</script></body>|" \
  "$work/dashboard.html" >"$work/selected.html"
run draw --dump-dom "file://$work/selected.html"
selected="$output"
output="(the DOM with run 5 selected, ${#selected} characters)"
check hover-shows-commit '[[ "$selected" == *"commit <code>c4</code> · 2026-11-14T02:30:00Z · median "*"3 repetitions)"* ]]'

# Control: a page whose library fails to load draws nothing, and the test
# would see it.
sed 's/new Dygraph(/new NoSuchLibrary(/' "$work/dashboard.html" >"$work/broken.html"
run draw --dump-dom "file://$work/broken.html"
broken="$output"
output="(the broken page's DOM, ${#broken} characters)"
check broken-page-loaded '[[ "$broken" == *"</html>"* ]]'
check broken-page-not-drawn '[[ "$broken" != *"data-charts-drawn="* ]]'

finish dashboard_browser_test
