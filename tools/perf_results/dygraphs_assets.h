// Copyright mxcts authors.
//
// tools/perf_results/dygraphs_assets.h: dygraphs' minified script and style
// sheet, as Debian's libjs-dygraphs installs them, compiled into the
// program (the genrule :dygraphs_assets_cc writes the definitions) so that
// the dashboard can inline them without finding files at run time.

#ifndef MXCTS_TOOLS_PERF_RESULTS_DYGRAPHS_ASSETS_H_
#define MXCTS_TOOLS_PERF_RESULTS_DYGRAPHS_ASSETS_H_

#include "absl/strings/string_view.h"

namespace mxcts::perf_results {

// /usr/share/javascript/dygraphs/dygraph.min.js
absl::string_view DygraphsScript();

// /usr/share/javascript/dygraphs/dygraph.min.css
absl::string_view DygraphsStyle();

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_DYGRAPHS_ASSETS_H_
