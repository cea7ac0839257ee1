// The rigid_body family: one body rotating about a fixed point or its centre of mass,
// (R, W) in SO(3) x R^3, under uniform fields and follower moments (docs/problems.md P1-P3):
//   R' = R hat(W),   Pi' = Pi x W + T(t, R),   Pi = J W + h_B,
// with h_B the body's internal angular momentum (zero here; a family built on these equations, like
// the gyrostat, sets it).
#include <cmath>

#include "rigidbench/problems/families/common.hpp"
#include "rigidbench/problems/families/rigid_body.hpp"

namespace rigidbench::families {

std::vector<InvariantGroup> rigid_body_invariants(const Problem& p) {
  std::vector<InvariantGroup> g;
  // Follower moments that vanish from t_q on leave the invariants of the remaining (field-only)
  // problem conserved from t_q (InvariantDef::from_time); if they never vanish, only the constraint.
  const double tq = p.quiet_from();
  const double from = tq > p.t0 ? tq : -std::numeric_limits<double>::infinity();
  const BodyState& s0 = p.initial.body();
  const Mat3& J = p.inertia();
  const Vec3 h = p.internal_momentum();
  const Vec3 Pi0 = J * s0.W + h;
  const double K0 = 0.5 * s0.W.dot(J * s0.W);
  const double mom_scale = Pi0.norm() > 0 ? Pi0.norm() : 1.0;
  if (std::isfinite(tq)) {
    // E = 1/2 W.JW + U(R): the rotor's relative kinetic energy is constant and left out.
    g.push_back({{{"energy", InvariantKind::energy, "E = 1/2 W.JW + U(R)", std::max(K0 + std::abs(p.potential(s0.R)), 1e-300),
                   false, from}},
                 [](const Problem& q, const State& s, double* out) { *out = rigid_body_energy(q, s); }});
    if (p.fields().empty()) {
      // Torque-free (once the followers vanish): the spatial momentum pi = R Pi and the Casimir |Pi|.
      InvariantGroup m{{}, [](const Problem& q, const State& s, double* out) {
                         const BodyState& b = s.body();
                         const Vec3 Pi = q.inertia() * b.W + q.internal_momentum();
                         const Vec3 pi = b.R * Pi;
                         out[0] = pi.x(), out[1] = pi.y(), out[2] = pi.z(), out[3] = Pi.norm();
                       }};
      m.defs.push_back({"momentum_x", InvariantKind::momentum, "e1 . pi, pi = R (J W + h) spatial angular momentum",
                        mom_scale, true, from});
      m.defs.push_back({"momentum_y", InvariantKind::momentum, "e2 . pi", mom_scale, true, from});
      m.defs.push_back({"momentum_z", InvariantKind::momentum, "e3 . pi", mom_scale, true, from});
      m.defs.push_back({"casimir", InvariantKind::casimir, "|Pi| = |J W + h|", mom_scale, false, from});
      g.push_back(std::move(m));
    } else {
      // Uniform fields that are all parallel leave the momentum about the field direction conserved
      // (rotational symmetry about it); if moreover every load point lies on one body axis about
      // which J is axisymmetric (and h lies on it), the body momentum about that axis is conserved
      // (Lagrange top).
      Vec3 dir = Vec3::Zero(), axis = Vec3::Zero();
      bool parallel = true, coaxial = true;
      for (const UniformField& f : p.fields()) {
        if (f.mass == 0 || f.acceleration.norm() == 0 || f.point.norm() == 0) continue;
        const Vec3 d = f.acceleration.normalized(), a = f.point.normalized();
        if (dir.isZero()) dir = d;
        else if (dir.cross(d).norm() > 1e-14) parallel = false;
        if (axis.isZero()) axis = a;
        else if (axis.cross(a).norm() > 1e-14) coaxial = false;
      }
      if (parallel && !dir.isZero()) {
        Eigen::Index imax;
        dir.cwiseAbs().maxCoeff(&imax);
        const Vec3 e = dir[imax] < 0 ? Vec3(-dir) : dir;  // e3 rather than -e3 for gravity
        g.push_back({{{"momentum_along_field", InvariantKind::momentum,
                       "e . pi, e the unit direction of the field (e3 in the catalogue)", mom_scale, true, from}},
                     [e](const Problem& q, const State& s, double* out) {
                       const BodyState& b = s.body();
                       *out = e.dot(b.R * (q.inertia() * b.W + q.internal_momentum()));
                     }});
      }
      if (coaxial && !axis.isZero() && h.cross(axis).norm() <= 1e-14 * std::max(1.0, h.norm())) {
        const double a33 = axis.dot(J * axis);
        const double a = 0.5 * (J.trace() - a33);
        const Mat3 sym = a * Mat3::Identity() + (a33 - a) * axis * axis.transpose();
        if ((J - sym).norm() <= 1e-12 * J.norm())
          g.push_back({{{"axial_momentum", InvariantKind::axial,
                         "a . (J W + h), a the body symmetry axis through the load point "
                         "(J3 W3 for the heavy top; R rho0 . Omega for the unit spherical pendulum)",
                         mom_scale, true, from}},
                       [axis](const Problem& q, const State& s, double* out) {
                         *out = axis.dot(q.inertia() * s.body().W + q.internal_momentum());
                       }});
      }
    }
  }
  g.push_back(orthogonality());
  return g;
}

namespace {

class RigidBody final : public Family {
 public:
  std::string_view name() const override { return "rigid_body"; }
  std::string_view title() const override {
    return "one rigid body about a fixed point or its centre of mass, (R, W) in SO(3) x R^3, uniform fields and "
           "follower moments";
  }
  void validate(Problem& p) const override {
    require(p.interactions.empty(), where(p) + "interactions (bonds, contact, walls) belong to the body_system family");
  }
  std::vector<InvariantGroup> invariants(const Problem& p) const override { return rigid_body_invariants(p); }
  double energy(const Problem& p, const State& s) const override { return rigid_body_energy(p, s); }
  bool momenta(const Problem& p, const State& s, std::vector<BodyMomenta>& m) const override {
    return rigid_momenta(p, s, m);
  }
  void velocities(const Problem& p, const std::vector<BodyMomenta>& m, State& s) const override {
    rigid_velocities(p, m, s);
  }
  std::vector<std::string> formulations(const Problem&) const override {
    return {"analytic", "kirchhoff", "newton_euler", "euler_angles"};
  }
};

}  // namespace

std::unique_ptr<Family> rigid_body() { return std::make_unique<RigidBody>(); }

}  // namespace rigidbench::families
