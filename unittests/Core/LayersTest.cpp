//===- LayersTest.cpp - Layer shorthands ----------------------------------===//

#include "marlmap/Core/Layers.h"
#include "Support/ExpectedValue.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

Problem parse(const std::string &text) {
  std::string error;
  std::optional<Problem> problem = optionalOr(parseLayer(text), error);
  EXPECT_TRUE(problem.has_value()) << error;
  return problem.value_or(Problem());
}

std::string errorOf(const std::string &text) {
  std::string error;
  EXPECT_FALSE(optionalOr(parseLayer(text), error).has_value());
  return error;
}

TEST(Layers, ConvHasTimeloopsShape) {
  Problem conv = parse("conv:N=1,K=64,C=3,P=112,Q=112,R=7,S=7,stride=2");
  EXPECT_TRUE(conv.check().empty());
  EXPECT_EQ(conv.iterations(), 118013952); // ResNet-50's stem
  // Timeloop does not model padding: (112-1)*2 + 7 = 229 input columns.
  EXPECT_EQ(conv.footprint(1), 3 * 229 * 229);
  EXPECT_EQ(conv.operands[0].name, "Weights");
  EXPECT_EQ(conv.operands[2].access, Access::ReadModifyWrite);
  EXPECT_EQ(conv.dims[4].kind, LoopKind::Reduction); // C
}

TEST(Layers, DilationWidensTheWindow) {
  Problem conv = parse("conv:K=256,C=256,P=28,Q=28,R=3,S=3,dilation=2");
  EXPECT_EQ(conv.footprint(1), 256 * 32 * 32);
  Problem mixed = parse("conv:P=4,Q=4,R=3,S=3,Wstride=2,Hdilation=3");
  // W: (4-1)*2 + (3-1) + 1 = 9; H: (4-1) + (3-1)*3 + 1 = 10.
  EXPECT_EQ(mixed.footprint(1), 9 * 10);
}

TEST(Layers, TouchedWordsSkipTheGapsOfAStride) {
  // A stride the window covers leaves no gap: every word of the span.
  Problem stem = parse("conv:N=1,K=64,C=3,P=112,Q=112,R=7,S=7,stride=2");
  EXPECT_EQ(stem.touchedWords(1), stem.footprint(1));
  // A 1x1 convolution of stride 2 reads every other row and column.
  Problem shortcut = parse("conv:K=8,C=4,P=5,Q=5,R=1,S=1,stride=2");
  EXPECT_EQ(shortcut.footprint(1), 4 * 9 * 9);
  EXPECT_EQ(shortcut.touchedWords(1), 4 * 5 * 5);
  // Stride 3 with a window of 2: two of every three columns.
  Problem gapped = parse("conv:K=1,C=1,P=4,Q=1,R=2,S=1,Wstride=3");
  EXPECT_EQ(gapped.footprint(1), (4 - 1) * 3 + 2);
  EXPECT_EQ(gapped.touchedWords(1), 4 * 2);
}

TEST(Layers, DepthwiseSharesTheChannel) {
  Problem dw = parse("dwconv:C=144,P=56,Q=56,R=3,S=3");
  ASSERT_EQ(dw.dims.size(), 6u);
  EXPECT_EQ(dw.iterations(), 4064256);
  EXPECT_EQ(dw.footprint(0), 144 * 9);
  EXPECT_EQ(dw.footprint(1), 144 * 58 * 58);
  EXPECT_EQ(dw.footprint(2), 144 * 56 * 56);
  EXPECT_EQ(dw.dims[4].kind, LoopKind::Parallel);
}

TEST(Layers, GemmIsAMatrixProduct) {
  Problem gemm = parse("gemm:M=512,N=768,K=3072");
  EXPECT_EQ(gemm.iterations(), 512LL * 768 * 3072);
  EXPECT_EQ(gemm.footprint(0), 512 * 3072);
  EXPECT_EQ(gemm.footprint(1), 3072 * 768);
  EXPECT_EQ(gemm.footprint(2), 512 * 768);
}

TEST(Layers, BadShorthandsSayWhy) {
  EXPECT_EQ(errorOf("fc:M=1"),
            "a layer is 'conv:...', 'dwconv:...' or 'gemm:...', got 'fc:M=1'");
  EXPECT_EQ(errorOf("gemm:M=0"), "'M' must be positive, got 0");
  EXPECT_EQ(errorOf("gemm:M=4,M=8"), "'M' is given twice");
  EXPECT_EQ(errorOf("gemm:M=4x"), "cannot read 'M=4x': expected NAME=INTEGER");
  EXPECT_EQ(errorOf("gemm:M=4,P=2"), "'P' is not a size of a gemm layer");
  EXPECT_EQ(errorOf("dwconv:K=4"), "'K' is not a size of a dwconv layer");
  EXPECT_EQ(errorOf("conv:R=99999999999999999999"),
            "cannot read 'R=99999999999999999999': expected NAME=INTEGER");
}

} // namespace
