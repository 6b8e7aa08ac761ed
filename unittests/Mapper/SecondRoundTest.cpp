//===- SecondRoundTest.cpp - Searches that go on after their share --------===//
//
// Under a network's time budget, a search that can resume and is stopped by
// its share before a proof waits, and goes on once every problem has
// started (docs/Mapper.md). A searcher of the test's own makes the second
// round visible: it proves a problem only once it has been resumed. It is
// registered before any test reads the registry (see RegisterSearcherTest).
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Mapper/FrontEnd.h"
#include "marlmap/Mapper/Mapper.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// Uniform samples until its time is spent; a problem of fewer than
/// kSmallMacs MACs it proves at once, a larger one only in a batch after a
/// resume. Its certificate's bound is 0: nothing is proved but the count
/// of rounds.
class ResumingSampler : public Searcher {
public:
  static constexpr int64_t kSmallMacs = 1000;

  ResumingSampler(const MapSpace &space, uint64_t seed)
      : random(makeRandomSearcher(space, seed)),
        small(space.problem().iterations() < kSmallMacs) {}

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    proposals.clear();
    if (done())
      return;
    random->ask(count, proposals);
    ++batches;
    if (resumes > 0)
      ++batchesAfterResume;
  }
  void tell(const std::vector<std::vector<int64_t>> &proposals,
            const std::vector<Feedback> &feedback) override {
    random->tell(proposals, feedback);
  }
  std::optional<SearchCertificate> certificate() const override {
    return SearchCertificate{0.0, done()};
  }
  bool canResume() const override { return !done(); }
  bool resume(double seconds) override {
    if (!canResume() || !(seconds > 0.0))
      return false;
    ++resumes;
    return true;
  }

private:
  bool done() const { return small ? batches > 0 : batchesAfterResume > 0; }

  std::unique_ptr<Searcher> random;
  const bool small;
  int64_t batches = 0, batchesAfterResume = 0, resumes = 0;
};

class RegisterResumingSampler : public testing::Environment {
  void SetUp() override {
    SearcherEntry entry;
    entry.name = "resuming-sampler";
    entry.help = "Uniform samples; proves large problems after a resume";
    // A searcher that proves gets its share for every problem, light ones
    // too: the small problem here is light.
    entry.provesOptima = true;
    entry.make = [](const SearcherRequest &, const MapSpace &space,
                    uint64_t seed) -> std::unique_ptr<Searcher> {
      return std::make_unique<ResumingSampler>(space, seed);
    };
    llvm::Error error = registerSearcher(std::move(entry));
    ASSERT_FALSE(bool(error)) << errorText(std::move(error));
  }
};

testing::Environment *const registration =
    testing::AddGlobalTestEnvironment(new RegisterResumingSampler);

TEST(SecondRound, AProblemStoppedByItsShareGoesOnWithTheTimeLeft) {
  // One worker: the large problem starts first, with about three quarters
  // of the time (its weight), and stops unproved; the small one proves at
  // once and leaves the rest, about 0.75 s, to the large one's second
  // round, where it proves. Without a second round it would end unproved.
  MapperRequest request;
  request.arch = *findPreset("eyeriss");
  request.searcher.name = "resuming-sampler";
  request.seconds = 3.0;
  std::unique_ptr<Mapper> mapper = llvm::cantFail(Mapper::create(request));
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  const Problem large = makeGemm(64, 64, 64), small = makeGemm(8, 8, 8);
  ASSERT_GE(large.iterations(), ResumingSampler::kSmallMacs);
  ASSERT_LT(small.iterations(), ResumingSampler::kSmallMacs);
  MapperResult result =
      mapper->map({{large, std::nullopt}, {small, std::nullopt}}, *executor);
  ASSERT_EQ(result.problems.size(), 2u);
  for (const ProblemOutcome &outcome : result.problems) {
    EXPECT_TRUE(outcome.found);
    EXPECT_TRUE(outcome.provedOptimal);
  }
  // The large problem's report counts both rounds: a first one of many
  // batches and a second one of one.
  EXPECT_GT(result.problems[0].samples, 2 * 64);
  EXPECT_EQ(result.problems[1].samples, 64);
}

} // namespace
