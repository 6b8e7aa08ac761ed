//===- ReferenceCases.cpp - Timeloop's golden cases for tests -------------===//

#include "ReferenceCases.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>

namespace marlmap::testing {

namespace {

CaseFolder load(std::string path) {
  CaseFolder folder;
  folder.path = std::move(path);
  folder.exists = llvm::sys::fs::is_directory(folder.path);
  if (!folder.exists)
    return folder;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(folder.path, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer) {
      folder.unreadable.push_back(it->path() + ": " +
                                  buffer.getError().message());
      continue;
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      folder.unreadable.push_back(it->path() + ": " +
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
      folder.unreadable.push_back(
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
    folder.cases.push_back(std::move(c));
  }
  std::sort(folder.cases.begin(), folder.cases.end(),
            [](const ReferenceCase &a, const ReferenceCase &b) {
              return a.name < b.name;
            });
  if (ec)
    folder.unreadable.push_back(folder.path + ": " + ec.message());
  return folder;
}

} // namespace

const CaseFolder &sharedReference() {
  static const CaseFolder folder =
      load(std::string(MARLMAP_SHARED_DIR) + "/reference/timeloop/cases");
  return folder;
}

const CaseFolder &bundledCases() {
  static const CaseFolder folder = load(std::string(MARLMAP_SOURCE_DIR) +
                                        "/unittests/Interop/TimeloopCases");
  return folder;
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

} // namespace marlmap::testing
