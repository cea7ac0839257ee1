// The LGVI of a chain of rigid bodies (lgvi_chain.hpp gives the equations).
#include "lgvi_chain.hpp"

#include "../core/so3.hpp"
#include "lgvi.hpp"

namespace rigidbench {

LgviChain::LgviChain(const Problem& p, NewtonSettings s)
    : p_(&p), d_(&chain_data(p)), n_(p.bodies.size()), free_(!d_->pivot), newton_(s), c_(n_), mc_(n_, Vec3::Zero()),
      R_(n_), Pi_(n_), M_(n_, Vec3::Zero()) {
  for (std::size_t i = 0; i < n_; ++i) {
    mass_ += p.bodies[i].mass;
    for (std::size_t j = 0; j <= i; ++j) {
      c_[i].push_back(chain_offset(*d_, i, j));
      mc_[j] += p.bodies[i].mass * c_[i][j];
    }
  }
}

void LgviChain::moments(const std::vector<Mat3>& R, std::vector<Vec3>& M) const {
  for (std::size_t j = 0; j < n_; ++j) M[j] = mc_[j].cross(R[j].transpose() * d_->gravity);
}

void LgviChain::reset(const State& x0) {
  State s = x0;
  place_chain(*d_, s);  // velocities on the chain's tangent space
  const std::size_t N = 3 * n_ + (free_ ? 3 : 0);
  velocity_.resize(Eigen::Index(N));
  for (std::size_t i = 0; i < n_; ++i) {
    R_[i] = s.bodies[i].R;
    velocity_.segment<3>(3 * i) = s.bodies[i].W;
  }
  chain_momenta(*p_, s, Pi_, P_);
  base_ = free_ ? s.bodies[0].x : *d_->pivot;
  if (free_) velocity_.tail<3>() = s.bodies[0].v;
  moments(R_, M_);
}

void LgviChain::System::displacements(const Eigen::VectorXd& x) const {
  const LgviChain& c = *chain;
  F.resize(c.n_);
  dx.resize(c.n_);
  for (std::size_t l = 0; l < c.n_; ++l) F[l] = so3::exp(x.segment<3>(3 * l));
  for (std::size_t i = 0; i < c.n_; ++i) {
    dx[i] = c.free_ ? Vec3(x.tail<3>()) : Vec3::Zero();
    for (std::size_t l = 0; l <= i; ++l) dx[i] += c.R_[l] * (F[l] * c.c_[i][l] - c.c_[i][l]);
  }
}

Vec3 LgviChain::System::coupling(std::size_t j, const Mat3& Rj) const {
  const LgviChain& c = *chain;
  Vec3 C = Vec3::Zero();
  for (std::size_t i = j; i < c.n_; ++i) C += c.p_->bodies[i].mass * c.c_[i][j].cross(Rj.transpose() * dx[i]);
  return C;
}

void LgviChain::System::operator()(const Eigen::VectorXd& x, Eigen::VectorXd& r, Eigen::MatrixXd& J,
                                   bool jacobian) const {
  const LgviChain& c = *chain;
  const std::size_t n = c.n_;
  const Eigen::Index N = x.size();
  displacements(x);
  r.resize(N);
  if (jacobian) J.setZero(N, N);
  for (std::size_t j = 0; j < n; ++j) {
    Vec3 rj;
    Mat3 Gj;
    lgvi_system(c.p_->inertia(j), g.segment<3>(3 * j), x.segment<3>(3 * j), rj, Gj, jacobian);
    r.segment<3>(3 * j) = rj + coupling(j, c.R_[j]);
    if (jacobian) J.block<3, 3>(3 * j, 3 * j) += Gj;
  }
  if (c.free_) {
    Vec3 rb = -g.tail<3>();
    for (std::size_t i = 0; i < n; ++i) rb += c.p_->bodies[i].mass * dx[i];
    r.tail<3>() = rb;
  }
  if (!jacobian) return;
  for (std::size_t l = 0; l < n; ++l) {
    const Mat3 RF = c.R_[l] * F[l], Jr = so3::dexp_right(x.segment<3>(3 * l));
    for (std::size_t i = l; i < n; ++i) {
      const Mat3 D = -RF * so3::hat(c.c_[i][l]) * Jr;  // d dx_i / d f_l
      const double m = c.p_->bodies[i].mass;
      for (std::size_t j = 0; j <= i; ++j)
        J.block<3, 3>(3 * j, 3 * l) += m * so3::hat(c.c_[i][j]) * c.R_[j].transpose() * D;
      if (c.free_) J.block<3, 3>(N - 3, 3 * l) += m * D;
    }
  }
  if (c.free_) {
    for (std::size_t j = 0; j < n; ++j) J.block<3, 3>(3 * j, N - 3) = so3::hat(c.mc_[j]) * c.R_[j].transpose();
    J.bottomRightCorner<3, 3>() = c.mass_ * Mat3::Identity();
  }
}

void LgviChain::prepare(System& s, double h) const {
  s.chain = this;
  s.g.resize(velocity_.size());
  for (std::size_t j = 0; j < n_; ++j) s.g.segment<3>(3 * j) = h * Pi_[j] + (0.5 * h * h) * M_[j];
  if (free_) s.g.tail<3>() = h * P_ + (0.5 * h * h) * mass_ * d_->gravity;
}

StepStatus LgviChain::step(double h, Counters& counters) {
  // The work arrays (sys_, x_, R1_, M1_) are members, sized at the first step and reused: a step
  // allocates only inside the Newton solve.
  System& sys = sys_;
  prepare(sys, h);
  Eigen::VectorXd& x = x_;
  x = h * velocity_;
  const NewtonResult nr = newton_solve<Eigen::Dynamic>(sys, x, newton_, DynamicLu{});
  counters.newton_iterations += std::uint64_t(nr.iterations);
  counters.jacobian_evaluations += std::uint64_t(nr.jacobians);
  if (!nr.converged) return newton_breakdown("LGVI", "f", nr);
  constexpr double kPi = 3.14159265358979323846;
  for (std::size_t j = 0; j < n_; ++j)
    if (const double a = x.segment<3>(3 * j).norm(); !(a < kPi))
      return StepStatus::breakdown(cat("LGVI: body ", std::to_string(j), "'s relative rotation F = exp(f) has |f| = ",
                                       format_number(a, 4), " >= pi: the step h = ", format_number(h, 4),
                                       " is too large for the exponential chart"));
  sys.displacements(x);
  std::vector<Mat3>& R1 = R1_;
  std::vector<Vec3>& M1 = M1_;
  R1.resize(n_);
  M1.assign(n_, Vec3::Zero());
  for (std::size_t j = 0; j < n_; ++j) R1[j] = R_[j] * sys.F[j];
  if (d_->gravity.squaredNorm() > 0) {
    moments(R1, M1);
    ++counters.load_evaluations;
  }
  for (std::size_t j = 0; j < n_; ++j)
    Pi_[j] = (sys.F[j].transpose() * (sys.g.segment<3>(3 * j) - sys.coupling(j, R_[j])) + sys.coupling(j, R1[j])) / h +
             (0.5 * h) * M1[j];
  if (free_) {
    Vec3 s = Vec3::Zero();
    for (std::size_t i = 0; i < n_; ++i) s += p_->bodies[i].mass * sys.dx[i];
    P_ = s / h + (0.5 * h * mass_) * d_->gravity;
    base_ += x.tail<3>();
  }
  R_.swap(R1);
  M_.swap(M1);
  velocity_ = x / h;
  return {};
}

void LgviChain::read(State& x) const {
  // W and v_0 from the momenta by the chain's mass matrix (the continuous Legendre transform).
  const Eigen::Index N = velocity_.size();
  Eigen::VectorXd rhs(N);
  for (std::size_t j = 0; j < n_; ++j) rhs.segment<3>(3 * j) = Pi_[j];
  if (free_) rhs.tail<3>() = P_;
  const Eigen::VectorXd u = chain_mass_matrix(*p_, R_).ldlt().solve(rhs);
  x.bodies.resize(n_);
  for (std::size_t j = 0; j < n_; ++j) {
    x.bodies[j].R = R_[j];
    x.bodies[j].W = u.segment<3>(3 * j);
  }
  if (free_) {
    x.bodies[0].x = base_;
    x.bodies[0].v = u.tail<3>();
  }
  place_chain(*d_, x);
}

NewtonSystem LgviChain::newton_system(double h) const {
  System sys;
  prepare(sys, h);
  return {"f", h * velocity_, [sys](const Eigen::VectorXd& x, Eigen::VectorXd& r, Eigen::MatrixXd& J) { sys(x, r, J); }};
}

}  // namespace rigidbench
