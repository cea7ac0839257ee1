// The Lagrange top in closed form (lagrange_top.hpp). Notation of the header; ZXZ Euler angles
// (phi about up, theta, psi about the axis) in the frame whose e3 is the up direction.
#include "lagrange_top.hpp"

#include <algorithm>
#include <array>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <chrono>
#include <cmath>
#include <numbers>

#include "../core/so3.hpp"
#include "../problems/families/rigid_body.hpp"

namespace rigidbench {

namespace {

struct Setup {
  double A = 0, C = 0, mgl = 0;  // equatorial and axial moments, m |a| l
  Mat3 Q = Mat3::Identity();     // Q e3 = up
  std::string why;               // not applicable: why
};

Setup setup(const Problem& p) {
  Setup s;
  if (!p.of_family("rigid_body")) return s.why = "the rigid_body family only", s;
  if (p.bodies.size() != 1) return s.why = "one body only", s;
  const Mat3& J = p.inertia();
  const double A = J(0, 0);
  if (std::abs(J(1, 1) - A) > 1e-14 * A || J(0, 1) != 0 || J(0, 2) != 0 || J(1, 2) != 0)
    return s.why = "inertia diag(A, A, C) in the body frame only", s;
  if (p.loads.size() != 1 || p.fields().size() != 1 || internal_momentum_if_any(p))
    return s.why = "exactly one uniform field and no other load", s;
  const UniformField& f = p.fields()[0];
  const double g = f.acceleration.norm(), l = f.point[2];
  if (!(g > 0) || f.point[0] != 0 || f.point[1] != 0 || !(l > 0) || !(f.mass > 0))
    return s.why = "a field acting at l E3 with l > 0 (the centre of mass on the axis, above the pivot)", s;
  s.A = A, s.C = J(2, 2), s.mgl = f.mass * g * l;
  const Vec3 up = -f.acceleration / g, axis = Vec3::UnitZ().cross(up);
  const double angle = std::atan2(axis.norm(), up[2]);
  if (axis.norm() > 0) s.Q = so3::exp(axis.normalized() * angle);
  else if (up[2] < 0) s.Q = so3::exp(Vec3(std::numbers::pi, 0, 0));
  return s;
}

/// The solution's constants and its evaluation in the scalar type T. Everything is written in
/// v = u - u0, which avoids the cancellations of u near 1: with e = W1^2 + W2^2 (= alpha - beta u0),
/// g = W1 r20 + W2 r21 (= b - a u0) and s^2 = r20^2 + r21^2 (= 1 - u0^2),
///   f(u0 + v) = beta v^3 + (2 u0 beta - e - a^2) v^2 + (2 a g - beta s^2 - 2 u0 e) v + (s^2 e - g^2),
/// and s^2 e - g^2 = (W1 r21 - W2 r20)^2 = u'(t0)^2 exactly (Lagrange's identity). The two roots about
/// v = 0 follow from their sum and product (v1 v2 v3 beta = -u'(t0)^2), so a start at a turning point
/// (u'(t0) = 0, the heavy top of the catalogue) gives a root of exactly 0 and the phase is exact.
template <class T>
struct Top {
  T a, beta, w3, g, s2, u0, d1 = 0, width = 0, v3 = 0, k = 0, lambda = 0, tau0 = 0, phi0, psi0;
  double t0;

  explicit Top(const Problem& p, const Setup& s) : t0(p.t0) {
    using std::sqrt, std::atan2;
    const BodyState& x = p.initial.body();
    const Mat3 Rt = s.Q.transpose() * x.R;  // attitude in the frame whose e3 is up
    const T r20 = Rt(2, 0), r21 = Rt(2, 1), W1 = x.W[0], W2 = x.W[1];
    phi0 = atan2(T(Rt(0, 2)), T(-Rt(1, 2)));
    psi0 = atan2(r20, r21);
    u0 = Rt(2, 2);
    w3 = x.W[2];
    a = T(s.C) * w3 / T(s.A);
    beta = 2 * T(s.mgl) / T(s.A);
    const T e = W1 * W1 + W2 * W2;
    g = W1 * r20 + W2 * r21;
    s2 = r20 * r20 + r21 * r21;
    const T udot0 = -(W1 * r21 - W2 * r20);  // u' = -sin(theta) theta', theta' = W1 cos(psi) - W2 sin(psi)
    const std::array<T, 4> c{udot0 * udot0, 2 * a * g - beta * s2 - 2 * u0 * e, 2 * u0 * beta - e - a * a, beta};
    const auto f = [&c](const T& v) { return ((c[3] * v + c[2]) * v + c[1]) * v + c[0]; };
    // v3 = u3 - u0 > 1 - u0: f(1 - u0) = -(b - a)^2 <= 0 and f grows without bound; bisection to the last bit.
    T lo = 1 - u0, hi = 2;
    while (f(hi) <= 0) hi *= 2;
    for (int i = 0; i < 400; ++i) {
      const T mid = (lo + hi) / 2;
      if (mid <= lo || mid >= hi) break;
      (f(mid) > 0 ? hi : lo) = mid;
    }
    v3 = (lo + hi) / 2;
    // The other two: sum -(c2 + v3 beta)/beta (deflation), product -u'(t0)^2 / (beta v3).
    const T sum = -(c[2] + v3 * beta) / beta, prod = -c[0] / (beta * v3);
    const T disc = sqrt(std::max(T(0), sum * sum / 4 - prod));
    const T big = sum / 2 + (sum >= 0 ? disc : -disc), small = big != 0 ? prod / big : T(0);
    d1 = -std::min({big, small, T(0)});           // u0 - u1 >= 0
    const T d2 = std::max({big, small, T(0)});    // u2 - u0 >= 0
    width = d1 + d2;
    lambda = sqrt(beta * (v3 + d1) / 4);
    if (width > 0) {
      k = sqrt(width / (v3 + d1));
      // sn(tau0) = sqrt(d1 / width), cn(tau0) = +-sqrt(d2 / width) with the sign of u'(t0).
      const T sn0 = sqrt(d1 / width), cn0 = sqrt(d2 / width);
      tau0 = boost::math::ellint_1(k, atan2(sn0, udot0 < 0 ? -cn0 : cn0));
    }
  }

  /// v = u - u0 and u' at t.
  void v_at(const T& t, T& v, T& udot) const {
    if (!(width > 0)) return void(v = 0), void(udot = 0);
    T cn, dn;
    const T sn = boost::math::jacobi_elliptic(k, lambda * (t - T(t0)) + tau0, &cn, &dn);
    v = width * sn * sn - d1;
    udot = 2 * width * sn * cn * dn * lambda;
  }
  /// 1 - u^2 and phi' = (b - a u)/(1 - u^2) at v, without cancellation.
  T sin2(const T& v) const { return s2 - (2 * u0 + v) * v; }
  T phi_rate(const T& v) const { return (g - a * v) / sin2(v); }
  T phi_rate_t(const T& t) const {
    T v, ud;
    v_at(t, v, ud);
    return phi_rate(v);
  }
  T psi_rate_t(const T& t) const {
    T v, ud;
    v_at(t, v, ud);
    return w3 - (u0 + v) * phi_rate(v);
  }
};

struct Evaluated {
  std::vector<State> states;
  std::vector<double> quadrature_error;  // accumulated |error| of phi and psi up to each time
};

template <class T>
Evaluated evaluate(const Problem& p, const Setup& s, const std::vector<double>& times) {
  using std::sin, std::cos, std::sqrt;
  const Top<T> top(p, s);
  Evaluated out;
  T phi = top.phi0, psi = top.psi0;
  double qerr = 0;
  // Gauss-Kronrod on pieces short against the nutation (period 2K/lambda) and the precession.
  const double piece = 0.25 / std::max({1.0, static_cast<double>(top.lambda), std::abs(static_cast<double>(top.w3))});
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (i > 0) {
      const double a0 = times[i - 1], span = times[i] - a0;
      const auto m = std::max(1L, static_cast<long>(std::ceil(span / piece)));
      for (long j = 0; j < m; ++j) {
        const T x0 = T(a0) + T(span) * T(j) / T(m), x1 = j + 1 == m ? T(times[i]) : T(a0) + T(span) * T(j + 1) / T(m);
        T e1 = 0, e2 = 0;
        phi += boost::math::quadrature::gauss_kronrod<T, 31>::integrate([&top](const T& t) { return top.phi_rate_t(t); },
                                                                         x0, x1, 0, T(0), &e1);
        psi += boost::math::quadrature::gauss_kronrod<T, 31>::integrate([&top](const T& t) { return top.psi_rate_t(t); },
                                                                         x0, x1, 0, T(0), &e2);
        qerr += static_cast<double>(e1 + e2);
      }
    }
    T v, udot;
    top.v_at(T(times[i]), v, udot);
    const T st = sqrt(top.sin2(v)), ct = top.u0 + v;
    const T phid = top.phi_rate(v), psid = top.w3 - ct * phid, thd = -udot / st;
    const T sp = sin(phi), cp = cos(phi), ss = sin(psi), cs = cos(psi);
    // R = Rz(phi) Rx(theta) Rz(psi).
    Mat3 Rt;
    Rt << double(cp * cs - sp * ct * ss), double(-cp * ss - sp * ct * cs), double(sp * st),
          double(sp * cs + cp * ct * ss), double(-sp * ss + cp * ct * cs), double(-cp * st),
          double(st * ss), double(st * cs), double(ct);
    State x(1);
    x.body().R = s.Q * Rt;
    x.body().W = Vec3(double(phid * st * ss + thd * cs), double(phid * st * cs - thd * ss), double(phid * ct + psid));
    out.states.push_back(x);
    out.quadrature_error.push_back(qerr);
  }
  return out;
}

}  // namespace

std::string lagrange_top_not_applicable(const Problem& p) {
  const Setup s = setup(p);
  if (!s.why.empty()) return s.why;
  const Top<double> top(p, s);
  // u in [u0 - d1, u0 - d1 + width] must stay inside (-1, 1).
  if (!(top.u0 - top.d1 > -1 && top.u0 - top.d1 + top.width < 1) || !(top.s2 > 0))
    return "the axis reaches the up direction or its opposite (sin(theta) = 0)";
  return {};
}

ReferenceSolution lagrange_top_reference(const Problem& p, const std::vector<double>& times) {
  if (const std::string why = lagrange_top_not_applicable(p); !why.empty())
    throw InputError(cat("problem '", p.name, "': the Lagrange top's closed form does not apply: ", why));
  if (times.empty() || times.front() != p.t0 || !std::is_sorted(times.begin(), times.end()))
    throw InputError("lagrange_top_reference: times must increase from t0");
  const auto start = std::chrono::steady_clock::now();
  const Setup s = setup(p);
  const Evaluated d = evaluate<double>(p, s, times), x = evaluate<long double>(p, s, times);
  ReferenceSolution r;
  r.kind = "analytic";
  r.formulation = "lagrange_top_quadrature";
  r.stepper = "Jacobi sn for cos(theta), 31-point Gauss-Kronrod for phi and psi";
  r.notes = "error estimate: double against x87 extended evaluation, plus the quadrature's own estimate";
  r.times = times;
  r.states = d.states;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const BodyState &a = d.states[i].body(), &b = x.states[i].body();
    const double att = so3::angle_between(a.R, b.R) + d.quadrature_error[i], om = (a.W - b.W).norm();
    r.estimate_attitude.push_back(att), r.estimate_omega.push_back(om);
    r.error_estimate.attitude = std::max(r.error_estimate.attitude, att);
    r.error_estimate.omega = std::max(r.error_estimate.omega, om);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace rigidbench
