#pragma once
// Kirchhoff form of every body of a body_system (SE(3)^n, paper 001 section 4), attitude as a unit
// quaternion, with the interactions' spatial forces F_b and moments m_b (system_loads, families/body_system.hpp):
//   q_b' = 1/2 q_b (x) (0, W_b),  J_b W_b' = J_b W_b x W_b + R_b^T m_b,  x_b' = v_b,  m_b v_b' = F_b.
// The loads are evaluated at R(q_b / |q_b|). Used by the high-accuracy reference and by the
// Boost.Odeint RK4 baseline of body systems, so both integrate the very same right-hand side.
#include <cstdint>
#include <vector>

#include "rigidbench/core/quaternion.hpp"
#include "rigidbench/core/state.hpp"
#include "rigidbench/problems/families/body_system.hpp"
#include "rigidbench/problems/problem.hpp"

namespace rigidbench::formulations {

struct BodySystemQuaternion {
  using state_type = std::vector<double>;  // per body: q (w, x, y, z), W (3), x (3), v (3)
  static constexpr std::size_t kPer = 13;

  explicit BodySystemQuaternion(const Problem* p, std::uint64_t* counter = nullptr)
      : problem(p), load_evaluations(counter) {}

  const Problem* problem;
  std::uint64_t* load_evaluations;  // optional counter

  void operator()(const state_type& y, state_type& dy, double /*t*/) const {
    const std::size_t n = problem->bodies.size();
    R_.resize(n);
    x_.resize(n);
    F_.resize(n);
    m_.resize(n);
    for (std::size_t b = 0; b < n; ++b) {
      const double* s = y.data() + kPer * b;
      R_[b] = quat::to_matrix(Vec4(s[0], s[1], s[2], s[3]));
      x_[b] = Vec3(s[7], s[8], s[9]);
    }
    system_loads(*problem, R_.data(), x_.data(), F_.data(), m_.data());
    if (load_evaluations) ++*load_evaluations;
    dy.resize(y.size());
    for (std::size_t b = 0; b < n; ++b) {
      const double* s = y.data() + kPer * b;
      double* d = dy.data() + kPer * b;
      const Vec4 q(s[0], s[1], s[2], s[3]);
      const Vec3 W(s[4], s[5], s[6]);
      const Vec4 dq = 0.5 * quat::multiply(q, Vec4(0.0, W.x(), W.y(), W.z()));
      const Mat3& J = problem->inertia(b);
      const Vec3 dW = problem->inertia_inverse(b) * ((J * W).cross(W) + R_[b].transpose() * m_[b]);
      const double im = 1.0 / problem->bodies[b].mass;
      for (int i = 0; i < 4; ++i) d[i] = dq[i];
      for (int i = 0; i < 3; ++i) {
        d[4 + i] = dW[i];
        d[7 + i] = s[10 + i];
        d[10 + i] = im * F_[b][i];
      }
    }
  }

  static state_type from_state(const State& x) {
    state_type y(kPer * x.bodies.size());
    for (std::size_t b = 0; b < x.bodies.size(); ++b) {
      const BodyState& s = x.bodies[b];
      const Vec4 q = quat::from_matrix(s.R);
      double* d = y.data() + kPer * b;
      for (int i = 0; i < 4; ++i) d[i] = q[i];
      for (int i = 0; i < 3; ++i) {
        d[4 + i] = s.W[i];
        d[7 + i] = s.x[i];
        d[10 + i] = s.v[i];
      }
    }
    return y;
  }
  static void to_state(const state_type& y, State& x) {
    x.bodies.resize(y.size() / kPer);
    for (std::size_t b = 0; b < x.bodies.size(); ++b) {
      const double* s = y.data() + kPer * b;
      BodyState& o = x.bodies[b];
      o.R = quat::to_matrix(Vec4(s[0], s[1], s[2], s[3]));
      o.W = Vec3(s[4], s[5], s[6]);
      o.x = Vec3(s[7], s[8], s[9]);
      o.v = Vec3(s[10], s[11], s[12]);
    }
  }

 private:
  // Scratch for the loads (one system object per integration; odeint may copy it, which is fine).
  mutable std::vector<Mat3> R_;
  mutable std::vector<Vec3> x_, F_, m_;
};

}  // namespace rigidbench::formulations
