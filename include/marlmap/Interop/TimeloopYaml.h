//===- TimeloopYaml.h - Timeloop's input files <-> core types ---*- C++ -*-===//
//
// Reads the architecture, problem and mapping YAML that Timeloop v3's
// timeloop-model takes (the flat `arch: {arithmetic, storage}` format), and
// writes core types back in the same format. Energies of a Timeloop
// architecture come from Timeloop's built-in PAT model (TimeloopEnergy.h),
// unless the file sets `vector-access-energy` / `energy`.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_INTEROP_TIMELOOPYAML_H
#define MARLMAP_INTEROP_TIMELOOPYAML_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace marlmap::timeloop {

/// `fileName` only names the source in error messages ("arch.yaml:12: ...").
llvm::Expected<Arch> readArch(llvm::StringRef text, llvm::StringRef fileName);
llvm::Expected<Problem> readProblem(llvm::StringRef text,
                                    llvm::StringRef fileName);
/// Levels are matched to `arch` by name, dims to `problem` by name.
llvm::Expected<Mapping> readMapping(llvm::StringRef text,
                                    llvm::StringRef fileName,
                                    const Problem &problem, const Arch &arch);

/// Timeloop input text for the core types. Energies are written as
/// `vector-access-energy` / `energy` so that timeloop-model uses marlmap's
/// (Timeloop has one energy per access, so a level's read energy stands for
/// its writes and updates too).
std::string writeArch(const Arch &arch);
/// Timeloop spells permutations one letter per dim: unless every dim is
/// named by a distinct capital letter, dims become A, B, C, ...; operands
/// that move no data are left out; negative coefficients are written by
/// their size (the footprint is the same) and constant offsets dropped.
std::string writeProblem(const Problem &problem);
/// Fails when a level spreads one dim over both X and Y, which a Timeloop
/// spatial directive cannot say.
llvm::Expected<std::string>
writeMapping(const Mapping &mapping, const Problem &problem, const Arch &arch);

} // namespace marlmap::timeloop

#endif // MARLMAP_INTEROP_TIMELOOPYAML_H
