//===- ArrayFloor.h - How well a factor space can fill the arrays -*- C++
//-*-===//
//
// The fewest compute steps a problem's mappings can take on an accelerator's
// arrays, with spatial factors that divide their loops or with a partial
// last step: what `factors=auto` compares to give a problem partial tiles
// only where the arrays cannot be filled without them (docs/MapSpace.md).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ARRAYFLOOR_H
#define MARLMAP_CORE_ARRAYFLOOR_H

#include "marlmap/Core/MapSpace.h"

#include <cstdint>
#include <vector>

namespace marlmap {

/// The least product over the problem's loops of the steps each PE takes
/// through them (ceil(bound / spread)), over every way of spreading the
/// loops across `space`'s arrays that its slots, largest factors and fixed
/// factors allow and no fanout overflows. With `partial` a spread may be any
/// whole number (the last step leaves PEs idle); otherwise the free part of
/// a loop's spread divides the loop's free factor, as in the perfect space.
/// A floor on the compute cycles, not a bound on any one mapping: buffers and
/// temporal loops are ignored, and a dim free to spread along X or Y
/// (`exclusive_axes`) is let take both. `space` must be the perfect space
/// (its largest factors are read); both floors are 0 when nothing fits.
struct ArrayFloors {
  int64_t perfect = 0;
  int64_t partial = 0;
  /// Whether both searches ended: false when a floor is only the least
  /// found within the node budget.
  bool exact = true;
};
ArrayFloors arrayFloors(const MapSpace &space);

/// Which of a network's problems `factors=auto` gives partial tiles, from
/// their floors and how many times each occurs: those whose perfect floor
/// is more than kPartialTilesPayAt times their partial one and whose
/// partial tiles would save at least kLeastShareSaved of the network's
/// perfect floor (every problem's times its count). Their spaces are larger
/// and slower to evaluate, and a network's problems are searched in
/// lockstep: a problem that gains little costs the others samples.
std::vector<bool> partialTilesPay(const std::vector<ArrayFloors> &floors,
                                  const std::vector<int64_t> &counts);

inline constexpr double kPartialTilesPayAt = 1.25;
inline constexpr double kLeastShareSaved = 0.001;

} // namespace marlmap

#endif // MARLMAP_CORE_ARRAYFLOOR_H
