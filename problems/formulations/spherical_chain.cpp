// The two formulations of a spherical_chain (spherical_chain.hpp says what each is). Compiled here, not
// inline in the header: a dense solve per evaluation gains nothing from inlining, and inlined into
// every unit that includes the header it shifted GCC's inlining budget in those units (the odeint
// schemes' one-body right-hand side stopped being inlined: 3-4 % more instructions a step).
#include "spherical_chain.hpp"

namespace rigidbench::formulations {

void ChainMinimal::operator()(const state_type& y, state_type& dy, double /*t*/) const {
  Scratch& w = scratch_;
  w.size(n, 3 * n + (free ? 3 : 0));
  for (std::size_t i = 0; i < n; ++i) {
    w.R[i] = quat::to_matrix(Vec4(y[7 * i], y[7 * i + 1], y[7 * i + 2], y[7 * i + 3]));
    w.W[i] = Vec3(y[7 * i + 4], y[7 * i + 5], y[7 * i + 6]);
  }
  const Eigen::VectorXd& u = solve(w.R, w.W);
  const std::vector<Vec3>& W = w.W;
  dy.resize(y.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Vec4 dq = 0.5 * quat::multiply(Vec4(y[7 * i], y[7 * i + 1], y[7 * i + 2], y[7 * i + 3]),
                                         Vec4(0.0, W[i].x(), W[i].y(), W[i].z()));
    for (int k = 0; k < 4; ++k) dy[7 * i + k] = dq[k];
    for (int k = 0; k < 3; ++k) dy[7 * i + 4 + k] = u[3 * i + k];
  }
  if (free)
    for (int k = 0; k < 3; ++k) {
      dy[7 * n + k] = y[7 * n + 3 + k];
      dy[7 * n + 3 + k] = u[3 * n + k];
    }
}

const Eigen::VectorXd& ChainMinimal::solve(const std::vector<Mat3>& R, const std::vector<Vec3>& W) const {
  if (load_evaluations) ++*load_evaluations;
  const std::size_t N = 3 * n + (free ? 3 : 0);
  Scratch& w = scratch_;
  w.size(n, N);
  // x_k'' = X[k] u + c[k], u = (W_0', ..., W_{n-1}' [, x_0''])
  std::vector<Eigen::MatrixXd>& X = w.X;
  std::vector<Vec3>& c = w.c;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0) {
      X[k] = X[k - 1];
      X[k].middleCols<3>(3 * (k - 1)) -= R[k - 1] * so3::hat(d->outboard[k - 1]);
      c[k] = c[k - 1] + R[k - 1] * W[k - 1].cross(W[k - 1].cross(d->outboard[k - 1]));
    } else {
      X[0].setZero();
      c[0].setZero();
      if (free) X[0].middleCols<3>(3 * n).setIdentity();
    }
    if (k > 0 || !free) {
      X[k].middleCols<3>(3 * k) += R[k] * so3::hat(d->inboard[k]);
      c[k] -= R[k] * W[k].cross(W[k].cross(d->inboard[k]));
    }
  }
  // F_i = FM[i] u + Fc[i], summed from the tip (F_n = 0).
  std::vector<Eigen::MatrixXd>& FM = w.FM;
  std::vector<Vec3>& Fc = w.Fc;
  FM[n].setZero();
  Fc[n].setZero();
  for (std::size_t i = n; i-- > 0;) {
    const double m = problem->bodies[i].mass;
    FM[i] = FM[i + 1] + m * X[i];
    Fc[i] = Fc[i + 1] + m * (c[i] - d->gravity);
  }
  Eigen::MatrixXd& A = w.A;
  Eigen::VectorXd& r = w.r;
  A.setZero();
  for (std::size_t i = 0; i < n; ++i) {
    const Mat3& J = problem->inertia(i);
    const Mat3 Ta = so3::hat(d->inboard[i]) * R[i].transpose(), Tb = so3::hat(d->outboard[i]) * R[i].transpose();
    A.block<3, 3>(3 * i, 3 * i) += J;
    Vec3 ri = -W[i].cross(J * W[i]) - Tb * Fc[i + 1];
    A.middleRows<3>(3 * i) += Tb * FM[i + 1];
    if (i > 0 || !free) {
      A.middleRows<3>(3 * i) -= Ta * FM[i];
      ri += Ta * Fc[i];
    }
    r.segment<3>(3 * i) = ri;
  }
  if (free) {  // no force at body 0's inboard point: F_0 = 0
    A.bottomRows<3>() = FM[0];
    r.tail<3>() = -Fc[0];
  }
  w.lu.compute(A);
  return w.u = w.lu.solve(r);
}

ChainMinimal::state_type ChainMinimal::from_state(const State& s) const {
  state_type y(7 * n + (free ? 6 : 0));
  for (std::size_t i = 0; i < n; ++i) {
    const Vec4 q = quat::from_matrix(s.bodies[i].R);
    for (int k = 0; k < 4; ++k) y[7 * i + k] = q[k];
    for (int k = 0; k < 3; ++k) y[7 * i + 4 + k] = s.bodies[i].W[k];
  }
  if (free)
    for (int k = 0; k < 3; ++k) {
      y[7 * n + k] = s.bodies[0].x[k];
      y[7 * n + 3 + k] = s.bodies[0].v[k];
    }
  return y;
}
void ChainMinimal::to_state(const state_type& y, State& s) const {
  s.bodies.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.bodies[i].R = quat::to_matrix(Vec4(y[7 * i], y[7 * i + 1], y[7 * i + 2], y[7 * i + 3]));
    s.bodies[i].W = Vec3(y[7 * i + 4], y[7 * i + 5], y[7 * i + 6]);
  }
  if (free) {
    s.bodies[0].x = Vec3(y[7 * n], y[7 * n + 1], y[7 * n + 2]);
    s.bodies[0].v = Vec3(y[7 * n + 3], y[7 * n + 4], y[7 * n + 5]);
  }
  place_chain(*d, s);
}

void ChainMinimal::Scratch::size(std::size_t n, std::size_t N) {
  if (R.size() == n && A.rows() == Eigen::Index(N)) return;
  R.resize(n);
  W.resize(n);
  c.resize(n);
  Fc.resize(n + 1);
  X.assign(n, Eigen::MatrixXd::Zero(3, Eigen::Index(N)));
  FM.assign(n + 1, Eigen::MatrixXd::Zero(3, Eigen::Index(N)));
  A.resize(Eigen::Index(N), Eigen::Index(N));
  r.resize(Eigen::Index(N));
  lu = Eigen::PartialPivLU<Eigen::MatrixXd>(Eigen::Index(N));
}

void ChainMaximal::operator()(const state_type& y, state_type& dy, double /*t*/) const {
  const std::size_t first = d->pivot ? 0 : 1;  // the joints: 0 (the pivot's) .. n-1
  const std::size_t N = 6 * n + 3 * (n - first);
  std::vector<Mat3> R(n);
  std::vector<Vec3> W(n), x(n), v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double* s = y.data() + kPer * i;
    R[i] = quat::to_matrix(Vec4(s[0], s[1], s[2], s[3]));
    W[i] = Vec3(s[4], s[5], s[6]);
    x[i] = Vec3(s[7], s[8], s[9]);
    v[i] = Vec3(s[10], s[11], s[12]);
  }
  // Unknowns: W_i' at 3i, x_i'' at 3n + 3i, F_j (joint j's force on body j) at 6n + 3(j - first).
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(N, N);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(N);
  auto force = [&](std::size_t j) { return 6 * n + 3 * (j - first); };
  for (std::size_t i = 0; i < n; ++i) {
    const Mat3& J = problem->inertia(i);
    const double m = problem->bodies[i].mass;
    A.block<3, 3>(3 * i, 3 * i) = J;  // J W' - a x R^T F_i + b x R^T F_{i+1} = -W x J W
    r.segment<3>(3 * i) = -W[i].cross(J * W[i]);
    A.block<3, 3>(3 * n + 3 * i, 3 * n + 3 * i) = m * Mat3::Identity();  // m x'' - F_i + F_{i+1} = m g
    r.segment<3>(3 * n + 3 * i) = m * d->gravity;
    if (i >= first) {
      A.block<3, 3>(3 * i, force(i)) -= so3::hat(d->inboard[i]) * R[i].transpose();
      A.block<3, 3>(3 * n + 3 * i, force(i)) -= Mat3::Identity();
    }
    if (i + 1 < n) {
      A.block<3, 3>(3 * i, force(i + 1)) += so3::hat(d->outboard[i]) * R[i].transpose();
      A.block<3, 3>(3 * n + 3 * i, force(i + 1)) += Mat3::Identity();
    }
  }
  // Joint j: c = parent - (x_j + R_j a_j); c'' = -2 w c' - w^2 c, with the second derivative of
  // x + R p being x'' - R hat(p) W' + R W x (W x p).
  const double w = kBaumgarte;
  for (std::size_t j = first; j < n; ++j) {
    const std::size_t row = force(j);
    const Vec3& a = d->inboard[j];
    A.block<3, 3>(row, 3 * n + 3 * j) = -Mat3::Identity();
    A.block<3, 3>(row, 3 * j) = R[j] * so3::hat(a);
    Vec3 known = -R[j] * W[j].cross(W[j].cross(a));  // c'' = (row of A) u + known
    Vec3 c = -(x[j] + R[j] * a), cd = -(v[j] + R[j] * W[j].cross(a));
    if (j == 0) {
      c += *d->pivot;
    } else {
      const std::size_t p = j - 1;
      const Vec3& b = d->outboard[p];
      A.block<3, 3>(row, 3 * n + 3 * p) = Mat3::Identity();
      A.block<3, 3>(row, 3 * p) = -R[p] * so3::hat(b);
      known += R[p] * W[p].cross(W[p].cross(b));
      c += x[p] + R[p] * b;
      cd += v[p] + R[p] * W[p].cross(b);
    }
    // A u + known = c'' = -2 w c' - w^2 c
    r.segment<3>(row) = -known - 2 * w * cd - w * w * c;
  }
  const Eigen::VectorXd u = A.partialPivLu().solve(r);
  dy.resize(y.size());
  for (std::size_t i = 0; i < n; ++i) {
    const double* s = y.data() + kPer * i;
    double* o = dy.data() + kPer * i;
    const Vec4 dq = 0.5 * quat::multiply(Vec4(s[0], s[1], s[2], s[3]), Vec4(0.0, W[i].x(), W[i].y(), W[i].z()));
    for (int k = 0; k < 4; ++k) o[k] = dq[k];
    for (int k = 0; k < 3; ++k) {
      o[4 + k] = u[3 * i + k];
      o[7 + k] = s[10 + k];
      o[10 + k] = u[3 * n + 3 * i + k];
    }
  }
}

}  // namespace rigidbench::formulations
