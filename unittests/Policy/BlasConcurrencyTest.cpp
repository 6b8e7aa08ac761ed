//===- BlasConcurrencyTest.cpp - Products from two threads are exact ------===//
//
// Two policy searches run side by side on a pool. Their matrix products go
// to the system's BLAS through LibTorch; a BLAS that is not safe to call from
// two threads at once returns wrong products now and then, and a search that
// learns from one follows another trajectory. These tests multiply from two
// threads at once, with the shapes the agents use, and check every product
// bit for bit against the same product computed alone.
//
//===----------------------------------------------------------------------===//

#include "BlasGuard.h"

#include "marlmap/Core/Random.h"

#include "gtest/gtest.h"

#include <torch/torch.h>

#include <atomic>
#include <thread>

using namespace marlmap;

namespace {

torch::Tensor randomTensor(std::vector<int64_t> sizes, Rng &rng) {
  int64_t count = 1;
  for (int64_t size : sizes)
    count *= size;
  std::vector<float> values(count);
  for (float &v : values)
    v = float(2.0 * rng.unit() - 1.0);
  return torch::from_blob(values.data(), sizes, torch::kFloat32).clone();
}

/// The agents' products: batched forward layers (bias + input x weights)
/// and the transposed products of their gradients.
struct Case {
  torch::Tensor bias, input, weights, gradient;
  torch::Tensor compute() const {
    torch::Tensor forward = torch::baddbmm(bias, input, weights);
    torch::Tensor weightGradient = torch::bmm(input.transpose(1, 2), gradient);
    torch::Tensor inputGradient = torch::bmm(gradient, weights.transpose(1, 2));
    return torch::cat(
        {forward.flatten(), weightGradient.flatten(), inputGradient.flatten()});
  }
};

std::vector<Case> makeCases() {
  Rng rng(11);
  std::vector<Case> cases;
  for (int64_t agents : {1, 3, 8})
    for (int64_t rows : {64, 80})
      for (int64_t width : {20, 45}) {
        const int64_t hidden = 32;
        cases.push_back({randomTensor({agents, 1, hidden}, rng),
                         randomTensor({agents, rows, width}, rng),
                         randomTensor({agents, width, hidden}, rng),
                         randomTensor({agents, rows, hidden}, rng)});
      }
  return cases;
}

/// Products computed by two threads at once, `rounds` passes over the cases
/// each, that differ from the product computed alone.
int64_t wrongProductsFromTwoThreads(bool guarded, int rounds) {
  torch::set_num_threads(1);
  const std::vector<Case> cases = makeCases();
  std::vector<torch::Tensor> alone;
  for (const Case &c : cases)
    alone.push_back(c.compute());
  std::atomic<int64_t> wrong{0};
  auto hammer = [&] {
    torch::NoGradGuard noGrad;
    for (int round = 0; round < rounds; ++round)
      for (size_t i = 0; i < cases.size(); ++i) {
        torch::Tensor product;
        if (guarded) {
          BlasGuard guard;
          product = cases[i].compute();
        } else {
          product = cases[i].compute();
        }
        if (!torch::equal(product, alone[i]))
          ++wrong;
      }
  };
  std::thread first(hammer), second(hammer);
  first.join();
  second.join();
  return wrong;
}

} // namespace

TEST(BlasConcurrency, GuardedProductsAreExactFromTwoThreads) {
  EXPECT_EQ(wrongProductsFromTwoThreads(/*guarded=*/true, 1500), 0);
}

// The guard only locks under a BLAS it knows to be unsafe: this checks that
// the BLAS it lets through unguarded really is safe. Under Debian's
// sequential OpenBLAS the unguarded products go wrong hundreds of times in
// these rounds.
TEST(BlasConcurrency, AReentrantBlasNeedsNoGuard) {
  if (!blasIsReentrant())
    GTEST_SKIP() << "this BLAS is a sequential OpenBLAS: policy searches "
                    "take turns with it";
  EXPECT_EQ(wrongProductsFromTwoThreads(/*guarded=*/false, 1500), 0);
}
