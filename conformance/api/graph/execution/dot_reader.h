// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/graph/execution/dot_reader.h
// -----------------------------------------------------------------------------
//
// A reader of the DOT language, enough to check what mcGraphDebugDotPrint
// writes (docs/spec/api-graph.md, "Debug output") without depending on
// Graphviz alone: the graph, its node statements and edge statements with
// their attributes and the subgraph each lies in. It follows the grammar of
// https://graphviz.org/doc/info/lang.html: keywords in any case; IDs as
// names, numerals, double-quoted strings (with escaped quotes, line
// continuations and `+` concatenation) and HTML strings; comments; edge
// chains; subgraphs; attribute lists in brackets. A file that breaks the
// grammar is reported with the token where reading stopped.
//
//   DotGraph dot = ReadDot(text);
//   if (!dot.error.empty()) ...;
//   dot.nodes.size();        // node statements
//   dot.edges[0].from;       // "n1"
//   dot.nodes[0].attributes.at("label");
//
// DotProgram() finds Graphviz's `dot`, and DotAccepts() runs it on a file.

#ifndef MXCTS_CONFORMANCE_API_GRAPH_EXECUTION_DOT_READER_H_
#define MXCTS_CONFORMANCE_API_GRAPH_EXECUTION_DOT_READER_H_

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace mxcts::conformance::graph {

struct DotNode {
  std::string id;
  std::map<std::string, std::string> attributes;
  int depth = 0;         // 0 in the graph's body, 1 in a subgraph of it, ...
  std::string subgraph;  // the innermost subgraph's name ("" at depth 0)
};

struct DotEdge {
  std::string from;
  std::string to;
  std::map<std::string, std::string> attributes;
  int depth = 0;
};

struct DotGraph {
  bool strict = false;
  bool directed = false;
  std::string name;
  std::vector<DotNode> nodes;
  std::vector<DotEdge> edges;
  std::vector<std::string> subgraphs;
  std::string error;  // empty when the text is a DOT graph

  // The node statements at `depth`.
  std::vector<DotNode> NodesAt(int depth) const {
    std::vector<DotNode> result;
    for (const DotNode& node : nodes) {
      if (node.depth == depth) result.push_back(node);
    }
    return result;
  }
  // The edge statements at `depth`.
  std::vector<DotEdge> EdgesAt(int depth) const {
    std::vector<DotEdge> result;
    for (const DotEdge& edge : edges) {
      if (edge.depth == depth) result.push_back(edge);
    }
    return result;
  }
  bool Declares(const std::string& id) const {
    for (const DotNode& node : nodes) {
      if (node.id == id) return true;
    }
    return false;
  }
};

namespace dot_internal {

enum class TokenKind { kId, kPunct, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // an ID's value (quotes removed) or the punctuation
  bool keyword_able = false;  // a bare name, which may be a keyword
};

class Lexer {
 public:
  explicit Lexer(const std::string& text) : text_(text) {}

  // Splits the text into tokens; false with `error` set on a bad token.
  bool Run(std::vector<Token>* tokens, std::string* error) {
    while (true) {
      SkipSpaceAndComments();
      if (pos_ >= text_.size()) break;
      const char c = text_[pos_];
      if (c == '"') {
        std::string value;
        if (!Quoted(&value, error)) return false;
        // "a" + "b" concatenates.
        while (true) {
          const size_t save = pos_;
          SkipSpaceAndComments();
          if (pos_ < text_.size() && text_[pos_] == '+') {
            ++pos_;
            SkipSpaceAndComments();
            std::string more;
            if (pos_ >= text_.size() || text_[pos_] != '"') {
              *error = "'+' not followed by a quoted string";
              return false;
            }
            if (!Quoted(&more, error)) return false;
            value += more;
          } else {
            pos_ = save;
            break;
          }
        }
        tokens->push_back({TokenKind::kId, value, false});
      } else if (c == '<') {
        std::string value;
        if (!Html(&value, error)) return false;
        tokens->push_back({TokenKind::kId, value, false});
      } else if (c == '-' && pos_ + 1 < text_.size() &&
                 (text_[pos_ + 1] == '>' || text_[pos_ + 1] == '-')) {
        tokens->push_back({TokenKind::kPunct, text_.substr(pos_, 2), false});
        pos_ += 2;
      } else if (std::string("{}[];,=:").find(c) != std::string::npos) {
        tokens->push_back({TokenKind::kPunct, std::string(1, c), false});
        ++pos_;
      } else if (c == '-' || c == '.' ||
                 std::isdigit(static_cast<unsigned char>(c))) {
        tokens->push_back({TokenKind::kId, Numeral(), false});
      } else if (IsNameStart(c)) {
        const size_t start = pos_;
        while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
        tokens->push_back(
            {TokenKind::kId, text_.substr(start, pos_ - start), true});
      } else {
        *error = "unexpected character '" + std::string(1, c) + "' at " +
                 std::to_string(pos_);
        return false;
      }
    }
    tokens->push_back({TokenKind::kEnd, "", false});
    return true;
  }

 private:
  static bool IsNameStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
  }
  static bool IsNameChar(char c) {
    return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c));
  }
  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() &&
                 text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() &&
                 text_[pos_ + 1] == '*') {
        const size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string::npos ? text_.size() : end + 2;
      } else if (c == '#' && (pos_ == 0 || text_[pos_ - 1] == '\n')) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }
  bool Quoted(std::string* value, std::string* error) {
    const size_t start = pos_;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) {
        const char next = text_[pos_ + 1];
        if (next == '"') {
          *value += '"';
        } else if (next == '\n') {
          // A line continuation.
        } else {
          *value += '\\';
          *value += next;
        }
        pos_ += 2;
      } else {
        *value += text_[pos_++];
      }
    }
    if (pos_ >= text_.size()) {
      *error = "unterminated string from " + std::to_string(start);
      return false;
    }
    ++pos_;
    return true;
  }
  bool Html(std::string* value, std::string* error) {
    const size_t start = pos_;
    int depth = 0;
    do {
      const char c = text_[pos_];
      if (c == '<') ++depth;
      if (c == '>') --depth;
      *value += c;
      ++pos_;
    } while (pos_ < text_.size() && depth > 0);
    if (depth != 0) {
      *error = "unterminated HTML string from " + std::to_string(start);
      return false;
    }
    *value = value->substr(1, value->size() - 2);
    return true;
  }
  std::string Numeral() {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    while (pos_ < text_.size() &&
           (std::isdigit(static_cast<unsigned char>(text_[pos_])) ||
            text_[pos_] == '.')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  const std::string& text_;
  size_t pos_ = 0;
};

inline std::string Lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, DotGraph* graph)
      : tokens_(std::move(tokens)), graph_(graph) {}

  bool Graph() {
    if (IsKeyword("strict")) {
      graph_->strict = true;
      ++pos_;
    }
    if (IsKeyword("digraph")) {
      graph_->directed = true;
    } else if (!IsKeyword("graph")) {
      return Fail("expected 'graph' or 'digraph'");
    }
    ++pos_;
    if (Peek().kind == TokenKind::kId) graph_->name = tokens_[pos_++].text;
    if (!Expect("{")) return false;
    if (!StatementList(0, "")) return false;
    if (!Expect("}")) return false;
    if (Peek().kind != TokenKind::kEnd) return Fail("text after the graph");
    return true;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    const size_t at = pos_ + ahead;
    return at < tokens_.size() ? tokens_[at] : tokens_.back();
  }
  bool IsPunct(const char* p, size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kPunct && Peek(ahead).text == p;
  }
  bool IsKeyword(const char* word, size_t ahead = 0) const {
    return Peek(ahead).kind == TokenKind::kId && Peek(ahead).keyword_able &&
           Lower(Peek(ahead).text) == word;
  }
  bool Fail(const std::string& what) {
    if (graph_->error.empty()) {
      graph_->error = what + " at token " + std::to_string(pos_) + " ('" +
                      Peek().text + "')";
    }
    return false;
  }
  bool Expect(const char* p) {
    if (!IsPunct(p)) return Fail(std::string("expected '") + p + "'");
    ++pos_;
    return true;
  }
  bool Id(std::string* id) {
    if (Peek().kind != TokenKind::kId) return Fail("expected an ID");
    *id = tokens_[pos_++].text;
    return true;
  }

  bool StatementList(int depth, const std::string& subgraph) {
    while (!IsPunct("}") && Peek().kind != TokenKind::kEnd) {
      if (!Statement(depth, subgraph)) return false;
      if (IsPunct(";")) ++pos_;
    }
    return true;
  }

  bool Statement(int depth, const std::string& subgraph) {
    if (IsKeyword("graph") || IsKeyword("node") || IsKeyword("edge")) {
      ++pos_;
      std::map<std::string, std::string> ignored;
      return AttributeLists(&ignored, true);
    }
    if (IsKeyword("subgraph") || IsPunct("{")) {
      std::vector<std::string> members;
      if (!Subgraph(depth, &members)) return false;
      if (IsPunct("->") || IsPunct("--")) {
        return EdgeChain(members, depth, subgraph);
      }
      return true;
    }
    if (Peek().kind == TokenKind::kId && IsPunct("=", 1)) {
      pos_ += 2;
      std::string value;
      return Id(&value);
    }
    std::string id;
    if (!NodeId(&id)) return false;
    if (IsPunct("->") || IsPunct("--")) {
      return EdgeChain({id}, depth, subgraph);
    }
    DotNode node;
    node.id = id;
    node.depth = depth;
    node.subgraph = subgraph;
    if (!AttributeLists(&node.attributes, false)) return false;
    graph_->nodes.push_back(node);
    return true;
  }

  bool NodeId(std::string* id) {
    if (!Id(id)) return false;
    // A port: ID ':' ID [':' compass].
    for (int i = 0; i < 2 && IsPunct(":"); ++i) {
      ++pos_;
      std::string port;
      if (!Id(&port)) return false;
    }
    return true;
  }

  bool Subgraph(int depth, std::vector<std::string>* members) {
    std::string name;
    if (IsKeyword("subgraph")) {
      ++pos_;
      if (Peek().kind == TokenKind::kId) name = tokens_[pos_++].text;
    }
    graph_->subgraphs.push_back(name);
    const size_t first_node = graph_->nodes.size();
    if (!Expect("{")) return false;
    if (!StatementList(depth + 1, name)) return false;
    if (!Expect("}")) return false;
    for (size_t i = first_node; i < graph_->nodes.size(); ++i) {
      members->push_back(graph_->nodes[i].id);
    }
    return true;
  }

  bool EdgeChain(std::vector<std::string> left, int depth,
                 const std::string& subgraph) {
    std::vector<DotEdge> chain;
    while (IsPunct("->") || IsPunct("--")) {
      if (graph_->directed != IsPunct("->")) {
        return Fail(graph_->directed ? "'--' in a digraph"
                                     : "'->' in an undirected graph");
      }
      ++pos_;
      std::vector<std::string> right;
      if (IsKeyword("subgraph") || IsPunct("{")) {
        if (!Subgraph(depth, &right)) return false;
      } else {
        std::string id;
        if (!NodeId(&id)) return false;
        right.push_back(id);
      }
      for (const std::string& from : left) {
        for (const std::string& to : right) {
          DotEdge edge;
          edge.from = from;
          edge.to = to;
          edge.depth = depth;
          chain.push_back(edge);
        }
      }
      left = right;
    }
    std::map<std::string, std::string> attributes;
    if (!AttributeLists(&attributes, false)) return false;
    for (DotEdge& edge : chain) {
      edge.attributes = attributes;
      graph_->edges.push_back(edge);
    }
    (void)subgraph;
    return true;
  }

  bool AttributeLists(std::map<std::string, std::string>* attributes,
                      bool required) {
    if (required && !IsPunct("[")) return Fail("expected '['");
    while (IsPunct("[")) {
      ++pos_;
      while (!IsPunct("]")) {
        std::string key, value;
        if (!Id(&key)) return false;
        if (IsPunct("=")) {
          ++pos_;
          if (!Id(&value)) return false;
        }
        (*attributes)[Lower(key)] = value;
        if (IsPunct(";") || IsPunct(",")) ++pos_;
      }
      ++pos_;
    }
    return true;
  }

  std::vector<Token> tokens_;
  DotGraph* graph_;
  size_t pos_ = 0;
};

}  // namespace dot_internal

// Reads one DOT graph from `text`.
inline DotGraph ReadDot(const std::string& text) {
  DotGraph graph;
  std::vector<dot_internal::Token> tokens;
  dot_internal::Lexer lexer(text);
  if (!lexer.Run(&tokens, &graph.error)) return graph;
  dot_internal::Parser parser(std::move(tokens), &graph);
  parser.Graph();
  return graph;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The path of Graphviz's `dot`, searched in PATH and the usual places; ""
// if there is none.
inline std::string DotProgram() {
  std::vector<std::string> directories;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream list(path);
    std::string directory;
    while (std::getline(list, directory, ':')) {
      if (!directory.empty()) directories.push_back(directory);
    }
  }
  for (const char* usual : {"/usr/bin", "/usr/local/bin", "/bin"}) {
    directories.push_back(usual);
  }
  for (const std::string& directory : directories) {
    const std::string candidate = directory + "/dot";
    struct stat info;
    if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        (info.st_mode & S_IXUSR)) {
      return candidate;
    }
  }
  return "";
}

// Runs `dot -Tcanon` on `file`; true when it exits 0. `diagnostics`
// receives what it wrote to standard error.
inline bool DotAccepts(const std::string& program, const std::string& file,
                       std::string* diagnostics) {
  const std::string errors = file + ".stderr";
  const std::string command = "'" + program + "' -Tcanon '" + file +
                              "' -o /dev/null 2>'" + errors + "'";
  const int status = std::system(command.c_str());
  *diagnostics = ReadFile(errors);
  return status == 0;
}

}  // namespace mxcts::conformance::graph

#endif  // MXCTS_CONFORMANCE_API_GRAPH_EXECUTION_DOT_READER_H_
