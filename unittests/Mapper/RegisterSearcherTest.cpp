//===- RegisterSearcherTest.cpp - An embedder's own searcher --------------===//
//
// A binary of its own: the registry is sealed by its first read, so nothing
// may read it before this test registers.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Mapper/FrontEnd.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// A searcher of the embedder's: random sampling under its own name.
SearcherEntry sampler(const std::string &name) {
  SearcherEntry entry;
  entry.name = name;
  entry.help = "Uniform samples, under another name";
  entry.options = {
      integerOption(name + "-unused", "an option it ignores", 3, 1, 10)};
  entry.make = [](const SearcherRequest &, const MapSpace &space,
                  uint64_t seed) { return makeRandomSearcher(space, seed); };
  return entry;
}

std::string refusal(SearcherEntry entry) {
  llvm::Error error = registerSearcher(std::move(entry));
  return error ? errorText(std::move(error)) : "";
}

TEST(RegisterSearcher, AnEmbeddersSearcherIsOneLikeAnyOther) {
  // What cannot join, and why.
  EXPECT_EQ(refusal(sampler("marl")),
            "a searcher named 'marl' is registered already");
  EXPECT_NE(refusal(sampler("two words")).find("needs a name without"),
            std::string::npos);
  SearcherEntry clashing = sampler("mine");
  clashing.options[0].name = "budget";
  EXPECT_EQ(refusal(clashing), "option 'budget' of searcher 'mine' must be "
                               "named 'mine-...'");
  SearcherEntry unmade = sampler("mine");
  unmade.make = nullptr;
  EXPECT_NE(refusal(unmade).find("says how it is made"), std::string::npos);

  ASSERT_EQ(refusal(sampler("mine")), "");
  // An entry that reads an option it does not register: a bug in the
  // entry, reported as an error when the searcher is made, not an abort.
  SearcherEntry careless = sampler("careless");
  careless.make = [](const SearcherRequest &request, const MapSpace &space,
                     uint64_t seed) {
    return makeRandomSearcher(
        space, seed + uint64_t(request.options.integer("careless-typo")));
  };
  ASSERT_EQ(refusal(careless), "");

  // Found, listed, and searched through the front end like marlmap's own.
  ASSERT_NE(findSearcher("mine"), nullptr);
  EXPECT_NE(searcherNameList().find("mine"), std::string::npos);
  bool offered = false;
  for (const SharedOption &shared : searcherOptions())
    offered |= shared.option->name == "mine-unused";
  EXPECT_TRUE(offered);
  MapperOptions options;
  options.searcher = "mine";
  options.budget = 100;
  options.searcherOptions = {{"mine-unused", "4"}};
  std::unique_ptr<Mapper> mapper =
      llvm::cantFail(makeMapper(options, *findPreset("eyeriss")));
  llvm::Expected<SearchedProblem> searched =
      searchProblem(*mapper, makeGemm(16, 8, 4), {});
  ASSERT_TRUE(bool(searched)) << errorText(searched.takeError());
  EXPECT_TRUE(searched->outcome().found);
  EXPECT_EQ(searched->outcome().samples, 100);
  EXPECT_NE(searcherKey(mapper->request().searcher).find("mine-unused=4"),
            std::string::npos);

  MapperOptions carelessOptions;
  carelessOptions.searcher = "careless";
  carelessOptions.budget = 100;
  std::unique_ptr<Mapper> carelessMapper =
      llvm::cantFail(makeMapper(carelessOptions, *findPreset("eyeriss")));
  llvm::Expected<SearchedProblem> refused =
      searchProblem(*carelessMapper, makeGemm(16, 8, 4), {});
  ASSERT_FALSE(bool(refused));
  EXPECT_NE(errorText(refused.takeError())
                .find("searcher 'careless' reads option 'careless-typo', "
                      "which it does not register"),
            std::string::npos);

  // Once read, the registry is sealed: what readers hold stays valid.
  EXPECT_NE(refusal(sampler("late")).find("registered too late"),
            std::string::npos);
  EXPECT_EQ(findSearcher("late"), nullptr);
}

} // namespace
