#pragma once
// Kirchhoff form of every body of a body_system (SE(3)^n, paper 001 section 4), attitude as a unit
// quaternion, with the interactions' spatial forces F_b and moments m_b (system_loads, families/body_system.hpp):
//   q_b' = 1/2 q_b (x) (0, W_b),  J_b W_b' = J_b W_b x W_b + R_b^T m_b,  x_b' = v_b,  m_b v_b' = F_b.
// The loads are evaluated at R(q_b / |q_b|). Used by the high-accuracy reference and by the
// Boost.Odeint RK4 baseline of body systems, so both integrate the very same right-hand side.
#include <cstdint>
#include <vector>

#include "../../core/parallel.hpp"
#include "../../core/quaternion.hpp"
#include "../../core/state.hpp"
#include "../families/body_system.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

struct BodySystemQuaternion {
  using state_type = std::vector<double>;  // per body: q (w, x, y, z), W (3), x (3), v (3)
  static constexpr std::size_t kPer = 13;

  explicit BodySystemQuaternion(const Problem* p, std::uint64_t* counter = nullptr)
      : problem(p), load_evaluations(counter), loads_(*p), turning_(!body_system_data(*p).interactions.bonds.empty()) {}

  const Problem* problem;
  std::uint64_t* load_evaluations;  // optional counter

  void operator()(const state_type& y, state_type& dy, double /*t*/) const {
    const std::size_t n = problem->bodies.size();
    R_.resize(n);
    x_.resize(n);
    F_.resize(n);
    m_.resize(n);
    dy.resize(y.size());
    // Each body's numbers from its own: split over the threads the loads use (SystemLoads).
    const int threads = n >= SystemLoads::kParallelBodies ? parallel::spare_threads() : 1;
    parallel::for_each_chunk(n, threads, [&](std::size_t first, std::size_t last) {
      for (std::size_t b = first; b < last; ++b) {
        const double* s = y.data() + kPer * b;
        if (turning_) R_[b] = quat::to_matrix(Vec4(s[0], s[1], s[2], s[3]));
        x_[b] = Vec3(s[7], s[8], s[9]);
      }
    });
    loads_.evaluate(R_.data(), x_.data(), F_.data(), m_.data(), threads);
    if (load_evaluations) ++*load_evaluations;
    parallel::for_each_chunk(n, threads, [&](std::size_t first, std::size_t last) {
      for (std::size_t b = first; b < last; ++b) derivative(y.data() + kPer * b, dy.data() + kPer * b, b);
    });
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
  /// Body b's derivative (the equations at the top) from its state s and its loads.
  void derivative(const double* s, double* d, std::size_t b) const {
    const Vec4 q(s[0], s[1], s[2], s[3]);
    const Vec3 W(s[4], s[5], s[6]);
    const Vec4 dq = 0.5 * quat::multiply(q, Vec4(0.0, W.x(), W.y(), W.z()));
    const Mat3& J = problem->inertia(b);
    // Without bonds no interaction has a moment (contact and walls push along the line of centres):
    // m_b = 0 exactly and the attitudes are not needed.
    const Vec3 dW = turning_ ? Vec3(problem->inertia_inverse(b) * ((J * W).cross(W) + R_[b].transpose() * m_[b]))
                             : Vec3(problem->inertia_inverse(b) * (J * W).cross(W));
    const double im = 1.0 / problem->bodies[b].mass;
    for (int i = 0; i < 4; ++i) d[i] = dq[i];
    for (int i = 0; i < 3; ++i) {
      d[4 + i] = dW[i];
      d[7 + i] = s[10 + i];
      d[10 + i] = im * F_[b][i];
    }
  }
  // Scratch for the loads (one system object per integration; odeint may copy it, which is fine: a
  // copy keeps its own Verlet list).
  mutable std::vector<Mat3> R_;
  mutable std::vector<Vec3> x_, F_, m_;
  mutable SystemLoads loads_;  // keeps its Verlet list from one evaluation to the next
  bool turning_;               // bonds: the interactions have moments, which need the attitudes
};

}  // namespace rigidbench::formulations
