#pragma once
// What the rigid_body family shares with families built on its equations (the gyrostat).
#include <vector>

#include "rigidbench/problems/problem.hpp"

namespace rigidbench::families {

/// The invariants of the rigid-body equations with Pi = J W + h_B (Problem::internal_momentum):
/// energy; torque-free: spatial momentum and |Pi|; parallel fields: the momentum along them; a
/// symmetric body loaded on its axis (with h on it): the axial momentum; always orthogonality.
std::vector<InvariantGroup> rigid_body_invariants(const Problem& p);

}  // namespace rigidbench::families
