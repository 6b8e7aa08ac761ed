//===- YamlTree.cpp - A YAML document as a small tree ---------------------===//

#include "YamlTree.h"
#include "marlmap/Core/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

namespace marlmap::yaml {

const Value *Value::find(llvm::StringRef key) const {
  for (const auto &[name, value] : entries)
    if (name == key)
      return &value;
  return nullptr;
}

namespace {

/// Deeper nesting than any Timeloop file has; the builder recurses, so a
/// hostile file must not take it further than this.
constexpr unsigned kMaxDepth = 256;

class TreeBuilder {
public:
  TreeBuilder(llvm::SourceMgr &sourceMgr, llvm::StringRef text,
              llvm::yaml::Stream &stream)
      : sourceMgr(sourceMgr), text(text), stream(stream) {}

  /// The line of the first node nested too deep, or 0.
  unsigned tooDeepAt = 0;

  Value build(llvm::yaml::Node *node, unsigned depth = 0) {
    Value value;
    // After a scanning error the parser's nodes may point anywhere: stop
    // there (the error is reported).
    if (!node || tooDeepAt || stream.failed())
      return value;
    value.line = lineOf(node->getSourceRange().Start);
    value.tag = node->getRawTag().str();
    if (depth > kMaxDepth) {
      tooDeepAt = value.line;
      return value;
    }
    if (auto *scalar = llvm::dyn_cast<llvm::yaml::ScalarNode>(node)) {
      llvm::SmallString<32> storage;
      value.kind = Value::Kind::Scalar;
      value.scalar = scalar->getValue(storage).str();
    } else if (auto *sequence =
                   llvm::dyn_cast<llvm::yaml::SequenceNode>(node)) {
      value.kind = Value::Kind::Sequence;
      for (llvm::yaml::Node &item : *sequence)
        value.items.push_back(build(&item, depth + 1));
    } else if (auto *mapping = llvm::dyn_cast<llvm::yaml::MappingNode>(node)) {
      value.kind = Value::Kind::Mapping;
      for (llvm::yaml::KeyValueNode &entry : *mapping) {
        llvm::SmallString<32> storage;
        auto *key =
            llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(entry.getKey());
        std::string name = key ? key->getValue(storage).str() : "";
        value.entries.emplace_back(std::move(name),
                                   build(entry.getValue(), depth + 1));
      }
    } else if (auto *block =
                   llvm::dyn_cast<llvm::yaml::BlockScalarNode>(node)) {
      value.kind = Value::Kind::Scalar;
      value.scalar = block->getValue().str();
    }
    return value;
  }

private:
  /// The line `loc` is on, or 0 when it is not in the text.
  unsigned lineOf(llvm::SMLoc loc) const {
    const char *at = loc.getPointer();
    if (!at || at < text.begin() || at > text.end())
      return 0;
    return sourceMgr.FindLineNumber(loc);
  }

  llvm::SourceMgr &sourceMgr;
  llvm::StringRef text;
  llvm::yaml::Stream &stream;
};

} // namespace

llvm::Expected<Value> parse(llvm::StringRef text, llvm::StringRef fileName) {
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *context) {
        auto *os = static_cast<llvm::raw_string_ostream *>(context);
        *os << diag.getLineNo() << ":" << diag.getColumnNo() + 1 << ": "
            << diag.getMessage();
      },
      &diagStream);
  llvm::yaml::Stream stream(text, sourceMgr);
  llvm::yaml::document_iterator document = stream.begin();
  if (document == stream.end())
    return makeError(fileName + ": empty YAML document");
  TreeBuilder builder(sourceMgr, text, stream);
  Value root = builder.build(document->getRoot());
  if (stream.failed())
    return makeError(fileName + ":" + diagnostics);
  if (builder.tooDeepAt)
    return makeError(fileName + ":" + llvm::Twine(builder.tooDeepAt) +
                     ": nested deeper than " + llvm::Twine(kMaxDepth) +
                     " levels");
  return root;
}

llvm::Error Reader::error(const Value &at, const llvm::Twine &message) const {
  return makeError(fileName + ":" + llvm::Twine(at.line) + ": " + message);
}

llvm::Expected<const Value *> Reader::require(const Value &in,
                                              llvm::StringRef key,
                                              const llvm::Twine &path) const {
  if (!in.isMapping())
    return error(in, "'" + path.str() + "' must be a mapping");
  if (const Value *value = in.find(key))
    return value;
  return error(in, "'" + path.str() + "' has no '" + key + "'");
}

llvm::Expected<int64_t> Reader::integer(const Value &value,
                                        const llvm::Twine &path) const {
  int64_t result = 0;
  if (!value.isScalar() ||
      llvm::StringRef(value.scalar).getAsInteger(10, result))
    return error(value, "'" + path.str() + "' must be an integer, got '" +
                            value.scalar + "'");
  return result;
}

llvm::Expected<double> Reader::real(const Value &value,
                                    const llvm::Twine &path) const {
  double result = 0;
  if (!value.isScalar() || llvm::StringRef(value.scalar).getAsDouble(result))
    return error(value, "'" + path.str() + "' must be a number, got '" +
                            value.scalar + "'");
  return result;
}

llvm::Expected<std::string> Reader::string(const Value &value,
                                           const llvm::Twine &path) const {
  if (!value.isScalar())
    return error(value, "'" + path.str() + "' must be a string");
  return value.scalar;
}

} // namespace marlmap::yaml
