//===- BreakdownText.cpp - Where an op's energy and time go, as text ------===//

#include "marlmap/Core/Breakdown.h"
#include "marlmap/Report/TextView.h"

#include "llvm/Support/FormatVariadic.h"

namespace marlmap {

namespace {

/// "1.23e+05", or "-" for none, which is easier to scan past.
std::string energyText(double pJ) {
  return pJ == 0 ? "-" : llvm::formatv("{0:e2}", pJ).str();
}

} // namespace

std::string figuresText(const Evaluation &evaluation, const LowerBound &bound) {
  return llvm::formatv("{0} cycles, {1:e3} pJ, EDP {2:e3}, utilization "
                       "{3:f1}%, {4:f2}x the cycles of every MAC busy",
                       evaluation.cycles, evaluation.energy, evaluation.edp,
                       100.0 * evaluation.utilization,
                       double(evaluation.cycles) /
                           double(std::max<int64_t>(bound.cycles, 1)))
      .str();
}

std::string breakdownText(const Evaluation &evaluation, const Problem &problem,
                          const Arch &arch, const LowerBound &bound) {
  Breakdown breakdown = breakdownOf(evaluation, arch, bound);
  std::string text =
      llvm::formatv("{0,-24} {1,12} {2,12} {3,12} {4,12}\n", "energy pJ",
                    "reads", "fills", "updates", "total");
  // Outermost level first, as in the loop nest.
  for (unsigned l = unsigned(arch.levels.size()); l-- > 0;)
    for (const AccessEnergy &access : breakdown.energy)
      if (access.level == l)
        text += llvm::formatv(
            "{0,-24} {1,12} {2,12} {3,12} {4,12}\n",
            arch.levels[l].name + " " + problem.operands[access.operand].name,
            energyText(access.reads), energyText(access.fills),
            energyText(access.updates), energyText(access.total()));
  text += llvm::formatv("{0,-24} {1,51:e2}\n", "MACs", breakdown.macEnergy);
  text += llvm::formatv("{0,-24} {1,51:e2}\n", "total", evaluation.energy);
  // What each part needs alone; the slowest sets the cycles.
  auto cyclesRow = [&](const std::string &name, int64_t cycles, bool binds) {
    text += llvm::formatv("{0,-24} {1,12}{2}\n", name,
                          cycles ? std::to_string(cycles) : "-",
                          binds ? "  sets the cycles" : "");
  };
  text += llvm::formatv("\n{0,-24} {1,12}\n", "cycles needed by", "cycles");
  // Every part that needs as many cycles as the op takes sets them (ties
  // included).
  cyclesRow("compute", breakdown.computeCycles,
            breakdown.computeCycles == evaluation.cycles);
  for (unsigned l = unsigned(arch.levels.size()); l-- > 0;)
    cyclesRow(arch.levels[l].name + " bandwidth", breakdown.bandwidthCycles[l],
              breakdown.bandwidthCycles[l] == evaluation.cycles);
  text += llvm::formatv("{0,-24} {1,12}  every MAC busy every cycle: the "
                        "cycles are {2:f2}x this\n",
                        "lower bound", bound.cycles, breakdown.cyclesOverBound)
              .str();
  return text;
}

std::string mappedOpText(const Mapping &mapping, const Problem &problem,
                         const Arch &arch, const Evaluation &evaluation,
                         const LowerBound &bound) {
  return figuresText(evaluation, bound) + "\n\n" +
         loopNestText(mapping, problem, arch, evaluation) + "\n" +
         breakdownText(evaluation, problem, arch, bound);
}

} // namespace marlmap
