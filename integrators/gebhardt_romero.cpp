#include "gebhardt_romero.hpp"
#include "any_integrator.hpp"

namespace rigidbench {

namespace {

Vec3 dir(const Vec9& q, int i) { return q.segment<3>(3 * i); }

/// Columns: grad h_k(q) for h = (d2.d3, d1.d3, d1.d2, (|d1|^2-1)/2, (|d2|^2-1)/2, (|d3|^2-1)/2).
Eigen::Matrix<double, 9, 6> constraint_gradients(const Vec9& q) {
  Eigen::Matrix<double, 9, 6> G = Eigen::Matrix<double, 9, 6>::Zero();
  const Vec3 d1 = dir(q, 0), d2 = dir(q, 1), d3 = dir(q, 2);
  G.block<3, 1>(3, 0) = d3, G.block<3, 1>(6, 0) = d2;
  G.block<3, 1>(0, 1) = d3, G.block<3, 1>(6, 1) = d1;
  G.block<3, 1>(0, 2) = d2, G.block<3, 1>(3, 2) = d1;
  G.block<3, 1>(0, 3) = d1;
  G.block<3, 1>(3, 4) = d2;
  G.block<3, 1>(6, 5) = d3;
  return G;
}

Eigen::Matrix<double, 6, 1> constraints(const Vec9& q) {
  const Vec3 d1 = dir(q, 0), d2 = dir(q, 1), d3 = dir(q, 2);
  Eigen::Matrix<double, 6, 1> h;
  h << d2.dot(d3), d1.dot(d3), d1.dot(d2), 0.5 * (d1.squaredNorm() - 1), 0.5 * (d2.squaredNorm() - 1),
      0.5 * (d3.squaredNorm() - 1);
  return h;
}

/// GrBlockLu's path three needs K (the configuration block's 3 x 3 factor) well conditioned; a
/// lamina's (JJ33 = 0) is not. One test for the solver and its flop model.
bool block_elimination_applies(const Mat3& K) {
  const double scale = K.cwiseAbs().maxCoeff();
  return std::abs(K.determinant()) > 1e-6 * scale * scale * scale;
}

/// Where it does not: the director GrBlockLu keeps with the multipliers (path two), the one whose
/// complementary 2 x 2 block of K has the largest determinant, if that block passes the same relative
/// test; -1 if none does (a rod: JJ of rank one). Shared with the flop model.
int kept_director(const Mat3& K) {
  const double scale = K.cwiseAbs().maxCoeff();
  double best = 1e-6 * scale * scale;
  int kept = -1;
  for (int c = 0; c < 3; ++c) {
    const int a = c == 0 ? 1 : 0, b = c == 2 ? 1 : 2;
    const double det = std::abs(K(a, a) * K(b, b) - K(a, b) * K(b, a));
    if (det > best) best = det, kept = c;
  }
  return kept;
}

}  // namespace

template <int N>
void gr_system(const GrStepData& d, const Eigen::Matrix<double, N, 1>& x, Eigen::Matrix<double, N, 1>& r,
               Eigen::Matrix<double, N, N>& Jac, bool jacobian) {
  const Vec9 q1 = x.template head<9>();
  const Vec9 qm = 0.5 * (d.q0 + q1);
  const double h = d.h, s = 0.5 * h * h;
  const Eigen::Matrix<double, 6, 1> lam = x.template segment<6>(9);
  // Sum_k lambda_k Hess h_k: block (i, j) is C(i, j) I3.
  Mat3 C;
  C << lam[3], lam[2], lam[1], lam[2], lam[4], lam[0], lam[1], lam[0], lam[5];
  r.setZero();
  if (jacobian) Jac.setZero();
  const Vec9 inc = q1 - d.q0 - h * d.v0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      // h^2/2 * (eq. 87b): M (q_{n+1} - q_n - h qdot_n), M = JJ (x) I3 (eq. 88)
      r.template segment<3>(3 * i) += d.euler(i, j) * inc.segment<3>(3 * j);
      // H_d^T lambda = H(q_mid)^T lambda = (Sum_k lambda_k Hess h_k) q_mid (h quadratic, eq. 89)
      r.template segment<3>(3 * i) += C(i, j) * dir(qm, j);
      if (jacobian) Jac.template block<3, 3>(3 * i, 3 * j).diagonal().array() += d.euler(i, j) + 0.5 * C(i, j);
    }
  r.template segment<6>(9) = constraints(q1);
  if (jacobian) {
    Jac.template block<9, 6>(0, 9) = constraint_gradients(qm);
    Jac.template block<6, 9>(9, 0) = constraint_gradients(q1).transpose();
  }

  // External loads at t_{n+1/2} with the midpoint directors.
  const Problem& p = *d.problem;
  for (const Load& l : p.loads)
    std::visit(overloaded{[&](const UniformField& f) {
                            const Vec3 F = f.mass * f.acceleration;  // Q_k = p_k F = -dU/dd_k
                            for (int k = 0; k < 3; ++k) r.template segment<3>(3 * k) -= s * f.point[k] * F;
                          },
                          [&](const FollowerMoment& fm) {
                            const double phi = fm.profile(d.t_mid);
                            Vec3 B = fm.body;
                            if (d.nonholonomic) B[2] = 0.0;  // only m_perp does work (eqs. 79, 84)
                            Vec3 m = Vec3::Zero();
                            for (int k = 0; k < 3; ++k) m += phi * B[k] * dir(qm, k);
                            const Mat3 hm = so3::hat(m);
                            for (int i = 0; i < 3; ++i) {
                              const Vec3 di = dir(qm, i);
                              r.template segment<3>(3 * i) -= s * 0.5 * m.cross(di);  // f^i = 1/2 m x d_i (eqs. 68, 84)
                              if (!jacobian) continue;
                              const Mat3 hdi = so3::hat(di);
                              for (int j = 0; j < 3; ++j) {
                                Mat3 dfd = -phi * B[j] * hdi;  // d(m x d_i)/d d_j (through m)
                                if (i == j) dfd += hm;          // ... and through d_i
                                Jac.template block<3, 3>(3 * i, 3 * j) -= s * 0.25 * dfd;
                              }
                            }
                          }},
               l);

  if constexpr (N == 16) {
    // Eq. 80 and 93-94: g = (1 - a) d1'.d2 - a d2'.d1 = gvec(q) . qdot, gvec(q) = A q with
    // A = [[0, (1-a) I, 0], [-a I, 0, 0], [0, 0, 0]]; G_d = gvec(q_mid)^T exactly (A is constant).
    const double a = d.a, mu = x[15];
    Vec9 g = Vec9::Zero();
    g.segment<3>(0) = (1 - a) * dir(qm, 1);
    g.segment<3>(3) = -a * dir(qm, 0);
    r.template head<9>() += mu * g;
    const Vec9 dq = q1 - d.q0;
    r[15] = g.dot(dq) / h;
    if (!jacobian) return;
    Jac.template block<9, 1>(0, 15) = g;
    Jac.template block<3, 3>(0, 3).diagonal().array() += 0.5 * mu * (1 - a);
    Jac.template block<3, 3>(3, 0).diagonal().array() += -0.5 * mu * a;
    Vec9 grad = g;  // d(gvec(q_mid) . dq)/dq_{n+1} = gvec(q_mid) + 1/2 A^T dq
    grad.segment<3>(0) += 0.5 * (-a) * dq.segment<3>(3);
    grad.segment<3>(3) += 0.5 * (1 - a) * dq.segment<3>(0);
    Jac.template block<1, 9>(15, 0) = grad.transpose() / h;
  }
}

template <int N>
void GrBlockLu<N>::factor(const Eigen::Matrix<double, N, N>& Jac) {
  // Without a follower moment the configuration block is K (x) I3 (see gr_system: M = JJ (x) I3,
  // eq. 88; the multipliers' Hessian term 1/2 C (x) I3; the nonholonomic mu terms, eq. 94, are
  // multiples of I3 too), so its inverse is K^-1 (x) I3 and the 9 + m system reduces to the m x m
  // Schur complement S = B (K^-1 (x) I3) G of the constraint blocks:
  //   S dl = r_c - B z,  z = (K^-1 (x) I3) r_q,  dq = -(z + (K^-1 (x) I3) G dl).
  // K = JJ + 1/2 C: JJ is positive semi-definite by the triangle inequality and singular for a lamina
  // (J3 = J1 + J2, the catalogue's free body: JJ33 = int z^2 dm = 0), where only the constraints fix
  // the third director and K is (near) singular. Then the two directors whose 2 x 2 block of K is
  // best conditioned are eliminated the same way and the third joins the multipliers (path two).
  Mat3 K;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) K(i, j) = Jac(3 * i, 3 * j);
  if (block_elimination_applies(K)) {
    path = Path::three;
    Ki = K.inverse();  // closed form (cofactors)
    for (int i = 0; i < 3; ++i)
      Y.template block<3, m>(3 * i, 0) = Ki(i, 0) * Jac.template block<3, m>(0, 9) +
                                         Ki(i, 1) * Jac.template block<3, m>(3, 9) + Ki(i, 2) * Jac.template block<3, m>(6, 9);
    B = Jac.template block<m, 9>(9, 0);
    S.compute(B.lazyProduct(Y));  // coefficient-wise: 6 + 6 + 9 > 20 would send B * Y to Eigen's GEMM (packing)
    return;
  }
  c = kept_director(K);
  if (c < 0) {
    path = Path::dense;
    lu.compute(Jac);
    return;
  }
  path = Path::two;
  e[0] = c == 0 ? 1 : 0, e[1] = c == 2 ? 1 : 2;
  const double det = K(e[0], e[0]) * K(e[1], e[1]) - K(e[0], e[1]) * K(e[1], e[0]);
  K2i << K(e[1], e[1]) / det, -K(e[0], e[1]) / det, -K(e[1], e[0]) / det, K(e[0], e[0]) / det;
  // Unknowns E = (d_e0, d_e1), R = (d_c, multipliers). A_EE = K2 (x) I3; A_ER's director columns
  // are K(e_i, c) I3; A_RE's director rows K(c, e_i) I3, its constraint rows Be.
  Eigen::Matrix<double, k, k> A;  // A_RR, then the Schur complement
  A.template block<3, 3>(0, 0) = Jac.template block<3, 3>(3 * c, 3 * c);
  A.template block<3, m>(0, 3) = Jac.template block<3, m>(3 * c, 9);
  A.template block<m, 3>(3, 0) = Jac.template block<m, 3>(9, 3 * c);
  A.template block<m, m>(3, 3) = Jac.template block<m, m>(9, 9);
  for (int i = 0; i < 2; ++i) {
    kce[i] = K(c, e[i]);
    Be.template block<m, 3>(0, 3 * i) = Jac.template block<m, 3>(9, 3 * e[i]);
    const double k0 = K2i(i, 0), k1 = K2i(i, 1);
    Y2.template block<3, 3>(3 * i, 0) = (k0 * K(e[0], c) + k1 * K(e[1], c)) * Mat3::Identity();
    Y2.template block<3, m>(3 * i, 3) = k0 * Jac.template block<3, m>(3 * e[0], 9) + k1 * Jac.template block<3, m>(3 * e[1], 9);
  }
  A.template topRows<3>() -= kce[0] * Y2.template topRows<3>() + kce[1] * Y2.template bottomRows<3>();
  // A_RE Y2 over the constraint rows that involve an eliminated director: a constraint of eq. 63 or a
  // unit length involves two directors or one (eq. 94's, d1 and d2), so each director's block of Be
  // has three to four nonzero rows of six or seven. Zero rows are skipped as found, not assumed.
  for (int i = 0; i < 2; ++i)
    for (int row = 0; row < m; ++row)
      if (!Be.template block<1, 3>(row, 3 * i).isZero(0.0))
        A.row(3 + row) -= Be.template block<1, 3>(row, 3 * i) * Y2.template middleRows<3>(3 * i);
  S2.compute(A);
}

template <int N>
Eigen::Matrix<double, N, 1> GrBlockLu<N>::solve(const Eigen::Matrix<double, N, 1>& r) const {
  if (path == Path::dense) return lu.solve(-r);
  Eigen::Matrix<double, N, 1> dx;
  if (path == Path::three) {
    Vec9 z;
    for (int i = 0; i < 3; ++i)
      z.template segment<3>(3 * i) = Ki(i, 0) * r.template segment<3>(0) + Ki(i, 1) * r.template segment<3>(3) +
                                     Ki(i, 2) * r.template segment<3>(6);
    const Eigen::Matrix<double, m, 1> dl = S.solve(r.template tail<m>() - B * z);
    dx.template head<9>() = -(z + Y * dl);
    dx.template tail<m>() = dl;
    return dx;
  }
  // Path two. A_EE dE + A_ER dR = -r_E, A_RE dE + A_RR dR = -r_R:
  //   z = A_EE^-1 r_E, (A_RR - A_RE Y2) dR = A_RE z - r_R, dE = -(z + Y2 dR).
  Eigen::Matrix<double, 6, 1> z;
  const Vec3 r0 = r.template segment<3>(3 * e[0]), r1 = r.template segment<3>(3 * e[1]);
  z.template head<3>() = K2i(0, 0) * r0 + K2i(0, 1) * r1;
  z.template tail<3>() = K2i(1, 0) * r0 + K2i(1, 1) * r1;
  Eigen::Matrix<double, k, 1> b;
  b.template head<3>() = kce[0] * z.template head<3>() + kce[1] * z.template tail<3>() - r.template segment<3>(3 * c);
  b.template tail<m>() = Be * z - r.template tail<m>();
  const Eigen::Matrix<double, k, 1> dR = S2.solve(b);
  const Eigen::Matrix<double, 6, 1> dE = -(z + Y2 * dR);
  dx.template segment<3>(3 * e[0]) = dE.template head<3>();
  dx.template segment<3>(3 * e[1]) = dE.template tail<3>();
  dx.template segment<3>(3 * c) = dR.template head<3>();
  dx.template tail<m>() = dR.template tail<m>();
  return dx;
}

template struct GrBlockLu<15>;
template struct GrBlockLu<16>;

template void gr_system<15>(const GrStepData&, const Eigen::Matrix<double, 15, 1>&, Eigen::Matrix<double, 15, 1>&,
                            Eigen::Matrix<double, 15, 15>&, bool);
template void gr_system<16>(const GrStepData&, const Eigen::Matrix<double, 16, 1>&, Eigen::Matrix<double, 16, 1>&,
                            Eigen::Matrix<double, 16, 16>&, bool);

namespace {

// docs/flops.md, "Gebhardt-Romero". Per iteration: gr_system's residual, the Newton step's
// substitutions, Newton's update (judged on the 9 directors); per Jacobian: gr_system's Jacobian and
// the factorisation. Residual: q_mid (18), h^2/2 (2), the increment (27), M and the multipliers'
// Hessian applied (108), the six constraints (36); per field (24); per follower moment: its profile,
// m and the three forces (75); nonholonomic: eq. 94's residuals (52). Jacobian: the nine diagonal
// blocks (45); per follower moment its tangent blocks (288); nonholonomic: eq. 94's row and column (35).
constexpr double kGrResidual = 18 + 2 + 27 + 108 + 36, kGrJacobian = 45;
/// GrBlockLu on m multipliers. Path three: factor: det K and its test (17), K^-1 (42),
/// Y = (K^-1 (x) I3) G (45 m), S = B Y (17 m^2), the m x m LU; solve: z (45), r_c - B z (18 m), the
/// substitutions, dq = -(z + Y dl) (18 m). Path two, k = m + 3 unknowns kept: factor: the 3 x 3 test
/// (17), the 2 x 2 tests (9), K2^-1 (7), Y2's director (6) and multiplier columns (18 m), the kept
/// director's rows of the Schur complement (12 k) and the constraints' (6 k per nonzero row of an
/// eliminated director's constraint block: three for each director, and eq. 94's row for d1 and d2),
/// the k x k LU; solve: z (18), the right-hand side (12 + 12 m), the substitutions, dE (12 k).
constexpr double block_factor(int m) { return 17 + 42 + 45.0 * m + 17.0 * m * m + flops::lu_factor(m); }
constexpr double block_substitute(int m) { return 45 + 18.0 * m + flops::lu_substitute(m) + 18.0 * m; }
constexpr double two_factor(int m, int rows) { return 17 + 9 + 7 + 6 + 18.0 * m + 12.0 * (m + 3) + 6.0 * (m + 3) * rows + flops::lu_factor(m + 3); }
constexpr double two_substitute(int m) { return 18 + 12 + 12.0 * m + flops::lu_substitute(m + 3) + 12.0 * (m + 3); }

/// Per step: the predictor (prepare: W from the momentum map (111), Euler's right-hand side (24;
/// loaded: + the body moment and its sum), the director accelerations (114), q + h v + h^2/2 a (38),
/// t_mid (2)) and the velocity update (28).
std::optional<FlopModel> gr_flops(const Problem& p, bool nonholonomic) {
  const auto s = load_shape(p);
  if (!s) return std::nullopt;
  const int N = nonholonomic ? 16 : 15, m = N - 9;
  double factor, substitute;
  if (s->followers > 0) {  // no block structure: the dense LU directly
    factor = flops::lu_factor(N);
    substitute = flops::lu_substitute(N);
  } else {
    // GrBlockLu's path from JJ: the multipliers' share 1/2 C of K is O(h^2) and does not move a
    // well-conditioned block across the threshold. The catalogue's laminae (JJ33 = 0) take path two.
    const Mat3 JJ = euler_coefficients(p.inertia());
    if (block_elimination_applies(JJ)) {
      factor = block_factor(m);
      substitute = block_substitute(m);
    } else if (const int c = kept_director(JJ); c >= 0) {
      // The eliminated directors' nonzero constraint rows: three each, and eq. 94's where d1 or d2 is eliminated.
      const int rows = 6 + (nonholonomic ? (c == 2 ? 2 : 1) : 0);
      factor = two_factor(m, rows);
      substitute = two_substitute(m);
    } else {
      factor = 17 + 9 + flops::lu_factor(N);
      substitute = flops::lu_substitute(N);
    }
  }
  const double loads = s->loaded() ? 3 + s->fields * flops::body_moment + s->followers * 12 : 0;
  return FlopModel{.base = 111 + 24 + loads + 114 + 38 + 2 + 28,
                   .per_iteration = kGrResidual + s->fields * 24 + s->followers * 75 + (nonholonomic ? 52 : 0) + substitute +
                                    flops::newton_update(N, 9),
                   .per_jacobian = kGrJacobian + s->followers * 288 + (nonholonomic ? 35 : 0) + factor};
}
std::optional<FlopModel> gr_standard_flops(const Problem& p) { return gr_flops(p, false); }
std::optional<FlopModel> gr_nonholonomic_flops(const Problem& p) { return gr_flops(p, true); }

}  // namespace

template <>
const SchemeInfo& GebhardtRomeroStandard::info() {
  static const SchemeInfo i{
      .name = "gr_energy_momentum",
      .title = "Gebhardt-Romero energy-momentum scheme, standard body (directors)",
      .source = "paper 000 section 5.1, eqs. 85-90 (after Simo-Wong 1991 / Betsch)",
      .representation = "directors q = (d1, d2, d3) in R^9 and their velocities; 6 constraint multipliers",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.families = {"rigid_body"}},
      // Theorem 5.1: K and pi conserved for vanishing loads; |Pi| follows. K there is 1/2 qdot.M qdot
      // of the director velocities -- exact, tested in test_gebhardt_romero.cpp. The canonical state
      // carries W = J^-1 R^T pi only, and 1/2 W.JW differs from it by the energy of the velocities'
      // normal part, O(h^4) without drift (docs/findings.md): for the energy the problem computes,
      // the claim is bounded. pi (hence |Pi|, e . pi under a field) is exact in the canonical state.
      .claims = {.energy = Claim::bounded, .momentum = Claim::exact, .casimir = Claim::exact, .constraint = Claim::exact, .symmetric = true},
      .notes = "energy: exact in the director velocities (Theorem 5.1, tested), bounded (O(h^4)) as measured from the "
               "canonical state; six constraints (eq. 63 lists only the three orthogonality ones); AVF Jacobian = "
               "midpoint Jacobian; "
               "follower moments by eq. 68 with midpoint directors at t_{n+1/2}, uniform fields by the gradient of "
               "their (linear) potential; Newton tolerance 1e-14 on |dq| (paper: 1e-10)",
      .settings = {kNewtonTolerance, kNewtonMaxIterations},
      .flops = &gr_standard_flops};
  return i;
}

template <>
const SchemeInfo& GebhardtRomeroNonholonomic::info() {
  static const SchemeInfo i{
      .name = "gr_nonholonomic",
      .title = "Gebhardt-Romero energy-momentum scheme on the non-twisting frame (nonholonomic)",
      .source = "paper 000 section 5.2, eqs. 80, 92-94",
      .representation = "directors q = (d1, d2, d3) in R^9 and their velocities; 6 + 1 multipliers",
      .order = 2,
      .kind = SchemeKind::implicit,
      .applies = {.families = {"non_twisting"}},
      // Theorem 5.2: K, Pi^1, Pi^2 conserved (its proof of the momenta is only up to O(h^2), eq. 108:
      // the claim is checked as stated). The twist w . d3 from the endpoint velocities: no claim.
      .claims = {.energy = Claim::exact, .momentum = Claim::exact, .constraint = Claim::exact},
      .notes = "a = 1 (eq. 80; the trajectory does not depend on a, tested); discrete non-twist condition "
               "d1_{n+1}.d2_n = d1_n.d2_{n+1} holds to round-off; only m_perp acts (eq. 84)",
      .settings = {kA, kNewtonTolerance, kNewtonMaxIterations},
      .flops = &gr_nonholonomic_flops};
  return i;
}

// The one instantiation of each type-erased wrapper, compiled beside the schemes (builtin.hpp).
template class Erased<GebhardtRomeroStandard>;
template class Erased<GebhardtRomeroNonholonomic>;

}  // namespace rigidbench
