//===- MapSpaceTest.cpp - Parameters <-> mappings -------------------------===//

#include "marlmap/Core/MapSpace.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

#include <set>

using namespace marlmap;

namespace {

std::unique_ptr<MapSpace> space(const Problem &problem, const Arch &arch,
                                const Constraints &constraints = {}) {
  std::string error;
  std::unique_ptr<MapSpace> result =
      valueOr(MapSpace::create(problem, arch, constraints), error);
  EXPECT_TRUE(result) << error;
  return result;
}

std::string failure(const Problem &problem, const Arch &arch,
                    const Constraints &constraints) {
  std::string error;
  EXPECT_FALSE(valueOr(MapSpace::create(problem, arch, constraints), error));
  return error;
}

TEST(MapSpace, ParametersOfAConvOnEyeriss) {
  auto s = space(makeConv({1, 64, 64, 56, 56, 3, 3}), *findPreset("eyeriss"));
  // Splits: R^3, S^3, P^2, P^7, Q^2, Q^7, C^2, K^2; five orders; keeps of
  // the three register files and the buffer's two operands.
  unsigned factors = 0, orders = 0, keeps = 0;
  for (const Parameter &p : s->parameters()) {
    factors += p.kind == Parameter::Kind::Factor;
    orders += p.kind == Parameter::Kind::Order;
    keeps += p.kind == Parameter::Kind::Keep;
  }
  EXPECT_EQ(factors, 8u);
  EXPECT_EQ(orders, 5u);
  EXPECT_EQ(keeps, 5u);
  // 7 slots per split (5 temporal, X and Y at the buffer); 2^6 = 64 splits
  // as C(6 + 6, 6) = 924 ways.
  EXPECT_EQ(s->parameters()[0].name, "R^3 split");
  EXPECT_EQ(s->parameters()[0].choices, 7);
  EXPECT_GT(s->log10Size(), 20.0);
}

TEST(MapSpace, EverySampleDecodesAndEncodesBack) {
  auto s = space(makeConv({1, 64, 64, 56, 56, 3, 3}), *findPreset("eyeriss"));
  Rng rng(7);
  std::vector<int64_t> values(s->parameters().size());
  Mapping mapping;
  unsigned valid = 0;
  for (int i = 0; i < 2000; ++i) {
    s->sample(rng, values.data());
    s->decode(values.data(), mapping);
    // Factors always multiply to the bounds; only fanout can break.
    for (const std::string &issue :
         checkMappingShape(mapping, s->problem(), s->arch()))
      ASSERT_NE(issue.find("spreads"), std::string::npos) << issue;
    std::optional<std::vector<int64_t>> back = s->encode(mapping);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, values);
    valid += !llvm::errorToBool(s->checkMapping(mapping));
  }
  EXPECT_GT(valid, 0u);
}

// Decode reads small splits from tables and works out large ones: both
// must give back what encode reads.
TEST(MapSpace, SplitsTooLargeToTabulateDecodeAlike) {
  auto s = space(makeGemm(int64_t(1) << 16, 48, 7), *findPreset("eyeriss"));
  int64_t largest = 0;
  for (const Parameter &p : s->parameters())
    largest = std::max(largest, p.choices);
  ASSERT_GT(largest, int64_t(1) << 14); // 2^16 over 7 slots: C(22, 6)
  Rng rng(3);
  std::vector<int64_t> values(s->parameters().size());
  Mapping mapping;
  for (int i = 0; i < 500; ++i) {
    s->sample(rng, values.data());
    s->decode(values.data(), mapping);
    std::optional<std::vector<int64_t>> back = s->encode(mapping);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(*back, values);
  }
}

// Decode reads loop orders of up to 8 loops from a table of permutations
// and works out longer ones: both must give back what encode reads.
TEST(MapSpace, LoopOrdersTooLongToTabulateDecodeAlike) {
  // Nine loops of bound 2 over operands of at most 8 axes (the cost
  // model's limit): the last axis is 2 * d7 + d8.
  Problem problem;
  problem.name = "linalg.generic";
  std::vector<Coordinate> axes;
  for (unsigned d = 0; d < 9; ++d)
    problem.dims.push_back({"d" + std::to_string(d), 2, LoopKind::Parallel});
  for (unsigned d = 0; d < 7; ++d)
    axes.push_back(Coordinate{{{d, 1}}, 0});
  axes.push_back(Coordinate{{{7, 2}, {8, 1}}, 0});
  problem.operands = {{"in", TensorRole::Inputs, Access::Read, axes},
                      {"w", TensorRole::Weights, Access::Read, axes},
                      {"out", TensorRole::Outputs, Access::Write, axes}};
  auto s = space(problem, *findPreset("eyeriss"));
  ASSERT_TRUE(s);
  int64_t longest = 0;
  for (const Parameter &p : s->parameters())
    if (p.kind == Parameter::Kind::Order)
      longest = std::max(longest, p.choices);
  ASSERT_GT(longest, int64_t(40320)); // more than 8! orders at some level
  Rng rng(5);
  std::vector<int64_t> values(s->parameters().size());
  Mapping mapping;
  std::set<std::vector<unsigned>> outermostOrders;
  for (int i = 0; i < 500; ++i) {
    s->sample(rng, values.data());
    s->decode(values.data(), mapping);
    outermostOrders.insert(mapping.levels.back().order);
    std::optional<std::vector<int64_t>> back = s->encode(mapping);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(*back, values);
  }
  EXPECT_GT(outermostOrders.size(), 400u);
}

unsigned dimNamed(const Problem &problem, const std::string &name) {
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    if (problem.dims[d].name == name)
      return d;
  ADD_FAILURE() << "no loop " << name;
  return 0;
}

TEST(MapSpace, FittingAFanoutKeepsItsLargestPrimes) {
  // P = 28 = 2^2 x 7 and K = 512 = 2^9 on eyeriss, whose buffer spreads
  // 14 wide along X: 7 of P and 8 of K there spread 56 wide. Fitted, the
  // 2s of K leave, smallest first, until 7 x 2 = 14 fits; they go to the
  // buffer's own temporal loop.
  auto s = space(makeConv({1, 512, 64, 28, 28, 1, 1}), *findPreset("eyeriss"));
  const unsigned buffer = 3, dram = 4;
  ASSERT_EQ(s->arch().levels[buffer].name, "GlobalBuffer");
  ASSERT_EQ(s->arch().fanoutX(buffer), 14);
  const unsigned p = dimNamed(s->problem(), "P"),
                 k = dimNamed(s->problem(), "K");
  Mapping wide = s->decode(std::vector<int64_t>(s->parameters().size(), 0));
  for (unsigned d : {p, k})
    for (LevelMapping &level : wide.levels)
      level.temporal[d] = level.spatialX[d] = level.spatialY[d] = 1;
  wide.levels[dram].temporal[p] = 4;
  wide.levels[buffer].spatialX[p] = 7;
  wide.levels[dram].temporal[k] = 64;
  wide.levels[buffer].spatialX[k] = 8;
  std::optional<std::vector<int64_t>> values = s->encode(wide);
  ASSERT_TRUE(values);
  ASSERT_TRUE(llvm::errorToBool(s->checkMapping(wide)));

  ASSERT_TRUE(s->fitSpread(values->data()));
  Mapping fitted = s->decode(*values);
  EXPECT_EQ(llvm::toString(s->checkMapping(fitted)), "");
  EXPECT_EQ(fitted.levels[buffer].spatialX[p], 7);
  EXPECT_EQ(fitted.levels[buffer].spatialX[k], 2);
  EXPECT_EQ(fitted.levels[buffer].temporal[k], 4);
  // Nothing else moved, and a point that fits stays as it is.
  fitted.levels[buffer].spatialX[k] = 8;
  fitted.levels[buffer].temporal[k] = 1;
  EXPECT_EQ(fitted, wide);
  const std::vector<int64_t> fits = *values;
  EXPECT_FALSE(s->fitSpread(values->data()));
  EXPECT_EQ(*values, fits);
}

TEST(MapSpace, FittedPointsSpreadWithinEveryFanout) {
  // Uniform points of two accelerators: those that overflow a fanout are
  // fitted, only by spatial factors shrinking and temporal ones growing at
  // the same level; the others stay.
  for (const char *arch : {"eyeriss", "simba"}) {
    auto s = space(makeConv({1, 256, 96, 28, 28, 3, 3}), *findPreset(arch));
    Rng rng(3);
    std::vector<int64_t> values(s->parameters().size());
    unsigned overflowed = 0;
    for (int i = 0; i < 1000; ++i) {
      s->sample(rng, values.data());
      std::vector<int64_t> fittedValues = values;
      const bool moved = s->fitSpread(fittedValues.data());
      const Mapping drawn = s->decode(values), fitted = s->decode(fittedValues);
      bool overflows = false;
      for (const std::string &issue :
           checkMappingShape(drawn, s->problem(), s->arch()))
        overflows = overflows || issue.find("spreads") != std::string::npos;
      ASSERT_EQ(moved, overflows) << arch << " point " << i;
      overflowed += overflows;
      EXPECT_EQ(moved, fittedValues != values);
      for (const std::string &issue :
           checkMappingShape(fitted, s->problem(), s->arch()))
        ADD_FAILURE() << arch << ": " << issue;
      for (size_t l = 0; l < drawn.levels.size(); ++l)
        for (size_t d = 0; d < s->problem().dims.size(); ++d) {
          const LevelMapping &before = drawn.levels[l], &after = fitted.levels[l];
          EXPECT_EQ(before.spatialX[d] % after.spatialX[d], 0);
          EXPECT_EQ(before.spatialY[d] % after.spatialY[d], 0);
          EXPECT_EQ(after.temporal[d] * after.spatialX[d] * after.spatialY[d],
                    before.temporal[d] * before.spatialX[d] *
                        before.spatialY[d]);
        }
    }
    EXPECT_GT(overflowed, 100u) << arch;
  }
}

TEST(MapSpace, EnumeratesSmallSpacesExactly) {
  Problem gemm = makeGemm(2, 1, 1);
  Arch arch = *findPreset("systolic-os");
  arch.constraints.clear(); // the hierarchy's whole space
  auto s = space(gemm, arch);
  int64_t expected = 1;
  for (const Parameter &p : s->parameters())
    expected *= p.choices;
  std::set<std::vector<int64_t>> seen;
  std::set<std::string> mappings;
  // 5 places for M's 2, 3! orders at 3 levels, 4 keep choices.
  ASSERT_EQ(expected, 5 * 216 * 16);
  ASSERT_TRUE(s->enumerate(100000, [&](const std::vector<int64_t> &v) {
    seen.insert(v);
    Mapping m = s->decode(v);
    std::string key;
    for (const LevelMapping &l : m.levels) {
      for (int64_t f : l.temporal)
        key += std::to_string(f) + ",";
      for (unsigned d : l.order)
        key += std::to_string(d) + ",";
      for (int64_t f : l.spatialX)
        key += std::to_string(f) + ",";
      for (int64_t f : l.spatialY)
        key += std::to_string(f) + ",";
      for (bool k : l.keep)
        key += k ? "1" : "0";
      key += "|";
    }
    mappings.insert(key);
    return true;
  }));
  EXPECT_EQ(int64_t(seen.size()), expected);
  EXPECT_EQ(int64_t(mappings.size()), expected);
  EXPECT_FALSE(s->enumerate(expected - 1, [](auto &) { return true; }));
}

TEST(MapSpace, PrimeBoundsGoWholeToOneSlot) {
  auto s = space(makeGemm(13, 1, 1), *findPreset("edge"));
  ASSERT_FALSE(s->parameters().empty());
  EXPECT_EQ(s->parameters()[0].name, "M^13 split");
  // Three temporal slots and the buffer's X and Y fanout.
  EXPECT_EQ(s->parameters()[0].choices, 5);
}

TEST(MapSpace, ConstraintsFixWhatTheySay) {
  // A weight-stationary dataflow: K along X and C along Y under the buffer,
  // the register keeps weights, C fully spread.
  Problem conv = makeConv({1, 32, 16, 8, 8, 3, 3});
  Arch arch = *findPreset("systolic-ws");
  Constraints ws;
  ws.levels.resize(2);
  ws.levels[1].spatialXDims = std::vector<unsigned>{5}; // K
  ws.levels[1].spatialYDims = std::vector<unsigned>{4}; // C
  ws.levels[1].spatialY[4] = 16;
  ws.levels[0].order = std::vector<unsigned>{6, 5, 4, 3, 2, 1, 0};
  ws.levels[1].keep[0] = true;
  auto s = space(conv, arch, ws);
  Rng rng(3);
  std::vector<int64_t> values(s->parameters().size());
  Mapping m;
  for (int i = 0; i < 500; ++i) {
    s->sample(rng, values.data());
    s->decode(values.data(), m);
    for (unsigned d = 0; d < 7; ++d) {
      if (d != 5) {
        EXPECT_EQ(m.levels[1].spatialX[d], 1);
      }
      EXPECT_EQ(m.levels[1].spatialY[d], d == 4 ? 16 : 1);
    }
    EXPECT_EQ(m.levels[0].order, *ws.levels[0].order);
    EXPECT_TRUE(m.levels[1].keep[0]);
  }
}

TEST(MapSpace, ContradictoryConstraintsSayWhy) {
  Problem gemm = makeGemm(8, 4, 6);
  Arch arch = *findPreset("edge");
  Constraints c;
  c.levels.resize(3);
  c.levels[0].temporal[0] = 3;
  EXPECT_EQ(failure(gemm, arch, c),
            "the fixed factors of loop M multiply to 3, which does not "
            "divide its bound 8");
  c.levels[0].temporal.clear();
  c.levels[1].keep[0] = false;
  c.levels[2].keep[0] = false;
  EXPECT_EQ(failure(gemm, arch, c), "the outermost level must keep Inputs");
  c.levels[1].keep.clear();
  c.levels[2].keep.clear();
  c.levels[0].order = std::vector<unsigned>{0, 0, 1};
  EXPECT_EQ(failure(gemm, arch, c),
            "level 'RegFile': the fixed loop order is not a permutation");
  Constraints eyerissGlb;
  eyerissGlb.levels.resize(4);
  eyerissGlb.levels[3].keep[1] = true;
  EXPECT_EQ(failure(gemm, *findPreset("eyeriss"), eyerissGlb),
            "level 'GlobalBuffer' cannot keep Weights: it holds only inputs, "
            "outputs");
}

TEST(MapSpace, NamesTheLevelThatOverflows) {
  Problem gemm = makeGemm(64, 64, 64);
  Arch arch = *findPreset("edge");
  auto s = space(gemm, arch);
  Mapping m = Mapping::outermostOnly(gemm, arch);
  m.levels[2].temporal = {1, 1, 1};
  m.levels[0].temporal = {64, 64, 64}; // a 64x64x64 tile in a 64-word file
  EXPECT_EQ(llvm::toString(s->checkMapping(m)),
            "level 'RegFile' holds 12288 words per instance but has 64");
}

TEST(MapSpace, RefusesWhatTheModelCannotTake) {
  Arch arch = *findPreset("edge");
  Problem huge = makeGemm(int64_t(1) << 41, 1, 1);
  EXPECT_EQ(failure(huge, arch, {}),
            "loop M has bound 2199023255552; the map space factors bounds up "
            "to 1099511627776");
  Problem wide = makeGemm(2, 2, 2);
  for (int i = 0; i < 8; ++i)
    wide.operands[0].projection.push_back(Coordinate{{}, 0});
  EXPECT_EQ(failure(wide, arch, {}),
            "operand 'Inputs' has 10 axes; the cost model takes at most 8");
}

} // namespace
