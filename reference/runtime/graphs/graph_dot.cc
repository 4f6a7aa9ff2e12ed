// Copyright mxcts authors.
//
// The DOT text of a graph (graph_dot.h).
//
// Tested by graph_dot_test.cc.

#include "reference/runtime/graphs/graph_dot.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mxcts::runtime {
namespace {

// A DOT string literal's contents: quotes and backslashes escaped, line
// breaks as \n.
std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string Dim(dim3 d) {
  return absl::StrFormat("(%u, %u, %u)", d.x, d.y, d.z);
}

const char* KindName(mcMemcpyKind kind) {
  switch (kind) {
    case mcMemcpyHostToHost:
      return "HostToHost";
    case mcMemcpyHostToDevice:
      return "HostToDevice";
    case mcMemcpyDeviceToHost:
      return "DeviceToHost";
    case mcMemcpyDeviceToDevice:
      return "DeviceToDevice";
    default:
      return "Default";
  }
}

bool Wants(unsigned flags, unsigned group) {
  return (flags & (mcGraphDebugDotFlagsVerbose | group)) != 0;
}

// The label of one node: "<i>: <kind>" and the parameters asked for.
std::string Label(const MCgraphNode_st& node, size_t index, unsigned flags) {
  const NodeParams& p = node.params;
  std::string label = absl::StrFormat("%u: %s", index, p.type_name());
  if (flags & mcGraphDebugDotFlagsHandles) {
    absl::StrAppendFormat(&label, "\nnode %p", &node);
  }
  switch (p.type()) {
    case mcGraphNodeTypeKernel:
      if (Wants(flags, mcGraphDebugDotFlagsKernelNodeParams)) {
        const PreparedLaunch& launch = *p.launch();
        absl::StrAppendFormat(&label,
                              "\n%s\ngrid %s\nblock %s\nshared %u bytes\n"
                              "device %d",
                              launch.kernel_name(), Dim(launch.grid()),
                              Dim(launch.block()), launch.shared_bytes(),
                              launch.device());
      }
      break;
    case mcGraphNodeTypeMemcpy:
      if (Wants(flags, mcGraphDebugDotFlagsMemcpyNodeParams)) {
        const mcMemcpy3DParms& c = p.memcpy().copy;
        absl::StrAppendFormat(&label,
                              "\n%s\ndst %p pitch %u\nsrc %p pitch %u\n"
                              "extent (%u, %u, %u)",
                              KindName(c.kind), c.dstPtr.ptr, c.dstPtr.pitch,
                              c.srcPtr.ptr, c.srcPtr.pitch, c.extent.width,
                              c.extent.height, c.extent.depth);
      }
      break;
    case mcGraphNodeTypeMemset:
      if (Wants(flags, mcGraphDebugDotFlagsMemsetNodeParams)) {
        const mcMemsetParams& s = p.memset().set;
        absl::StrAppendFormat(&label,
                              "\ndst %p pitch %u\nvalue %#x element %u bytes\n"
                              "width %u height %u",
                              s.dst, s.pitch, s.value, s.elementSize, s.width,
                              s.height);
      }
      break;
    case mcGraphNodeTypeHost:
      if (Wants(flags, mcGraphDebugDotFlagsHostNodeParams)) {
        absl::StrAppendFormat(&label, "\nfn %p\nuserData %p",
                              reinterpret_cast<void*>(p.host().fn),
                              p.host().userData);
      }
      break;
    case mcGraphNodeTypeEventRecord:
    case mcGraphNodeTypeWaitEvent:
      if (Wants(flags, mcGraphDebugDotFlagsEventNodeParams)) {
        absl::StrAppendFormat(&label, "\nevent %p",
                              static_cast<void*>(p.event()));
      }
      break;
    case mcGraphNodeTypeGraph:
      absl::StrAppendFormat(&label, "\n%u nodes",
                            p.child_graph()->nodes.size());
      break;
    default:
      break;
  }
  return label;
}

void WriteGraph(const MCgraph_st& graph, const std::string& prefix,
                unsigned flags, int* clusters, std::string& out) {
  std::map<const MCgraphNode_st*, std::string> names;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    names[graph.nodes[i].get()] = absl::StrCat(prefix, "n", i);
  }
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const MCgraphNode_st& node = *graph.nodes[i];
    absl::StrAppendFormat(&out, "  %s [label=\"%s\"];\n", names[&node],
                          Escape(Label(node, i, flags)));
    if (node.params.type() != mcGraphNodeTypeGraph) continue;
    const int cluster = (*clusters)++;
    const std::string inner = absl::StrCat("c", cluster, "_");
    absl::StrAppendFormat(&out, "  subgraph cluster_%d {\n  label=\"%s\";\n",
                          cluster, Escape(names[&node]));
    WriteGraph(*node.params.child_graph(), inner, flags, clusters, out);
    out += "  }\n";
  }
  for (const auto& node : graph.nodes) {
    for (const MCgraphNode_st* to : node->dependents) {
      absl::StrAppendFormat(&out, "  %s -> %s;\n", names[node.get()],
                            names[to]);
    }
  }
}

}  // namespace

std::string GraphToDot(const MCgraph_st& graph, unsigned flags) {
  std::string out = "digraph mcGraph {\n  node [shape=box];\n";
  int clusters = 0;
  WriteGraph(graph, "", flags, &clusters, out);
  out += "}\n";
  return out;
}

}  // namespace mxcts::runtime
