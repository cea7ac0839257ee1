#pragma once
// The rigid body on a non-twisting frame (paper 000 section 4, eqs. 69-71) in body components, the
// Kirchhoff form with the constraint moment mu E3 of eq. 73 that keeps W3 = w . d3 = 0:
//   J W' + W x J W = T(t, R) + mu E3,   W3' = 0,   R' = R hat(W)   (R = [d1 d2 d3], body -> space)
// With J13 = J23 = 0 (the splitting of paper 000 section 3, required by Problem::finalize) and
// W3 = 0, the first two rows decouple from mu:  J_perp W_perp' = T_perp - (W x J W)_perp, and the
// third row gives mu = (W x J W)_3 - T_3 (reported nowhere: only the motion is needed). The virtual
// work of eq. 79 (delta theta_perp . m_perp) is the same statement: only T_perp acts.
// Used by the reference for the non_twisting family; the load's kinks are handled by the caller
// (the integration restarts at each one, reference.cpp).
#include <array>

#include "../../core/quaternion.hpp"
#include "../../core/state.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

struct NonTwistingKirchhoff {
  using state_type = std::array<double, 6>;  // q (w, x, y, z), W1, W2

  const Problem* problem;

  void operator()(const state_type& y, state_type& dy, double t) const {
    const Vec4 q(y[0], y[1], y[2], y[3]);
    const Vec3 W(y[4], y[5], 0.0);
    const Vec4 dq = 0.5 * quat::multiply(q, Vec4(0.0, W.x(), W.y(), 0.0));
    const Mat3& J = problem->inertia();
    Vec3 rhs = (J * W).cross(W);
    if (!problem->torque_free()) rhs += problem->body_moment(t, quat::to_matrix(q));
    // J_perp^-1 (2 x 2) applied to the first two rows.
    const double a = J(0, 0), b = J(0, 1), d = J(1, 1), det = a * d - b * b;
    for (int i = 0; i < 4; ++i) dy[i] = dq[i];
    dy[4] = (d * rhs[0] - b * rhs[1]) / det;
    dy[5] = (a * rhs[1] - b * rhs[0]) / det;
  }

  static state_type from_body(const BodyState& b) {
    const Vec4 q = quat::from_matrix(b.R);
    return {q[0], q[1], q[2], q[3], b.W[0], b.W[1]};
  }
  static void to_body(const state_type& y, BodyState& b) {
    b.R = quat::to_matrix(Vec4(y[0], y[1], y[2], y[3]));
    b.W = Vec3(y[4], y[5], 0.0);
  }
};

}  // namespace rigidbench::formulations
