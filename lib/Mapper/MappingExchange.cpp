//===- MappingExchange.cpp - Best mappings passed between problems --------===//

#include "MappingExchange.h"

#include "marlmap/Core/Transfer.h"

#include <algorithm>

namespace marlmap {

MappingExchange::MappingExchange(std::vector<Member> members,
                                 unsigned neighbours)
    : members(std::move(members)) {
  std::vector<ProblemFeatures> features;
  for (const Member &member : this->members)
    features.push_back(problemFeatures(member.space->problem()));
  const size_t count = this->members.size();
  for (size_t p = 0; p < count; ++p) {
    std::vector<std::pair<double, size_t>> nearest;
    for (size_t q = 0; q < count; ++q)
      if (q != p && features[q].kind == features[p].kind)
        nearest.push_back({problemDistance(features[p], features[q]), q});
    std::sort(nearest.begin(), nearest.end());
    nearest.resize(std::min<size_t>(nearest.size(), neighbours));
    neighboursOf.emplace_back();
    for (const auto &[distance, q] : nearest)
      neighboursOf.back().push_back(q);
    heard.emplace_back(neighboursOf.back().size(), 0);
  }
}

void MappingExchange::exchange() {
  for (size_t p = 0; p < members.size(); ++p) {
    const Member &listener = members[p];
    for (size_t k = 0; k < neighboursOf[p].size(); ++k) {
      const Member &speaker = members[neighboursOf[p][k]];
      const SearchResult &found = speaker.run->result(speaker.local);
      if (!found.found || found.curve.size() == heard[p][k])
        continue;
      heard[p][k] = found.curve.size();
      std::optional<Mapping> recast = transferMapping(
          found.best, speaker.space->problem(), listener.space->problem(),
          listener.space->arch());
      if (!recast)
        continue;
      if (std::optional<std::vector<int64_t>> point =
              listener.space->encodeNearest(*recast))
        listener.searcher->suggest(listener.local, std::move(*point));
    }
  }
}

} // namespace marlmap
