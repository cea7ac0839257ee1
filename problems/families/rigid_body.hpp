#pragma once
// The rigid-body equations' data and what the rigid_body family shares with families built on them
// (the gyrostat): Pi' = Pi x W + T(t, R), R' = R hat(W), with Pi = J W + h_B.
#include <vector>

#include "../../core/types.hpp"
#include "../family_data.hpp"
#include "../problem.hpp"

namespace rigidbench {

/// The term of the rigid-body equations beyond the common model (Problem::family_data): the internal
/// angular momentum h_B carried by the body, constant in the body frame, so that the body momentum is
/// Pi = J W + h_B. A family built on these equations sets it (the gyrostat's rotor, J_r sigma a); the
/// schemes that declare the feature "internal_momentum" read it; elsewhere it is zero.
struct RigidBodyTerms : FamilyDataOf<RigidBodyTerms> {
  Vec3 internal_momentum = Vec3::Zero();
  bool operator==(const RigidBodyTerms&) const = default;
};

/// h_B of p (zero unless its family sets it).
inline const Vec3& internal_momentum(const Problem& p) { return p.family_data.get<RigidBodyTerms>().internal_momentum; }
/// h_B of p where it is non-zero, else nullptr: a scheme takes it once, at construction, and adds it
/// only where it exists (so that the rigid body's arithmetic is unchanged by the term).
inline const Vec3* internal_momentum_if_any(const Problem& p) {
  const RigidBodyTerms* t = p.family_data.find<RigidBodyTerms>();
  return t != nullptr && !t->internal_momentum.isZero() ? &t->internal_momentum : nullptr;
}

}  // namespace rigidbench

namespace rigidbench::families {

/// The invariants of the rigid-body equations with Pi = J W + h_B (internal_momentum(p)):
/// energy; torque-free: spatial momentum and |Pi|; parallel fields: the momentum along them; a
/// symmetric body loaded on its axis (with h on it): the axial momentum; always orthogonality.
std::vector<InvariantGroup> rigid_body_invariants(const Problem& p);

}  // namespace rigidbench::families
