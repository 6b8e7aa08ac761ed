//===- TimeloopEnergy.cpp - Timeloop's built-in PAT energies --------------===//
//
// The constants are PAT's: an SRAM access of a 16-bit word costs 1 pJ at
// 0.5 KB and 6 pJ at 100 KB, linearly in between and beyond, scaled by the
// access width.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Interop/TimeloopEnergy.h"

namespace marlmap::timeloop {

static double sramEnergy(int64_t height, int64_t width) {
  const double x0 = 0.5, y0 = 1.0, x1 = 100.0, y1 = 6.0;
  const double slope = (y1 - y0) / (x1 - x0);
  double kilobytes = double(width * height) / (8 * 1024);
  double perSixteenBits = slope * (kilobytes - x0) + y0;
  return perSixteenBits * double(width) / 16;
}

double vectorAccessEnergy(bool isDram, int64_t entries, int64_t wordBits,
                          int64_t blockSize) {
  int64_t width = wordBits * blockSize;
  if (isDram)
    return 200.0 * double(width) / 16;
  if (entries == 0)
    return 0.0;
  int64_t height = (entries + blockSize - 1) / blockSize;
  return sramEnergy(height, width);
}

double macEnergy(int64_t wordBits) {
  return (double(wordBits) / 16.0) * (double(wordBits) / 16.0);
}

} // namespace marlmap::timeloop
