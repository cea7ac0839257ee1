#pragma once
// Schemes of paper 001 (Baker & Gonzalez) on the rescaled Rodrigues chart, spherical bodies
// (scalar J): the explicit variational maps (21) body form, (23) spatial form, (25) "a la explicit
// Newmark", and Campello's symplectic Euler (27) and implicit phi-family (26). alpha_{k+1} =
// alpha_k (+) dalpha_k with the increment on the spatial side, R_{k+1} = R(dalpha_k) R_k
// (core/rrp.hpp, tested). M_k is the body moment, R M_k = t_k the spatial one.
// One rigid body (family rigid_body) or the n spherical bodies of a body_system (SE(3)^n, paper 001
// section 4): there the translation is velocity Verlet, (21a/c) = (23a/c) = (25a/c), or symplectic
// Euler for (27a/c), and the loads are the interactions' forces and moments (system_loads, problems/families/body_system.hpp),
// evaluated once per step for all bodies after every body has moved.
//
// Breakdowns (returned, never NaN): (21b)/(23b) need h |v| < 1, v = Omega_k + h/(2J) R M_k (the
// printed condition of eq. 16 squares h by mistake); any map whose composition (+) reaches the
// half-turn leaves the chart.
#include <cmath>
#include <optional>

#include "../core/newton.hpp"
#include "../core/rrp.hpp"
#include "any_integrator.hpp"
#include "scheme_base.hpp"
#include "../problems/families/body_system.hpp"

namespace rigidbench {

/// Campello (26)'s Newton system in Omega = Omega_{k+1}:
///   r = Omega - Omega_k - h/J [phi t_k + (1 - phi) t(R(h Omega) R_k)]
///   dr/dOmega = I - h (1 - phi)/J K(R_{k+1}) dcay(h Omega) h,  dcay(a) = (I + hat(a)/2) / (1 + |a|^2/4)
/// with K the moment's tangent for spatial rotations (Problem::spatial_moment_jacobian) and dcay the
/// left-trivialised derivative of the Cayley map, cay(a + da) = exp(hat(dcay(a) da)) cay(a). Tested
/// against finite differences.
inline void campello_system(const Problem& p, double J, double phi, double h, double t_next, const Mat3& Rk,
                            const Vec3& Om_k, const Vec3& t_k, const Vec3& w, Vec3& r, Mat3& Jac,
                            bool jacobian = true) {
  const Vec3 a = h * w;
  const Mat3 R1 = rrp::to_matrix(a) * Rk;
  r = w - Om_k - (h / J) * (phi * t_k + (1 - phi) * p.spatial_moment(t_next, R1));
  if (!jacobian) return;
  const Mat3 dcay = (Mat3::Identity() + 0.5 * so3::hat(a)) / (1.0 + 0.25 * a.squaredNorm());
  Jac = Mat3::Identity() - (h * (1 - phi) / J) * p.spatial_moment_jacobian(t_next, R1) * dcay * h;
}

/// Shared state of the RRP maps, for one rigid body or the n bodies of a body_system: per body the
/// chart alpha (and R(alpha)), the angular velocity (spatial or body, by the derived map), and for
/// the body_system the position and velocity; the spatial forces and moments at the current
/// configuration, reused by the next step ("first same as last").
class RrpChart : public SchemeBase {
 public:
  explicit RrpChart(const Problem& p)
      : SchemeBase(p), n_(p.bodies.size()), system_(p.translating()), loaded_(!p.torque_free()) {
    for (std::size_t b = 0; b < n_; ++b) {
      J_.push_back(p.inertia(b)(0, 0));
      m_.push_back(p.bodies[b].mass);
    }
    alpha_.assign(n_, Vec3::Zero());
    R_.assign(n_, Mat3::Identity());
    x_.assign(n_, Vec3::Zero());
    v_.assign(n_, Vec3::Zero());
    for (Loads* l : {&loads_[0], &loads_[1]}) {
      l->force.assign(n_, Vec3::Zero());
      l->moment.assign(n_, Vec3::Zero());
    }
  }

 protected:
  /// Spatial forces and moments on every body (zero when the problem is unloaded).
  struct Loads {
    std::vector<Vec3> force, moment;
  };

  void reset_chart(const State& x0) {
    for (std::size_t b = 0; b < n_; ++b) {
      const auto a = rrp::from_matrix(x0.bodies[b].R);
      if (!a)
        throw InputError(cat("the initial attitude", n_ > 1 ? cat(" of body ", std::to_string(b)) : std::string(),
                             " is a half-turn: outside the rescaled Rodrigues chart"));
      alpha_[b] = *a;
      R_[b] = rrp::to_matrix(alpha_[b]);
      x_[b] = x0.bodies[b].x;
      v_[b] = x0.bodies[b].v;
    }
    now_valid_ = false;
    c_ = {};
  }
  /// Loads at (t, current configuration), reused when t is the previous step's end.
  const Loads& loads_now(double t) {
    if (!now_valid_ || std::abs(t - now_t_) > 8e-16 * std::max(1.0, std::abs(t))) {
      evaluate(t, loads_[now_]);
      now_t_ = t;
      now_valid_ = true;
    }
    return loads_[now_];
  }
  /// Loads at (t_next, the configuration just advanced to): the next step's loads_now. The caller
  /// reads them through next() until it calls swap_loads().
  void evaluate_next(double t_next) { evaluate(t_next, loads_[now_ ^ 1]); }
  const Loads& next() const { return loads_[now_ ^ 1]; }
  /// The next loads become the current ones: the buffers change roles (an index, not a swap of the
  /// vectors, whose six pointers cost ~25 instructions per step, 5 % of a step of (25)).
  void swap_loads(double t_next) {
    now_ ^= 1;
    now_t_ = t_next;
    now_valid_ = true;
  }
  /// alpha_b <- alpha_b (+) dalpha; false when the composition reaches the half-turn (the step
  /// then returns half_turn(b)). No message is built on the hot path.
  bool advance(std::size_t b, const Vec3& dalpha) {
    const auto a = rrp::compose(alpha_[b], dalpha);
    if (!a) return false;
    alpha_[b] = *a;
    R_[b] = rrp::to_matrix(alpha_[b]);
    return true;
  }
  StepStatus half_turn(std::size_t b) const {
    return StepStatus::breakdown(
        cat(body_label(b), "the composition alpha (+) dalpha reached the half-turn (outside the rescaled Rodrigues chart)"));
  }
  /// dalpha of (21b)/(23b): 2h / (1 + sqrt(1 - h^2 |v|^2)) v, a rotation by arcsin(h |v|).
  static std::optional<Vec3> exact_increment(double h, const Vec3& v, double& hv) {
    hv = h * v.norm();
    if (!(hv < 1.0)) return std::nullopt;
    return (2.0 * h / (1.0 + std::sqrt(1.0 - hv * hv))) * v;
  }
  /// "body b: " for a body system, nothing for one body (its messages stay as they were).
  std::string body_label(std::size_t b) const { return n_ > 1 ? cat("body ", std::to_string(b), ": ") : std::string(); }
  void read_translation(State& x) const {
    for (std::size_t b = 0; b < n_; ++b) {
      x.bodies[b].x = x_[b];
      x.bodies[b].v = v_[b];
    }
  }

  std::size_t n_;
  bool system_, loaded_;  // system_: a body_system (of its families, the one that translates)
  std::vector<double> J_, m_;
  std::vector<Vec3> alpha_;
  std::vector<Mat3> R_;
  std::vector<Vec3> x_, v_;  // body_system only (zero otherwise)

 private:
  void evaluate(double t, Loads& out) {
    if (!loaded_) return;  // stays zero
    ++c_.load_evaluations;
    if (system_) system_loads_(R_.data(), x_.data(), out.force.data(), out.moment.data());
    else out.moment[0] = p_->spatial_moment(t, R_[0]);
  }
  SystemLoads system_loads_{*p_};  // its Verlet list kept from step to step (a rigid body: unused)
  Loads loads_[2];
  unsigned now_ = 0;  // loads_[now_]: at now_t_; loads_[now_ ^ 1]: the next
  double now_t_ = 0;
  bool now_valid_ = false;
};

/// The RRP maps that carry the spatial angular velocity Omega = R W: (23), (25), (26), (27).
class RrpSpatialChart : public RrpChart {
 public:
  using RrpChart::RrpChart;
  void reset(const State& x0, double) {
    reset_chart(x0);
    Om_.resize(n_);
    for (std::size_t b = 0; b < n_; ++b) Om_[b] = x0.bodies[b].R * x0.bodies[b].W;
  }
  void read(State& x) const {
    for (std::size_t b = 0; b < n_; ++b) {
      x.bodies[b].R = R_[b];
      x.bodies[b].W = R_[b].transpose() * Om_[b];
    }
    read_translation(x);
  }

 protected:
  /// The second half of the Verlet-type maps (23c-d), (25c-d), (21c): v_{k+1} = v_k + h/(2m)(F_k + F_{k+1}),
  /// Omega_{k+1} = Omega_k + h/(2J)(t_k + t_{k+1}), with the loads at t_{k+1} evaluated here.
  void verlet_velocities(const Loads& k, double t_next, double h) {
    evaluate_next(t_next);
    const Loads& k1 = next();
    for (std::size_t b = 0; b < n_; ++b) {
      Om_[b] += (h / (2 * J_[b])) * (k.moment[b] + k1.moment[b]);
      if (system_) v_[b] += (h / (2 * m_[b])) * (k.force[b] + k1.force[b]);
    }
    swap_loads(t_next);
  }
  std::vector<Vec3> Om_;
};

/// Eq. (23): spatial form. Omega_{k+1} = Omega_k + h/(2J) (t_k + t_{k+1}); translation by velocity
/// Verlet (23a/c = 21a/c): x_{k+1} = x_k + h v_k + h^2/(2m) F_k, v_{k+1} = v_k + h/(2m)(F_k + F_{k+1}).
class BakerGonzalezSpatial final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  using RrpSpatialChart::RrpSpatialChart;
  StepStatus step(double t, double h) {
    const Loads& k = loads_now(t);
    for (std::size_t b = 0; b < n_; ++b) {
      const Vec3 v = Om_[b] + (h / (2 * J_[b])) * k.moment[b];
      double hv;
      const auto da = exact_increment(h, v, hv);
      if (!da)
        return StepStatus::breakdown(cat(body_label(b), "h |Omega + h t/(2J)| = ", format_number(hv, 6),
                                         " >= 1: outside the domain of eq. (23b)"));
      if (!advance(b, *da)) return half_turn(b);
      if (system_) x_[b] += h * v_[b] + (h * h / (2 * m_[b])) * k.force[b];
    }
    verlet_velocities(k, t + h, h);
    return {};
  }
};

/// Eq. (21): body form. omega_{k+1} = R_{k+1}^T R_k [omega_k + h/(2J) M_k] + h/(2J) M_{k+1};
/// translation by velocity Verlet (21a/c).
class BakerGonzalezBody final : public RrpChart {
 public:
  static const SchemeInfo& info();
  using RrpChart::RrpChart;
  void reset(const State& x0, double) {
    reset_chart(x0);
    w_.resize(n_);
    u_.resize(n_);
    for (std::size_t b = 0; b < n_; ++b) w_[b] = x0.bodies[b].W;
  }
  StepStatus step(double t, double h) {
    const Loads& k = loads_now(t);
    for (std::size_t b = 0; b < n_; ++b) {
      // Spatial R_k [omega_k + h M_k/(2J)], carried to the end of the step: R_{k+1}^T of it is (21c)'s first term.
      u_[b] = R_[b] * w_[b] + (h / (2 * J_[b])) * k.moment[b];
      double hv;
      const auto da = exact_increment(h, u_[b], hv);
      if (!da)
        return StepStatus::breakdown(cat(body_label(b), "h |omega + h M/(2J)| = ", format_number(hv, 6),
                                         " >= 1: outside the domain of eq. (21b)"));
      if (!advance(b, *da)) return half_turn(b);
      if (system_) x_[b] += h * v_[b] + (h * h / (2 * m_[b])) * k.force[b];
    }
    evaluate_next(t + h);
    const Loads& k1 = next();
    for (std::size_t b = 0; b < n_; ++b) {
      w_[b] = R_[b].transpose() * (u_[b] + (h / (2 * J_[b])) * k1.moment[b]);
      if (system_) v_[b] += (h / (2 * m_[b])) * (k.force[b] + k1.force[b]);
    }
    swap_loads(t + h);
    return {};
  }
  void read(State& x) const {
    for (std::size_t b = 0; b < n_; ++b) {
      x.bodies[b].R = R_[b];
      x.bodies[b].W = w_[b];
    }
    read_translation(x);
  }

 private:
  std::vector<Vec3> w_, u_;
};

/// Eq. (25): dalpha = h Omega_k + h^2/(2J) t_k (the first two terms of (24)); no domain limit.
/// Translation (25a/c) by velocity Verlet.
class BakerGonzalezNewmark final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  using RrpSpatialChart::RrpSpatialChart;
  StepStatus step(double t, double h) {
    const Loads& k = loads_now(t);
    for (std::size_t b = 0; b < n_; ++b) {
      if (!advance(b, h * Om_[b] + (h * h / (2 * J_[b])) * k.moment[b])) return half_turn(b);
      if (system_) x_[b] += h * v_[b] + (h * h / (2 * m_[b])) * k.force[b];
    }
    verlet_velocities(k, t + h, h);
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
    // One rigid body (the SE(3)^n form of (26) would need Newton on every body at once: not declared).
    const Vec3 tk = loads_now(t).moment[0];
    Vec3 W = Om_[0] + (h / J_[0]) * tk;  // the explicit (27) update as the initial guess
    if (loaded_ && phi_ != 1.0) {
      const System sys{p_, J_[0], phi_, h, t + h, R_[0], Om_[0], tk};
      const NewtonResult nr = newton_solve<3>(
          [&](const Vec3& w, Vec3& r, Mat3& Jac, bool jacobian) {
            ++c_.load_evaluations;
            sys(w, r, Jac, jacobian);
          },
          W, newton_);
      c_.newton_iterations += std::uint64_t(nr.iterations);
      c_.jacobian_evaluations += std::uint64_t(nr.jacobians);
      if (!nr.converged)
        return newton_breakdown("Campello (26)", "Omega", nr);
    }
    if (!advance(0, h * W)) return half_turn(0);
    Om_[0] = W;
    evaluate_next(t + h);  // the next step's t_k
    swap_loads(t + h);
    return {};
  }
  double phi() const { return phi_; }
  /// Eq. (26)'s Newton system; with phi = 1 (eq. 27) or no load the step is explicit and the
  /// residual is linear (its Jacobian the identity), still a valid system to check.
  NewtonSystem newton_system(double t, double h) {
    const Vec3 tk = loads_now(t).moment[0];
    return erase_newton_system<3>("Omega", Vec3(Om_[0] + (h / J_[0]) * tk),
                                  System{p_, J_[0], phi_, h, t + h, R_[0], Om_[0], tk});
  }

 private:
  /// The residual of the step (campello_system); R_k, Omega_k and t_k copied: the step overwrites them.
  struct System {
    const Problem* p;
    double J, phi, h, t_next;
    Mat3 Rk;
    Vec3 Om, tk;
    void operator()(const Vec3& w, Vec3& r, Mat3& Jac, bool jacobian = true) const {
      campello_system(*p, J, phi, h, t_next, Rk, Om, tk, w, r, Jac, jacobian);
    }
  };
  double phi_;
  NewtonSettings newton_;
};

/// Eq. (27): Campello's symplectic Euler, Omega_{k+1} = Omega_k + h/J t_k, dalpha = h Omega_{k+1};
/// translation (27a/c): v_{k+1} = v_k + h/m F_k, x_{k+1} = x_k + h v_{k+1}.
class CampelloSymplecticEuler final : public RrpSpatialChart {
 public:
  static const SchemeInfo& info();
  using RrpSpatialChart::RrpSpatialChart;
  StepStatus step(double t, double h) {
    const Loads& k = loads_now(t);
    for (std::size_t b = 0; b < n_; ++b) {
      const Vec3 W = Om_[b] + (h / J_[b]) * k.moment[b];
      if (!advance(b, h * W)) return half_turn(b);
      Om_[b] = W;
      if (system_) {
        v_[b] += (h / m_[b]) * k.force[b];
        x_[b] += h * v_[b];
      }
    }
    evaluate_next(t + h);
    swap_loads(t + h);
    return {};
  }
};

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in rrp_schemes.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<BakerGonzalezBody>;
extern template class Erased<BakerGonzalezSpatial>;
extern template class Erased<BakerGonzalezNewmark>;
extern template class Erased<CampelloSymplecticEuler>;
extern template class Erased<CampelloImplicit>;

}  // namespace rigidbench
