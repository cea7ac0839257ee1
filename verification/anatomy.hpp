#pragma once
// Anatomy of the attitude error (docs/metrics.md, "Error anatomy"): the final attitude error of each
// level split into its phase about the problem's symmetry axis - a rotation along the exact flow's own
// symmetry, which changes no invariant and which a scheme's phase lag (a Cayley map's, say) accumulates
// - and the remainder, the shape error. So a ranking by attitude error explains itself: two schemes
// whose errors differ by 10^3 may differ only in phase.
#include <optional>
#include <string>
#include <vector>

#include "../core/state.hpp"
#include "../problems/problem.hpp"

namespace rigidbench {

/// The axis the phase is measured about, where the problem has one: one body, and either a symmetric
/// body (two equal principal moments, J diagonal) whose loads act on its axis - the phase is the spin
/// about the body axis - or a torque-free body - the phase is about the conserved spatial momentum.
struct PhaseAxis {
  bool body = true;         // the axis is fixed in the body (else in space)
  Vec3 axis = Vec3::UnitZ();  // unit, body or spatial components
  std::string description;
};
std::optional<PhaseAxis> phase_axis(const Problem& p);

/// The error rotation delta = log(R_ref^T R) (body axis) or log(R R_ref^T) (spatial axis); phase =
/// delta . axis (signed, rad), shape = |delta - phase axis|; |delta| is the geodesic attitude error.
struct ErrorSplit {
  double total = 0, phase = 0, shape = 0;
};
ErrorSplit split_attitude_error(const PhaseAxis& a, const Mat3& R, const Mat3& R_ref);

/// The split of the final attitude error at every level of a pair (NaN where a level broke down).
struct ErrorAnatomy {
  PhaseAxis axis;
  double t = 0;  // the final time
  std::vector<double> h, total, phase, shape;
};

}  // namespace rigidbench
