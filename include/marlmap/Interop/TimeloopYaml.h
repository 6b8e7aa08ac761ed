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
/// Reads the flat v0.3 format (`arch: {arithmetic, storage}`) and v0.4's
/// `architecture: {version: 0.4, nodes: [...]}` (TimeloopV4.cpp says how).
/// Mapspace constraints in the same file (`mapspace`, `arch_constraints`,
/// ...) become the arch's constraints (docs/Constraints.md says how), and a
/// dim spreads along X or Y at a level, never both, as in Timeloop. Its
/// fills are counted with Timeloop's rule (FillRule::Timeloop).
llvm::Expected<Arch> readArch(llvm::StringRef text, llvm::StringRef fileName);
/// Adds the constraints of a Timeloop constraints file to `arch`; a level
/// constrained twice in the same way is an error, as in Timeloop.
llvm::Error readConstraints(llvm::StringRef text, llvm::StringRef fileName,
                            Arch &arch);
llvm::Expected<Problem> readProblem(llvm::StringRef text,
                                    llvm::StringRef fileName);
/// Levels are matched to `arch` by name, dims to `problem` by name. Factors
/// may carry residuals (`P4,3`); each dim's factors and residuals must
/// reach its bound exactly, as in Timeloop.
llvm::Expected<Mapping> readMapping(llvm::StringRef text,
                                    llvm::StringRef fileName,
                                    const Problem &problem, const Arch &arch);

/// Constraints name loops N, K, C, P, Q, R, S, G by the operands that read
/// them (DimNames.h). An error unless every dim of `problem` spelled as one
/// of those names answers to it (a GEMM shape whose N is a column index):
/// constraints written for the problem's own names would then land on other
/// loops.
llvm::Error checkDimNames(const Problem &problem);

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
/// A partial last tile is written as Timeloop's residual (`M2,1`: a loop of
/// 2 that runs once under the last tiles outside it). Fails when a level
/// spreads one dim over both X and Y, which a Timeloop spatial directive
/// cannot say.
llvm::Expected<std::string>
writeMapping(const Mapping &mapping, const Problem &problem, const Arch &arch);

/// The arch's constraints on `problem` (and the tensors its levels may not
/// hold, as bypasses) as a Timeloop constraints file, in writeProblem's dim
/// letters. timeloop-mapper then searches the same space when every level
/// that fans out both ways spreads a dim along one axis (as a spec read
/// from Timeloop does); elsewhere Timeloop's is the part without a dim
/// along both. Fails for what Timeloop cannot say: a dim free to spread
/// along X or Y at a level that restricts other dims, a fixed spread with
/// no axis, or loops whose letters are not the names they answer to.
llvm::Expected<std::string> writeConstraints(const Arch &arch,
                                             const Problem &problem);

} // namespace marlmap::timeloop

#endif // MARLMAP_INTEROP_TIMELOOPYAML_H
