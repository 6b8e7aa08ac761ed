//===- PolicyLoss.h - The update's loss, differentiated by hand -*- C++ -*-===//
//
// The gradient, with respect to one agent's logits, of PPO's clipped
// surrogate plus an entropy bonus. The agent's ratio is that of the joint
// probability of its own decisions. A few lines of arithmetic per logit:
// as LibTorch operations on these small tensors they cost most of an
// update.
//
// Private to libMarlmapPolicy (no LibTorch here).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_POLICY_POLICYLOSS_H
#define MARLMAP_LIB_POLICY_POLICYLOSS_H

#include <cstdint>
#include <vector>

namespace marlmap {

/// One decision's softmax over `logits`: log-probabilities and
/// probabilities into the arrays; its entropy.
float softmax(const float *logits, int64_t choices, float *logProbabilities,
              float *probabilities);

/// The decisions an agent owns, in drawing order, and where each one's
/// logits start in the agent's row.
struct AgentDecisions {
  std::vector<unsigned> decisions;
  std::vector<int64_t> offsets, choices;
  /// Its choices in all.
  int64_t logits = 0;
};

/// What an update's epoch asks of the loss. `drawing`: the first epoch,
/// whose probabilities are those the proposals were drawn with (recorded
/// into the `drawn` arrays below; later epochs read them).
struct LossTerms {
  double clip = 0.2;
  double entropyBonus = 0.0;
  bool drawing = true;
};

class PolicyLoss {
public:
  using Proposal = std::vector<int64_t>;

  /// Adds the gradient to `gradient` for `agent` on `batch`, one advantage
  /// each, proposal by proposal. `logits` holds one row of `width` per
  /// proposal, or one row for all (`shared`: the agent sees the
  /// observation only); `gradient` has the same shape. `drawn`: one entry
  /// per proposal.
  void addRowGradient(const AgentDecisions &agent, const float *logits,
                      int64_t width, bool shared,
                      const std::vector<Proposal> &batch,
                      const float *advantages, const LossTerms &terms,
                      double *drawn, float *gradient);

  /// The same for an agent of one decision on one row, from its
  /// advantages summed per choice (sumByChoice): in time of its choices,
  /// not of the batch. `drawn`: one entry per choice.
  void addChoiceGradient(int64_t choices, const float *logits,
                         const double *gains, const double *losses,
                         const LossTerms &terms, double *drawn,
                         float *gradient);

private:
  std::vector<float> logP, p, entropy;
};

/// Per choice of `decision`, the advantages (over the batch's size) of the
/// proposals that made it, added to `gains` if positive, `losses` if not:
/// the clip treats them apart.
void sumByChoice(unsigned decision,
                 const std::vector<PolicyLoss::Proposal> &batch,
                 const float *advantages, double *gains, double *losses);

} // namespace marlmap

#endif // MARLMAP_LIB_POLICY_POLICYLOSS_H
