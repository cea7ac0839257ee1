#pragma once
// The Lie group variational integrator of a chain of rigid bodies on spherical joints
// (problems/families/spherical_chain.hpp), on SO(3)^n and, for a free chain, R^3 for body 0's centre
// of mass: the `lgvi` scheme on the spherical_chain family (lgvi.hpp steps one body). After Lee, Leok
// & McClamroch's variational integrators of connected rigid bodies ([LLM] ch. 7; docs/decisions.md,
// "LGVI of a chain", gives the derivation): with R_{j,k+1} = R_{j,k} F_j, the joints'
// x_i = base + sum_j R_j c_ij (chain_offset) and J_dj = tr(J_j)/2 I - J_j, the discrete Lagrangian
//   L_d = sum_j tr((I - F_j) J_dj)/h + sum_i m_i |dx_i|^2/(2h) + h/2 sum_i m_i g.(x_{i,k} + x_{i,k+1}),
//   dx_i = x_{i,k+1} - x_{i,k} = d + sum_j R_{j,k} (F_j - I) c_ij   (d: the base's displacement),
// is the trapezoidal rule's with the kinetic energy quadratic in the embedding (R, x), as for one
// body. Its discrete Legendre transforms, with Pi_j = J_j W_j + sum_i m_i c_ij x R_j^T x_i' (the
// momentum conjugate to body j's attitude) and P = sum_i m_i x_i' (a free chain's), are the step:
//   vee(F_j J_dj - J_dj F_j^T) + C_j(R_k) = h Pi_{j,k} + h^2/2 M_{j,k},   C_j(R) = sum_i m_i c_ij x R_j^T dx_i,
//   sum_i m_i dx_i = h P_k + h^2/2 m g                                      (free chain: d is unknown),
//   Pi_{j,k+1} = (F_j^T (h Pi_{j,k} + h^2/2 M_{j,k} - C_j(R_k)) + C_j(R_{k+1}))/h + h/2 M_{j,k+1},
//   P_{k+1} = sum_i m_i dx_i / h + h/2 m g,
// M_j = (sum_i m_i c_ij) x R_j^T g gravity's moment on body j's attitude. The first 3n (+3) equations
// are solved by Newton for f_j (F_j = exp(hat f_j)) and d; vee(F J_d - J_d F^T) is the one-body
// LGVI's G(f) (lgvi_system). The map is symplectic and symmetric, and it keeps the momentum maps of
// L_d's symmetries exactly (discrete Noether): sum_j R_j Pi_j (+ base x P), the angular momentum about
// the pivot, along gravity, and for a free chain without gravity all of it and P. The energy is
// bounded, not exact: the Moser-Veselov property of one free body does not carry over to a chain.
#include <Eigen/Dense>
#include <cstddef>
#include <vector>

#include "../core/newton.hpp"
#include "../problems/families/spherical_chain.hpp"
#include "integrator.hpp"

namespace rigidbench {

class LgviChain {
 public:
  LgviChain(const Problem& p, NewtonSettings s);
  void reset(const State& x0);
  StepStatus step(double h, Counters& c);
  void read(State& x) const;
  NewtonSystem newton_system(double h) const;

  /// The residual of the step equations above in x = (f_0, ..., f_{n-1} [, d]) and its Jacobian
  /// (tests/test_newton_systems.cpp checks it against finite differences):
  ///   d dx_i / d f_l = -R_l F_l hat(c_il) dexp_r(f_l),   d dx_i / d d = I.
  struct System {
    const LgviChain* chain = nullptr;
    Eigen::VectorXd g;  // h Pi_j + h^2/2 M_j, then h P + h^2/2 m g
    mutable std::vector<Mat3> F;
    mutable std::vector<Vec3> dx;
    void operator()(const Eigen::VectorXd& x, Eigen::VectorXd& r, Eigen::MatrixXd& J, bool jacobian = true) const;
    /// F_j and dx_i at x.
    void displacements(const Eigen::VectorXd& x) const;
    /// C_j(R) of the displacements last computed.
    Vec3 coupling(std::size_t j, const Mat3& Rj) const;
  };

 private:
  /// s's right-hand side g for a step h from the current state.
  void prepare(System& s, double h) const;
  /// Gravity's moments M_j at the attitudes R (zero without gravity).
  void moments(const std::vector<Mat3>& R, std::vector<Vec3>& M) const;

  const Problem* p_;
  const ChainData* d_;
  std::size_t n_;
  bool free_;
  NewtonSettings newton_;
  std::vector<std::vector<Vec3>> c_;  // c_[i][j] = chain_offset(i, j), j <= i
  std::vector<Vec3> mc_;              // sum_{i >= j} m_i c_ij
  double mass_ = 0;
  std::vector<Mat3> R_;
  std::vector<Vec3> Pi_, M_;  // M_: gravity's moments at R_ (first same as last)
  Vec3 base_ = Vec3::Zero(), P_ = Vec3::Zero();
  Eigen::VectorXd velocity_;  // (f_j, d)/h of the last step, W and v_0 after a reset: h times it is the guess
  // A step's work arrays, kept between steps (step() says why).
  System sys_;
  Eigen::VectorXd x_;
  std::vector<Mat3> R1_;
  std::vector<Vec3> M1_;
};

}  // namespace rigidbench
