#pragma once
// The canonical state through which every integrator, reference and metric talks (docs/problems.md):
// per body, attitude R (body -> space), body angular velocity W, and for SE(3) the spatial
// position x and velocity v. Observables (docs/metrics.md, xi) flatten it body by body as
// [R row-major (9), W (3)] and, for translating models, [x (3), v (3)].
#include <cstddef>
#include <vector>

#include "types.hpp"

namespace rigidbench {

struct BodyState {
  Mat3 R = Mat3::Identity();  // R_WB: body components -> spatial components
  Vec3 W = Vec3::Zero();      // W_B: body angular velocity [rad/s]
  Vec3 x = Vec3::Zero();      // x_W: spatial position of the body's reference point
  Vec3 v = Vec3::Zero();      // v_W: its spatial velocity
};

struct State {
  std::vector<BodyState> bodies;
  State() = default;
  explicit State(std::size_t n) : bodies(n) {}
  BodyState& body(std::size_t i = 0) { return bodies[i]; }
  const BodyState& body(std::size_t i = 0) const { return bodies[i]; }
};

/// Number of observables per body: 12 for rotation only, 18 with translation.
constexpr int observables_per_body(bool translating) { return translating ? 18 : 12; }

/// Writes the observable vector xi of `s` into out[0 .. n_bodies*observables_per_body).
inline void flatten(const State& s, bool translating, double* out) {
  for (const BodyState& b : s.bodies) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) *out++ = b.R(i, j);
    for (int i = 0; i < 3; ++i) *out++ = b.W[i];
    if (translating) {
      for (int i = 0; i < 3; ++i) *out++ = b.x[i];
      for (int i = 0; i < 3; ++i) *out++ = b.v[i];
    }
  }
}

inline bool all_finite(const State& s) {
  for (const BodyState& b : s.bodies)
    if (!b.R.allFinite() || !b.W.allFinite() || !b.x.allFinite() || !b.v.allFinite()) return false;
  return true;
}

/// Bit for bit the same bodies (the estimator's check that an estimate leaves a scheme's state alone).
inline bool same_state(const State& a, const State& b) {
  if (a.bodies.size() != b.bodies.size()) return false;
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const BodyState &u = a.bodies[i], &v = b.bodies[i];
    if (u.R != v.R || u.W != v.W || u.x != v.x || u.v != v.v) return false;
  }
  return true;
}

}  // namespace rigidbench
