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

/// One agent's line (without its newline); nullopt and why in `error`.
std::optional<AgentWeights> parseAgent(const std::string &line,
                                       std::string &error) {
  const size_t keyStart = line.find('\t');
  const size_t keyEnd =
      keyStart == std::string::npos ? keyStart : line.find('\t', keyStart + 1);
  if (keyEnd == std::string::npos) {
    error = "an agent line without its key and weights";
    return std::nullopt;
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
    error = "an agent line whose shape does not read";
    return std::nullopt;
  }
  agent.input = *input;
  agent.hidden = *hidden;
  agent.width = *width;
  agent.autoregressive = head == "joint";
  agent.key = line.substr(keyStart + 1, keyEnd - keyStart - 1);
  if (agent.key.empty()) {
    error = "an agent without a key";
    return std::nullopt;
  }
  // Weights of the two hidden layers and the head, biases included.
  const int64_t expected = agent.weightCount();
  if (count != expected) {
    error = "agent '" + agent.key + "' has " + std::to_string(count) +
            " weights, which its shape does not";
    return std::nullopt;
  }
  // Each weight takes at least two characters of the line.
  agent.values.reserve(std::min(size_t(expected), line.size() / 2));
  const char *at = line.c_str() + keyEnd + 1;
  for (int64_t k = 0; k < count; ++k) {
    char *end = nullptr;
    const float value = std::strtof(at, &end);
    if (end == at || !std::isfinite(value)) {
      error = "agent '" + agent.key + "': weight " + std::to_string(k) +
              " is not a finite number";
      return std::nullopt;
    }
    agent.values.push_back(value);
    at = end;
  }
  while (*at == ' ')
    ++at;
  if (*at) {
    error = "agent '" + agent.key + "' has more weights than it says";
    return std::nullopt;
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

std::optional<PolicyWeights> parsePolicyWeights(const std::string &text,
                                                std::string &error) {
  if (text.compare(0, std::strlen(kHeader), kHeader) != 0 ||
      text.size() <= std::strlen(kHeader) || text[std::strlen(kHeader)] != '\n') {
    error = "not a marlmap policy-weights file (its first line is not '" +
            std::string(kHeader) + "')";
    return std::nullopt;
  }
  const size_t endLine = text.rfind("\nend ");
  if (endLine == std::string::npos || text.back() != '\n') {
    error = "the file is cut short: its last line is not 'end'";
    return std::nullopt;
  }
  std::istringstream last(text.substr(endLine + 5));
  int64_t count = -1;
  std::string checksum;
  last >> count >> checksum;
  const std::string body = text.substr(0, endLine + 1);
  if (checksum != hexText(fnv1a(body))) {
    error = "the checksum does not match: the file was changed or cut short";
    return std::nullopt;
  }
  PolicyWeights weights;
  std::istringstream lines(body);
  std::string line;
  std::getline(lines, line);
  for (int64_t number = 2; std::getline(lines, line); ++number) {
    std::optional<AgentWeights> agent = parseAgent(line, error);
    if (!agent) {
      error = "line " + std::to_string(number) + ": " + error;
      return std::nullopt;
    }
    const std::string key = agent->key;
    if (!weights.add(std::move(*agent))) {
      error = "line " + std::to_string(number) + ": a second agent of key '" +
              key + "'";
      return std::nullopt;
    }
  }
  if (count != int64_t(weights.agents().size())) {
    error = "the file says it holds " + std::to_string(count) +
            " agents but holds " + std::to_string(weights.agents().size());
    return std::nullopt;
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

std::optional<PolicyWeights> loadPolicyWeights(const std::string &path,
                                               std::string &error) {
  std::optional<std::string> text = readWhole(path);
  if (!text) {
    error = "cannot read the policy weights '" + path +
            "': " + std::strerror(errno);
    return std::nullopt;
  }
  std::optional<PolicyWeights> weights = parsePolicyWeights(*text, error);
  if (!weights)
    error = "policy weights '" + path + "': " + error;
  return weights;
}

bool savePolicyWeights(const std::string &path, const PolicyWeights &weights,
                       std::string &error) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out)
      out << policyWeightsText(weights);
    out.close();
    if (!out) {
      error = "cannot write the policy weights '" + path +
              "': " + std::strerror(errno);
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    error = "cannot write the policy weights '" + path +
            "': " + std::strerror(errno);
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

} // namespace marlmap
