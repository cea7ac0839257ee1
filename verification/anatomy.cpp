#include "anatomy.hpp"

#include "../core/so3.hpp"
#include "../problems/families/rigid_body.hpp"

namespace rigidbench {

std::optional<PhaseAxis> phase_axis(const Problem& p) {
  // The rigid-body equations' symmetries (the gyrostat's too); a nonholonomic or translating family
  // has others.
  if (p.bodies.size() != 1 || p.translating() || p.family->equations() != "rigid_body") return std::nullopt;
  const Mat3& J = p.inertia();
  const bool diagonal = J(0, 1) == 0 && J(0, 2) == 0 && J(1, 2) == 0;
  // The symmetry axis of an axisymmetric (not spherical) body: the principal axis of the distinct moment.
  int axis = -1;
  const auto eq = [&J](int i, int j) { return std::abs(J(i, i) - J(j, j)) <= 1e-14 * J.trace(); };
  if (diagonal && !(eq(0, 1) && eq(1, 2))) axis = eq(0, 1) ? 2 : eq(1, 2) ? 0 : eq(0, 2) ? 1 : -1;
  if (axis >= 0) {
    // Loads must leave rotations about the axis a symmetry: fields acting on the axis, no follower moment,
    // an internal momentum along it.
    bool on_axis = p.followers().empty();
    for (const UniformField& f : p.fields())
      for (int i = 0; i < 3; ++i) on_axis &= i == axis || f.point[i] == 0;
    for (int i = 0; i < 3; ++i) on_axis &= i == axis || internal_momentum(p)[i] == 0;
    if (on_axis)
      return PhaseAxis{true, Vec3::Unit(axis), cat("the body's symmetry axis E", std::to_string(axis + 1),
                                                   " (the spin phase)")};
  }
  if (p.torque_free()) {
    const BodyState& b = p.initial.body();
    const Vec3 pi = b.R * (J * b.W + internal_momentum(p));
    if (pi.norm() > 0)
      return PhaseAxis{false, pi.normalized(), "the conserved spatial angular momentum (the phase about it)"};
  }
  return std::nullopt;
}

ErrorSplit split_attitude_error(const PhaseAxis& a, const Mat3& R, const Mat3& R_ref) {
  const Vec3 d = a.body ? so3::log(R_ref.transpose() * R) : so3::log(R * R_ref.transpose());
  ErrorSplit s;
  s.total = d.norm();
  s.phase = d.dot(a.axis);
  s.shape = (d - s.phase * a.axis).norm();
  return s;
}

}  // namespace rigidbench
