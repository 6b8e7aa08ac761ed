//===- Constraint.cpp - What an accelerator's dataflow allows -------------===//

#include "marlmap/Core/Constraint.h"

#include <algorithm>

namespace marlmap {

namespace {

constexpr const char *kDimSpellings[kNumDimNames] = {"N", "K", "C", "P",
                                                     "Q", "R", "S", "G"};
constexpr const char *kOpKindSpellings[kNumOpKinds] = {"conv", "depthwise",
                                                       "gemm", "other"};

template <typename T, typename Spell>
std::string list(const std::vector<T> &items, Spell spell) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + std::string(spell(items[i]));
  return out + "]";
}

} // namespace

const char *dimNameSpelling(DimName name) {
  return kDimSpellings[unsigned(name)];
}

std::optional<DimName> parseDimName(std::string_view text) {
  for (unsigned i = 0; i < kNumDimNames; ++i)
    if (text == kDimSpellings[i])
      return DimName(i);
  return std::nullopt;
}

const char *opKindSpelling(OpKind kind) {
  return kOpKindSpellings[unsigned(kind)];
}

std::optional<OpKind> parseOpKind(std::string_view text) {
  for (unsigned i = 0; i < kNumOpKinds; ++i)
    if (text == kOpKindSpellings[i])
      return OpKind(i);
  return std::nullopt;
}

std::string FactorRule::str() const {
  std::string dimText = dimNameSpelling(dim);
  switch (bound) {
  case Bound::Exact:
    return dimText + " = " + std::to_string(value);
  case Bound::AtMost:
    return dimText + " max " + std::to_string(value);
  case Bound::Full:
    return dimText + " = full";
  }
  return dimText;
}

bool Constraint::appliesTo(OpKind kind) const {
  return ops.empty() || std::find(ops.begin(), ops.end(), kind) != ops.end();
}

std::string Constraint::str() const {
  std::string out = "\"" + level + "\"";
  auto field = [&](const char *name, const std::string &value) {
    out += std::string(", ") + name + " = " + value;
  };
  auto rules = [](const FactorRule &rule) { return rule.str(); };
  auto dims = [](DimName dim) { return dimNameSpelling(dim); };
  auto roles = [](TensorRole role) { return tensorRoleName(role); };
  if (!ops.empty())
    field("ops", list(ops, opKindSpelling));
  if (!temporal.empty())
    field("temporal", list(temporal, rules));
  if (order)
    field("order", list(*order, dims));
  if (spatialXDims)
    field("x_dims", list(*spatialXDims, dims));
  if (spatialYDims)
    field("y_dims", list(*spatialYDims, dims));
  if (!spatialX.empty())
    field("spatial_x", list(spatialX, rules));
  if (!spatialY.empty())
    field("spatial_y", list(spatialY, rules));
  if (exclusiveAxes)
    field("exclusive_axes", "true");
  if (!keep.empty())
    field("keep", list(keep, roles));
  if (!bypass.empty())
    field("bypass", list(bypass, roles));
  return out;
}

bool operator==(const FactorRule &a, const FactorRule &b) {
  return a.dim == b.dim && a.bound == b.bound && a.value == b.value;
}

bool operator==(const Constraint &a, const Constraint &b) {
  return a.level == b.level && a.ops == b.ops && a.temporal == b.temporal &&
         a.spatialX == b.spatialX && a.spatialY == b.spatialY &&
         a.order == b.order && a.spatialXDims == b.spatialXDims &&
         a.spatialYDims == b.spatialYDims && a.keep == b.keep &&
         a.bypass == b.bypass && a.exclusiveAxes == b.exclusiveAxes;
}

} // namespace marlmap
