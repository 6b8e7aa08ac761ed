//===- PolicyWeights.h - What the agents learnt, kept in a file -*- C++ -*-===//
//
// An agent's weights are worth keeping when its decisions mean the same in
// another problem: each agent is stored under a key naming the accelerator,
// the op kind and the decisions it owns (their names and choice counts),
// with its network's shape. A search given such weights starts every agent
// whose key and shape match from them (`policy-weights=FILE`); the others
// start afresh. A search can also write what its agents learnt
// (`policy-save=FILE`), so that training on several networks is a chain of
// searches, each starting from the last one's file.
//
// The file is text: a header line, then one line per agent (its shape and
// every weight, exactly), then a line with the agent count and a checksum
// of all that precedes it, so that a truncated or edited file is refused.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_POLICYWEIGHTS_H
#define MARLMAP_SEARCH_POLICYWEIGHTS_H

#include "marlmap/Core/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// One agent's network: its input, hidden and (stacked) output widths,
/// whether it draws its decisions jointly, and its weights (the two hidden
/// layers', then the head's, each matrix then its bias).
struct AgentWeights {
  std::string key;
  int64_t input = 0;
  int64_t hidden = 0;
  int64_t width = 0;
  bool autoregressive = true;
  std::vector<float> values;

  /// How many weights its shape has.
  int64_t weightCount() const {
    return (input + 1) * hidden + (hidden + 1) * hidden + (hidden + 1) * width;
  }
  /// Same widths and head: the same number of weights, in the same places.
  bool sameShape(const AgentWeights &other) const {
    return input == other.input && hidden == other.hidden &&
           width == other.width && autoregressive == other.autoregressive;
  }
};

/// Agents by key, each key once, in key order.
class PolicyWeights {
public:
  /// The agent of `key`, or nullptr.
  const AgentWeights *find(const std::string &key) const;
  /// Adds `agent` unless an agent of its key is already held; true if
  /// added.
  bool add(AgentWeights agent);
  /// Adds every agent of `older` whose key is not held yet.
  void addMissing(const PolicyWeights &older);

  const std::vector<AgentWeights> &agents() const { return list; }
  bool empty() const { return list.empty(); }

private:
  std::vector<AgentWeights> list;
};

/// The file's text.
std::string policyWeightsText(const PolicyWeights &weights);
/// The weights in `text`, or why not (with the line).
llvm::Expected<PolicyWeights> parsePolicyWeights(const std::string &text);

/// Reads `path`, or says why not, naming the file.
llvm::Expected<PolicyWeights> loadPolicyWeights(const std::string &path);
/// Writes `weights` to `path` whole or not at all (through a temporary
/// file beside it), or says why not, naming the file.
llvm::Error savePolicyWeights(const std::string &path,
                              const PolicyWeights &weights);

} // namespace marlmap

#endif // MARLMAP_SEARCH_POLICYWEIGHTS_H
