//===- PolicyWeights.cpp - What the agents learnt, kept in a file ---------===//
//
//   marlmap-policy-weights 1
//   agent <input> <hidden> <width> <joint|factorised> <count>\t<key>\t<weights>
//   ...
//   end <agents> <checksum of every line above>
//
// Weights are written with nine significant digits, which read back as the
// same single-precision values.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Search/PolicyWeights.h"
#include "marlmap/Core/Hash.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace marlmap {

namespace {

constexpr const char *kHeader = "marlmap-policy-weights 1";

/// The agents' lines never hold these inside a key.
bool keyIsWritable(const std::string &key) {
  return !key.empty() && key.find_first_of("\t\n") == std::string::npos;
}

std::string agentLine(const AgentWeights &agent) {
  std::string line = "agent " + std::to_string(agent.input) + " " +
                     std::to_string(agent.hidden) + " " +
                     std::to_string(agent.width) + " " +
                     (agent.autoregressive ? "joint" : "factorised") + " " +
                     std::to_string(agent.values.size()) + "\t" + agent.key +
                     "\t";
  char number[32];
  for (size_t k = 0; k < agent.values.size(); ++k) {
    std::snprintf(number, sizeof(number), k ? " %.9g" : "%.9g",
                  double(agent.values[k]));
    line += number;
  }
  return line + "\n";
}

/// Wider than any agent marlmap makes: a larger shape is a damaged file.
constexpr int64_t kWidest = 1 << 16;

/// A width field in [1, kWidest], or nullopt.
std::optional<int64_t> readWidth(std::istringstream &fields) {
  int64_t value = 0;
  if (!(fields >> value) || value < 1 || value > kWidest)
    return std::nullopt;
  return value;
}

/// One agent's line (without its newline).
llvm::Expected<AgentWeights> parseAgent(const std::string &line) {
  const size_t keyStart = line.find('\t');
  const size_t keyEnd =
      keyStart == std::string::npos ? keyStart : line.find('\t', keyStart + 1);
  if (keyEnd == std::string::npos) {
    return makeError("an agent line without its key and weights");
  }
  std::istringstream fields(line.substr(0, keyStart));
  std::string word, head;
  fields >> word;
  AgentWeights agent;
  std::optional<int64_t> input = readWidth(fields),
                         hidden = readWidth(fields),
                         width = readWidth(fields);
  fields >> head;
  int64_t count = 0;
  fields >> count;
  if (word != "agent" || !input || !hidden || !width || !fields ||
      (head != "joint" && head != "factorised") || !(fields >> std::ws).eof()) {
    return makeError("an agent line whose shape does not read");
  }
  agent.input = *input;
  agent.hidden = *hidden;
  agent.width = *width;
  agent.autoregressive = head == "joint";
  agent.key = line.substr(keyStart + 1, keyEnd - keyStart - 1);
  if (agent.key.empty()) {
    return makeError("an agent without a key");
  }
  // Weights of the two hidden layers and the head, biases included.
  const int64_t expected = agent.weightCount();
  if (count != expected) {
    return makeError("agent '" + agent.key + "' has " + std::to_string(count) +
                     " weights, which its shape does not");
  }
  // Each weight takes at least two characters of the line.
  agent.values.reserve(std::min(size_t(expected), line.size() / 2));
  const char *at = line.c_str() + keyEnd + 1;
  for (int64_t k = 0; k < count; ++k) {
    char *end = nullptr;
    const float value = std::strtof(at, &end);
    if (end == at || !std::isfinite(value)) {
      return makeError("agent '" + agent.key + "': weight " +
                       std::to_string(k) + " is not a finite number");
    }
    agent.values.push_back(value);
    at = end;
  }
  while (*at == ' ')
    ++at;
  if (*at) {
    return makeError("agent '" + agent.key + "' has more weights than it says");
  }
  return agent;
}

} // namespace

const AgentWeights *PolicyWeights::find(const std::string &key) const {
  auto at = std::lower_bound(
      list.begin(), list.end(), key,
      [](const AgentWeights &agent, const std::string &k) { return agent.key < k; });
  return at != list.end() && at->key == key ? &*at : nullptr;
}

bool PolicyWeights::add(AgentWeights agent) {
  auto at = std::lower_bound(list.begin(), list.end(), agent.key,
                             [](const AgentWeights &held, const std::string &k) {
                               return held.key < k;
                             });
  if (at != list.end() && at->key == agent.key)
    return false;
  list.insert(at, std::move(agent));
  return true;
}

void PolicyWeights::addMissing(const PolicyWeights &older) {
  for (const AgentWeights &agent : older.list)
    add(agent);
}

std::string policyWeightsText(const PolicyWeights &weights) {
  std::string text = std::string(kHeader) + "\n";
  size_t written = 0;
  for (const AgentWeights &agent : weights.agents()) {
    if (!keyIsWritable(agent.key))
      continue;
    text += agentLine(agent);
    ++written;
  }
  return text + "end " + std::to_string(written) + " " +
         hexText(fnv1a(text)) + "\n";
}

llvm::Expected<PolicyWeights> parsePolicyWeights(const std::string &text) {
  if (text.compare(0, std::strlen(kHeader), kHeader) != 0 ||
      text.size() <= std::strlen(kHeader) || text[std::strlen(kHeader)] != '\n') {
    return makeError(
        "not a marlmap policy-weights file (its first line is not '" +
        std::string(kHeader) + "')");
  }
  const size_t endLine = text.rfind("\nend ");
  if (endLine == std::string::npos || text.back() != '\n') {
    return makeError("the file is cut short: its last line is not 'end'");
  }
  std::istringstream last(text.substr(endLine + 5));
  int64_t count = -1;
  std::string checksum;
  last >> count >> checksum;
  const std::string body = text.substr(0, endLine + 1);
  if (checksum != hexText(fnv1a(body))) {
    return makeError(
        "the checksum does not match: the file was changed or cut short");
  }
  PolicyWeights weights;
  std::istringstream lines(body);
  std::string line;
  std::getline(lines, line);
  for (int64_t number = 2; std::getline(lines, line); ++number) {
    llvm::Expected<AgentWeights> agent = parseAgent(line);
    if (!agent)
      return makeError("line " + std::to_string(number) + ": " +
                       llvm::toString(agent.takeError()));
    const std::string key = agent->key;
    if (!weights.add(std::move(*agent))) {
      return makeError("line " + std::to_string(number) +
                       ": a second agent of key '" + key + "'");
    }
  }
  if (count != int64_t(weights.agents().size())) {
    return makeError("the file says it holds " + std::to_string(count) +
                     " agents but holds " +
                     std::to_string(weights.agents().size()));
  }
  return weights;
}

namespace {

std::optional<std::string> readWhole(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return text.str();
}

} // namespace

llvm::Expected<PolicyWeights> loadPolicyWeights(const std::string &path) {
  std::optional<std::string> text = readWhole(path);
  if (!text)
    return makeError("cannot read the policy weights '" + path +
                     "': " + std::strerror(errno));
  llvm::Expected<PolicyWeights> weights = parsePolicyWeights(*text);
  if (!weights)
    return makeError("policy weights '" + path +
                     "': " + llvm::toString(weights.takeError()));
  return weights;
}

llvm::Error savePolicyWeights(const std::string &path,
                              const PolicyWeights &weights) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out)
      out << policyWeightsText(weights);
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::remove(temporary.c_str());
      return makeError("cannot write the policy weights '" + path +
                       "': " + reason);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    return makeError("cannot write the policy weights '" + path +
                     "': " + reason);
  }
  return llvm::Error::success();
}

} // namespace marlmap
