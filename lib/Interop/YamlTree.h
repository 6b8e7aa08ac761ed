//===- YamlTree.h - A YAML document as a small tree -------------*- C++ -*-===//
//
// LLVM's YAML parser reads the text; this turns a document into values that
// can be walked freely, each remembering its line so that errors can say
// where they are.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_INTEROP_YAMLTREE_H
#define MARLMAP_LIB_INTEROP_YAMLTREE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace marlmap::yaml {

struct Value {
  enum class Kind { Null, Scalar, Sequence, Mapping };
  Kind kind = Kind::Null;
  unsigned line = 0;
  /// The node's tag as written (`!Component`), empty when it has none.
  std::string tag;
  std::string scalar;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> entries;

  /// The entry called `key` of a mapping, or null.
  const Value *find(llvm::StringRef key) const;
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isSequence() const { return kind == Kind::Sequence; }
  bool isMapping() const { return kind == Kind::Mapping; }
};

/// The first document of `text`.
llvm::Expected<Value> parse(llvm::StringRef text, llvm::StringRef fileName);

/// Errors that name the file, the line and the field.
class Reader {
public:
  explicit Reader(std::string fileName) : fileName(std::move(fileName)) {}

  llvm::Error error(const Value &at, const llvm::Twine &message) const;
  /// The entry `key` of mapping `in`, or an error naming `path`.
  llvm::Expected<const Value *> require(const Value &in, llvm::StringRef key,
                                        const llvm::Twine &path) const;
  llvm::Expected<int64_t> integer(const Value &value,
                                  const llvm::Twine &path) const;
  llvm::Expected<double> real(const Value &value,
                              const llvm::Twine &path) const;
  llvm::Expected<std::string> string(const Value &value,
                                     const llvm::Twine &path) const;

private:
  std::string fileName;
};

} // namespace marlmap::yaml

#endif // MARLMAP_LIB_INTEROP_YAMLTREE_H
