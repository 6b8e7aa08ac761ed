//===- ArrayFloor.cpp - How well a factor space can fill the arrays -------===//
//
// A depth-first search over each dim's spatial factors, dim by dim, with
// the fanouts' room shared among the dims and a bound that gives every dim
// left the whole room of its slots: the first dive takes the widest spreads,
// so the bound prunes most of the rest.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/ArrayFloor.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace marlmap {
namespace {

/// A dim's side of the search. A bin is one level's X or Y fanout (2 *
/// level + axis), whose room the dims share.
struct DimPlan {
  int64_t bound = 1;
  /// Its fixed spatial factors' product, and (perfect) what its free
  /// factors must divide.
  int64_t fixedSpread = 1;
  int64_t freeFactor = 1;
  /// The bins it may spread over and the most it may take in each.
  std::vector<unsigned> bins;
  std::vector<int64_t> caps;
  /// Its fewest steps with every bin's whole room to itself.
  double fewestSteps = 1.0;
};

class FloorSearch {
public:
  FloorSearch(std::vector<DimPlan> dims, std::vector<int64_t> room,
              bool partial)
      : dims(std::move(dims)), room(std::move(room)), partial(partial) {
    // The bound of the dims from i on: the product of their fewest steps.
    fewestFrom.assign(this->dims.size() + 1, 1.0);
    for (size_t i = this->dims.size(); i-- > 0;)
      fewestFrom[i] = fewestFrom[i + 1] * this->dims[i].fewestSteps;
  }

  /// The least product of steps, and whether the search ended.
  std::pair<double, bool> run() {
    visitDim(0, 1.0);
    return {best, nodes <= kMostNodes};
  }

private:
  void visitDim(size_t i, double steps) {
    if (steps * fewestFrom[i] >= best || nodes > kMostNodes)
      return;
    if (i == dims.size()) {
      best = steps;
      return;
    }
    visitBin(i, 0, 1, steps);
  }

  /// Chooses dim i's factor in its bin j, having spread it `spread` in the
  /// bins before; widest first.
  void visitBin(size_t i, size_t j, int64_t spread, double steps) {
    ++nodes;
    const DimPlan &dim = dims[i];
    if (j == dim.bins.size()) {
      const int64_t total = dim.fixedSpread * spread;
      visitDim(i + 1, steps * double((dim.bound + total - 1) / total));
      return;
    }
    int64_t &left = room[dim.bins[j]];
    int64_t most = left;
    if (dim.caps[j] > 0)
      most = std::min(most, dim.caps[j]);
    // Past spreading the dim's whole bound, a wider spread gains nothing.
    most = std::min(most, (dim.bound + dim.fixedSpread * spread - 1) /
                              (dim.fixedSpread * spread));
    const int64_t roomBefore = left;
    for (int64_t factor = most; factor >= 1; --factor) {
      if (!partial && (dim.freeFactor / spread) % factor != 0)
        continue;
      // Whatever else spreads in this bin multiplies with `factor`.
      left = roomBefore / factor;
      visitBin(i, j + 1, spread * factor, steps);
      left = roomBefore;
      if (nodes > kMostNodes)
        return;
    }
  }

  static constexpr uint64_t kMostNodes = 2'000'000;
  std::vector<DimPlan> dims;
  std::vector<int64_t> room;
  std::vector<double> fewestFrom;
  bool partial;
  double best = std::numeric_limits<double>::infinity();
  uint64_t nodes = 0;
};

} // namespace

ArrayFloors arrayFloors(const MapSpace &space) {
  // The largest factors are the perfect space's (its caps).
  assert(space.factorSpace() == FactorSpace::Perfect &&
         "the floors read the perfect space's slots and largest factors");
  const Arch &arch = space.arch();
  const Mapping &fixed = space.fixedChoices();
  const size_t numLevels = arch.levels.size();
  // Bin 2l is level l's X fanout, 2l+1 its Y; fixed spreads use some up.
  std::vector<int64_t> room(2 * numLevels);
  for (unsigned l = 0; l < numLevels; ++l) {
    room[2 * l] =
        arch.fanoutX(l) / std::max<int64_t>(1, fixed.levels[l].spreadX());
    room[2 * l + 1] =
        arch.fanoutY(l) / std::max<int64_t>(1, fixed.levels[l].spreadY());
  }
  std::vector<DimPlan> plans;
  const std::vector<LoopDim> &dims = space.problem().dims;
  for (unsigned d = 0; d < dims.size(); ++d) {
    DimPlan plan;
    plan.bound = dims[d].bound;
    int64_t fixedProduct = 1;
    for (const LevelMapping &level : fixed.levels) {
      plan.fixedSpread *= level.spatialX[d] * level.spatialY[d];
      fixedProduct *= level.temporal[d] * level.spatialX[d] * level.spatialY[d];
    }
    plan.freeFactor = std::max<int64_t>(1, plan.bound / fixedProduct);
    double widest = double(plan.fixedSpread);
    for (const MapSpace::FactorSlot &slot : space.factorSlots(d))
      for (unsigned axis = 0; axis < 2; ++axis) {
        if (slot.kind != axis + 1 && slot.kind != 3)
          continue;
        plan.bins.push_back(2 * slot.level + axis);
        plan.caps.push_back(space.largestFactor(slot.level, axis + 1, d));
        const int64_t most =
            plan.caps.back() > 0
                ? std::min(plan.caps.back(), room[plan.bins.back()])
                : room[plan.bins.back()];
        widest *= double(std::max<int64_t>(1, most));
      }
    plan.fewestSteps = std::ceil(double(plan.bound) / widest);
    plans.push_back(std::move(plan));
  }
  ArrayFloors floors;
  // No spread fits at all (a fixed spread wider than its fanout, which
  // the space refuses before): no floor, 0.
  auto floorOf = [&](bool partial) {
    auto [steps, ended] = FloorSearch(plans, room, partial).run();
    floors.exact = floors.exact && ended;
    return std::isfinite(steps) ? int64_t(std::llround(steps)) : int64_t(0);
  };
  floors.perfect = floorOf(false);
  floors.partial = floorOf(true);
  return floors;
}

std::vector<bool> partialTilesPay(const std::vector<ArrayFloors> &floors,
                                  const std::vector<int64_t> &counts) {
  double network = 0.0;
  for (size_t i = 0; i < floors.size(); ++i)
    network += double(counts[i]) * double(floors[i].perfect);
  std::vector<bool> pay(floors.size(), false);
  for (size_t i = 0; i < floors.size(); ++i) {
    const double perfect = double(floors[i].perfect),
                 partial = double(floors[i].partial);
    pay[i] =
        perfect > kPartialTilesPayAt * partial &&
        double(counts[i]) * (perfect - partial) >= kLeastShareSaved * network;
  }
  return pay;
}

} // namespace marlmap
