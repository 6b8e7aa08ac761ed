//===- Problem.h - A tensor operation as loops and projections --*- C++ -*-===//
//
// The workload of one op: a perfect loop nest with static bounds, and for
// every operand the affine projection from loop space to its data space.
// Every data-space coordinate is a sum of integer multiples of loop
// dimensions, which covers strides, dilations, sliding windows, transposes
// and broadcasts. Plain C++17: no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_PROBLEM_H
#define MARLMAP_CORE_PROBLEM_H

#include "marlmap/Core/Arch.h"

#include <cstdint>
#include <string>
#include <vector>

namespace marlmap {

enum class LoopKind : uint8_t { Parallel, Reduction };

struct LoopDim {
  std::string name;
  int64_t bound = 1;
  LoopKind kind = LoopKind::Parallel;
};

/// `coefficient * dims[dim]`, one term of a data-space coordinate.
struct ProjectionTerm {
  unsigned dim = 0;
  int64_t coefficient = 1;
};

/// One coordinate of a data space: the sum of its terms plus `offset`. A
/// coordinate with no terms is a broadcast (size-1) axis.
struct Coordinate {
  std::vector<ProjectionTerm> terms;
  int64_t offset = 0;
};

/// How an op touches an operand.
enum class Access : uint8_t {
  /// An operand the computation never reads (a pooling op's window shape):
  /// it moves no data.
  None,
  Read,
  /// Written once per element, never read back (an elementwise result).
  Write,
  /// Read, updated and written back: an accumulated output.
  ReadModifyWrite,
};
const char *accessName(Access access);

struct Operand {
  std::string name;
  TensorRole role = TensorRole::Inputs;
  Access access = Access::Read;
  /// One entry per data-space axis.
  std::vector<Coordinate> projection;

  bool isWritten() const {
    return access == Access::Write || access == Access::ReadModifyWrite;
  }
};

struct Problem {
  /// What the problem came from, for reports ("linalg.matmul").
  std::string name;
  std::vector<LoopDim> dims;
  std::vector<Operand> operands;

  /// Iteration-space points: the MACs of a contraction.
  int64_t iterations() const;
  /// Extent of the operand's data space along `axis` over a tile whose loop
  /// extents are `tile` (one per dim): sum |c| * (extent - 1) + 1.
  static int64_t extent(const Coordinate &coordinate,
                        const std::vector<int64_t> &tile);
  /// Words of the operand touched by a tile: the product of its extents.
  int64_t footprint(unsigned operand, const std::vector<int64_t> &tile) const;
  /// Words of the whole operand the problem touches. Saturates at
  /// kSaturated, which check() reports.
  int64_t footprint(unsigned operand) const;
  /// Whether every axis of the operand steps by one and no loop feeds two
  /// of its axes (loops of bound 1 aside): its tiles then leave no gaps,
  /// and its footprint is the words it touches.
  bool isGapless(unsigned operand) const;
  /// Distinct words of the operand the problem touches: the footprint when
  /// every axis steps by one, fewer when a stride leaves gaps (a 1x1
  /// convolution of stride 2 reads every other input). Never above what
  /// any mapping moves.
  int64_t touchedWords(unsigned operand) const;
  /// Loop bounds, one per dim.
  std::vector<int64_t> bounds() const;
  /// Whether the operand's projection reads dim `dim` at all.
  bool dependsOn(unsigned operand, unsigned dim) const;

  /// A canonical text of what the mapper sees (bounds, iterator kinds,
  /// operand roles, accesses and projections; not names): problems with the
  /// same key have the same map space and the same costs.
  std::string key() const;

  /// "1x64x56x56": the loop bounds, in dim order.
  std::string boundsText() const;

  /// "2*d2 + d5": a coordinate in the problem's loop names.
  std::string format(const Coordinate &coordinate) const;

  /// What makes the problem unusable (non-positive bounds, terms naming a
  /// dim that does not exist, no operand written), one message each.
  std::vector<std::string> check() const;
};

} // namespace marlmap

#endif // MARLMAP_CORE_PROBLEM_H
