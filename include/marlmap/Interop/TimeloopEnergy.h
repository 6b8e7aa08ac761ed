//===- TimeloopEnergy.h - Timeloop's built-in PAT energies ------*- C++ -*-===//
//
// The energy model timeloop-model v3 uses without Accelergy: an SRAM access
// costs a linear function of the array's capacity, DRAM a fixed 200 pJ per
// 16 bits, a multiply (bits/16)^2 pJ. Used to give Timeloop architectures,
// which carry no energies, the energies Timeloop would give them.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_INTEROP_TIMELOOPENERGY_H
#define MARLMAP_INTEROP_TIMELOOPENERGY_H

#include <cstdint>

namespace marlmap::timeloop {

/// pJ for one access of `blockSize` words of `wordBits` bits to a level of
/// `entries` words (DRAM ignores the capacity; zero entries cost nothing).
double vectorAccessEnergy(bool isDram, int64_t entries, int64_t wordBits,
                          int64_t blockSize);

/// pJ per multiply-accumulate of `wordBits`-bit operands.
double macEnergy(int64_t wordBits);

} // namespace marlmap::timeloop

#endif // MARLMAP_INTEROP_TIMELOOPENERGY_H
