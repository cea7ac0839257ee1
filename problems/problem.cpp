#include "problem.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "../core/so3.hpp"

namespace rigidbench {

namespace {

std::string num(double x) { return format_number(x, 17); }

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError(what);
}

}  // namespace

bool Problem::operator==(const Problem& o) const {
  if (name != o.name || title != o.title || source != o.source || family != o.family || parameters != o.parameters ||
      bodies != o.bodies || loads != o.loads || !(family_data == o.family_data) || t0 != o.t0 || t_end != o.t_end ||
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

namespace {

/// Times are t0 + n h in binary64: far from 0 they are resolved coarsely (t0 = 2^52: to 1 s), and a
/// ladder's steps or a reference's grid would fall on the same number. The spacing of doubles at the
/// span's far end must stay below 2^-40 of the span (1e-12: t0 = 1000 with a span of 10 passes).
void check_time_resolution(double t0, double t_end, const std::string& where) {
  const double far = std::max(std::abs(t0), std::abs(t_end));
  const double spacing = std::nextafter(far, INFINITY) - far;
  require(spacing <= std::ldexp(t_end - t0, -40),
          where + "time: at t = " + num(far) + " doubles are " + num(spacing) + " apart, too coarse for the span " +
              num(t_end - t0) + " (steps and output times would round together): shift the problem's time to start near 0");
}

/// A body's inertia (symmetric, positive definite, a mass distribution's), its mass, and its initial
/// state (finite, a rotation); bw names the body in messages.
void check_body(const BodyModel& body, const BodyState& s, const std::string& bw) {
  const Mat3& J = body.inertia;
  require(J.allFinite(), bw + "inertia has a non-finite entry");
  require((J - J.transpose()).norm() <= 1e-12 * J.norm(),
          bw + "inertia is not symmetric (|J - J^T| = " + num((J - J.transpose()).norm()) + ")");
  Eigen::SelfAdjointEigenSolver<Mat3> es(J);
  const Vec3 ev = es.eigenvalues();
  require(ev.minCoeff() > 1e-12 * std::abs(ev.maxCoeff()) && ev.maxCoeff() > 0,
          bw + "inertia is not positive definite (eigenvalues " + num(ev[0]) + ", " + num(ev[1]) +
              ", " + num(ev[2]) + ")");
  // Principal moments of a mass distribution obey the triangle inequality (I1 + I2 >= I3, with
  // equality for a flat lamina): an inertia without it describes no body, and a scheme's results
  // on it would mean nothing.
  require(ev[0] + ev[1] >= ev[2] * (1 - 1e-12),
          bw + "inertia violates the triangle inequality: principal moments " + num(ev[0]) + ", " + num(ev[1]) + ", " +
              num(ev[2]) + " (the two smaller must add up to at least the largest; no body has these)");
  require(std::isfinite(body.mass) && body.mass > 0,
          bw + "mass must be positive and finite (got " + num(body.mass) + ")");
  require(s.R.allFinite() && s.W.allFinite() && s.x.allFinite() && s.v.allFinite(),
          bw + "initial state has a non-finite entry");
  const double orth = so3::orthogonality_residual(s.R);
  require(orth <= 1e-10 && s.R.determinant() > 0,
          bw + "initial attitude is not a rotation (|R^T R - I| = " + num(orth) +
              ", det R = " + num(s.R.determinant()) + ")");
}

/// Load i: finite, a mass >= 0, a profile's knots in increasing time.
void check_load(const Load& load, std::size_t i, const std::string& where) {
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
             load);
}

/// The verification settings against the span [t0, t_end].
void check_verification(const VerificationSettings& v, double t0, double t_end, const std::string& where) {
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
}

}  // namespace

void Problem::finalize() {
  const std::string where = "problem '" + name + "': ";
  require(!name.empty(), "problem: name must not be empty");
  if (family == nullptr) throw std::logic_error("Problem::finalize: no family");
  require(!bodies.empty(), where + "a problem needs at least one body");
  require(family->many_bodies() || bodies.size() == 1,
          where + "the " + std::string(family->name()) + " family has exactly one body");
  require(initial.bodies.size() == bodies.size(), where + "initial state must have one entry per body");
  require(std::isfinite(t0) && std::isfinite(t_end), where + "t0 and t_end must be finite");
  require(t_end > t0, where + "t_end (" + num(t_end) + ") must be greater than t0 (" + num(t0) + ")");

  check_time_resolution(t0, t_end, where);
  inertia_inv_.clear();
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    check_body(bodies[b], initial.bodies[b], where + "body " + std::to_string(b) + ": ");
    inertia_inv_.push_back(bodies[b].inertia.inverse());
    // A positive definite inertia can still be too small for binary64 (1e-107 diag(1, 2, 3)): its
    // inverse overflows, and every scheme then broke down on a "non-finite state" of its own making.
    require(inertia_inv_.back().allFinite(), where + "body " + std::to_string(b) +
                                                 ": inertia is too small: its inverse is outside the range of binary64 (J = " +
                                                 num(bodies[b].inertia.norm()) + " in norm)");
  }

  for (std::size_t i = 0; i < loads.size(); ++i) check_load(loads[i], i, where);
  fields_.clear();
  followers_.clear();
  for (const Load& l : loads)
    std::visit(overloaded{[&](const UniformField& f) { fields_.push_back(f); },
                          [&](const FollowerMoment& m) { followers_.push_back(m); }},
               l);

  check_verification(verification, t0, t_end, where);

  family->validate(*this);
  internal_loads_ = family->internal_loads(*this);

  invariant_groups_ = family->invariants(*this);
  invariants_.clear();
  for (const InvariantGroup& g : invariant_groups_)
    for (const InvariantDef& d : g.defs) invariants_.push_back(d);
  // Finite entries can still make an infinite energy (|W| = 1e160: J W^2 overflows): such a state is
  // outside binary64, and every scheme and the reference would turn it into NaN.
  std::vector<double> at_start(invariants_.size());
  evaluate_invariants(initial, at_start.data());
  for (std::size_t i = 0; i < at_start.size(); ++i)
    require(std::isfinite(at_start[i]), where + "the initial state's " + invariants_[i].name + " is not finite (" +
                                            num(at_start[i]) + "): the problem is outside the range of binary64");
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

void Problem::evaluate_invariants(const State& s, double* out) const {
  for (const InvariantGroup& g : invariant_groups_) {
    g.evaluate(*this, s, out);
    out += g.defs.size();
  }
}

namespace {
InvariantGroup::Along group_along(const Problem& p, const InvariantGroup& g) {
  if (g.along) return g.along(p);
  return [&p, &g](const State& s, double* out) { g.evaluate(p, s, out); };
}
}  // namespace

std::function<void(const State&, double* out)> Problem::invariants_along() const {
  std::vector<std::pair<InvariantGroup::Along, std::size_t>> groups;  // each group's evaluator and size
  for (const InvariantGroup& g : invariant_groups_) groups.emplace_back(group_along(*this, g), g.defs.size());
  return [groups = std::move(groups)](const State& s, double* out) mutable {
    for (auto& [eval, size] : groups) {
      eval(s, out);
      out += size;
    }
  };
}

std::function<double(const State&)> Problem::invariant_along(std::size_t i) const {
  std::size_t first = 0;
  for (const InvariantGroup& g : invariant_groups_) {
    if (i < first + g.defs.size()) {
      return [eval = group_along(*this, g), k = i - first, values = std::vector<double>(g.defs.size())](const State& s) mutable {
        eval(s, values.data());
        return values[k];
      };
    }
    first += g.defs.size();
  }
  throw std::out_of_range(cat("invariant_along: the problem has ", std::to_string(invariants_.size()), " invariants, not ",
                              std::to_string(i + 1)));
}

}  // namespace rigidbench
