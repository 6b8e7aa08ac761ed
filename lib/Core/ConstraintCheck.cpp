//===- ConstraintCheck.cpp - Constraints against the hierarchy ------------===//
//
// What can be said of constraints without a problem: they name levels that
// exist, keep what a level may hold, and ask for no more spread than a level
// has. What depends on the problem (a fixed factor that does not divide a
// bound) is the map space's to report.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Arch.h"

#include <algorithm>
#include <set>

namespace marlmap {

namespace {

class ConstraintIssues {
public:
  ConstraintIssues(unsigned index, const Constraint &constraint)
      : index(index),
        subject("constraint on '" + constraint.level + "'" +
                (constraint.ops.empty() ? "" : " for " + opsText(constraint)) +
                ": ") {}

  void add(const std::string &field, const std::string &what) {
    issues.push_back(
        {ArchIssue::Where::Constraint, index, field, subject + what});
  }
  std::vector<ArchIssue> take() { return std::move(issues); }

private:
  static std::string opsText(const Constraint &constraint) {
    std::string out;
    for (OpKind kind : constraint.ops)
      out += (out.empty() ? "" : ", ") + std::string(opKindSpelling(kind));
    return out;
  }

  unsigned index;
  std::string subject;
  std::vector<ArchIssue> issues;
};

template <typename T, typename Spell>
void requireDistinct(ConstraintIssues &issues, const std::string &field,
                     const std::vector<T> &items, Spell spell) {
  std::set<T> seen;
  for (const T &item : items)
    if (!seen.insert(item).second)
      issues.add(field, "'" + field + "' names " + spell(item) + " twice");
}

void checkFactors(ConstraintIssues &issues, const std::string &field,
                  const std::vector<FactorRule> &rules,
                  const std::optional<std::vector<DimName>> &allowedDims) {
  std::vector<DimName> dims;
  for (const FactorRule &rule : rules) {
    dims.push_back(rule.dim);
    if (rule.bound != FactorRule::Bound::Full && rule.value < 1)
      issues.add(field, "'" + rule.str() + "' must be at least 1");
    bool spreads = rule.bound == FactorRule::Bound::Full ||
                   (rule.bound == FactorRule::Bound::Exact && rule.value > 1);
    if (spreads && allowedDims &&
        std::find(allowedDims->begin(), allowedDims->end(), rule.dim) ==
            allowedDims->end())
      issues.add(field, "'" + rule.str() + "' spreads " +
                            dimNameSpelling(rule.dim) +
                            ", which the level's dims for that axis leave out");
  }
  requireDistinct(issues, field, dims,
                  [](DimName d) { return std::string(dimNameSpelling(d)); });
}

/// Two constraints on one level must not both apply to one op kind.
void checkOverlaps(const Arch &arch, std::vector<ArchIssue> &out) {
  for (unsigned i = 0; i < arch.constraints.size(); ++i)
    for (unsigned j = 0; j < i; ++j) {
      const Constraint &a = arch.constraints[i], &b = arch.constraints[j];
      if (a.level != b.level)
        continue;
      bool overlap = a.ops.empty() && b.ops.empty();
      for (OpKind kind : a.ops)
        overlap |= !b.ops.empty() && b.appliesTo(kind);
      if (!overlap)
        continue;
      ConstraintIssues issues(i, a);
      issues.add("ops", "another constraint on this level applies to the same "
                        "ops; give each its own 'ops'");
      std::vector<ArchIssue> found = issues.take();
      out.insert(out.end(), found.begin(), found.end());
    }
}

} // namespace

std::vector<ArchIssue> checkConstraint(const Constraint &c, unsigned index) {
  ConstraintIssues issues(index, c);
  auto dimText = [](DimName d) { return std::string(dimNameSpelling(d)); };
  auto roleText = [](TensorRole r) { return std::string(tensorRoleName(r)); };
  if (c.level.empty())
    issues.add("level", "a constraint names its storage level");
  requireDistinct(issues, "ops", c.ops,
                  [](OpKind k) { return std::string(opKindSpelling(k)); });
  checkFactors(issues, "temporal", c.temporal, std::nullopt);
  checkFactors(issues, "spatial_x", c.spatialX, c.spatialXDims);
  checkFactors(issues, "spatial_y", c.spatialY, c.spatialYDims);
  if (c.order)
    requireDistinct(issues, "order", *c.order, dimText);
  if (c.spatialXDims)
    requireDistinct(issues, "x_dims", *c.spatialXDims, dimText);
  if (c.spatialYDims)
    requireDistinct(issues, "y_dims", *c.spatialYDims, dimText);
  requireDistinct(issues, "keep", c.keep, roleText);
  requireDistinct(issues, "bypass", c.bypass, roleText);
  // One axis per dim, and a dim fixed to spread along both.
  auto spreads = [](const FactorRule &rule) {
    return rule.bound == FactorRule::Bound::Full ||
           (rule.bound == FactorRule::Bound::Exact && rule.value > 1);
  };
  if (c.exclusiveAxes)
    for (const FactorRule &x : c.spatialX)
      for (const FactorRule &y : c.spatialY)
        if (x.dim == y.dim && spreads(x) && spreads(y))
          issues.add("exclusive_axes",
                     "'" + x.str() + "' along X and '" + y.str() +
                         "' along Y, but each dim takes one axis here");
  for (TensorRole role : c.keep)
    if (std::find(c.bypass.begin(), c.bypass.end(), role) != c.bypass.end())
      issues.add("bypass", std::string("both keeps and bypasses ") +
                               tensorRoleName(role));
  return issues.take();
}

std::vector<ArchIssue> checkConstraintsInArch(const Arch &arch) {
  std::vector<ArchIssue> out;
  for (unsigned i = 0; i < arch.constraints.size(); ++i) {
    const Constraint &c = arch.constraints[i];
    ConstraintIssues issues(i, c);
    std::optional<unsigned> level = arch.levelIndex(c.level);
    if (!level) {
      issues.add("level",
                 "the accelerator has no storage level '" + c.level + "'");
    } else {
      const StorageLevel &storage = arch.levels[*level];
      auto withinFanout = [&](const char *field,
                              const std::vector<FactorRule> &rules,
                              int64_t fanout, const char *axis) {
        for (const FactorRule &rule : rules)
          if (rule.bound == FactorRule::Bound::Exact && rule.value > fanout)
            issues.add(field,
                       "'" + rule.str() + "' spreads wider than the level's " +
                           std::to_string(fanout) + " children along " + axis);
      };
      withinFanout("spatial_x", c.spatialX, arch.fanoutX(*level), "X");
      withinFanout("spatial_y", c.spatialY, arch.fanoutY(*level), "Y");
      for (TensorRole role : c.keep)
        if (!storage.holds.contains(role))
          issues.add("keep", std::string("keeps ") + tensorRoleName(role) +
                                 ", but the level holds only " +
                                 storage.holds.str());
      if (*level + 1 == arch.levels.size() && !c.bypass.empty())
        issues.add("bypass",
                   "the outermost level keeps every tensor; it cannot "
                   "bypass " +
                       std::string(tensorRoleName(c.bypass.front())));
    }
    std::vector<ArchIssue> found = issues.take();
    out.insert(out.end(), found.begin(), found.end());
  }
  checkOverlaps(arch, out);
  return out;
}

std::vector<ArchIssue> checkConstraints(const Arch &arch) {
  std::vector<ArchIssue> out;
  for (unsigned i = 0; i < arch.constraints.size(); ++i) {
    std::vector<ArchIssue> found = checkConstraint(arch.constraints[i], i);
    out.insert(out.end(), found.begin(), found.end());
  }
  std::vector<ArchIssue> found = checkConstraintsInArch(arch);
  out.insert(out.end(), found.begin(), found.end());
  return out;
}

} // namespace marlmap
