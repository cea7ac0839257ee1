#pragma once
// Schemes of paper 001 (Baker & Gonzalez) on the rescaled Rodrigues chart, spherical bodies
// (scalar J): the explicit variational maps (21) body form, (23) spatial form, (25) "a la explicit
// Newmark", and Campello's symplectic Euler (27) and implicit phi-family (26). alpha_{k+1} =
// alpha_k (+) dalpha_k with the increment on the spatial side, R_{k+1} = R(dalpha_k) R_k
// (core/rrp.hpp, tested). M_k is the body moment, R M_k = t_k the spatial one.
// Translation (21a/c, 23a/c ...) is velocity Verlet and enters with the SE(3)^n model; the
// rotational maps below are the complete updates for the single-body catalogue problems.
//
// Breakdowns (returned, never NaN): (21b)/(23b) need h |v| < 1, v = Omega_k + h/(2J) R M_k (the
// printed condition of eq. 16 squares h by mistake); any map whose composition (+) reaches the
// half-turn leaves the chart.
#include <cmath>
#include <optional>

#include "core/newton.hpp"
#include "core/rrp.hpp"
#include "integrators/integrator.hpp"

namespace rigidbench {

/// Campello (26)'s Newton system in Omega = Omega_{k+1}:
///   r = Omega - Omega_k - h/J [phi t_k + (1 - phi) t(R(h Omega) R_k)]
///   dr/dOmega = I - h (1 - phi)/J K(R_{k+1}) dcay(h Omega) h,  dcay(a) = (I + hat(a)/2) / (1 + |a|^2/4)
/// with K the moment's tangent for spatial rotations (Problem::spatial_moment_jacobian) and dcay the
/// left-trivialised derivative of the Cayley map, cay(a + da) = exp(hat(dcay(a) da)) cay(a). Tested
/// against finite differences.
inline void campello_system(const Problem& p, double J, double phi, double h, double t_next, const Mat3& Rk,
                            const Vec3& Om_k, const Vec3& t_k, const Vec3& w, Vec3& r, Mat3& Jac) {
  const Vec3 a = h * w;
  const Mat3 R1 = rrp::to_matrix(a) * Rk;
  r = w - Om_k - (h / J) * (phi * t_k + (1 - phi) * p.spatial_moment(t_next, R1));
  const Mat3 dcay = (Mat3::Identity() + 0.5 * so3::hat(a)) / (1.0 + 0.25 * a.squaredNorm());
  Jac = Mat3::Identity() - (h * (1 - phi) / J) * p.spatial_moment_jacobian(t_next, R1) * dcay * h;
}

/// Shared state and chart handling of the RRP maps: alpha, the spatial (or body) angular velocity,
/// and the spatial moment at the current configuration, reused by the next step.
class RrpChart {
 public:
  explicit RrpChart(const Problem& p) : p_(&p), J_(p.inertia()(0, 0)) {}

 protected:
  void reset_chart(const State& x0) {
    const auto a = rrp::from_matrix(x0.body().R);
    if (!a) throw InputError("the initial attitude is a half-turn: outside the rescaled Rodrigues chart");
    alpha_ = *a;
    R_ = rrp::to_matrix(alpha_);
    tk_.valid = false;
    c_ = {};
  }
  /// Spatial moment at (t, R_), reused when t is the previous step's end.
  Vec3 moment_now(double t) {
    if (p_->torque_free()) return Vec3::Zero();
    if (!tk_.holds(t)) {
      tk_.store(t, p_->spatial_moment(t, R_));
      ++c_.load_evaluations;
    }
    return tk_.value;
  }
  Vec3 moment_at(double t, const Mat3& R) {
    if (p_->torque_free()) return Vec3::Zero();
    ++c_.load_evaluations;
    return p_->spatial_moment(t, R);
  }
  /// alpha <- alpha (+) dalpha; false (with `why`) when the composition reaches the half-turn.
  bool advance(const Vec3& dalpha, double t_next, std::string& why) {
    const auto a = rrp::compose(alpha_, dalpha);
    if (!a) {
      why = "the composition alpha (+) dalpha reached the half-turn (outside the rescaled Rodrigues chart)";
      return false;
    }
    alpha_ = *a;
    R_ = rrp::to_matrix(alpha_);
    if (!p_->torque_free()) {
      tk_.store(t_next, p_->spatial_moment(t_next, R_));
      ++c_.load_evaluations;
    }
    return true;
  }
  /// dalpha of (21b)/(23b): 2h / (1 + sqrt(1 - h^2 |v|^2)) v, a rotation by arcsin(h |v|).
  static std::optional<Vec3> exact_increment(double h, const Vec3& v, double& hv) {
    hv = h * v.norm();
    if (!(hv < 1.0)) return std::nullopt;
    return (2.0 * h / (1.0 + std::sqrt(1.0 - hv * hv))) * v;
  }

  const Problem* p_;
  double J_;
  Vec3 alpha_ = Vec3::Zero();
  Mat3 R_ = Mat3::Identity();
  MomentCache<Vec3> tk_;  // spatial moment at (t_k, R_k)
  Counters c_;
};

/// The RRP maps that carry the spatial angular velocity Omega = R W: (23), (25), (26), (27).
class RrpSpatialChart : public RrpChart {
 public:
  using RrpChart::RrpChart;
  void reset(const State& x0, double) {
    reset_chart(x0);
    Om_ = x0.body().R * x0.body().W;
  }
  void read(State& x) const {
    x.body().R = R_;
    x.body().W = R_.transpose() * Om_;
  }
  Counters counters() const { return c_; }

 protected:
  Vec3 Om_ = Vec3::Zero();
};

/// Eq. (23): spatial form. Omega_{k+1} = Omega_k + h/(2J) (t_k + t_{k+1}).
class BakerGonzalezSpatial final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  using RrpSpatialChart::RrpSpatialChart;
  StepStatus step(double t, double h) {
    const Vec3 tk = moment_now(t);
    const Vec3 v = Om_ + (h / (2 * J_)) * tk;
    double hv;
    const auto da = exact_increment(h, v, hv);
    if (!da)
      return StepStatus::breakdown(cat("h |Omega + h t/(2J)| = ", format_number(hv, 6),
                                       " >= 1: outside the domain of eq. (23b)"));
    std::string why;
    if (!advance(*da, t + h, why)) return StepStatus::breakdown(why);
    Om_ += (h / (2 * J_)) * (tk + moment_now(t + h));
    return {};
  }

};

/// Eq. (21): body form. omega_{k+1} = R_{k+1}^T R_k [omega_k + h/(2J) M_k] + h/(2J) M_{k+1}.
class BakerGonzalezBody final : public RrpChart {
 public:
  static const SchemeInfo& info();
  using RrpChart::RrpChart;
  void reset(const State& x0, double) {
    reset_chart(x0);
    w_ = x0.body().W;
  }
  StepStatus step(double t, double h) {
    const Mat3 Rk = R_;
    const Vec3 u = w_ + (h / (2 * J_)) * (Rk.transpose() * moment_now(t));
    double hv;
    const auto da = exact_increment(h, Vec3(Rk * u), hv);
    if (!da)
      return StepStatus::breakdown(cat("h |omega + h M/(2J)| = ", format_number(hv, 6),
                                       " >= 1: outside the domain of eq. (21b)"));
    std::string why;
    if (!advance(*da, t + h, why)) return StepStatus::breakdown(why);
    w_ = R_.transpose() * (Rk * u) + (h / (2 * J_)) * (R_.transpose() * moment_now(t + h));
    return {};
  }
  void read(State& x) const {
    x.body().R = R_;
    x.body().W = w_;
  }
  Counters counters() const { return c_; }

 private:
  Vec3 w_ = Vec3::Zero();
};

/// Eq. (25): dalpha = h Omega_k + h^2/(2J) t_k (the first two terms of (24)); no domain limit.
class BakerGonzalezNewmark final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  using RrpSpatialChart::RrpSpatialChart;
  StepStatus step(double t, double h) {
    const Vec3 tk = moment_now(t);
    std::string why;
    if (!advance(h * Om_ + (h * h / (2 * J_)) * tk, t + h, why)) return StepStatus::breakdown(why);
    Om_ += (h / (2 * J_)) * (tk + moment_now(t + h));
    return {};
  }

};

/// Eq. (26) with phi (default 1/2), implicit in Omega_{k+1}:
///   Omega_{k+1} = Omega_k + h/J [phi t_k + (1 - phi) t(R(h Omega_{k+1}) R_k)],  dalpha = h Omega_{k+1}.
/// Newton with the tangent I - h (1 - phi)/J K dcay(h Omega) h, K = dt/d(spatial rotation) and
/// dcay(a) = (I + hat(a)/2) / (1 + |a|^2/4) the left-trivialised derivative of the Cayley map.
/// phi = 1 is eq. (27). Order 1 for every phi (the configuration update uses Omega_{k+1} only).
class CampelloImplicit final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  static inline const SettingInfo kPhi{"phi", "weight of t_k in eq. (26); 1 is eq. (27)", 0.5, 0.0, 1.0};
  explicit CampelloImplicit(const Problem& p, double phi = 0.5, NewtonSettings newton = {})
      : RrpSpatialChart(p), phi_(phi), newton_(newton) {}
  CampelloImplicit(const Problem& p, const SchemeSettings& set) : CampelloImplicit(p, set.get(kPhi), set.newton()) {}
  StepStatus step(double t, double h) {
    const Vec3 tk = moment_now(t);
    Vec3 W = Om_ + (h / J_) * tk;  // the explicit (27) update as the initial guess
    if (!p_->torque_free() && phi_ != 1.0) {
      const Mat3 Rk = R_;
      const double th = t + h;
      const NewtonResult nr = newton_solve<3>(
          [&](const Vec3& w, Vec3& r, Mat3& Jac) {
            ++c_.load_evaluations;
            campello_system(*p_, J_, phi_, h, th, Rk, Om_, tk, w, r, Jac);
          },
          W, newton_);
      c_.newton_iterations += std::uint64_t(nr.iterations);
      if (!nr.converged)
        return newton_breakdown("Campello (26)", "Omega", nr);
    }
    std::string why;
    if (!advance(h * W, t + h, why)) return StepStatus::breakdown(why);
    Om_ = W;
    return {};
  }
  double phi() const { return phi_; }

 private:
  double phi_;
  NewtonSettings newton_;
};

/// Eq. (27): Campello's symplectic Euler, Omega_{k+1} = Omega_k + h/J t_k, dalpha = h Omega_{k+1}.
class CampelloSymplecticEuler final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  using RrpSpatialChart::RrpSpatialChart;
  StepStatus step(double t, double h) {
    const Vec3 W = Om_ + (h / J_) * moment_now(t);
    std::string why;
    if (!advance(h * W, t + h, why)) return StepStatus::breakdown(why);
    Om_ = W;
    return {};
  }

};

}  // namespace rigidbench
