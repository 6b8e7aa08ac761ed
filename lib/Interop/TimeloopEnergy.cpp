//===- TimeloopEnergy.cpp - Timeloop's built-in PAT energies --------------===//
//
// The constants are PAT's: an SRAM access of a 16-bit word costs 1 pJ at
// 0.5 KB and 6 pJ at 100 KB, linearly in between and beyond, scaled by the
// access width.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Interop/TimeloopEnergy.h"

#include <cmath>

namespace marlmap::timeloop {

// In doubles: a description's figures can be large enough to overflow the
// products in integers (checkArch refuses what is not representable).
static double sramEnergy(double height, double width) {
  const double x0 = 0.5, y0 = 1.0, x1 = 100.0, y1 = 6.0;
  const double slope = (y1 - y0) / (x1 - x0);
  double kilobytes = width * height / (8 * 1024);
  double perSixteenBits = slope * (kilobytes - x0) + y0;
  return perSixteenBits * width / 16;
}

double vectorAccessEnergy(bool isDram, int64_t entries, int64_t wordBits,
                          int64_t blockSize) {
  const double width = double(wordBits) * double(blockSize);
  if (isDram)
    return 200.0 * width / 16;
  if (entries <= 0 || blockSize <= 0)
    return 0.0;
  return sramEnergy(std::ceil(double(entries) / double(blockSize)), width);
}

double macEnergy(int64_t wordBits) {
  return (double(wordBits) / 16.0) * (double(wordBits) / 16.0);
}

} // namespace marlmap::timeloop
