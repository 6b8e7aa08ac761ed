//===- ImperfectMapSpaceTest.cpp - Spaces of factors that need not divide -===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

std::unique_ptr<MapSpace> space(const Problem &problem, const Arch &arch,
                                FactorSpace factors) {
  std::string error;
  std::unique_ptr<MapSpace> result =
      valueOr(MapSpace::create(problem, arch, {}, factors), error);
  EXPECT_TRUE(result) << error;
  return result;
}

/// Loops with bounds no array divides: 7, 13, 56, 197.
std::vector<Problem> awkwardProblems() {
  return {makeConv({1, 13, 7, 56, 56, 3, 3}), makeGemm(197, 13, 56)};
}

/// What checkMappingShape says beyond overflowing a fanout.
std::vector<std::string> misfitsButSpread(const MapSpace &s,
                                          const Mapping &mapping) {
  std::vector<std::string> out;
  for (const std::string &issue :
       checkMappingShape(mapping, s.problem(), s.arch()))
    if (issue.find("spreads") == std::string::npos)
      out.push_back(issue);
  return out;
}

TEST(ImperfectMapSpace, NamesItsSpaces) {
  for (FactorSpace factors :
       {FactorSpace::Perfect, FactorSpace::SpatialImperfect,
        FactorSpace::Imperfect})
    EXPECT_EQ(parseFactorSpace(factorSpaceName(factors)), factors);
  EXPECT_EQ(factorSpaceName(FactorSpace::SpatialImperfect),
            std::string("spatial-imperfect"));
  EXPECT_EQ(parseFactorSpace("ruby"), std::nullopt);
}

TEST(ImperfectMapSpace, EveryPointCoversItsLoopsUnderTheConstraints) {
  // Every preset (their constraints included) and both imperfect spaces:
  // each point's tiles cover each loop without an iteration that never
  // runs, the constraints hold, and encoding gives the point's mapping
  // back. In the spatial-imperfect space each temporal factor divides
  // the tiles left to cover.
  Rng rng(11);
  for (const std::string &name : presetNames())
    for (FactorSpace factors :
         {FactorSpace::SpatialImperfect, FactorSpace::Imperfect})
      for (const Problem &problem : awkwardProblems()) {
        SCOPED_TRACE(name + " " + factorSpaceName(factors) + " " +
                     problem.key());
        auto s = space(problem, *findPreset(name), factors);
        ASSERT_TRUE(s);
        std::vector<int64_t> values(s->parameters().size());
        Mapping mapping;
        unsigned partial = 0;
        for (int i = 0; i < 300; ++i) {
          s->sample(rng, values.data());
          s->decode(values.data(), mapping);
          for (const std::string &issue : misfitsButSpread(*s, mapping))
            ADD_FAILURE() << issue;
          partial += hasImperfectFactors(mapping, problem);
          std::optional<std::vector<int64_t>> back = s->encode(mapping);
          ASSERT_TRUE(back.has_value());
          EXPECT_EQ(s->decode(*back), mapping);
          if (factors != FactorSpace::SpatialImperfect)
            continue;
          for (unsigned d = 0; d < problem.dims.size(); ++d) {
            std::vector<DimLoop> loops = loopsOnDim(mapping, problem, d);
            int64_t inside = 1;
            for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
              const int64_t left =
                  (problem.dims[d].bound + inside - 1) / inside;
              if (it->kind == DimLoop::Temporal) {
                EXPECT_EQ(left % it->factor, 0)
                    << problem.dims[d].name << " at level " << it->level;
              }
              inside *= it->factor;
            }
          }
        }
        EXPECT_GT(partial, 0u);
      }
}

TEST(ImperfectMapSpace, HoldsEveryPerfectMapping) {
  // Every point of the perfect space that fits the array is a point of
  // both imperfect ones (whose spatial factors stay within the fanouts).
  Rng rng(5);
  for (const char *name : {"eyeriss", "eyeriss-rs", "simba", "edge"})
    for (const Problem &problem :
         {makeConv({1, 64, 32, 28, 28, 3, 3}), makeGemm(96, 48, 60)}) {
      auto perfect = space(problem, *findPreset(name), FactorSpace::Perfect);
      ASSERT_TRUE(perfect);
      for (FactorSpace factors :
           {FactorSpace::SpatialImperfect, FactorSpace::Imperfect}) {
        SCOPED_TRACE(std::string(name) + " " + factorSpaceName(factors));
        auto s = space(problem, *findPreset(name), factors);
        ASSERT_TRUE(s);
        std::vector<int64_t> values(perfect->parameters().size());
        for (int i = 0; i < 300; ++i) {
          perfect->sample(rng, values.data());
          const Mapping mapping = perfect->decode(values);
          if (!checkMappingShape(mapping, problem, s->arch()).empty())
            continue;
          std::optional<std::vector<int64_t>> point = s->encode(mapping);
          ASSERT_TRUE(point.has_value());
          EXPECT_EQ(s->decode(*point), mapping);
        }
      }
    }
}

TEST(ImperfectMapSpace, SpreadsAPrimeLoopOverAWholeRow) {
  // 197 tokens over eyeriss's 14 columns: the perfect space can only
  // spread 1 or all of them; the imperfect spaces spread 14, in 15 steps
  // of which the last has 1 token.
  const Problem gemm = makeGemm(197, 64, 64);
  for (FactorSpace factors :
       {FactorSpace::SpatialImperfect, FactorSpace::Imperfect}) {
    auto s = space(gemm, *findPreset("eyeriss"), factors);
    ASSERT_TRUE(s);
    std::vector<int64_t> values(s->parameters().size(), 0);
    const std::string wanted = gemm.dims[0].name + " x factor@GlobalBuffer";
    int found = -1;
    for (unsigned p = 0; p < s->parameters().size(); ++p)
      if (s->parameters()[p].name == wanted)
        found = int(p);
    ASSERT_GE(found, 0) << wanted;
    ASSERT_EQ(s->parameters()[found].choices, 14);
    values[found] = 13; // the factor 14
    const Mapping mapping = s->decode(values);
    EXPECT_EQ(mapping.levels[3].spatialX[0], 14);
    EXPECT_EQ(mapping.levels.back().temporal[0], 15);
    EXPECT_TRUE(misfitsButSpread(*s, mapping).empty());
    EXPECT_EQ(llvm::toString(s->checkMapping(mapping)), "");
  }
}

TEST(ImperfectMapSpace, FittedPointsSpreadWithinEveryFanout) {
  for (const char *name : {"eyeriss", "simba"})
    for (FactorSpace factors :
         {FactorSpace::SpatialImperfect, FactorSpace::Imperfect}) {
      SCOPED_TRACE(std::string(name) + " " + factorSpaceName(factors));
      auto s = space(makeConv({1, 200, 96, 28, 28, 3, 3}), *findPreset(name),
                     factors);
      ASSERT_TRUE(s);
      Rng rng(3);
      std::vector<int64_t> values(s->parameters().size());
      unsigned overflowed = 0;
      for (int i = 0; i < 1000; ++i) {
        s->sample(rng, values.data());
        // Temporal factors at 1 leave the spatial ones room to overflow.
        for (unsigned p = 0; p < values.size(); ++p) {
          const Parameter &param = s->parameters()[p];
          if (param.kind == Parameter::Kind::LoopFactor &&
              param.name.find(" x ") == std::string::npos &&
              param.name.find(" y ") == std::string::npos &&
              param.name.find(" spatial ") == std::string::npos)
            values[p] = 0;
        }
        const bool overflows =
            !checkMappingShape(s->decode(values), s->problem(), s->arch())
                 .empty();
        std::vector<int64_t> fitted = values;
        EXPECT_EQ(s->fitSpread(fitted.data()), overflows);
        overflowed += overflows;
        for (const std::string &issue :
             checkMappingShape(s->decode(fitted), s->problem(), s->arch()))
          ADD_FAILURE() << issue;
      }
      EXPECT_GT(overflowed, 100u);
    }
}

} // namespace
