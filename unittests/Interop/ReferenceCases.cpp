//===- ReferenceCases.cpp - Timeloop's golden cases for tests -------------===//

#include "ReferenceCases.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace marlmap::testing {

std::string referenceFolder() {
  return std::string(MARLMAP_SHARED_DIR) + "/reference/timeloop/cases";
}

static std::vector<ReferenceCase> load() {
  std::vector<ReferenceCase> cases;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(referenceFolder(), ec), end;
       it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer)
      continue;
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      llvm::consumeError(json.takeError());
      continue;
    }
    const llvm::json::Object *inputs =
        json->getAsObject()->getObject("timeloop_inputs");
    ReferenceCase c;
    c.name = llvm::sys::path::stem(it->path()).str();
    c.archYaml = inputs->getString("arch_yaml")->str();
    c.problemYaml = inputs->getString("problem_yaml")->str();
    c.mappingYaml = inputs->getString("mapping_yaml")->str();
    c.json = std::move(*json);
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(),
            [](const ReferenceCase &a, const ReferenceCase &b) {
              return a.name < b.name;
            });
  return cases;
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

const std::vector<ReferenceCase> &referenceCases() {
  static const std::vector<ReferenceCase> cases = load();
  return cases;
}

} // namespace marlmap::testing
