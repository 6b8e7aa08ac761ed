//===- marlmap-cache.cpp - List, show and clear a mapping cache -----------===//

#include "marlmap/Cache/MappingCache.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace marlmap;
namespace cl = llvm::cl;

static cl::OptionCategory category("marlmap-cache options");
static cl::opt<std::string> path(cl::Positional,
                                 cl::desc("<cache file or postgresql:// URI>"),
                                 cl::Required, cl::cat(category));
static cl::opt<std::string> command(cl::Positional,
                                    cl::desc("<list | show ID | clear>"),
                                    cl::Required, cl::cat(category));
static cl::opt<int64_t> entryId(cl::Positional, cl::desc("[ID]"), cl::init(-1),
                                cl::cat(category));

static int fail(const std::string &message) {
  llvm::WithColor::error(llvm::errs(), "marlmap-cache") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help shows this tool's usage, not every option LLVM registers.
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "marlmap-cache: the searches a marl-map cache holds (an SQLite file\n"
      "or a postgresql:// URI)\n\n"
      "  marlmap-cache FILE list      one line per entry\n"
      "  marlmap-cache FILE show ID   everything about one entry\n"
      "  marlmap-cache FILE clear     remove every entry\n");
  // Opening would create an empty cache: a mistyped path must not.
  if (!MappingCache::isDatabase(path) && !llvm::sys::fs::exists(path))
    return fail("no mapping cache at '" + path + "'");
  llvm::Expected<std::unique_ptr<MappingCache>> cache =
      MappingCache::open(path);
  if (!cache)
    return fail(llvm::toString(cache.takeError()));

  if (command == "clear") {
    llvm::Error error = (*cache)->clear();
    return error ? fail(llvm::toString(std::move(error))) : 0;
  }
  if (command != "list" && command != "show")
    return fail("unknown command '" + command + "' (list, show ID, clear)");
  llvm::Expected<std::vector<CacheEntry>> listed = (*cache)->list();
  if (!listed)
    return fail(llvm::toString(listed.takeError()));
  const std::vector<CacheEntry> &entries = *listed;
  if (command == "list") {
    for (const CacheEntry &entry : entries)
      llvm::outs() << entry.id << "  " << entry.created << "  "
                   << entry.key.searcher << "  " << entry.key.budget
                   << " seed " << entry.key.seed << "  " << entry.key.objective
                   << " " << entry.cost << "  " << entry.key.problem << "\n";
    llvm::outs() << entries.size() << " entries\n";
    return 0;
  }
  for (const CacheEntry &entry : entries) {
    if (entry.id != entryId)
      continue;
    llvm::outs() << "id: " << entry.id << "\ncreated: " << entry.created
                 << "\nsearcher: " << entry.key.searcher
                 << "\nbudget: " << entry.key.budget
                 << "\nseed: " << entry.key.seed
                 << "\nobjective: " << entry.key.objective << " " << entry.cost
                 << "\nsamples: " << entry.samples
                 << "\nproblem: " << entry.key.problem
                 << "\narch: " << entry.key.arch
                 << "\nmapping: " << mappingText(entry.mapping) << "\n";
    return 0;
  }
  return fail("no entry " + std::to_string(entryId));
}
