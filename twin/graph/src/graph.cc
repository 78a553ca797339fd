// ge::Graph: inputs/outputs, node queries, SaveToFile/LoadFromFile (atomic write).
#include "graph/graph.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <unordered_map>

#include "graph_impl.h"
#include "log.h"

namespace ge {
std::string CollectNodes(const GraphImpl &graph, std::vector<std::shared_ptr<OperatorImpl>> *nodes) {
  std::vector<std::shared_ptr<OperatorImpl>> roots = graph.inputs;
  for (const auto &out : graph.outputs) roots.push_back(out.op);
  roots.insert(roots.end(), graph.extra_ops.begin(), graph.extra_ops.end());

  enum class Mark { kNone, kOpen, kDone };
  std::unordered_map<const OperatorImpl *, Mark> marks;
  std::map<std::string, const OperatorImpl *> by_name;
  nodes->clear();
  // Iterative post-order DFS over producers: a node is emitted after everything feeding it.
  struct Frame {
    std::shared_ptr<OperatorImpl> op;
    size_t next_ir = 0;
    size_t next_rel = 0;
  };
  for (const auto &root : roots) {
    if (marks[root.get()] == Mark::kDone) continue;
    std::vector<Frame> stack{Frame{root}};
    marks[root.get()] = Mark::kOpen;
    while (!stack.empty()) {
      Frame &top = stack.back();
      std::shared_ptr<OperatorImpl> producer;
      while (top.next_ir < top.op->inputs.size() && producer == nullptr) {
        const auto &slots = top.op->inputs[top.next_ir];
        if (top.next_rel < slots.size()) {
          producer = slots[top.next_rel++].src;
        } else {
          ++top.next_ir;
          top.next_rel = 0;
        }
      }
      if (producer == nullptr) {
        auto named = by_name.emplace(top.op->name, top.op.get());
        if (!named.second && named.first->second != top.op.get()) {
          return "graph '" + graph.name + "' holds two different operators named '" + top.op->name + "'";
        }
        marks[top.op.get()] = Mark::kDone;
        nodes->push_back(top.op);
        stack.pop_back();
        continue;
      }
      Mark &mark = marks[producer.get()];
      if (mark == Mark::kOpen) {
        return "graph '" + graph.name + "' has a cycle through operator '" + producer->name + "'";
      }
      if (mark == Mark::kNone) {
        mark = Mark::kOpen;
        stack.push_back(Frame{producer});
      }
    }
  }
  return "";
}

namespace {
std::string ErrnoText() { return std::strerror(errno); }

std::string WriteFileAtomically(const std::string &path, const std::string &bytes) {
  std::random_device rd;
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(rd());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create '" + tmp + "': " + ErrnoText();
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string err = "cannot write '" + tmp + "': " + ErrnoText();
      ::close(fd);
      ::unlink(tmp.c_str());
      return err;
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::string err = "cannot flush '" + tmp + "': " + ErrnoText();
    ::unlink(tmp.c_str());
    return err;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = "cannot rename '" + tmp + "' to '" + path + "': " + ErrnoText();
    ::unlink(tmp.c_str());
    return err;
  }
  return "";
}

std::string ReadWholeFile(const std::string &path, std::string *bytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "AIR file '" + path + "' cannot be opened: " + ErrnoText();
  if (!S_ISREG(st.st_mode)) return "AIR file '" + path + "' is not a regular file";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "AIR file '" + path + "' cannot be opened: " + ErrnoText();
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return "AIR file '" + path + "' cannot be read: " + ErrnoText();
  *bytes = buffer.str();
  return "";
}
}  // namespace

Graph::Graph() : impl_(std::make_shared<GraphImpl>()) {}
Graph::Graph(const char *name) : impl_(std::make_shared<GraphImpl>()) { impl_->name = name == nullptr ? "" : name; }
Graph::Graph(const std::string &name) : impl_(std::make_shared<GraphImpl>()) { impl_->name = name; }

Graph &Graph::SetInputs(const std::vector<Operator> &inputs) {
  std::vector<std::shared_ptr<OperatorImpl>> ops;
  for (const auto &op : inputs) {
    if (op.IsEmpty()) {
      GE_TWIN_LOGE("Graph '%s' SetInputs: input %zu is an empty Operator", impl_->name.c_str(), ops.size());
      return *this;
    }
    ops.push_back(OperatorInternal::Impl(op));
  }
  impl_->inputs = ops;
  return *this;
}

Graph &Graph::SetOutputs(const std::vector<Operator> &outputs) {
  std::vector<std::pair<Operator, std::vector<size_t>>> indexed;
  for (const auto &op : outputs) {
    std::vector<size_t> all(op.GetOutputsSize());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    indexed.emplace_back(op, all);
  }
  return SetOutputs(indexed);
}

Graph &Graph::SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>> &output_indexs) {
  std::vector<GraphOutput> outs;
  for (const auto &entry : output_indexs) {
    const auto &impl = OperatorInternal::Impl(entry.first);
    if (impl == nullptr) {
      GE_TWIN_LOGE("Graph '%s' SetOutputs: an output Operator is empty", impl_->name.c_str());
      return *this;
    }
    for (size_t index : entry.second) {
      if (index >= impl->OutputCount()) {
        GE_TWIN_LOGE("Graph '%s' SetOutputs: op '%s' has %zu outputs, index %zu is out of range", impl_->name.c_str(),
                     impl->name.c_str(), impl->OutputCount(), index);
        return *this;
      }
      outs.push_back(GraphOutput{impl, static_cast<uint32_t>(index)});
    }
  }
  impl_->outputs = outs;
  return *this;
}

Graph &Graph::SetOutputs(const std::vector<std::pair<Operator, AscendString>> &outputs) {
  std::vector<std::pair<Operator, std::vector<size_t>>> indexed;
  for (const auto &entry : outputs) {
    const auto &impl = OperatorInternal::Impl(entry.first);
    size_t ir = 0, rel = 0;
    if (impl == nullptr || !impl->FindOutput(entry.second.GetString(), &ir, &rel)) {
      GE_TWIN_LOGE("Graph '%s' SetOutputs: op '%s' has no output named '%s'", impl_->name.c_str(),
                   impl == nullptr ? "" : impl->name.c_str(), entry.second.GetString());
      return *this;
    }
    size_t flat = rel;
    for (size_t i = 0; i < ir; ++i) flat += impl->outputs[i].size();
    indexed.emplace_back(entry.first, std::vector<size_t>{flat});
  }
  return SetOutputs(indexed);
}

Graph &Graph::SetOutputs(const std::vector<std::pair<ge::Operator, std::string>> &outputs) {
  std::vector<std::pair<Operator, AscendString>> named;
  named.reserve(outputs.size());
  for (const auto &entry : outputs) named.emplace_back(entry.first, AscendString(entry.second.c_str()));
  return SetOutputs(named);
}

graphStatus Graph::AddOp(const ge::Operator &op) {
  if (op.IsEmpty()) {
    GE_TWIN_LOGE("Graph '%s' AddOp: the Operator is empty", impl_->name.c_str());
    return GRAPH_FAILED;
  }
  impl_->extra_ops.push_back(OperatorInternal::Impl(op));
  return GRAPH_SUCCESS;
}

graphStatus Graph::FindOpByName(const char *name, ge::Operator &op) const {
  std::vector<std::shared_ptr<OperatorImpl>> nodes;
  std::string err = CollectNodes(*impl_, &nodes);
  if (!err.empty()) {
    GE_TWIN_LOGE("%s", err.c_str());
    return GRAPH_FAILED;
  }
  for (const auto &node : nodes) {
    if (name != nullptr && node->name == name) {
      op = OperatorInternal::Wrap(node);
      return GRAPH_SUCCESS;
    }
  }
  return GRAPH_FAILED;
}

graphStatus Graph::FindOpByType(const char *type, std::vector<ge::Operator> &ops) const {
  std::vector<std::shared_ptr<OperatorImpl>> nodes;
  std::string err = CollectNodes(*impl_, &nodes);
  if (!err.empty()) {
    GE_TWIN_LOGE("%s", err.c_str());
    return GRAPH_FAILED;
  }
  ops.clear();
  for (const auto &node : nodes) {
    if (type != nullptr && node->type == type) ops.push_back(OperatorInternal::Wrap(node));
  }
  return GRAPH_SUCCESS;
}

graphStatus Graph::GetAllOpName(std::vector<AscendString> &op_name) const {
  std::vector<std::shared_ptr<OperatorImpl>> nodes;
  std::string err = CollectNodes(*impl_, &nodes);
  if (!err.empty()) {
    GE_TWIN_LOGE("%s", err.c_str());
    return GRAPH_FAILED;
  }
  op_name.clear();
  for (const auto &node : nodes) op_name.emplace_back(node->name.c_str());
  return GRAPH_SUCCESS;
}

graphStatus Graph::GetName(AscendString &name) const {
  name = AscendString(impl_->name.c_str());
  return GRAPH_SUCCESS;
}

std::string Graph::GetName() const { return impl_->name; }

bool Graph::IsValid() const {
  std::vector<std::shared_ptr<OperatorImpl>> nodes;
  return CollectNodes(*impl_, &nodes).empty() && !nodes.empty();
}

graphStatus Graph::SaveToFile(const char *file_name) const {
  if (file_name == nullptr || file_name[0] == '\0') {
    GE_TWIN_LOGE("Graph '%s' SaveToFile: the file name is empty", impl_->name.c_str());
    return GRAPH_PARAM_INVALID;
  }
  std::string bytes;
  std::string err = EncodeAir(*impl_, &bytes);
  if (err.empty()) err = WriteFileAtomically(file_name, bytes);
  if (!err.empty()) {
    GE_TWIN_LOGE("Graph '%s' SaveToFile('%s') failed: %s", impl_->name.c_str(), file_name, err.c_str());
    return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

graphStatus Graph::LoadFromFile(const char *file_name) {
  if (file_name == nullptr || file_name[0] == '\0') {
    GE_TWIN_LOGE("Graph LoadFromFile: the file name is empty");
    return GRAPH_PARAM_INVALID;
  }
  std::string bytes;
  std::string err = ReadWholeFile(file_name, &bytes);
  auto loaded = std::make_shared<GraphImpl>();
  if (err.empty()) err = DecodeAir(bytes, file_name, loaded.get());
  if (!err.empty()) {
    GE_TWIN_LOGE("Graph LoadFromFile failed: %s", err.c_str());
    return GRAPH_FAILED;
  }
  impl_ = loaded;
  return GRAPH_SUCCESS;
}
}  // namespace ge
