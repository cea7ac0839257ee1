#pragma once
// Two independent formulations of a spherical_chain (families/spherical_chain.hpp; docs/problems.md,
// "Chains"), attitudes as unit quaternions q_i' = 1/2 q_i (x) (0, W_i):
//
// ChainMinimal - the minimal form on SO(3)^n (and body 0's position when free): the joint forces
//   eliminated by summing Newton's law from the tip, F_i = sum_{k >= i} m_k (x_k'' - g) (F_i the force
//   body i-1, or the pivot, exerts on body i at its inboard joint; a free chain has F_0 = 0), into
//   Euler's equations of each body,
//     J_i W_i' + W_i x J_i W_i = a_i x R_i^T F_i - b_i x R_i^T F_{i+1},
//   with every x_k'' linear in the W_j' through the joints (place_chain differentiated twice):
//     x_k'' = x_{k-1}'' - R_{k-1} hat(b_{k-1}) W_{k-1}' + R_{k-1} W_{k-1} x (W_{k-1} x b_{k-1})
//             + R_k hat(a_k) W_k' - R_k W_k x (W_k x a_k).
//   One dense linear solve of 3n (+3) unknowns per evaluation: the recursive Newton-Euler equations of
//   a chain ([LLM] ch. 7 derives the same equations from Hamilton's principle on SO(3)^n).
//
// ChainMaximal - maximal coordinates: every body's (q, W, x, v) integrated, the joint forces as
//   Lagrange multipliers of the joint constraints c_j = (parent's anchor) - (child's anchor) = 0,
//   reduced to index 1 at the acceleration level and stabilised by Baumgarte's terms,
//     c_j'' + 2 w_B c_j' + w_B^2 c_j = 0   (w_B = kBaumgarte),
//   one KKT solve of 6n + 3(joints) unknowns per evaluation. It shares no code with ChainMinimal but
//   the data: the references of the two agree within their estimates (tests/test_chains.cpp).
#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../core/quaternion.hpp"
#include "../../core/so3.hpp"
#include "../../core/state.hpp"
#include "../families/spherical_chain.hpp"
#include "body_system.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

struct ChainMinimal {
  using state_type = std::vector<double>;  // per body: q (w, x, y, z), W; a free chain then x_0, v_0

  explicit ChainMinimal(const Problem* p, std::uint64_t* counter = nullptr)
      : problem(p), d(&chain_data(*p)), n(p->bodies.size()), free(!d->pivot),
        load_evaluations(d->gravity.norm() > 0 ? counter : nullptr) {}
  const Problem* problem;
  const ChainData* d;
  std::size_t n;
  bool free;
  std::uint64_t* load_evaluations;  // optional: counts the evaluations of gravity's moments

  void operator()(const state_type& y, state_type& dy, double t) const;

  /// The accelerations u = (W_0', ..., W_{n-1}' [, x_0'']) at the attitudes R and body angular
  /// velocities W (the positions do not enter: gravity is uniform). The reference is valid until the
  /// next evaluation; the Lie-group schemes on SO(3)^n call it with their stage values.
  const Eigen::VectorXd& solve(const std::vector<Mat3>& R, const std::vector<Vec3>& W) const;

  state_type from_state(const State& s) const;
  /// The canonical state: attitudes from the normalised quaternions, the centres of mass by the joints.
  void to_state(const state_type& y, State& s) const;

 private:
  /// The evaluation's work arrays, kept from one evaluation to the next (every RK stage evaluates it):
  /// sized once, every entry overwritten before it is read. A copy (odeint copies its system) gets
  /// its own; one object is not shared between threads.
  struct Scratch {
    std::vector<Mat3> R;
    std::vector<Vec3> W, c, Fc;
    std::vector<Eigen::MatrixXd> X, FM;
    Eigen::MatrixXd A;
    Eigen::VectorXd r, u;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    void size(std::size_t n, std::size_t N);
  };
  mutable Scratch scratch_;
};

struct ChainMaximal {
  using state_type = BodySystemQuaternion::state_type;  // per body: q (w, x, y, z), W, x, v
  static constexpr std::size_t kPer = BodySystemQuaternion::kPer;
  /// Baumgarte's rate [1/s]: a joint's drift decays as (1 + w t) e^{-w t}, in 0.5 s to 4 % of itself;
  /// the drift the tolerance lets in stays at its own size instead of growing with the span.
  static constexpr double kBaumgarte = 10.0;

  explicit ChainMaximal(const Problem* p) : problem(p), d(&chain_data(*p)), n(p->bodies.size()) {}
  const Problem* problem;
  const ChainData* d;
  std::size_t n;

  void operator()(const state_type& y, state_type& dy, double t) const;

  /// The layout of a body system's Kirchhoff form (formulations/body_system.hpp), whose conversions it
  /// shares; the joints' drift stays in x (joint_separation measures it).
  state_type from_state(const State& s) const { return BodySystemQuaternion::from_state(s); }
  void to_state(const state_type& y, State& s) const { BodySystemQuaternion::to_state(y, s); }
};

}  // namespace rigidbench::formulations
