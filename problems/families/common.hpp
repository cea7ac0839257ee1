#pragma once
// Helpers the built-in families share (problems/families/*.cpp); not part of the family contract.
#include <string>

#include "../../core/so3.hpp"
#include "rigid_body.hpp"
#include "../problem.hpp"

namespace rigidbench::families {

inline std::string num(double x) { return format_number(x, 17); }
inline void require(bool ok, const std::string& what) {
  if (!ok) throw InputError(what);
}
inline std::string where(const Problem& p) { return "problem '" + p.name + "': "; }

/// max over bodies of |R^T R - I|_F: the representation stays on SO(3) (a constraint, scale 1).
inline InvariantGroup orthogonality(std::string description = "|R^T R - I|_F") {
  return {{{"orthogonality", InvariantKind::constraint, std::move(description), 1.0}},
          [](const Problem&, const State& s, double* out) {
            double orth = 0;
            for (const BodyState& b : s.bodies) orth = std::max(orth, so3::orthogonality_residual(b.R));
            *out = orth;
          }};
}

/// The energy of the rigid-body equations: 1/2 W.J W + U(R) (a gyrostat's rotor adds a constant,
/// left out). One definition for the energy invariant and Family::energy of every family on them.
inline double rigid_body_energy(const Problem& p, const State& s) {
  const BodyState& b = s.body();
  return 0.5 * b.W.dot(p.inertia() * b.W) + p.potential(b.R);
}

/// The Legendre transform of the rigid-body and body-system equations (Family::momenta): Pi = J W + h_B
/// (h_B of body 0, the gyrostat's rotor) and, translating, P = m v. Follower moments have no potential:
/// no canonical structure then.
inline bool rigid_momenta(const Problem& p, const State& s, std::vector<BodyMomenta>& m) {
  if (!p.followers().empty()) return false;
  m.resize(s.bodies.size());
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    m[b].Pi = p.inertia(b) * s.bodies[b].W + (b == 0 ? internal_momentum(p) : Vec3::Zero());
    m[b].P = p.translating() ? Vec3(p.bodies[b].mass * s.bodies[b].v) : Vec3::Zero();
  }
  return true;
}
/// Its inverse (Family::velocities).
inline void rigid_velocities(const Problem& p, const std::vector<BodyMomenta>& m, State& s) {
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    s.bodies[b].W = p.inertia_inverse(b) * (m[b].Pi - (b == 0 ? internal_momentum(p) : Vec3::Zero()));
    if (p.translating()) s.bodies[b].v = m[b].P / p.bodies[b].mass;
  }
}

inline const char* axis_name(int i) { return i == 0 ? "x" : i == 1 ? "y" : "z"; }

}  // namespace rigidbench::families
