// The rigid_body family: one body rotating about a fixed point or its centre of mass,
// (R, W) in SO(3) x R^3, under uniform fields and follower moments (docs/problems.md P1-P3):
//   R' = R hat(W),   Pi' = Pi x W + T(t, R),   Pi = J W + h_B,
// with h_B the body's internal angular momentum (zero here; a family built on these equations, like
// the gyrostat, sets it).
#include <cmath>
#include <numbers>

#include "../../core/rrp.hpp"
#include "../../core/so3.hpp"
#include "common.hpp"
#include "rigid_body.hpp"

namespace rigidbench::families {

std::vector<InvariantGroup> rigid_body_invariants(const Problem& p) {
  std::vector<InvariantGroup> g;
  // Follower moments that vanish from t_q on leave the invariants of the remaining (field-only)
  // problem conserved from t_q (InvariantDef::from_time); if they never vanish, only the constraint.
  const double tq = p.quiet_from();
  const double from = tq > p.t0 ? tq : -std::numeric_limits<double>::infinity();
  const BodyState& s0 = p.initial.body();
  const Mat3& J = p.inertia();
  const Vec3 h = internal_momentum(p);
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
                         const Vec3 Pi = q.inertia() * b.W + internal_momentum(q);
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
                       *out = e.dot(b.R * (q.inertia() * b.W + internal_momentum(q)));
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
                         *out = axis.dot(q.inertia() * s.body().W + internal_momentum(q));
                       }});
      }
    }
  }
  g.push_back(orthogonality());
  return g;
}

namespace {

constexpr double pi = std::numbers::pi;

Problem free_body_common(std::string name) {
  Problem p;
  p.name = std::move(name);
  p.bodies = {BodyModel{Vec3(1, 2, 3).asDiagonal(), 1.0}};
  p.initial.body().R = Mat3::Identity();
  return p;
}

// P1: torque-free asymmetric body (Euler-Poinsot).
Problem free_body() {
  Problem p = free_body_common("free_body");
  p.title = "Torque-free asymmetric body (Euler-Poinsot), J = diag(1, 2, 3)";
  p.source = "docs/problems.md P1";
  p.initial.body().W = Vec3(1.0, 0.5, -0.8);
  p.t_end = 10.0;
  // |W| ~ 1.4 rad/s: h0 = 0.05 is ~0.07 rad per step, inside every scheme's asymptotic range.
  p.verification = {.h0 = 0.05, .levels = 6, .h0_order1 = 0.0125, .sample_times = {2, 4, 6, 8, 10}};
  return p;
}

// P1b: near the intermediate axis; periodic flips (Dzhanibekov effect).
Problem dzhanibekov() {
  Problem p = free_body_common("dzhanibekov");
  p.title = "Free body near the intermediate axis (Dzhanibekov flips)";
  p.source = "docs/problems.md P1b";
  p.initial.body().W = Vec3(0.01, 5.0, 0.01);
  p.t_end = 20.0;
  // 5 rad/s spin; the flips amplify phase errors, so steps are small.
  p.verification = {.h0 = 0.01, .levels = 6, .h0_order1 = 2.5e-4, .sample_times = {4, 8, 12, 16, 20}};
  return p;
}

// P2: heavy symmetrical top (paper 002; Simo & Wong 1991).
Problem heavy_top() {
  Problem p;
  p.name = "heavy_top";
  p.title = "Heavy symmetrical top (Simo & Wong 1991), J = diag(5, 5, 1), M = 20, g = l = 1";
  p.source = "paper 002; docs/problems.md P2";
  p.bodies = {BodyModel{Vec3(5, 5, 1).asDiagonal(), 20.0}};
  // t = -M g r x e3, r = l R E3: a field -g e3 acting at l E3.
  p.loads = {UniformField{.mass = 20.0, .acceleration = Vec3(0, 0, -1.0), .point = Vec3(0, 0, 1.0)}};
  p.initial.body().R = so3::exp(Vec3(0.05, 0, 0));
  p.initial.body().W = Vec3(0, 0, 50.0);
  p.t_end = 10.0;
  // 50 rad/s spin, 40 rad/s nutation: h0 = 4e-3 puts h = 1e-3 (RK4) and 2e-3 (Terze) on the ladder.
  // Explicit first-order schemes amplify the nutation by (1 + (40 h)^2)^(n/2) ~ exp(8000 h): they
  // are asymptotic only for h below ~2e-5 (exp(0.16) at h0), hence h0_order1 = 2e-5, whose
  // observation grid (h0 2^4 = 3.2e-4) still contains the sample times 2, 4, ..., 10.
  p.verification = {.h0 = 4e-3, .levels = 6, .h0_order1 = 2e-5, .sample_times = {2, 4, 6, 8, 10}};
  return p;
}

// P2r: the heavy top of P2 with a body that exists, for the physics engines (docs/engines.md,
// "Realisable bodies"). P2's J = diag(5, 5, 1) about the pivot with M = 20 at l = 1 leaves the central
// inertia J - M l^2 diag(1, 1, 0) = diag(-15, -15, 1), which no body has. Here M = 2 and g = 10 keep
// M g l = 20 and J about the pivot, hence the same equations of motion, the same motion and the same
// reference as P2, with the central inertia diag(3, 3, 1): positive, and each moment at most the sum
// of the other two (3 <= 3 + 1, 1 <= 3 + 3).
Problem heavy_top_realisable() {
  Problem p = heavy_top();
  p.name = "heavy_top_realisable";
  p.title = "Heavy symmetrical top of P2 with a realisable body: J = diag(5, 5, 1) about the pivot, M = 2, g = 10, l = 1";
  p.source = "paper 002 (P2's motion); docs/problems.md P2r";
  p.bodies = {BodyModel{Vec3(5, 5, 1).asDiagonal(), 2.0}};
  p.loads = {UniformField{.mass = 2.0, .acceleration = Vec3(0, 0, -10.0), .point = Vec3(0, 0, 1.0)}};
  return p;
}

// P3: three-dimensional pendulum, spherical body (paper 001 section 3).
Problem pendulum3d() {
  Problem p;
  p.name = "pendulum3d";
  p.title = "Three-dimensional pendulum, spherical body (Baker & Gonzalez section 3)";
  p.source = "paper 001 section 3; docs/problems.md P3";
  p.bodies = {BodyModel{Mat3::Identity(), 1.0}};  // J = 1, m = 1 (not stated in the paper)
  // U(R) = -m g e3 . R rho0 exactly as printed (paper 001 section 3): a field +g e3 at rho0 = E3.
  // The printed moment (eq. 40) mixes frames; the moment used is the one derived from U
  // (docs/decisions.md, "pendulum3d").
  p.loads = {UniformField{.mass = 1.0, .acceleration = Vec3(0, 0, 1.0), .point = Vec3(0, 0, 1.0)}};
  const Vec3 alpha0 = Vec3(0, 1, 0) * 2.0 * std::tan(3.0 * pi / 8.0);  // 3 pi / 4 about e2
  const Mat3 R0 = rrp::to_matrix(alpha0);
  const double s = std::sin(pi / 4.0);
  const Vec3 Omega0 = Vec3(1, 0, 1) * 0.4 * s * s;  // spatial
  p.initial.body().R = R0;
  p.initial.body().W = R0.transpose() * Omega0;
  p.t_end = 10.0;
  // The paper's ladder h = 0.1 2^-k, k = 0..5, extended by two levels so that the second-order
  // schemes reach the asymptotic range of Q_II (its O(h) correction halves per level).
  p.verification = {.h0 = 0.1, .levels = 8, .h0_order1 = std::nullopt, .sample_times = {2, 4, 6, 8, 10}};
  return p;
}

class RigidBody final : public Family {
 public:
  std::string_view name() const override { return "rigid_body"; }
  std::string_view title() const override {
    return "one rigid body about a fixed point or its centre of mass, (R, W) in SO(3) x R^3, uniform fields and "
           "follower moments";
  }
  void validate(Problem& p) const override {
    // The family's schemes integrate Pi = J W: a rotor's h_B is the gyrostat's term (required feature).
    require(internal_momentum_if_any(p) == nullptr,
            where(p) + "an internal momentum (a rotor) makes the problem a gyrostat (family \"gyrostat\")");
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
  // The family's catalogue problems (docs/problems.md P1-P3, P2r), in the catalogue's order.
  std::vector<CatalogueEntry> catalogue() const override {
    return {{"free_body", free_body, true},
            {"dzhanibekov", dzhanibekov, true},
            {"heavy_top", heavy_top, true},
            {"heavy_top_realisable", heavy_top_realisable, false},
            {"pendulum3d", pendulum3d, true}};
  }
};

}  // namespace

std::unique_ptr<Family> rigid_body() { return std::make_unique<RigidBody>(); }

}  // namespace rigidbench::families
