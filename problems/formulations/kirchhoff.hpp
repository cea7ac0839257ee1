#pragma once
// Kirchhoff / left-invariant (body) formulation of rigid-body dynamics (paper 003; Euler's
// equations in body components) with the attitude as a unit quaternion:
//   q' = 1/2 q (x) (0, W)                    (Hamilton product; R(q) maps body -> space, R' = R hat(W))
//   J W' = Pi x W + T(t, R(q)),  Pi = J W + h,  T = R^T t  (body moment; h the body's internal
//                                                         momentum, families/rigid_body.hpp)
// The exact flow keeps |q| = 1; the moment is evaluated at R(q / |q|) so that a numerical drift of
// |q| does not scale the load. Used by the high-accuracy reference and by the Boost.Odeint RK4
// baseline, so both integrate the very same right-hand side.
#include <array>
#include <cstdint>

#include "../../core/quaternion.hpp"
#include "../../core/state.hpp"
#include "../families/rigid_body.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

struct KirchhoffQuaternion {
  using state_type = std::array<double, 7>;  // q (w, x, y, z), W (3)

  KirchhoffQuaternion(const Problem* p, std::uint64_t* counter = nullptr)
      : problem(p), load_evaluations(counter), h(internal_momentum_if_any(*p)) {}

  const Problem* problem;
  std::uint64_t* load_evaluations = nullptr;  // optional counter
  const Vec3* h = nullptr;                    // the internal momentum h_B where there is one

  void operator()(const state_type& y, state_type& dy, double t) const {
    const Vec4 q(y[0], y[1], y[2], y[3]);
    const Vec3 W(y[4], y[5], y[6]);
    const Vec4 dq = 0.5 * quat::multiply(q, Vec4(0.0, W.x(), W.y(), W.z()));
    const Mat3& J = problem->inertia();
    Vec3 Pi = J * W;
    if (h) Pi += *h;
    Vec3 rhs = Pi.cross(W);
    if (!problem->torque_free()) {
      rhs += problem->body_moment(t, quat::to_matrix(q));
      if (load_evaluations) ++*load_evaluations;
    }
    const Vec3 dW = problem->inertia_inverse() * rhs;
    for (int i = 0; i < 4; ++i) dy[i] = dq[i];
    for (int i = 0; i < 3; ++i) dy[4 + i] = dW[i];
  }

  static state_type from_body(const BodyState& b) {
    const Vec4 q = quat::from_matrix(b.R);
    return {q[0], q[1], q[2], q[3], b.W[0], b.W[1], b.W[2]};
  }
  static void to_body(const state_type& y, BodyState& b) {
    b.R = quat::to_matrix(Vec4(y[0], y[1], y[2], y[3]));
    b.W = Vec3(y[4], y[5], y[6]);
  }
};

}  // namespace rigidbench::formulations
