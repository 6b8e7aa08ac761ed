//===- LoopConstraints.cpp - Constraints on one problem's loops -----------===//

#include "marlmap/Core/LoopConstraints.h"
#include "marlmap/Core/DimNames.h"

#include <algorithm>

namespace marlmap {

namespace {

/// Where in a level a factor sits.
enum class Place : uint8_t { Temporal, X, Y };

const char *placeField(Place place) {
  return place == Place::Temporal ? "temporal"
         : place == Place::X      ? "spatial_x"
                                  : "spatial_y";
}

/// The exact factors of `level` at `place` (LevelConstraints, const or not).
template <typename Level> auto &exactAt(Level &level, Place place) {
  return place == Place::Temporal ? level.temporal
         : place == Place::X      ? level.spatialX
                                  : level.spatialY;
}

template <typename Level> auto &maxAt(Level &level, Place place) {
  return place == Place::Temporal ? level.maxTemporal
         : place == Place::X      ? level.maxSpatialX
                                  : level.maxSpatialY;
}

const std::vector<FactorRule> &rulesAt(const Constraint &c, Place place) {
  return place == Place::Temporal ? c.temporal
         : place == Place::X      ? c.spatialX
                                  : c.spatialY;
}

const std::vector<int64_t> &factorsAt(const LevelMapping &level, Place place) {
  return place == Place::Temporal ? level.temporal
         : place == Place::X      ? level.spatialX
                                  : level.spatialY;
}

constexpr Place kPlaces[] = {Place::Temporal, Place::X, Place::Y};

/// The problem's view of the constraints: its loops' names and kind.
struct Naming {
  const Problem &problem;
  std::vector<std::optional<DimName>> names;
  OpKind kind;

  explicit Naming(const Problem &problem)
      : problem(problem), names(nameDims(problem)),
        kind(opKindOf(names, problem)) {}

  std::vector<unsigned> loops(DimName name) const {
    std::vector<unsigned> out;
    for (unsigned d = 0; d < names.size(); ++d)
      if (names[d] == name)
        out.push_back(d);
    return out;
  }
  std::vector<unsigned> loops(const std::vector<DimName> &list) const {
    std::vector<unsigned> out;
    for (DimName name : list)
      for (unsigned d : loops(name))
        out.push_back(d);
    return out;
  }
  /// "loop d3 (K)".
  std::string loop(unsigned d) const {
    std::string text = "loop " + problem.dims[d].name;
    if (names[d])
      text += std::string(" (") + dimNameSpelling(*names[d]) + ")";
    return text;
  }
};

std::string where(const Constraint &c) {
  return "constraint on '" + c.level + "'";
}

bool contains(const std::vector<unsigned> &list, unsigned d) {
  return std::find(list.begin(), list.end(), d) != list.end();
}

/// The loops of `order` (outermost first) whose factor is not 1.
std::vector<unsigned> moving(const std::vector<unsigned> &order,
                             const std::vector<int64_t> &factors) {
  std::vector<unsigned> out;
  for (unsigned d : order)
    if (d < factors.size() && factors[d] != 1)
      out.push_back(d);
  return out;
}

} // namespace

const Constraint *constraintAt(const Arch &arch, unsigned level, OpKind kind) {
  const Constraint *general = nullptr;
  for (const Constraint &c : arch.constraints) {
    if (c.level != arch.levels[level].name)
      continue;
    if (c.ops.empty())
      general = &c;
    else if (c.appliesTo(kind))
      return &c;
  }
  return general;
}

llvm::Error resolveConstraints(const Problem &problem, const Arch &arch,
                               Constraints &out) {
  out.levels.assign(arch.levels.size(), LevelConstraints());
  if (arch.constraints.empty())
    return llvm::Error::success();
  Naming naming(problem);
  for (unsigned l = 0; l < arch.levels.size(); ++l) {
    const Constraint *c = constraintAt(arch, l, naming.kind);
    if (!c)
      continue;
    LevelConstraints &level = out.levels[l];
    for (Place place : kPlaces)
      for (const FactorRule &rule : rulesAt(*c, place)) {
        std::vector<unsigned> loops = naming.loops(rule.dim);
        // Rules that mean the same for each loop may name several.
        bool one = rule.bound != FactorRule::Bound::Exact || rule.value == 1;
        if (loops.size() > 1 && !one)
          return makeError(where(*c) + ": " + placeField(place) + " '" +
                           rule.str() +
                           "' is ambiguous: " + naming.loop(loops[0]) +
                           " and " + naming.loop(loops[1]) +
                           " both answer to " + dimNameSpelling(rule.dim));
        for (unsigned d : loops) {
          int64_t bound = problem.dims[d].bound;
          if (rule.bound == FactorRule::Bound::AtMost)
            maxAt(level, place)[d] = rule.value;
          else if (rule.bound == FactorRule::Bound::Full)
            exactAt(level, place)[d] = bound;
          else if (rule.value <= bound) // larger: as Timeloop, no constraint
            exactAt(level, place)[d] = rule.value;
        }
      }
    if (c->order) {
      std::vector<unsigned> listed = naming.loops(*c->order);
      if (listed.size() == problem.dims.size())
        level.order = listed;
      else
        level.innermost = listed;
    }
    if (c->spatialXDims)
      level.spatialXDims = naming.loops(*c->spatialXDims);
    if (c->spatialYDims)
      level.spatialYDims = naming.loops(*c->spatialYDims);
    for (unsigned o = 0; o < problem.operands.size(); ++o) {
      const Operand &operand = problem.operands[o];
      if (operand.access == Access::None)
        continue;
      for (auto [roles, kept] :
           {std::pair{&c->keep, true}, {&c->bypass, false}})
        if (std::find(roles->begin(), roles->end(), operand.role) !=
            roles->end())
          level.keep[o] = kept;
    }
    level.exclusiveAxes = c->exclusiveAxes;
  }

  return llvm::Error::success();
}

llvm::Error mergeConstraints(Constraints &into, const Constraints &extra) {
  if (into.levels.size() < extra.levels.size())
    into.levels.resize(extra.levels.size());
  for (size_t l = 0; l < extra.levels.size(); ++l) {
    LevelConstraints &to = into.levels[l];
    const LevelConstraints &from = extra.levels[l];
    std::string conflict = "level #" + std::to_string(l) + ": ";
    auto mergeMap = [&](auto &a, const auto &b) {
      for (const auto &[key, value] : b) {
        auto [it, inserted] = a.insert({key, value});
        if (!inserted && it->second != value)
          return false;
      }
      return true;
    };
    auto mergeOptional = [](auto &a, const auto &b) {
      if (b && a && *a != *b)
        return false;
      if (b)
        a = b;
      return true;
    };
    if (!mergeMap(to.temporal, from.temporal) ||
        !mergeMap(to.spatialX, from.spatialX) ||
        !mergeMap(to.spatialY, from.spatialY) ||
        !mergeMap(to.maxTemporal, from.maxTemporal) ||
        !mergeMap(to.maxSpatialX, from.maxSpatialX) ||
        !mergeMap(to.maxSpatialY, from.maxSpatialY))
      return makeError(conflict + "two different factors fixed for one loop");
    if (!mergeOptional(to.order, from.order) ||
        (!from.innermost.empty() && !to.innermost.empty() &&
         from.innermost != to.innermost))
      return makeError(conflict + "two different loop orders");
    if (to.innermost.empty())
      to.innermost = from.innermost;
    if (to.order && !to.innermost.empty() &&
        !std::equal(to.innermost.rbegin(), to.innermost.rend(),
                    to.order->rbegin()))
      return makeError(conflict +
                       "a fixed loop order whose innermost loops are not "
                       "the ones required");
    for (auto [exact, most] : {std::pair{&to.temporal, &to.maxTemporal},
                               {&to.spatialX, &to.maxSpatialX},
                               {&to.spatialY, &to.maxSpatialY}})
      for (auto [dim, value] : *exact)
        if (auto it = most->find(dim); it != most->end() && value > it->second)
          return makeError(conflict +
                           "a fixed factor above the largest allowed");
    if (!mergeOptional(to.spatialXDims, from.spatialXDims) ||
        !mergeOptional(to.spatialYDims, from.spatialYDims))
      return makeError(conflict + "two different sets of spatial dims");
    if (!mergeMap(to.keep, from.keep))
      return makeError(conflict + "an operand both kept and bypassed");
    to.exclusiveAxes |= from.exclusiveAxes;
  }
  return llvm::Error::success();
}

std::vector<std::string> checkMappingConstraints(const Mapping &mapping,
                                                 const Problem &problem,
                                                 const Arch &arch) {
  Constraints resolved;
  if (llvm::Error error = resolveConstraints(problem, arch, resolved))
    return {llvm::toString(std::move(error))};
  Naming naming(problem);
  std::vector<std::string> broken;
  for (unsigned l = 0; l < arch.levels.size() && l < mapping.levels.size();
       ++l) {
    const Constraint *c = constraintAt(arch, l, naming.kind);
    if (!c)
      continue;
    const LevelConstraints &fixed = resolved.levels[l];
    const LevelMapping &level = mapping.levels[l];
    auto breaks = [&](const std::string &rule, const std::string &how) {
      broken.push_back("breaks the " + where(*c) + " '" + rule + "': " + how);
    };
    for (Place place : kPlaces)
      for (const FactorRule &rule : rulesAt(*c, place))
        for (unsigned d : naming.loops(rule.dim)) {
          int64_t have = factorsAt(level, place)[d];
          std::string text = std::string(placeField(place)) + " " + rule.str();
          if (rule.bound == FactorRule::Bound::AtMost) {
            if (have > rule.value)
              breaks(text,
                     naming.loop(d) + " has factor " + std::to_string(have));
            continue;
          }
          auto it = exactAt(fixed, place).find(d);
          if (it == exactAt(fixed, place).end())
            continue;
          int64_t want = it->second;
          if (have != want)
            breaks(text, naming.loop(d) + " has factor " +
                             std::to_string(have) + ", not " +
                             std::to_string(want));
        }
    for (auto [dims, factors, field] :
         {std::tuple{&fixed.spatialXDims, &level.spatialX, "x_dims"},
          {&fixed.spatialYDims, &level.spatialY, "y_dims"}})
      if (*dims)
        for (unsigned d = 0; d < factors->size(); ++d)
          if ((*factors)[d] > 1 && !contains(**dims, d))
            breaks(field, naming.loop(d) + " is spread " +
                              std::to_string((*factors)[d]) + " ways along " +
                              (field[0] == 'x' ? "X" : "Y"));
    if (c->exclusiveAxes)
      for (unsigned d = 0; d < level.spatialX.size(); ++d)
        if (level.spatialX[d] > 1 && level.spatialY[d] > 1)
          breaks("exclusive_axes", naming.loop(d) + " is spread along both X "
                                                    "and Y");
    // Loop orders matter only among loops that iterate.
    std::vector<unsigned> iterating = moving(level.order, level.temporal);
    if (fixed.order) {
      std::vector<unsigned> want = moving(*fixed.order, level.temporal);
      if (iterating != want)
        breaks("order", "the loops that iterate are not in its order");
    } else if (!fixed.innermost.empty()) {
      std::vector<unsigned> want = moving(fixed.innermost, level.temporal);
      bool ok =
          iterating.size() >= want.size() &&
          std::equal(want.begin(), want.end(), iterating.end() - want.size());
      if (!ok)
        breaks("order", "its loops are not the innermost, in its order");
    }
    for (auto [o, kept] : fixed.keep)
      if (o < level.keep.size() && level.keep[o] != kept)
        breaks(kept ? "keep" : "bypass",
               "operand '" + problem.operands[o].name + "' (" +
                   tensorRoleName(problem.operands[o].role) + ") " +
                   (kept ? "bypasses it" : "is kept"));
  }
  return broken;
}

} // namespace marlmap
