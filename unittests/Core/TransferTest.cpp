//===- TransferTest.cpp - Problem features and recast mappings ------------===//

#include "marlmap/Core/Transfer.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

std::unique_ptr<MapSpace> space(const Problem &problem, const Arch &arch) {
  std::string error;
  std::unique_ptr<MapSpace> result =
      valueOr(MapSpace::create(problem, arch, {}), error);
  EXPECT_TRUE(result) << error;
  return result;
}

/// Valid mappings of `space`, from uniform samples.
std::vector<Mapping> validMappings(const MapSpace &space, unsigned count,
                                   uint64_t seed) {
  Rng rng(seed);
  std::vector<int64_t> values(space.parameters().size());
  std::vector<Mapping> found;
  Evaluation evaluation;
  for (int tries = 0; tries < 200000 && found.size() < count; ++tries) {
    space.sample(rng, values.data());
    Mapping mapping = space.decode(values);
    if (space.model().evaluate(mapping, evaluation))
      found.push_back(mapping);
  }
  EXPECT_EQ(found.size(), count);
  return found;
}

TEST(ProblemFeatures, TwoConvsThatDifferInOneBoundDifferOnlyThere) {
  ProblemFeatures a = problemFeatures(makeConv({1, 64, 32, 28, 28, 3, 3}));
  ProblemFeatures b = problemFeatures(makeConv({1, 128, 32, 28, 28, 3, 3}));
  EXPECT_EQ(a.kind, OpKind::Conv);
  EXPECT_EQ(b.kind, OpKind::Conv);
  for (unsigned i = 0; i < a.log2Bounds.size(); ++i) {
    if (i == unsigned(DimName::K))
      EXPECT_DOUBLE_EQ(b.log2Bounds[i] - a.log2Bounds[i], 1.0);
    else
      EXPECT_DOUBLE_EQ(a.log2Bounds[i], b.log2Bounds[i]) << i;
  }
  EXPECT_DOUBLE_EQ(a.log2Stride, b.log2Stride);
  EXPECT_DOUBLE_EQ(problemDistance(a, b), 1.0);
}

TEST(ProblemFeatures, StrideAndKindCount) {
  ConvShape strided{1, 64, 32, 28, 28, 3, 3};
  strided.strideW = strided.strideH = 2;
  ProblemFeatures plain = problemFeatures(makeConv({1, 64, 32, 28, 28, 3, 3}));
  ProblemFeatures twice = problemFeatures(makeConv(strided));
  EXPECT_DOUBLE_EQ(twice.log2Stride, 1.0);
  EXPECT_DOUBLE_EQ(problemDistance(plain, twice), 1.0);
  // A GEMM is further from a convolution than any convolution.
  ProblemFeatures gemm = problemFeatures(makeGemm(784, 64, 32));
  EXPECT_EQ(gemm.kind, OpKind::Gemm);
  EXPECT_GE(problemDistance(plain, gemm), kOtherKindDistance);
}

TEST(ProblemFeatures, AlikeProblemsOfOneKindAreGroupedNearestFirst) {
  std::vector<ProblemFeatures> features;
  for (const Problem &problem :
       {makeConv({1, 64, 64, 56, 56, 3, 3}), makeGemm(784, 64, 32),
        makeConv({1, 512, 512, 7, 7, 3, 3}), makeConv({1, 64, 128, 56, 56, 3, 3}),
        makeConv({1, 512, 256, 7, 7, 3, 3}), makeGemm(784, 128, 32)})
    features.push_back(problemFeatures(problem));
  // The first ungrouped problem and its nearest of the same kind, in the
  // list's order inside a group.
  EXPECT_EQ(groupSimilarProblems(features, 2),
            (std::vector<std::vector<size_t>>{{0, 3}, {1, 5}, {2, 4}}));
  EXPECT_EQ(groupSimilarProblems(features, 1),
            (std::vector<std::vector<size_t>>{{0}, {1}, {2}, {3}, {4}, {5}}));
  EXPECT_EQ(groupSimilarProblems(features, 8),
            (std::vector<std::vector<size_t>>{{0, 2, 3, 4}, {1, 5}}));
}

TEST(Transfer, AProblemsOwnMappingComesBackUnchanged) {
  Problem conv = makeConv({1, 64, 32, 28, 28, 3, 3});
  for (const char *preset : {"eyeriss", "simba"}) {
    const Arch arch = *findPreset(preset);
    auto s = space(conv, arch);
    for (const Mapping &mapping : validMappings(*s, 20, 3)) {
      std::optional<Mapping> recast =
          transferMapping(mapping, conv, conv, arch);
      ASSERT_TRUE(recast);
      EXPECT_TRUE(*recast == mapping) << preset;
    }
  }
}

TEST(Transfer, TilesScaleWithTheBound) {
  const Arch arch = *findPreset("eyeriss");
  Problem from = makeConv({1, 64, 32, 28, 28, 3, 3});
  Problem to = makeConv({1, 128, 32, 14, 14, 3, 3});
  auto target = space(to, arch);
  const unsigned K = 5, P = 2; // makeConv's dims: R S P Q C K N
  ASSERT_EQ(to.dims[K].name, "K");
  ASSERT_EQ(to.dims[P].name, "P");
  for (const Mapping &mapping : validMappings(*space(from, arch), 20, 5)) {
    std::optional<Mapping> recast = transferMapping(mapping, from, to, arch);
    ASSERT_TRUE(recast);
    // Every loop's factors multiply to its new bound, in the same order.
    for (unsigned d = 0; d < to.dims.size(); ++d) {
      int64_t product = 1;
      for (const LevelMapping &level : recast->levels)
        product *= level.temporal[d] * level.spatialX[d] * level.spatialY[d];
      EXPECT_EQ(product, to.dims[d].bound);
    }
    for (size_t l = 0; l < mapping.levels.size(); ++l) {
      EXPECT_EQ(recast->levels[l].order, mapping.levels[l].order);
      EXPECT_EQ(recast->levels[l].keep, mapping.levels[l].keep);
      // K doubles: each of its factors stays or doubles; P (28 -> 14)
      // loses one 2 and keeps its 7 where it was.
      const LevelMapping &old = mapping.levels[l], &now = recast->levels[l];
      for (auto factors : {&LevelMapping::temporal, &LevelMapping::spatialX,
                           &LevelMapping::spatialY}) {
        int64_t k0 = (old.*factors)[K], k1 = (now.*factors)[K];
        EXPECT_TRUE(k1 == k0 || k1 == 2 * k0) << k0 << " -> " << k1;
        EXPECT_EQ((old.*factors)[P] % 7 == 0, (now.*factors)[P] % 7 == 0);
      }
    }
    // The recast mapping is a point of the new space as it stands.
    EXPECT_TRUE(target->encode(*recast));
  }
}

TEST(Transfer, RefusesAMappingOfAnotherShape) {
  const Arch arch = *findPreset("eyeriss");
  Problem conv = makeConv({1, 64, 32, 28, 28, 3, 3});
  Mapping mapping = Mapping::outermostOnly(makeGemm(8, 8, 8), arch);
  EXPECT_FALSE(transferMapping(mapping, conv, conv, arch));
}

TEST(EncodeNearest, AgreesWithEncodeOnEveryPointOfTheSpace) {
  auto s = space(makeConv({1, 64, 64, 56, 56, 3, 3}), *findPreset("simba"));
  Rng rng(11);
  std::vector<int64_t> values(s->parameters().size());
  for (int i = 0; i < 500; ++i) {
    s->sample(rng, values.data());
    Mapping mapping = s->decode(values);
    std::optional<std::vector<int64_t>> nearest = s->encodeNearest(mapping);
    ASSERT_TRUE(nearest);
    EXPECT_TRUE(s->decode(*nearest) == mapping);
    EXPECT_EQ(s->encode(mapping), nearest);
  }
}

TEST(EncodeNearest, FindsAPointForAMappingTheSpaceCannotExpress) {
  // eyeriss-rs is eyeriss under row-stationary constraints: most
  // unconstrained mappings are not in its space, but their nearest points
  // are.
  Problem conv = makeConv({1, 64, 32, 28, 28, 3, 3});
  auto free = space(conv, *findPreset("eyeriss"));
  auto fixed = space(conv, *findPreset("eyeriss-rs"));
  ASSERT_EQ(free->arch().levels.size(), fixed->arch().levels.size());
  unsigned inexpressible = 0;
  for (const Mapping &mapping : validMappings(*free, 20, 13)) {
    inexpressible += !fixed->encode(mapping);
    std::optional<std::vector<int64_t>> point = fixed->encodeNearest(mapping);
    ASSERT_TRUE(point);
    for (size_t i = 0; i < point->size(); ++i) {
      EXPECT_GE((*point)[i], 0);
      EXPECT_LT((*point)[i], fixed->parameters()[i].choices);
    }
    // The point's mapping obeys the constraints.
    EXPECT_TRUE(checkMappingShape(fixed->decode(*point), conv, fixed->arch())
                    .empty());
  }
  EXPECT_GT(inexpressible, 0u);
}

} // namespace
