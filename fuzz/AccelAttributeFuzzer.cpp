//===- AccelAttributeFuzzer.cpp - The #accel attributes from any text -----===//
//
// Parses the input as an attribute with marlmap's dialect loaded: the
// accelerator and mapping attributes' parsers and verifiers, then what the
// passes do with an accelerator (conversion, checks, the description).
// Any input may be refused; none may crash.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/ArchReport.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/LoopConstraints.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Registration.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace {

/// A context with marlmap's dialect, its refusals kept quiet.
std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  marlmap::registerMarlmapDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(registry);
  context->loadAllAvailableDialects();
  context->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  return context;
}

/// A valid description's space on a fixed conv: it may have none, but every
/// point it has obeys the constraints and encodes back.
void fuzzConstrainedSpace(const marlmap::Arch &arch) {
  static const marlmap::Problem conv =
      marlmap::makeConv({1, 16, 8, 14, 14, 3, 3});
  auto created = marlmap::MapSpace::create(conv, arch, {});
  if (!created) {
    llvm::consumeError(created.takeError()); // a space may have no mapping
    return;
  }
  std::unique_ptr<marlmap::MapSpace> space = std::move(*created);
  marlmap::Rng rng(1);
  std::vector<int64_t> values(space->parameters().size());
  for (int i = 0; i < 8; ++i) {
    space->sample(rng, values.data());
    marlmap::Mapping mapping = space->decode(values);
    if (!marlmap::checkMappingConstraints(mapping, conv, arch).empty() ||
        !space->encode(mapping))
      __builtin_trap();
  }
}

/// What verifyMappingFits asks before converting: every factor and order
/// list left out or as long as the first level's temporal list.
bool listsFit(marlmap::accel::MappingAttr mapping) {
  size_t numLoops = mapping.getLevels().front().getTemporal().size();
  return llvm::all_of(mapping.getLevels(), [&](auto level) {
    llvm::ArrayRef<int64_t> lists[] = {level.getTemporal(), level.getOrder(),
                                       level.getSpatialX(), level.getSpatialY()};
    return llvm::all_of(lists, [&](llvm::ArrayRef<int64_t> list) {
      return list.empty() || list.size() == numLoops;
    });
  });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context keeps every attribute it has parsed: start afresh now and
  // then, so that memory stays flat over a long run.
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses % 20000 == 0)
    context = makeContext();
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::Attribute attr = mlir::parseAttribute(text, context.get());
  if (auto arch = llvm::dyn_cast_or_null<marlmap::accel::ArchAttr>(attr)) {
    marlmap::Arch core = marlmap::accel::toCore(arch);
    if (marlmap::checkArch(core).empty()) {
      (void)marlmap::formatArch(core);
      fuzzConstrainedSpace(core);
    }
  } else if (auto mapping =
                 llvm::dyn_cast_or_null<marlmap::accel::MappingAttr>(attr)) {
    if (!mapping.getLevels().empty() && listsFit(mapping))
      (void)marlmap::accel::toCore(
          mapping, mapping.getLevels().front().getTemporal().size(), 3);
  }
  return 0;
}
