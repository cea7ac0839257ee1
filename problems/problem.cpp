#include "rigidbench/problems/problem.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "rigidbench/core/so3.hpp"
#include "rigidbench/problems/interactions.hpp"

namespace rigidbench {

const char* to_string(ModelFamily f) {
  switch (f) {
    case ModelFamily::rigid_body: return "rigid_body";
    case ModelFamily::body_system: return "body_system";
    case ModelFamily::kirchhoff_body: return "kirchhoff_body";
    case ModelFamily::non_twisting: return "non_twisting";
  }
  return "?";
}

std::optional<ModelFamily> model_family_from_string(const std::string& s) {
  for (ModelFamily f : {ModelFamily::rigid_body, ModelFamily::body_system, ModelFamily::non_twisting,
                        ModelFamily::kirchhoff_body})
    if (s == to_string(f)) return f;
  return std::nullopt;
}

const char* to_string(InvariantKind k) {
  switch (k) {
    case InvariantKind::energy: return "energy";
    case InvariantKind::momentum: return "momentum";
    case InvariantKind::casimir: return "casimir";
    case InvariantKind::axial: return "axial";
    case InvariantKind::constraint: return "constraint";
    case InvariantKind::nonholonomic: return "nonholonomic";
  }
  return "?";
}

namespace {

std::string num(double x) { return format_number(x, 17); }

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError(what);
}

}  // namespace

bool Problem::operator==(const Problem& o) const {
  if (name != o.name || title != o.title || source != o.source || family != o.family ||
      bodies != o.bodies || loads != o.loads || !(interactions == o.interactions) || t0 != o.t0 || t_end != o.t_end ||
      !(verification == o.verification) || initial.bodies.size() != o.initial.bodies.size())
    return false;
  for (std::size_t i = 0; i < initial.bodies.size(); ++i) {
    const BodyState &a = initial.bodies[i], &b = o.initial.bodies[i];
    if (a.R != b.R || a.W != b.W || a.x != b.x || a.v != b.v) return false;
  }
  return true;
}

bool Problem::spherical(std::size_t body) const {
  const Mat3& J = bodies[body].inertia;
  const double a = J.trace() / 3.0;
  return (J - a * Mat3::Identity()).norm() <= 1e-14 * J.norm();
}

std::vector<int> Problem::configuration_observables() const {
  std::vector<int> idx;
  const int per = observables_per_body(translating());
  for (int b = 0; b < int(bodies.size()); ++b) {
    for (int i = 0; i < 9; ++i) idx.push_back(b * per + i);
    if (translating())
      for (int i = 12; i < 15; ++i) idx.push_back(b * per + i);
  }
  return idx;
}

void Problem::finalize() {
  const std::string where = "problem '" + name + "': ";
  require(!name.empty(), "problem: name must not be empty");
  const bool system = family == ModelFamily::body_system;
  require(system || bodies.size() == 1, where + "the " + to_string(family) + " family has exactly one body");
  require(!bodies.empty(), where + "a body_system needs at least one body");
  require(system || interactions.empty(), where + "interactions (bonds, contact, walls) belong to the body_system family");
  require(!system || loads.empty(),
          where + "the body_system family takes interactions (bonds, contact, walls), not loads");
  if (family == ModelFamily::kirchhoff_body) {
    require(loads.empty(), where + "a kirchhoff_body has no external loads (PROBLEMS.md P6)");
    const Mat3& M = bodies[0].added_mass;
    require(M.allFinite() && (M - M.transpose()).norm() <= 1e-12 * M.norm(),
            where + "body 0: added_mass must be finite and symmetric");
    Eigen::SelfAdjointEigenSolver<Mat3> es(M);
    require(es.eigenvalues().minCoeff() > 1e-12 * std::abs(es.eigenvalues().maxCoeff()) && es.eigenvalues().maxCoeff() > 0,
            where + "body 0: added_mass is not positive definite (eigenvalues " + num(es.eigenvalues()[0]) + ", " +
                num(es.eigenvalues()[1]) + ", " + num(es.eigenvalues()[2]) + ")");
    added_mass_inv_ = M.inverse();
  }
  require(initial.bodies.size() == bodies.size(), where + "initial state must have one entry per body");
  require(std::isfinite(t0) && std::isfinite(t_end), where + "t0 and t_end must be finite");
  require(t_end > t0, where + "t_end (" + num(t_end) + ") must be greater than t0 (" + num(t0) + ")");

  inertia_inv_.clear();
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Mat3& J = bodies[b].inertia;
    const std::string bw = where + "body " + std::to_string(b) + ": ";
    require(J.allFinite(), bw + "inertia has a non-finite entry");
    require((J - J.transpose()).norm() <= 1e-12 * J.norm(),
            bw + "inertia is not symmetric (|J - J^T| = " + num((J - J.transpose()).norm()) + ")");
    Eigen::SelfAdjointEigenSolver<Mat3> es(J);
    const Vec3 ev = es.eigenvalues();
    require(ev.minCoeff() > 1e-12 * std::abs(ev.maxCoeff()) && ev.maxCoeff() > 0,
            bw + "inertia is not positive definite (eigenvalues " + num(ev[0]) + ", " + num(ev[1]) +
                ", " + num(ev[2]) + ")");
    require(std::isfinite(bodies[b].mass) && bodies[b].mass > 0,
            bw + "mass must be positive and finite (got " + num(bodies[b].mass) + ")");
    require(std::isfinite(bodies[b].diameter) && bodies[b].diameter >= 0,
            bw + "diameter must be finite and >= 0 (got " + num(bodies[b].diameter) + ")");
    inertia_inv_.push_back(J.inverse());

    const BodyState& s = initial.bodies[b];
    require(s.R.allFinite() && s.W.allFinite() && s.x.allFinite() && s.v.allFinite(),
            bw + "initial state has a non-finite entry");
    const double orth = so3::orthogonality_residual(s.R);
    require(orth <= 1e-10 && s.R.determinant() > 0,
            bw + "initial attitude is not a rotation (|R^T R - I| = " + num(orth) +
                ", det R = " + num(s.R.determinant()) + ")");
  }

  for (std::size_t i = 0; i < loads.size(); ++i)
    std::visit(overloaded{[&](const UniformField& f) {
                            const std::string lw = where + "load " + std::to_string(i) + " (uniform_field): ";
                            require(std::isfinite(f.mass) && f.mass >= 0,
                                    lw + "mass must be finite and >= 0 (got " + num(f.mass) + ")");
                            require(f.acceleration.allFinite(), lw + "acceleration has a non-finite entry");
                            require(f.point.allFinite(), lw + "point has a non-finite entry");
                          },
                          [&](const FollowerMoment& m) {
                            const std::string lw = where + "load " + std::to_string(i) + " (follower_moment): ";
                            require(m.body.allFinite(), lw + "body components have a non-finite entry");
                            for (std::size_t k = 0; k < m.profile.knots.size(); ++k) {
                              const auto& [tk, vk] = m.profile.knots[k];
                              require(std::isfinite(tk) && std::isfinite(vk),
                                      lw + "profile knot " + std::to_string(k) + " is not finite");
                              require(k == 0 || tk > m.profile.knots[k - 1].first,
                                      lw + "profile knot times must increase strictly (knot " + std::to_string(k) +
                                          " at t = " + num(tk) + ")");
                            }
                          }},
               loads[i]);
  if (system) {
    auto& in = interactions;
    for (std::size_t k = 0; k < in.bonds.size(); ++k) {
      const Bond& bd = in.bonds[k];
      const std::string kw = where + "bond " + std::to_string(k) + ": ";
      require(bd.i < bodies.size() && bd.j < bodies.size() && bd.i != bd.j,
              kw + "bodies " + std::to_string(bd.i) + " and " + std::to_string(bd.j) + " must be two distinct bodies of " +
                  std::to_string(bodies.size()));
      for (double K : {bd.bending, bd.axial, bd.shear})
        require(std::isfinite(K) && K >= 0, kw + "stiffnesses must be finite and >= 0 (got " + num(K) + ")");
      require(bd.rest.allFinite() && (bd.rest.norm() > 0 || (bd.axial == 0 && bd.shear == 0)),
              kw + "the rest vector must be finite and non-zero (axial and shear energies divide by its length)");
    }
    require(std::isfinite(in.contact_stiffness) && in.contact_stiffness >= 0,
            where + "contact_stiffness must be finite and >= 0 (got " + num(in.contact_stiffness) + ")");
    for (std::size_t k = 0; k < in.walls.size(); ++k) {
      Wall& w = in.walls[k];
      const std::string kw = where + "wall " + std::to_string(k) + ": ";
      require(w.normal.allFinite() && w.normal.norm() > 0, kw + "the normal must be finite and non-zero");
      require(std::isfinite(w.offset) && std::isfinite(w.stiffness) && w.stiffness >= 0,
              kw + "offset must be finite and stiffness finite and >= 0");
      w.normal.normalize();
    }
  }
  fields_.clear();
  followers_.clear();
  for (const Load& l : loads)
    std::visit(overloaded{[&](const UniformField& f) { fields_.push_back(f); },
                          [&](const FollowerMoment& m) { followers_.push_back(m); }},
               l);
  if (family == ModelFamily::non_twisting) {
    // Paper 000 section 3: the splitting of the inertia implies J13 = J23 = 0; without it the
    // nonholonomic momenta d1 . pi, d2 . pi are not conserved and the model is not the paper's.
    const Mat3& J = bodies[0].inertia;
    require(std::abs(J(0, 2)) <= 1e-14 * J.norm() && std::abs(J(1, 2)) <= 1e-14 * J.norm(),
            where + "the non_twisting family needs J13 = J23 = 0 (paper 000 section 3; got J13 = " + num(J(0, 2)) +
                ", J23 = " + num(J(1, 2)) + ")");
    const Vec3& W0 = initial.body().W;
    require(std::abs(W0[2]) <= 1e-14 * std::max(1.0, W0.norm()),
            where + "the non_twisting family starts without twist: initial W3 = w . d3 must be 0 (got " + num(W0[2]) + ")");
  }

  auto& v = verification;
  require(std::isfinite(v.h0) && v.h0 > 0, where + "verification.h0 must be positive and finite (got " + num(v.h0) + ")");
  require(v.levels >= 3 && v.levels <= 24, where + "verification.levels must be in [3, 24] (got " +
                                               std::to_string(v.levels) + ")");
  if (v.t_end)
    require(std::isfinite(*v.t_end) && *v.t_end > t0 && *v.t_end <= t_end,
            where + "verification.t_end must be in (t0, t_end] (got " + num(*v.t_end) + ")");
  if (v.h0_order1)
    require(std::isfinite(*v.h0_order1) && *v.h0_order1 > 0,
            where + "verification.h0_order1 must be positive and finite (got " + num(*v.h0_order1) + ")");
  for (double ts : v.sample_times)
    require(std::isfinite(ts) && ts > t0 && ts <= v.t_end.value_or(t_end),
            where + "verification.sample_times: " + num(ts) + " is outside (t0, t_end]");
  require(std::isfinite(v.exact_threshold) && v.exact_threshold > 0,
          where + "verification.exact_threshold must be positive");

  // ---- invariants of the exact flow, derived from the model's structure ----
  invariants_.clear();
  if (family == ModelFamily::kirchhoff_body) {
    // PROBLEMS.md P6: T, |P|^2, P.Pi (body), the spatial impulse R P and the spatial angular impulse
    // x x R P + R Pi (Newton-Euler form: both constant).
    const BodyState& b = initial.body();
    const Vec3 u = b.R.transpose() * b.v, P = bodies[0].added_mass * u, Pi = inertia() * b.W;
    const Vec3 p = b.R * P, m = b.x.cross(p) + b.R * Pi;
    const double T0 = 0.5 * (u.dot(P) + b.W.dot(Pi));
    const double ps = std::max(p.norm(), 1e-300), ms = std::max(m.norm(), 1e-300);
    invariants_.push_back({"energy", InvariantKind::energy, "T = 1/2 u.M u + 1/2 W.J W, u = R^T v", std::max(T0, 1e-300)});
    invariants_.push_back({"impulse_squared", InvariantKind::casimir, "|P|^2, P = M u", ps * ps});
    invariants_.push_back({"impulse_dot_angular", InvariantKind::casimir, "P . Pi, Pi = J W", std::max(ps * Pi.norm(), 1e-300)});
    const char* axes[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i)
      invariants_.push_back({cat("spatial_impulse_", axes[i]), InvariantKind::momentum, cat("e", std::to_string(i + 1), " . R P"), ps, true});
    for (int i = 0; i < 3; ++i)
      invariants_.push_back({cat("spatial_angular_impulse_", axes[i]), InvariantKind::momentum,
                             cat("e", std::to_string(i + 1), " . (x x R P + R Pi)"), ms, true});
    invariants_.push_back({"orthogonality", InvariantKind::constraint, "|R^T R - I|_F", 1.0});
    return;
  }
  if (system) {
    // PROBLEMS.md P5: total energy; without walls the interactions are invariant under rigid motions,
    // so total linear momentum p = sum m v and angular momentum L = sum (x x m v + R J W) (spins
    // included) are conserved. Components are scaled by the sum of the magnitudes of their terms:
    // that is what round-off is relative to, however small the total.
    double ps = 0, ls = 0;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      const BodyState& s = initial.bodies[b];
      ps += bodies[b].mass * s.v.norm();
      ls += bodies[b].mass * s.x.norm() * s.v.norm() + (bodies[b].inertia * s.W).norm();
    }
    ps = std::max(ps, 1e-300);
    ls = std::max(ls, 1e-300);
    const double E0 = system_energy(initial).total();
    invariants_.push_back({"energy", InvariantKind::energy,
                           "E = sum (m|v|^2 + W.JW)/2 + U^m + U^a + U^s + U^pp + U^pw (paper 001 eq. 43)",
                           std::max(std::abs(E0), 1e-300)});
    if (interactions.walls.empty()) {
      const char* axes[3] = {"x", "y", "z"};
      for (int i = 0; i < 3; ++i)
        invariants_.push_back({cat("linear_momentum_", axes[i]), InvariantKind::momentum,
                               cat("e", std::to_string(i + 1), " . sum m v"), ps, true});
      for (int i = 0; i < 3; ++i)
        invariants_.push_back({cat("angular_momentum_", axes[i]), InvariantKind::momentum,
                               cat("e", std::to_string(i + 1), " . sum (x x m v + R J W), spins included"), ls, true});
    }
    invariants_.push_back({"orthogonality", InvariantKind::constraint, "max over bodies of |R^T R - I|_F", 1.0});
    return;
  }
  // Rigid body and non-twisting body. Follower moments that vanish from t_q on leave the invariants
  // of the remaining (field-only) problem conserved from t_q (InvariantDef::from_time); if they
  // never vanish, only the constraints are invariant.
  const double tq = quiet_from();
  const double from = tq > t0 ? tq : -std::numeric_limits<double>::infinity();
  const bool nt = family == ModelFamily::non_twisting;
  const bool fields = !fields_.empty();
  const BodyState& s0 = initial.body();
  const Mat3& J = inertia();
  const Vec3 pi0 = s0.R * (J * s0.W);
  const double K0 = 0.5 * s0.W.dot(J * s0.W);
  const double mom_scale = pi0.norm() > 0 ? pi0.norm() : 1.0;
  has_field_momentum_ = has_axial_momentum_ = has_free_momentum_ = has_nonholonomic_momenta_ = false;
  has_energy_ = std::isfinite(tq);
  if (has_energy_)
    invariants_.push_back({"energy", InvariantKind::energy, nt ? "E = K + U, K = 1/2 W.JW (paper 000 eq. 74a)" : "E = 1/2 W.JW + U(R)",
                           std::max(K0 + std::abs(potential(s0.R)), 1e-300), false, from});
  if (has_energy_ && nt && !fields) {
    // Paper 000 eq. 74b-c: the nonholonomic momenta, the body components 1, 2 of Pi = J W. Components
    // of one vector: scaled by its norm, bounded by |Pi(0)| plus the impulse the loads can impart
    // (sum |B| int |f| dt; the exact |Pi(t_q)| when the load keeps its direction, as in P4).
    has_nonholonomic_momenta_ = true;
    double impulse = 0;
    for (const FollowerMoment& m : followers_) {
      const auto& k = m.profile.knots;
      double integral = 0;  // trapezoid of |f| (exact without sign changes)
      for (std::size_t i = 1; i < k.size(); ++i)
        integral += 0.5 * (std::abs(k[i].second) + std::abs(k[i - 1].second)) * (k[i].first - k[i - 1].first);
      impulse += m.body.norm() * integral;
    }
    const double pi_scale = std::max((J * s0.W).norm() + impulse, 1e-300);
    invariants_.push_back({"nonholonomic_momentum_1", InvariantKind::momentum, "Pi^1 = d1 . pi = (J W)_1 (paper 000 eq. 74b)",
                           pi_scale, true, from});
    invariants_.push_back({"nonholonomic_momentum_2", InvariantKind::momentum, "Pi^2 = d2 . pi = (J W)_2 (paper 000 eq. 74c)",
                           pi_scale, true, from});
  } else if (has_energy_ && !nt && !fields) {
    has_free_momentum_ = true;
    invariants_.push_back({"momentum_x", InvariantKind::momentum, "e1 . pi, pi = R J W spatial angular momentum", mom_scale, true, from});
    invariants_.push_back({"momentum_y", InvariantKind::momentum, "e2 . pi", mom_scale, true, from});
    invariants_.push_back({"momentum_z", InvariantKind::momentum, "e3 . pi", mom_scale, true, from});
    invariants_.push_back({"casimir", InvariantKind::casimir, "|Pi| = |J W|", mom_scale, false, from});
  } else if (has_energy_ && !nt) {
    // Uniform fields that are all parallel leave the momentum about the field direction conserved
    // (rotational symmetry about it); if moreover every load point lies on one body axis about which
    // J is axisymmetric, the body momentum about that axis is conserved (Lagrange top).
    Vec3 dir = Vec3::Zero(), axis = Vec3::Zero();
    bool parallel = true, coaxial = true;
    for (const UniformField& f : fields_) {
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
      field_dir_ = dir[imax] < 0 ? Vec3(-dir) : dir;  // e3 rather than -e3 for gravity
      has_field_momentum_ = true;
      invariants_.push_back({"momentum_along_field", InvariantKind::momentum,
                             "e . pi, e the unit direction of the field (e3 in the catalogue)", mom_scale, true, from});
    }
    if (coaxial && !axis.isZero()) {
      const double a33 = axis.dot(J * axis);
      const double a = 0.5 * (J.trace() - a33);
      const Mat3 sym = a * Mat3::Identity() + (a33 - a) * axis * axis.transpose();
      if ((J - sym).norm() <= 1e-12 * J.norm()) {
        axis_B_ = axis;
        has_axial_momentum_ = true;
        invariants_.push_back({"axial_momentum", InvariantKind::axial,
                               "a . J W, a the body symmetry axis through the load point "
                               "(J3 W3 for the heavy top; R rho0 . Omega for the unit spherical pendulum)",
                               mom_scale, true, from});
      }
    }
  }
  if (nt)
    invariants_.push_back({"twist", InvariantKind::nonholonomic, "w . d3 = W3, the non-twist condition (paper 000 eq. 72)",
                           std::max(s0.W.norm(), 1.0), true});
  invariants_.push_back({"orthogonality", InvariantKind::constraint, "|R^T R - I|_F", 1.0});
}

double TimeProfile::operator()(double t) const { return piecewise_linear(knots, t); }

double TimeProfile::quiet_from() const {
  if (knots.empty()) return std::numeric_limits<double>::infinity();
  if (knots.back().second != 0.0) return std::numeric_limits<double>::infinity();
  std::size_t k = knots.size() - 1;
  while (k > 0 && knots[k - 1].second == 0.0) --k;
  return k == 0 ? -std::numeric_limits<double>::infinity() : knots[k].first;
}

std::vector<double> Problem::load_kinks() const {
  std::vector<double> k;
  for (const FollowerMoment& m : followers_)
    for (const auto& kn : m.profile.knots)
      if (kn.first > t0 && kn.first < t_end) k.push_back(kn.first);
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  return k;
}

double Problem::quiet_from() const {
  double q = t0;
  for (const FollowerMoment& m : followers_) q = std::max(q, m.body.isZero() ? t0 : m.profile.quiet_from());
  return q;
}

Vec3 Problem::spatial_moment(double t, const Mat3& R) const {
  Vec3 m = Vec3::Zero();
  for (const UniformField& f : fields_) m += (R * f.point).cross(f.mass * f.acceleration);
  for (const FollowerMoment& fm : followers_) m += fm.profile(t) * (R * fm.body);
  return m;
}

Vec3 Problem::body_moment(double t, const Mat3& R) const {
  Vec3 T = Vec3::Zero();
  for (const UniformField& f : fields_) T += f.point.cross(R.transpose() * (f.mass * f.acceleration));
  for (const FollowerMoment& fm : followers_) T += fm.profile(t) * fm.body;
  return T;
}

Mat3 Problem::spatial_moment_jacobian(double t, const Mat3& R) const {
  Mat3 K = Mat3::Zero();
  for (const UniformField& f : fields_) {
    const Vec3 r = R * f.point, F = f.mass * f.acceleration;
    K += r * F.transpose() - F.dot(r) * Mat3::Identity();
  }
  // m = f(t) R B rotates with the body: d(exp(hat(delta)) m)/d delta = -hat(m).
  for (const FollowerMoment& fm : followers_) K -= so3::hat(fm.profile(t) * (R * fm.body));
  return K;
}

double Problem::potential(const Mat3& R) const {
  double U = 0.0;
  for (const UniformField& f : fields_) U -= f.mass * f.acceleration.dot(R * f.point);
  return U;
}

namespace {
/// The one walk over a body system's interactions (bonds, every pair for contact, walls): adds each
/// term's energy to e and, when `force`/`moment` are given (n entries, accumulated into), its loads.
/// R(b) and x(b) give body b's attitude and position (the schemes' arrays or a canonical State).
template <class RofB, class XofB>
void walk_interactions(const Problem& p, const RofB& R, const XofB& x, SystemEnergy& e, Vec3* force, Vec3* moment) {
  const auto at = [](Vec3* a, std::size_t i) { return a ? a + i : nullptr; };
  const std::size_t n = p.bodies.size();
  for (const Bond& bd : p.interactions.bonds) {
    const std::size_t i = bd.i, j = bd.j;
    if (bd.bending != 0) e.bending += interactions::bending(bd.bending, R(i), R(j), at(moment, i), at(moment, j));
    if (bd.axial != 0)
      e.axial += interactions::axial(bd.axial, bd.rest.norm(), x(i), x(j), at(force, i), at(force, j));
    if (bd.shear != 0)
      e.shear += interactions::shear(bd.shear, bd.rest, R(i), R(j), x(i), x(j), at(force, i), at(force, j),
                                     at(moment, i), at(moment, j));
  }
  if (const double K = p.interactions.contact_stiffness; K != 0)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        e.contact += interactions::contact(K, 0.5 * (p.bodies[i].diameter + p.bodies[j].diameter), x(i), x(j),
                                           at(force, i), at(force, j));
  for (const Wall& w : p.interactions.walls)
    for (std::size_t b = 0; b < n; ++b)
      e.wall += interactions::wall(w.stiffness, p.bodies[b].diameter, w.normal, w.offset, x(b), at(force, b));
}
}  // namespace

void Problem::system_loads(const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment) const {
  for (std::size_t b = 0; b < bodies.size(); ++b) force[b] = moment[b] = Vec3::Zero();
  SystemEnergy unused;
  walk_interactions(
      *this, [R](std::size_t b) -> const Mat3& { return R[b]; }, [x](std::size_t b) -> const Vec3& { return x[b]; },
      unused, force, moment);
}

SystemEnergy Problem::system_energy(const State& s) const {
  SystemEnergy e;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const BodyState& x = s.bodies[b];
    e.translational += 0.5 * bodies[b].mass * x.v.squaredNorm();
    e.rotational += 0.5 * x.W.dot(bodies[b].inertia * x.W);
  }
  walk_interactions(
      *this, [&s](std::size_t b) -> const Mat3& { return s.bodies[b].R; },
      [&s](std::size_t b) -> const Vec3& { return s.bodies[b].x; }, e, nullptr, nullptr);
  return e;
}

double Problem::energy(const State& s) const {
  if (family == ModelFamily::body_system) return system_energy(s).total();
  const BodyState& b = s.body();
  if (family == ModelFamily::kirchhoff_body) {
    const Vec3 u = b.R.transpose() * b.v;
    return 0.5 * (u.dot(bodies[0].added_mass * u) + b.W.dot(inertia() * b.W));
  }
  return 0.5 * b.W.dot(inertia() * b.W) + potential(b.R);
}

void Problem::evaluate_invariants(const State& s, double* out) const {
  if (family == ModelFamily::body_system) {
    *out++ = system_energy(s).total();
    double orth = 0;
    Vec3 p = Vec3::Zero(), L = Vec3::Zero();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const BodyState& b = s.bodies[i];
      const Vec3 pb = bodies[i].mass * b.v;
      p += pb;
      L += b.x.cross(pb) + b.R * (bodies[i].inertia * b.W);
      orth = std::max(orth, so3::orthogonality_residual(b.R));
    }
    if (interactions.walls.empty()) {
      for (int i = 0; i < 3; ++i) *out++ = p[i];
      for (int i = 0; i < 3; ++i) *out++ = L[i];
    }
    *out++ = orth;
    return;
  }
  const BodyState& b = s.body();
  if (family == ModelFamily::kirchhoff_body) {
    const Vec3 u = b.R.transpose() * b.v, P = bodies[0].added_mass * u, Pi = inertia() * b.W;
    const Vec3 p = b.R * P, m = b.x.cross(p) + b.R * Pi;
    *out++ = 0.5 * (u.dot(P) + b.W.dot(Pi));
    *out++ = P.squaredNorm();
    *out++ = P.dot(Pi);
    for (int i = 0; i < 3; ++i) *out++ = p[i];
    for (int i = 0; i < 3; ++i) *out++ = m[i];
    *out++ = so3::orthogonality_residual(b.R);
    return;
  }
  const Vec3 Pi = inertia() * b.W;
  const Vec3 pi = b.R * Pi;
  if (has_energy_) *out++ = 0.5 * b.W.dot(Pi) + potential(b.R);
  if (has_nonholonomic_momenta_) {
    *out++ = Pi.x();
    *out++ = Pi.y();
  }
  if (has_free_momentum_) {
    *out++ = pi.x();
    *out++ = pi.y();
    *out++ = pi.z();
    *out++ = Pi.norm();
  }
  if (has_field_momentum_) *out++ = field_dir_.dot(pi);
  if (has_axial_momentum_) *out++ = axis_B_.dot(Pi);
  if (family == ModelFamily::non_twisting) *out++ = b.W.z();
  *out++ = so3::orthogonality_residual(b.R);
}

}  // namespace rigidbench
