//===- Json.cpp - marlmap's JSON figures as Python objects ----------------===//
//
// The figures are built once, as llvm::json, for every tool; Python gets the
// same keys and values as dicts, lists, numbers and strings.
//
//===----------------------------------------------------------------------===//

#include "PyMarlmap.h"

#include <algorithm>

namespace marlmap::python {

py::object toPython(const llvm::json::Value &value) {
  switch (value.kind()) {
  case llvm::json::Value::Null:
    return py::none();
  case llvm::json::Value::Boolean:
    return py::bool_(*value.getAsBoolean());
  case llvm::json::Value::Number:
    if (std::optional<int64_t> integer = value.getAsInteger())
      return py::int_(*integer);
    return py::float_(*value.getAsNumber());
  case llvm::json::Value::String:
    return py::str(value.getAsString()->str());
  case llvm::json::Value::Array: {
    py::list list;
    for (const llvm::json::Value &item : *value.getAsArray())
      list.append(toPython(item));
    return std::move(list);
  }
  case llvm::json::Value::Object: {
    // Sorted keys, as the tools write them.
    const llvm::json::Object &object = *value.getAsObject();
    std::vector<std::string> keys;
    for (const auto &entry : object)
      keys.push_back(entry.first.str());
    std::sort(keys.begin(), keys.end());
    py::dict dict;
    for (const std::string &key : keys)
      dict[py::str(key)] = toPython(*object.get(key));
    return std::move(dict);
  }
  }
  return py::none();
}

py::object toPython(llvm::json::Object object) {
  return toPython(llvm::json::Value(std::move(object)));
}

} // namespace marlmap::python
