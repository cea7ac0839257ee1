#include "analytic.hpp"

#include <Eigen/Eigenvalues>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>

#include "../problems/formulations/rigid_body_t.hpp"

namespace rigidbench {

using formulations::A3;
using formulations::A33;
using formulations::cast33;
using formulations::cast3;
using formulations::cross;
using formulations::dot;
using formulations::matmul;
using formulations::transpose;
using formulations::mul;
using formulations::mul_transpose;

/// J = Q^T diag(Jd) Q with Jd ascending and Q proper: the exact axis permutation (times -1 when odd)
/// for a diagonal J, else the eigenvectors (double precision).
void principal_axes(const Mat3& J, Mat3& Q, Vec3& Jd) {
  const bool diagonal = J(0, 1) == 0 && J(0, 2) == 0 && J(1, 2) == 0;
  Mat3 V;  // columns: principal axes in body components, J = V diag V^T
  if (diagonal) {
    std::array<int, 3> idx{0, 1, 2};
    std::sort(idx.begin(), idx.end(), [&](int a, int b) { return J(a, a) < J(b, b); });
    V.setZero();
    for (int c = 0; c < 3; ++c) V(idx[c], c) = 1.0, Jd[c] = J(idx[c], idx[c]);
  } else {
    Eigen::SelfAdjointEigenSolver<Mat3> es(J);
    V = es.eigenvectors();
    Jd = es.eigenvalues();
  }
  if (V.determinant() < 0) V.col(2) = -V.col(2);
  Q = V.transpose();
}

namespace {

/// Rodrigues: exp(angle hat(n)) for a unit axis n.
template <class T>
A33<T> rodrigues(const A3<T>& n, const T& angle) {
  using std::cos;
  using std::sin;
  const T c = cos(angle), s = sin(angle), v = 1 - c;
  return {{{c + v * n[0] * n[0], v * n[0] * n[1] - s * n[2], v * n[0] * n[2] + s * n[1]},
           {v * n[1] * n[0] + s * n[2], c + v * n[1] * n[1], v * n[1] * n[2] - s * n[0]},
           {v * n[2] * n[0] - s * n[1], v * n[2] * n[1] + s * n[0], c + v * n[2] * n[2]}}};
}

template <class T>
struct Solver {
  // principal frame
  A33<T> Q;
  T J1, J2, J3;
  A3<T> W0;   // W'(t0)
  A33<T> R0;  // R'(t0)
  T E, L;
  enum class Kind { asym3, asym1, symmetric, spherical } kind;
  // asymmetric
  T k, w, u0, a1, a2, a3, s;
  A3<T> g;
  A33<T> A0;
  // symmetric
  int sym_axis = 2;
  T beta, A_sym;
  A3<T> n;
  double t0;

  static bool same(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(a, b); }

  explicit Solver(const Problem& p) : t0(p.t0) {
    using std::atan2;
    using std::sqrt;
    Mat3 Qd;
    Vec3 Jd;
    principal_axes(p.inertia(), Qd, Jd);
    Q = cast33<T>(Qd);
    J1 = T(Jd[0]), J2 = T(Jd[1]), J3 = T(Jd[2]);
    const BodyState& b = p.initial.body();
    W0 = mul(Q, cast3<T>(b.W));
    R0 = matmul(cast33<T>(b.R), transpose(Q));
    const A3<T> Pi{J1 * W0[0], J2 * W0[1], J3 * W0[2]};
    E = (J1 * W0[0] * W0[0] + J2 * W0[1] * W0[1] + J3 * W0[2] * W0[2]) / 2;
    L = sqrt(dot(Pi, Pi));
    if (same(Jd[0], Jd[2])) {
      kind = Kind::spherical;
      return;
    }
    if (same(Jd[0], Jd[1]) || same(Jd[1], Jd[2])) {
      kind = Kind::symmetric;
      sym_axis = same(Jd[0], Jd[1]) ? 2 : 0;
      A_sym = J2;  // the repeated moment
      const T C = sym_axis == 2 ? J3 : J1;
      beta = W0[std::size_t(sym_axis)] * (A_sym - C) / A_sym;
      n = mul(R0, A3<T>{Pi[0] / L, Pi[1] / L, Pi[2] / L});
      return;
    }
    const T twoE = 2 * E, L2 = L * L;
    if (L2 > twoE * J2) {  // circulates about axis 3
      kind = Kind::asym3;
      a1 = sqrt((twoE * J3 - L2) / (J1 * (J3 - J1)));
      a2 = sqrt((twoE * J3 - L2) / (J2 * (J3 - J2)));
      a3 = sqrt((L2 - twoE * J1) / (J3 * (J3 - J1)));
      w = sqrt((J3 - J2) * (L2 - twoE * J1) / (J1 * J2 * J3));
      k = sqrt((J2 - J1) * (twoE * J3 - L2) / ((J3 - J2) * (L2 - twoE * J1)));
      s = W0[2] < 0 ? T(-1) : T(1);
      // cn u0 = W1/a1, sn u0 = W2/(s a2)
      u0 = boost::math::ellint_1(k, atan2(W0[1] / (s * a2), W0[0] / a1));
      g = {T(1), T(0), T(0)};
    } else {  // circulates about axis 1
      kind = Kind::asym1;
      a1 = sqrt((twoE * J3 - L2) / (J1 * (J3 - J1)));
      a2 = sqrt((L2 - twoE * J1) / (J2 * (J2 - J1)));
      a3 = sqrt((L2 - twoE * J1) / (J3 * (J3 - J1)));
      w = sqrt((J2 - J1) * (twoE * J3 - L2) / (J1 * J2 * J3));
      k = sqrt((J3 - J2) * (L2 - twoE * J1) / ((J2 - J1) * (twoE * J3 - L2)));
      s = W0[0] < 0 ? T(-1) : T(1);
      u0 = boost::math::ellint_1(k, atan2(W0[1] / (s * a2), W0[2] / a3));
      g = {T(0), T(0), T(1)};
    }
    A0 = matmul(R0, frame(W0));
  }

  /// W'(t) of the asymmetric cases.
  A3<T> omega(const T& t) const {
    T cn, dn;
    const T u = w * (t - T(t0)) + u0;
    const T sn = boost::math::jacobi_elliptic(k, u, &cn, &dn);
    if (kind == Kind::asym3) return {a1 * cn, s * a2 * sn, s * a3 * dn};
    return {s * a1 * dn, s * a2 * sn, a3 * cn};
  }
  /// B = [b1, u x b1, u] for the body momentum direction u = JW/L.
  A33<T> frame(const A3<T>& W) const {
    using std::sqrt;
    const A3<T> u{J1 * W[0] / L, J2 * W[1] / L, J3 * W[2] / L};
    const T ug = dot(g, u);
    A3<T> b1{g[0] - ug * u[0], g[1] - ug * u[1], g[2] - ug * u[2]};
    const T nb = sqrt(dot(b1, b1));
    for (auto& x : b1) x /= nb;
    const A3<T> b2 = cross(u, b1);
    return {{{b1[0], b2[0], u[0]}, {b1[1], b2[1], u[1]}, {b1[2], b2[2], u[2]}}};
  }
  T psi_rate(const T& t) const {
    const A3<T> W = omega(t);
    const A3<T> u{J1 * W[0] / L, J2 * W[1] / L, J3 * W[2] / L};
    const T ug = dot(g, u), Wg = dot(g, W);
    return (dot(W, u) - ug * Wg) / (1 - ug * ug);
  }

  /// The quadrature of psi' over (t_{i-1}, t_i] (i >= 1, asymmetric cases): the values and error
  /// estimates of its pieces, in the order they are summed. Intervals are independent, so a grid's
  /// intervals may be integrated in any order or concurrently (AnalyticEvaluation's segments).
  struct Pieces {
    std::vector<T> value;
    std::vector<double> error;
  };
  /// Non-adaptive 31-point Gauss-Kronrod on pieces short against the fastest rotation
  /// (|W| <= L / J1): the 61-degree rule is exact to rounding there, and an adaptive bisection
  /// would chase the rounding noise of the integrand instead.
  double piece_length() const { return 0.1 / std::max(1.0, static_cast<double>(L / J1)); }
  /// The quadrature pieces over the grid (the evaluation's work, known before it starts).
  double pieces_over(const std::vector<double>& times) const {
    if ((kind != Kind::asym1 && kind != Kind::asym3) || times.size() < 2) return 0;
    return std::ceil((times.back() - times.front()) / piece_length()) + double(times.size() - 1);
  }
  Pieces pieces(const std::vector<double>& times, std::size_t i) const {
    Pieces out;
    if (kind != Kind::asym1 && kind != Kind::asym3) return out;
    const double a = times[i - 1], span = times[i] - a;
    const double piece = piece_length();
    const auto m = static_cast<long>(std::ceil(span / piece));
    auto f = [this](const T& x) { return psi_rate(x); };
    const T t(times[i]);
    for (long j = 0; j < m; ++j) {
      T err = 0;
      const T x0 = T(a) + T(span) * T(j) / T(m), x1 = j + 1 == m ? t : T(a) + T(span) * T(j + 1) / T(m);
      out.value.push_back(boost::math::quadrature::gauss_kronrod<T, 31>::integrate(f, x0, x1, 0, T(0), &err));
      out.error.push_back(static_cast<double>(err));
    }
    return out;
  }

  /// The states at `times`, psi summed from the pieces of every interval (pieces[i] for i >= 1) in
  /// order: the same sums whichever order the pieces were computed in.
  AnalyticSolution assemble(const std::vector<double>& times, const std::vector<Pieces>& pieces) const {
    AnalyticSolution out;
    T psi = 0;
    double qerr = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
      const T t(times[i]);
      A33<T> R;
      A3<T> W;
      switch (kind) {
        case Kind::spherical: {
          W = W0;
          const A3<T> om = mul(R0, W0);
          using std::sqrt;
          const T nrm = sqrt(dot(om, om));
          R = nrm == 0 ? R0 : matmul(rodrigues(A3<T>{om[0] / nrm, om[1] / nrm, om[2] / nrm}, nrm * (t - T(t0))), R0);
          break;
        }
        case Kind::symmetric: {
          A3<T> es{T(0), T(0), T(0)};
          es[std::size_t(sym_axis)] = T(1);
          const T dt = t - T(t0);
          R = matmul(matmul(rodrigues(n, dt * L / A_sym), R0), rodrigues(es, beta * dt));
          // W = beta e_s + R^T pi / A
          const A3<T> Rtpi = mul_transpose(R, A3<T>{n[0] * L, n[1] * L, n[2] * L});
          for (int c = 0; c < 3; ++c) W[c] = Rtpi[c] / A_sym + (c == sym_axis ? beta : T(0));
          break;
        }
        default: {
          if (i > 0)
            for (std::size_t j = 0; j < pieces[i].value.size(); ++j) {
              psi += pieces[i].value[j];
              qerr += pieces[i].error[j];
            }
          W = omega(t);
          const A3<T> ez{T(0), T(0), T(1)};
          R = matmul(matmul(A0, rodrigues(ez, psi)), transpose(frame(W)));
        }
      }
      // Back to the body frame of the problem: W = Q^T W', R = R' Q.
      const A3<T> Wb = mul_transpose(Q, W);
      const A33<T> Rb = matmul(R, Q);
      State x(1);
      for (int r = 0; r < 3; ++r) {
        x.body().W[r] = static_cast<double>(Wb[r]);
        for (int c = 0; c < 3; ++c) x.body().R(r, c) = static_cast<double>(Rb[r][c]);
      }
      out.states.push_back(std::move(x));
    }
    out.quadrature_error = qerr;
    switch (kind) {
      case Kind::spherical: out.variant = "spherical (closed form)"; break;
      case Kind::symmetric: out.variant = "symmetric (closed form)"; break;
      case Kind::asym3: out.variant = "asymmetric, circulating about the axis of the largest moment (Jacobi elliptic; psi by Gauss-Kronrod quadrature)"; break;
      case Kind::asym1: out.variant = "asymmetric, circulating about the axis of the smallest moment (Jacobi elliptic; psi by Gauss-Kronrod quadrature)"; break;
    }
    out.modulus = kind == Kind::asym1 || kind == Kind::asym3 ? static_cast<double>(k) : 0.0;
    return out;
  }
};

/// Output intervals per segment of an evaluation: a fixed number, so the split does not depend on
/// the workers (it could not change the result anyway: the sums are formed in assemble).
constexpr std::size_t kIntervalsPerSegment = 256;

template <class T>
class Evaluation final : public AnalyticEvaluation {
 public:
  Evaluation(const Problem& p, std::vector<double> times) : solver_(p), times_(std::move(times)) {
    pieces_.resize(times_.size());
    ran_.assign(segments(), 0);
  }
  std::size_t segments() const override {
    return times_.size() < 2 ? 0 : (times_.size() - 1 + kIntervalsPerSegment - 1) / kIntervalsPerSegment;
  }
  double work() const override { return solver_.pieces_over(times_); }
  void run_segment(std::size_t s) override {
    const std::size_t first = 1 + s * kIntervalsPerSegment, last = std::min(times_.size(), first + kIntervalsPerSegment);
    for (std::size_t i = first; i < last; ++i) pieces_[i] = solver_.pieces(times_, i);
    ran_.at(s) = 1;
  }
  AnalyticSolution finish() override {
    for (char r : ran_)
      if (!r) throw std::logic_error("AnalyticEvaluation::finish: a segment has not run");
    return solver_.assemble(times_, pieces_);
  }

 private:
  Solver<T> solver_;
  std::vector<double> times_;
  std::vector<typename Solver<T>::Pieces> pieces_;
  std::vector<char> ran_;  // per segment (written by distinct segments only)
};

}  // namespace

double torque_free_flip_interval(const Problem& p) {
  if (!analytic_not_applicable(p).empty()) return std::numeric_limits<double>::quiet_NaN();
  const Solver<double> s(p);
  if (s.kind != Solver<double>::Kind::asym3 && s.kind != Solver<double>::Kind::asym1) return std::numeric_limits<double>::quiet_NaN();
  // The intermediate component is s a2 sn(w (t - t0) + u0) in both cases: zero every 2 K(k) / w.
  return 2 * boost::math::ellint_1(s.k) / s.w;
}

std::string analytic_not_applicable(const Problem& p) {
  if (p.family->equations() != "rigid_body" || p.bodies.size() != 1 || internal_momentum_if_any(p))
    return "not a single rigid body without internal momentum (the closed form is Euler's torque-free top)";
  if (!p.torque_free()) return "the body is loaded (the closed form is for the torque-free body)";
  Mat3 Q;
  Vec3 Jd;
  principal_axes(p.inertia(), Q, Jd);
  const Vec3 W = Q * p.initial.body().W;
  const double twoE = Jd.dot(W.cwiseProduct(W));
  const double L2 = (Jd.cwiseProduct(W)).squaredNorm();
  const bool asym = std::abs(Jd[0] - Jd[1]) > 1e-12 * Jd[1] && std::abs(Jd[1] - Jd[2]) > 1e-12 * Jd[2];
  if (asym && std::abs(L2 - twoE * Jd[1]) <= 1e-14 * L2)
    return "the initial state lies on the separatrix L^2 = 2 E J2 (infinite period)";
  return "";
}

std::unique_ptr<AnalyticEvaluation> torque_free_evaluation(const Problem& p, std::vector<double> times,
                                                           AnalyticPrecision precision) {
  if (std::string why = analytic_not_applicable(p); !why.empty()) throw InputError("analytic reference: " + why);
  if (times.empty() || times.front() != p.t0) throw InputError("analytic reference: the time grid must start at t0");
  for (std::size_t i = 1; i < times.size(); ++i)
    if (!(times[i] > times[i - 1])) throw InputError("analytic reference: the time grid must be increasing");
  switch (precision) {
    case AnalyticPrecision::binary64: return std::make_unique<Evaluation<double>>(p, std::move(times));
    case AnalyticPrecision::extended: return std::make_unique<Evaluation<long double>>(p, std::move(times));
    case AnalyticPrecision::quad:
      return std::make_unique<Evaluation<boost::multiprecision::cpp_bin_float_quad>>(p, std::move(times));
  }
  throw std::logic_error("torque_free_evaluation: unknown precision");
}

AnalyticSolution AnalyticEvaluation::run_all() {
  for (std::size_t s = 0; s < segments(); ++s) run_segment(s);
  return finish();
}

AnalyticSolution torque_free_analytic(const Problem& p, const std::vector<double>& times, bool quad) {
  return torque_free_evaluation(p, times, quad ? AnalyticPrecision::quad : AnalyticPrecision::binary64)->run_all();
}

AnalyticSolution torque_free_analytic_extended(const Problem& p, const std::vector<double>& times) {
  return torque_free_evaluation(p, times, AnalyticPrecision::extended)->run_all();
}

}  // namespace rigidbench
