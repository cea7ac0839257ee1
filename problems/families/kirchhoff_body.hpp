#pragma once
// The kirchhoff_body family's data (paper 003, docs/problems.md P6): the added-mass tensor M of the
// body in an ideal fluid, P = M u with u = R^T v the body velocity, and its inverse, derived at
// validation. Read by the family's formulations (problems/formulations/kirchhoff_body.hpp).
#include "../../core/types.hpp"
#include "../family_data.hpp"
#include "../problem.hpp"

namespace rigidbench {

/// What a kirchhoff_body problem holds beyond the common model (Problem::family_data).
struct KirchhoffBodyData : FamilyDataOf<KirchhoffBodyData> {
  Mat3 added_mass = Mat3::Zero();          // M, body components (symmetric positive definite)
  Mat3 added_mass_inverse = Mat3::Zero();  // M^-1, derived by validate()
  /// The problem is M: the inverse follows from it.
  bool operator==(const KirchhoffBodyData& o) const { return added_mass == o.added_mass; }
};

/// The body in a fluid's data of p (none: M = 0).
inline const KirchhoffBodyData& kirchhoff_body_data(const Problem& p) { return p.family_data.get<KirchhoffBodyData>(); }

}  // namespace rigidbench
