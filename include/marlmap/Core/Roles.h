//===- Roles.h - The roles tensors play in a DNN op -------------*- C++ -*-===//
//
// Operands of an op are given roles so that a hardware description can say
// which tensors a level may hold, and a dataflow which it keeps.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ROLES_H
#define MARLMAP_CORE_ROLES_H

#include <cstdint>
#include <string>

namespace marlmap {

/// The role a tensor plays in a DNN operation. Operands of an op are mapped to
/// roles so that a hardware description can say which tensors a level may hold.
enum class TensorRole : uint8_t { Inputs = 0, Weights = 1, Outputs = 2 };
constexpr unsigned kNumTensorRoles = 3;
const char *tensorRoleName(TensorRole role);

/// A set of tensor roles, as a bit mask.
class RoleSet {
public:
  RoleSet() = default;
  static RoleSet all() { return RoleSet(0b111); }
  bool contains(TensorRole role) const { return bits & bit(role); }
  void insert(TensorRole role) { bits |= bit(role); }
  bool empty() const { return bits == 0; }
  bool operator==(RoleSet other) const { return bits == other.bits; }
  /// "inputs, weights" style listing, "nothing" when empty.
  std::string str() const;

private:
  explicit RoleSet(uint8_t bits) : bits(bits) {}
  static uint8_t bit(TensorRole role) { return 1u << unsigned(role); }
  uint8_t bits = 0;
};

} // namespace marlmap

#endif // MARLMAP_CORE_ROLES_H
