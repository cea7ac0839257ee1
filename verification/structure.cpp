// Structure of the one-step map (docs/metrics.md, "Structure"; structure.hpp).
//
// Symmetry (Hairer, Lubich & Wanner 2006, Def. II.3.1): Phi_h is symmetric when Phi_-h o Phi_h = id.
// It is measured in the scheme's own variables: one step forward and one step back on the same object,
// never through reset(), so that whatever the scheme carries besides the canonical state comes back
// too. A symmetric method has even order (ibid., Thm. II.3.2).
//
// Symplecticity (ibid., Def. VI.2.2): the Jacobian M of Phi_h in canonical coordinates satisfies
// M^T Omega M = Omega. The coordinates of a body are exponential coordinates of its attitude about a
// base R_bar, R = R_bar exp(hat(q)), its position x, and their conjugate momenta: with W = dexp_r(q) q'
// (the right Jacobian of exp), p_q = dL/dq' = dexp_r(q)^T Pi, Pi = dL/dW, and P = dL/dx'. Pi and P
// come from the problem's family (Family::momenta, the Legendre transform), never from the scheme. The
// input chart is centred on the initial state, the output chart on its image; M is differenced by
// central differences with two increments, whose disagreement estimates M's error.
#include "structure.hpp"

#include <Eigen/Core>
#include <cmath>

#include "../core/so3.hpp"
#include "../integrators/integrate.hpp"

namespace rigidbench {

const char* to_string(Observed o) {
  switch (o) {
    case Observed::preserved: return "preserved";
    case Observed::broken: return "broken";
    case Observed::undecided: return "undecided";
    case Observed::not_checked: return "not_checked";
  }
  return "?";
}

namespace {

/// How far above its allowance a defect must be to call the property broken.
constexpr double kBrokenFactor = 10.0;
/// An allowance above this says the measurement cannot resolve the property (the map is not smooth
/// enough at the state for its Jacobian to be differenced: a contact at its onset): undecided.
constexpr double kMaxAllowance = 1e-6;
/// Central-difference increment in the scaled canonical coordinates (about eps^(1/3), which balances
/// the O(d^2) truncation against the O(eps/d) rounding), and its double for the error estimate.
constexpr double kIncrement = 1e-5;

double max_abs(const Eigen::MatrixXd& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

/// max over bodies of |a_b|, or 1 where that is zero (a scale).
template <class F>
double scale_of(const State& s, F&& f) {
  double m = 0;
  for (const BodyState& b : s.bodies) m = std::max(m, f(b));
  return m > 0 ? m : 1.0;
}

/// Normalised distance of two canonical states: attitude entries as they are (|R| = 1), W, x and v
/// each relative to their size in `ref`.
double state_distance(const Problem& p, const State& a, const State& b, const State& ref) {
  const double sw = scale_of(ref, [](const BodyState& x) { return x.W.norm(); });
  const double sx = scale_of(ref, [](const BodyState& x) { return x.x.norm(); });
  const double sv = scale_of(ref, [](const BodyState& x) { return x.v.norm(); });
  double d = 0;
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const BodyState &u = a.bodies[i], &w = b.bodies[i];
    d = std::max({d, (u.R - w.R).cwiseAbs().maxCoeff(), (u.W - w.W).cwiseAbs().maxCoeff() / sw});
    if (p.translating()) d = std::max({d, (u.x - w.x).cwiseAbs().maxCoeff() / sx, (u.v - w.v).cwiseAbs().maxCoeff() / sv});
  }
  return d;
}

/// Slope of log y against log x over the points of `use` (fit_line).
double fitted_slope(const std::vector<double>& x, const std::vector<double>& y, const std::vector<bool>& use) {
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (use[i]) lx.push_back(std::log(x[i])), ly.push_back(std::log(y[i]));
  return fit_line(lx, ly).slope;
}

/// Observed and verdict from the per-step defects and allowances. A step whose allowance exceeds
/// kMaxAllowance resolves nothing (its measurement cannot tell a preserved property from a broken one)
/// and is left out of "preserved": that needs at least two resolved steps, each within its allowance.
/// Broken needs one step, resolved or not, more than kBrokenFactor above its allowance.
void conclude(StructureCheck& c) {
  int finite = 0, resolved = 0, within = 0, above = 0;
  std::vector<bool> broken(c.h.size(), false);
  for (std::size_t i = 0; i < c.h.size(); ++i) {
    if (!std::isfinite(c.defect[i])) continue;
    ++finite;
    if (c.allowance[i] <= kMaxAllowance) ++resolved, within += c.defect[i] <= c.allowance[i];
    if (c.defect[i] > kBrokenFactor * c.allowance[i]) ++above, broken[i] = true;
  }
  c.observed = finite == 0                            ? Observed::not_checked
               : above > 0                            ? Observed::broken
               : resolved >= 2 && within == resolved ? Observed::preserved
                                                      : Observed::undecided;
  c.slope = fitted_slope(c.h, c.defect, broken);
  if (c.claimed)
    c.verdict = c.observed == Observed::preserved ? Verdict::pass
                : c.observed == Observed::broken  ? Verdict::fail
                                                  : Verdict::undefined;
}

StructureCheck symmetry(const Problem& p, const SchemeEntry& s, double h0) {
  StructureCheck c;
  c.property = "symmetric";
  c.claimed = claims_on(*s.info, p).symmetric;
  // A symmetric map comes back to round-off, or to its Newton tolerance: the problem's threshold of an
  // exact claim, the same "to round-off" that its invariants are held to (docs/metrics.md).
  const double allowance = p.verification.exact_threshold;
  State x1(p.initial.bodies.size()), x2(p.initial.bodies.size());
  std::string breaks;
  for (int j = 0; j < kStructureSteps; ++j) {
    const double h = h0 * double(1 << j);
    c.h.push_back(h);
    c.allowance.push_back(allowance);
    auto integ = s.make(p);
    integ->reset(p.initial, p.t0);
    IntegrationOutcome run = integrate(*integ, FixedSteps{p.t0, h, 1}, x1);
    if (run.ok) run = integrate(*integ, FixedSteps{p.t0 + h, -h, 1}, x2);
    if (!run.ok) {
      c.defect.push_back(kNaN);
      breaks += cat(breaks.empty() ? "" : "; ", "h = ", format_number(h, 4), ": ", run.cause);
      continue;
    }
    c.defect.push_back(state_distance(p, x2, p.initial, x1));
  }
  c.note = cat("one step of h and one of -h on the same integrator from the initial state; defect: max |x - x0| "
               "(R entries; W, x, v relative to their size); allowance: the problem's exact threshold");
  if (!breaks.empty()) c.note += cat("; breakdowns: ", breaks);
  conclude(c);
  return c;
}

/// Coordinates per body in each block: 3 (attitude) or 6 (with position: Family::canonical_position). The
/// chart is scaled so that every coordinate is of order one: attitude in rad, its momentum by S (the
/// largest |Pi|), position by L and linear momentum by S / L, so that each conjugate pair is scaled by the
/// same product S and M^T Omega M = Omega is unchanged by the scaling.
struct Chart {
  std::vector<int> offset;  // body b's first coordinate in the position block
  std::vector<bool> position;
  int d = 0;                // coordinates per block
};
Chart chart(const Problem& p) {
  Chart c;
  for (std::size_t b = 0; b < p.bodies.size(); ++b) {
    c.offset.push_back(c.d);
    c.position.push_back(p.family->canonical_position(p, b));
    c.d += c.position.back() ? 6 : 3;
  }
  return c;
}

/// Scaled canonical coordinates of y about `base` (q and x first, then p_q and P, body by body).
bool encode(const Problem& p, const Chart& c, const State& y, const State& base, double S, double L, Eigen::VectorXd& z) {
  std::vector<BodyMomenta> m;
  if (!p.family->momenta(p, y, m)) return false;
  const int d = c.d;
  z.resize(2 * d);
  for (std::size_t b = 0; b < y.bodies.size(); ++b) {
    const int o = c.offset[b];
    const Vec3 q = so3::log(base.bodies[b].R.transpose() * y.bodies[b].R);
    z.segment<3>(o) = q;
    z.segment<3>(d + o) = so3::dexp_right(q).transpose() * m[b].Pi / S;
    if (c.position[b]) {
      z.segment<3>(o + 3) = (y.bodies[b].x - base.bodies[b].x) / L;
      z.segment<3>(d + o + 3) = m[b].P * (L / S);
    }
  }
  return true;
}

void decode(const Problem& p, const Chart& c, const Eigen::VectorXd& z, const State& base, double S, double L, State& y) {
  const int d = c.d;
  std::vector<BodyMomenta> m(base.bodies.size());
  y = base;
  for (std::size_t b = 0; b < base.bodies.size(); ++b) {
    const int o = c.offset[b];
    const Vec3 q = z.segment<3>(o);
    BodyState& yb = y.bodies[b];
    yb.R = base.bodies[b].R * so3::exp(q);
    m[b].Pi = so3::dexp_right_inverse(q).transpose() * Vec3(z.segment<3>(d + o) * S);
    if (c.position[b]) {
      yb.x = base.bodies[b].x + L * Vec3(z.segment<3>(o + 3));
      m[b].P = Vec3(z.segment<3>(d + o + 3)) * (S / L);
    }
  }
  p.family->velocities(p, m, y);
}

/// The Jacobian of one step of size h in the scaled canonical charts about the initial state, by
/// central differences with two increments (M[0] at kIncrement, M[1] at twice it); false, with the
/// cause in `why`, when a step breaks down.
bool step_jacobians(const Problem& p, const Chart& c, const SchemeEntry& s, double h, double S, double L, int dim,
                    Eigen::MatrixXd (&M)[2], std::string& why) {
  auto integ = s.make(p);
  const auto nb = p.initial.bodies.size();
  State y(nb), x(nb), image(nb);
  // Phi_h in the charts: decode about the initial state, one step, encode about the image.
  const auto phi = [&](const Eigen::VectorXd& z, Eigen::VectorXd& out) {
    decode(p, c, z, p.initial, S, L, x);
    integ->reset(x, p.t0);
    IntegrationOutcome run = integrate(*integ, FixedSteps{p.t0, h, 1}, y);
    if (!run.ok) return why = std::move(run.cause), false;
    return encode(p, c, y, image, S, L, out);
  };
  Eigen::VectorXd z0, zp, zm, fp, fm, dummy;
  encode(p, c, p.initial, p.initial, S, L, z0);
  image = p.initial;
  bool ok = phi(z0, dummy);
  if (ok) integ->read(image);
  for (int e = 0; e < 2 && ok; ++e) {
    const double inc = kIncrement * double(1 << e);
    M[e].resize(dim, dim);
    for (int col = 0; col < dim && ok; ++col) {
      zp = z0, zm = z0;
      zp[col] += inc, zm[col] -= inc;
      ok = phi(zp, fp) && phi(zm, fm);
      if (ok) M[e].col(col) = (fp - fm) / (2 * inc);
    }
  }
  return ok;
}

StructureCheck symplecticity(const Problem& p, const SchemeEntry& s, double h0) {
  StructureCheck c;
  c.property = "symplectic";
  c.claimed = claims_on(*s.info, p).symplectic;
  std::vector<BodyMomenta> m0;
  if (!p.family->momenta(p, p.initial, m0)) {
    c.note = cat("not checked: the family '", p.family->name(),
                 "' declares no canonical symplectic structure for this problem (a nonholonomic constraint or a "
                 "load without a potential)");
    conclude(c);
    return c;
  }
  const Chart ch = chart(p);
  if (2 * ch.d > kMaxSymplecticDimension) {
    c.note = cat("not checked: ", std::to_string(2 * ch.d),
                 " canonical coordinates (the check differences at most ",
                 std::to_string(kMaxSymplecticDimension), ")");
    conclude(c);
    return c;
  }
  const int d = ch.d, dim = 2 * d;
  double S = 0, L = p.family->length_scale(p);
  for (std::size_t b = 0; b < m0.size(); ++b) S = std::max(S, m0[b].Pi.norm());
  if (!(S > 0)) S = 1;
  if (!(L > 0)) L = 1;
  // Omega = [0 I; -I 0]: Omega M is M's lower block row over minus its upper one.
  const auto omega_times = [d](const Eigen::MatrixXd& M) {
    Eigen::MatrixXd out(M.rows(), M.cols());
    out.topRows(d) = M.bottomRows(d);
    out.bottomRows(d) = -M.topRows(d);
    return out;
  };
  Eigen::MatrixXd Omega = omega_times(Eigen::MatrixXd::Identity(dim, dim));

  std::string breaks;
  for (int j = 0; j < kStructureSteps; ++j) {
    const double h = h0 * double(1 << j);
    c.h.push_back(h);
    Eigen::MatrixXd M[2];
    std::string why;
    const bool ok = step_jacobians(p, ch, s, h, S, L, dim, M, why);
    if (!ok) {
      c.defect.push_back(kNaN);
      c.allowance.push_back(kNaN);
      breaks += cat(breaks.empty() ? "" : "; ", "h = ", format_number(h, 4), ": ", why);
      continue;
    }
    const double norm = std::max(1.0, max_abs(M[0]) * max_abs(M[0]));
    const double err = max_abs(M[0] - M[1]);  // >= the truncation error of M[0] (3x it), ~ its rounding
    // Each entry of M^T Omega M sums 2d products: an error e in M moves it by <= 2 dim |M| e + dim e^2.
    c.defect.push_back(max_abs(M[0].transpose() * omega_times(M[0]) - Omega) / norm);
    c.allowance.push_back(double(dim) * (2 * max_abs(M[0]) * err + err * err) / norm + 64 * kEps);
  }
  c.note = cat("Jacobian of one step in scaled canonical coordinates (", std::to_string(dim),
               "), central differences with increments 1e-5 and 2e-5; defect: max |M^T Omega M - Omega| / "
               "max(1, |M|^2); allowance: what the two increments' disagreement can cause");
  if (!breaks.empty()) c.note += cat("; breakdowns: ", breaks);
  conclude(c);
  return c;
}

}  // namespace

StructureResult assess_structure(const Problem& p, const SchemeEntry& s, double h0) {
  StructureResult r;
  if (s.origin == SchemeOrigin::trajectories) {
    for (StructureCheck* c : {&r.symmetric, &r.symplectic}) {
      c->property = c == &r.symmetric ? "symmetric" : "symplectic";
      c->note = "not checked: a recorded trajectory has no one-step map to apply";
    }
    return r;
  }
  r.symmetric = symmetry(p, s, h0);
  r.symplectic = symplecticity(p, s, h0);
  if (r.symmetric.observed == Observed::preserved)
    r.order_parity = s.info->order % 2 == 0
                         ? "even, as a symmetric map's order must be"
                         : cat("the declared order ", std::to_string(s.info->order),
                               " is odd, but a symmetric map's order is even: the declaration or the map is wrong");
  return r;
}

}  // namespace rigidbench
