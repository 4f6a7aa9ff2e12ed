// Copyright mxcts authors.
//
// reference/runtime/graphs/graph_dot.h: a graph in the DOT language, for
// mcGraphDebugDotPrint.
//
// Each node is a DOT node named n<i> (c<k>_n<i> inside child graph k),
// labelled with its position, its kind and the parameters `flags` asks for
// (mcGraphDebugDotFlags); each dependency is a DOT edge. A child graph is a
// cluster subgraph, labelled with its node's name, written after its node.
// [api.graph.debug-dot.writes-file] [api.graph.debug-dot.verbosity-flags]
//
//   std::string dot = GraphToDot(*graph, mcGraphDebugDotFlagsVerbose);

#ifndef MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_DOT_H_
#define MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_DOT_H_

#include <string>

#include "reference/runtime/graphs/graph.h"

namespace mxcts::runtime {

// `graph` as a DOT digraph.
std::string GraphToDot(const MCgraph_st& graph, unsigned flags);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_DOT_H_
