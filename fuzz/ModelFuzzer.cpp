//===- ModelFuzzer.cpp - Problems from generated linalg ops, costed -------===//
//
// The input bytes describe a linalg.generic (loop count, bounds, iterator
// kinds, operands' affine-sum indexing maps) and an accelerator preset. The
// op is written as IR, parsed, its problem extracted, its map space built,
// and mappings drawn from it costed. Every figure of a valid evaluation
// must be finite and consistent (the energy split adds up, the cycles are
// at least what compute needs); a break is a crash the fuzzer reports.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/Breakdown.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <cmath>
#include <string>

namespace {

/// The input as a stream of small numbers; zeros once it runs out.
class Bytes {
public:
  Bytes(const uint8_t *data, size_t size) : data(data), size(size) {}
  unsigned next(unsigned below) {
    return below ? (at < size ? data[at++] : 0) % below : 0;
  }

private:
  const uint8_t *data;
  size_t size, at = 0;
};

/// One indexing-map result: a sum of dims with coefficients, or 0.
struct Term {
  unsigned dim;
  int64_t coefficient;
};

std::string generatedOp(Bytes &bytes) {
  const unsigned rank = 1 + bytes.next(5);
  std::vector<int64_t> bounds;
  std::vector<bool> reduction;
  for (unsigned d = 0; d < rank; ++d) {
    bounds.push_back(1 + bytes.next(40));
    reduction.push_back(d > 0 && bytes.next(2));
  }
  const unsigned inputs = 1 + bytes.next(2);
  std::vector<std::vector<std::vector<Term>>> operands;
  for (unsigned i = 0; i < inputs; ++i) {
    std::vector<std::vector<Term>> results(1 + bytes.next(std::min(rank, 4u)));
    for (auto &result : results)
      for (unsigned t = bytes.next(3); t-- > 0;)
        result.push_back({bytes.next(rank), int64_t(1 + bytes.next(3))});
    operands.push_back(std::move(results));
  }
  // The output: one result per parallel loop, in order.
  std::vector<std::vector<Term>> output;
  for (unsigned d = 0; d < rank; ++d)
    if (!reduction[d])
      output.push_back({{d, 1}});
  operands.push_back(std::move(output));

  std::string dims;
  for (unsigned d = 0; d < rank; ++d)
    dims += (d ? ", d" : "d") + std::to_string(d);
  // Per operand: its indexing map and the tensor type its extents need.
  std::vector<std::string> maps, types;
  for (const auto &results : operands) {
    std::string exprs, shape;
    for (const auto &result : results) {
      std::string expr;
      int64_t extent = 1;
      for (const Term &term : result) {
        expr += (expr.empty() ? "d" : " + d") + std::to_string(term.dim) +
                " * " + std::to_string(term.coefficient);
        extent += term.coefficient * (bounds[term.dim] - 1);
      }
      exprs += (exprs.empty() ? "" : ", ") + (expr.empty() ? "0" : expr);
      shape += std::to_string(extent) + "x";
    }
    maps.push_back("affine_map<(" + dims + ") -> (" + exprs + ")>");
    types.push_back("tensor<" + shape + "f32>");
  }
  auto joined = [](const std::vector<std::string> &parts, size_t from,
                   size_t to, const std::string &prefix = "") {
    std::string text;
    for (size_t i = from; i < to; ++i)
      text += (i > from ? ", " : "") + prefix + parts[i];
    return text;
  };
  std::vector<std::string> names, blockArgs, iterators;
  for (size_t o = 0; o < operands.size(); ++o) {
    names.push_back("%a" + std::to_string(o));
    blockArgs.push_back("%b" + std::to_string(o) + ": f32");
  }
  for (unsigned d = 0; d < rank; ++d)
    iterators.push_back(reduction[d] ? "\"reduction\"" : "\"parallel\"");
  std::vector<std::string> params;
  for (size_t o = 0; o < operands.size(); ++o)
    params.push_back(names[o] + ": " + types[o]);
  const std::string &outType = types.back();
  const std::string body =
      inputs == 2 ? "%m = arith.mulf %b0, %b1 : f32\n %s = arith.addf %m, %b2 "
                    ": f32\n"
                  : "%s = arith.addf %b0, %b1 : f32\n";
  return "func.func @f(" + joined(params, 0, params.size()) + ") -> " +
         outType + " {\n %r = linalg.generic {indexing_maps = [" +
         joined(maps, 0, maps.size()) + "], iterator_types = [" +
         joined(iterators, 0, iterators.size()) + "]} ins(" +
         joined(names, 0, inputs) + " : " + joined(types, 0, inputs) +
         ") outs(" + names.back() + " : " + outType + ") {\n ^bb0(" +
         joined(blockArgs, 0, blockArgs.size()) + "):\n " + body +
         " linalg.yield %s : f32\n } -> " + outType +
         "\n return %r : " + outType + "\n}\n";
}

void check(bool holds) {
  if (!holds)
    __builtin_trap();
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                    mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect>();
    auto *made = new mlir::MLIRContext(registry);
    made->loadAllAvailableDialects();
    made->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return made;
  }();
  Bytes bytes(data, size);
  const std::vector<std::string> &presets = marlmap::presetNames();
  const marlmap::Arch arch =
      *marlmap::findPreset(presets[bytes.next(unsigned(presets.size()))]);
  const uint64_t seed = bytes.next(256);
  std::string text = generatedOp(bytes);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, context);
  if (!module)
    return 0; // Not every generated op is legal linalg; that is fine.
  for (mlir::linalg::LinalgOp op : marlmap::collectLinalgOps(*module)) {
    llvm::Expected<marlmap::Problem> problem = marlmap::extractProblem(op);
    if (!problem) {
      llvm::consumeError(problem.takeError()); // not every op is mappable
      continue;
    }
    auto created = marlmap::MapSpace::create(*problem, arch, {});
    if (!created) {
      llvm::consumeError(created.takeError()); // not mappable there
      continue;
    }
    std::unique_ptr<marlmap::MapSpace> space = std::move(*created);
    const marlmap::LowerBound bound = space->model().lowerBound();
    check(bound.cycles > 0 && std::isfinite(bound.energy));
    marlmap::Rng rng(seed);
    std::vector<int64_t> values(space->parameters().size());
    marlmap::Mapping mapping;
    for (int draw = 0; draw < 32; ++draw) {
      space->sample(rng, values.data());
      space->decode(values.data(), mapping);
      marlmap::Evaluation e = space->model().evaluate(mapping);
      if (!e.valid)
        continue;
      check(std::isfinite(e.energy) && e.energy >= 0 && std::isfinite(e.edp));
      check(e.cycles >= e.computeCycles && e.cycles >= bound.cycles);
      check(e.utilization > 0 && e.utilization <= 1 + 1e-12);
      marlmap::Breakdown breakdown = marlmap::breakdownOf(e, arch, bound);
      double total = breakdown.macEnergy;
      for (const marlmap::AccessEnergy &access : breakdown.energy)
        total += access.total();
      check(close(total, e.energy));
    }
  }
  return 0;
}
