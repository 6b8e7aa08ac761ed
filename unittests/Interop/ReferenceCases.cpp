//===- ReferenceCases.cpp - Timeloop's golden cases for tests -------------===//

#include "ReferenceCases.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>

namespace marlmap::testing {

std::string referenceFolder() {
  return std::string(MARLMAP_SHARED_DIR) + "/reference/timeloop/cases";
}

namespace {
struct Loaded {
  std::vector<ReferenceCase> cases;
  std::vector<std::string> unreadable;
};
} // namespace

static Loaded load() {
  Loaded loaded;
  std::vector<ReferenceCase> &cases = loaded.cases;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(referenceFolder(), ec), end;
       it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer) {
      loaded.unreadable.push_back(it->path() + ": " +
                                  buffer.getError().message());
      continue;
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      loaded.unreadable.push_back(it->path() + ": " +
                                  llvm::toString(json.takeError()));
      continue;
    }
    const llvm::json::Object *object = json->getAsObject();
    const llvm::json::Object *inputs =
        object ? object->getObject("timeloop_inputs") : nullptr;
    std::optional<llvm::StringRef> arch, problem, mapping;
    if (inputs) {
      arch = inputs->getString("arch_yaml");
      problem = inputs->getString("problem_yaml");
      mapping = inputs->getString("mapping_yaml");
    }
    if (!arch || !problem || !mapping || !object->getObject("expected")) {
      loaded.unreadable.push_back(
          it->path() + ": no timeloop_inputs.{arch,problem,mapping}_yaml or "
                       "no expected");
      continue;
    }
    ReferenceCase c;
    c.name = llvm::sys::path::stem(it->path()).str();
    c.archYaml = arch->str();
    c.problemYaml = problem->str();
    c.mappingYaml = mapping->str();
    c.json = std::move(*json);
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(),
            [](const ReferenceCase &a, const ReferenceCase &b) {
              return a.name < b.name;
            });
  // An absent folder means no reference here (the tests skip); a folder
  // that cannot be listed is a failure.
  if (ec && llvm::sys::fs::exists(referenceFolder()))
    loaded.unreadable.push_back(referenceFolder() + ": " + ec.message());
  return loaded;
}

static const Loaded &loaded() {
  static const Loaded all = load();
  return all;
}

ReadCase read(const ReferenceCase &c) {
  ReadCase result;
  result.arch = llvm::cantFail(timeloop::readArch(c.archYaml, "arch.yaml"));
  result.problem =
      llvm::cantFail(timeloop::readProblem(c.problemYaml, "problem.yaml"));
  result.mapping = llvm::cantFail(timeloop::readMapping(
      c.mappingYaml, "map.yaml", result.problem, result.arch));
  return result;
}

const std::vector<ReferenceCase> &referenceCases() { return loaded().cases; }

const std::vector<std::string> &unreadableReferenceCases() {
  return loaded().unreadable;
}

} // namespace marlmap::testing
