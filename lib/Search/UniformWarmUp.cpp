//===- UniformWarmUp.cpp - The policy searchers' warm-up, without LibTorch ===//
//
// marl and sarl begin with uniform draws of their decisions. Those need no
// network, so under a time budget they can run while LibTorch loads (a
// second or more on some machines), and the pack made once it has loaded
// starts from what they found instead of from nothing.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/Searcher.h"

#include <algorithm>

namespace marlmap {

namespace {

/// Mixed into a problem's seed: the warm-up's draws are not the ones the
/// pack's own generator, seeded alike, goes on to make.
constexpr uint64_t kWarmUpStream = 0x5741524d55505331ull;

/// One problem's uniform draws and what of them to hand on.
class ProblemWarmUp {
public:
  ProblemWarmUp(const MapSpace &space, uint64_t seed,
                const PolicyOptions &options)
      : space(space), decisionSpace(space, 64, options.levelSpreads),
        rng(seed ^ kWarmUpStream), options(options) {}

  void draw(unsigned count, NetworkSearcher::Proposals &proposals) {
    const std::vector<Decision> &decisions = decisionSpace.decisions();
    drawn.resize(decisions.size());
    proposals.resize(count);
    for (unsigned i = 0; i < count; ++i) {
      for (size_t d = 0; d < decisions.size(); ++d)
        drawn[d] = rng.below(decisions[d].choices);
      proposals[i].resize(space.parameters().size());
      decisionSpace.toParameters(drawn.data(), proposals[i].data());
      if (options.fitSpread)
        decisionSpace.fitSpread(drawn.data(), proposals[i].data());
    }
  }

  /// Keeps the first options.warmup draws (what marl clusters its
  /// decisions on) and the options.replay best distinct valid ones (what it
  /// replays).
  void record(const NetworkSearcher::Proposals &proposals,
              const std::vector<Feedback> &feedback) {
    for (size_t i = 0; i < feedback.size(); ++i) {
      if (first.points.size() < options.warmup) {
        first.points.push_back(proposals[i]);
        first.feedback.push_back(feedback[i]);
        continue;
      }
      if (feedback[i].valid)
        keepIfBest(proposals[i], feedback[i]);
    }
  }

  SearchHistory history() const {
    SearchHistory kept = first;
    for (const auto &[point, result] : best) {
      kept.points.push_back(point);
      kept.feedback.push_back(result);
    }
    return kept;
  }

private:
  void keepIfBest(const std::vector<int64_t> &point, const Feedback &result) {
    if (options.replay == 0 || (best.size() == options.replay &&
                                result.cost >= best.back().second.cost))
      return;
    for (const auto &[kept, keptResult] : best)
      if (kept == point)
        return;
    auto worse = std::find_if(best.begin(), best.end(), [&](const auto &entry) {
      return entry.second.cost > result.cost;
    });
    best.insert(worse, {point, result});
    if (best.size() > options.replay)
      best.pop_back();
  }

  const MapSpace &space;
  DecisionSpace decisionSpace;
  Rng rng;
  const PolicyOptions &options;
  /// A draw's decision values: its point is what is handed on.
  std::vector<int64_t> drawn;
  SearchHistory first;
  /// The best valid draws after the first, best first.
  std::vector<std::pair<std::vector<int64_t>, Feedback>> best;
};

class UniformWarmUp : public NetworkSearcher {
public:
  UniformWarmUp(const std::vector<const MapSpace *> &spaces,
                const std::vector<uint64_t> &seeds,
                const PolicyOptions &options)
      : options(options) {
    problems.reserve(spaces.size());
    for (size_t p = 0; p < spaces.size(); ++p)
      problems.emplace_back(*spaces[p], seeds[p], this->options);
  }

  void ask(unsigned count, std::vector<Proposals> &proposals) override {
    proposals.resize(problems.size());
    for (size_t p = 0; p < problems.size(); ++p)
      problems[p].draw(count, proposals[p]);
  }

  void tell(const std::vector<Proposals> &proposals,
            const std::vector<std::vector<Feedback>> &feedback) override {
    for (size_t p = 0; p < problems.size(); ++p)
      problems[p].record(proposals[p], feedback[p]);
  }

  SearchHistory history(size_t problem) const override {
    return problems[problem].history();
  }

private:
  PolicyOptions options;
  std::vector<ProblemWarmUp> problems;
};

} // namespace

std::unique_ptr<NetworkSearcher>
makeUniformWarmUp(const std::vector<const MapSpace *> &spaces,
                  const std::vector<uint64_t> &seeds,
                  const PolicyOptions &options) {
  return std::make_unique<UniformWarmUp>(spaces, seeds, options);
}

} // namespace marlmap
