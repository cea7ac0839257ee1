// What is specific to the Gebhardt-Romero director schemes (paper 000 section 5) and to the
// non_twisting family they integrate: the Newton Jacobians against finite differences, the
// scheme's own conserved quantities, the discrete non-twist condition, the role of a (eq. 80), the
// reference of the non-twisting model against closed forms, and paper 000's Table 4 from the
// variant problem. The shared suites (test_integrators.cpp) cover order and claims.
#include <cmath>

#include "../integrators/integrate.hpp"
#include "../core/so3.hpp"
#include "../integrators/gebhardt_romero.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/problem_file.hpp"
#include "../reference/reference.hpp"
#include "../verification/runner.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

/// Central finite differences of gr_system's residual against its analytic Jacobian, at a point
/// near (not on) the solution so that every term of the Jacobian matters.
template <int N>
double jacobian_error(const GrStepData& d, const Eigen::Matrix<double, N, 1>& x) {
  Eigen::Matrix<double, N, 1> r, rp, rm;
  Eigen::Matrix<double, N, N> J, Jd, fd;
  gr_system<N>(d, x, r, J);
  for (int k = 0; k < N; ++k) {
    const double e = 1e-6 * std::max(1.0, std::abs(x[k]));
    Eigen::Matrix<double, N, 1> xp = x, xm = x;
    xp[k] += e, xm[k] -= e;
    gr_system<N>(d, xp, rp, Jd);
    gr_system<N>(d, xm, rm, Jd);
    fd.col(k) = (rp - rm) / (2 * e);
  }
  return (fd - J).cwiseAbs().maxCoeff() / std::max(1.0, J.cwiseAbs().maxCoeff());
}

/// A generic attitude and its director velocities R hat(W) (W3 = 0 for the non-twisting body).
Mat3 test_attitude() { return so3::exp(Vec3(0.3, -0.2, 0.5)); }
Mat3 test_director_rates(bool non_twisting) { return test_attitude() * so3::hat(Vec3(1.0, -2.0, non_twisting ? 0.0 : 0.7)); }

template <int N>
Eigen::Matrix<double, N, 1> perturbed_point(const Problem& p, double h) {
  Eigen::Matrix<double, N, 1> x;
  const Mat3 R = test_attitude(), Rd = test_director_rates(p.of_family("non_twisting"));
  for (int i = 0; i < 3; ++i) x.template segment<3>(3 * i) = R.col(i) + h * Rd.col(i) + 1e-3 * Vec3(i, 1, -i);
  for (int k = 9; k < N; ++k) x[k] = 0.1 * (k - 8);  // multipliers away from zero
  return x;
}

template <int N>
GrStepData step_data(const Problem& p, double h, double t_mid, double a = 1.0) {
  GrStepData d;
  d.problem = &p;
  d.euler = euler_coefficients(p.inertia());
  d.nonholonomic = N == 16;
  d.a = a;
  const Mat3 R = test_attitude(), Rd = test_director_rates(N == 16);
  for (int i = 0; i < 3; ++i) d.q0.segment<3>(3 * i) = R.col(i), d.v0.segment<3>(3 * i) = Rd.col(i);
  d.h = h;
  d.t_mid = t_mid;
  return d;
}

double director_energy(const Vec9& v, const Mat3& euler) {
  double K = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) K += 0.5 * euler(i, j) * v.segment<3>(3 * i).dot(v.segment<3>(3 * j));
  return K;
}

}  // namespace

TEST_CASE("GR nonholonomic: the Newton Jacobian for other values of the parameter a of eq. 80", "[gebhardt_romero]") {
  // The shared check (test_newton_systems.cpp) runs every implicit scheme at its defaults (a = 1).
  const Problem p = catalogue_problem("non_twisting_case3_tables");
  for (double a : {0.0, 0.3}) {
    const GrStepData d = step_data<16>(p, 0.01, 0.25, a);  // t_mid on the load's rising flank
    CHECK(jacobian_error<16>(d, perturbed_point<16>(p, 0.01)) < 1e-7);
  }
}

TEST_CASE("GR: the block-eliminated Newton step equals the dense LU step", "[gebhardt_romero]") {
  // gr_block_solve (Schur complement of the constraints over K (x) I3) against Eigen's dense LU on the
  // same Jacobian, at a point off the solution with multipliers away from zero, for every load the
  // block solve is used with (none, a uniform field) and for both schemes (15 and 16 unknowns).
  auto agree = [](const auto& J, const auto& r) {
    const auto dense = J.partialPivLu().solve(-r).eval();
    const auto block = gr_block_solve(J, r);
    return (block - dense).norm() / dense.norm();
  };
  for (const char* name : {"free_body", "heavy_top"}) {
    const Problem p = catalogue_problem(name);
    const GrStepData d = step_data<15>(p, 0.01, 0.005);
    Eigen::Matrix<double, 15, 1> r;
    Eigen::Matrix<double, 15, 15> J;
    gr_system<15>(d, perturbed_point<15>(p, 0.01), r, J);
    CHECK(agree(J, r) < 1e-12);
  }
  Problem p = catalogue_problem("non_twisting_case3_tables");
  p.loads.clear();  // its follower moment takes the dense path (not of the form K (x) I3)
  for (double a : {1.0, 0.3}) {
    const GrStepData d = step_data<16>(p, 0.01, 0.25, a);
    Eigen::Matrix<double, 16, 1> r;
    Eigen::Matrix<double, 16, 16> J;
    gr_system<16>(d, perturbed_point<16>(p, 0.01), r, J);
    CHECK(agree(J, r) < 1e-12);
  }
}

TEST_CASE("GR: a lamina's Newton step eliminates two directors, a rod's takes the dense LU - both equal the dense step",
          "[gebhardt_romero]") {
  // At a lamina's solution the multipliers acting on its flat direction vanish (that director has
  // no inertia to balance) and near it they are round-off, so K = JJ + 1/2 C keeps JJ's rank: a
  // lamina's (rank two; also one not aligned with the body axes) fails path three's test and takes
  // path two, a rod's (rank one) the dense LU. Each Newton step against Eigen's dense LU.
  using Path = GrBlockLu<15>::Path;
  const Mat3 Q = so3::exp(Vec3(0.4, 0.1, -0.3));
  const Mat3 lamina = Vec3(0.5, 1.5, 0.0).asDiagonal();
  const struct {
    Mat3 euler;
    Path path;
    int kept;  // -1: any
  } cases[] = {{lamina, Path::two, 2}, {Q * lamina * Q.transpose(), Path::two, -1}, {Vec3(0.0, 0.0, 2.0).asDiagonal().toDenseMatrix(), Path::dense, -1}};
  auto check = [](auto data, auto x, Path path, int kept) {
    constexpr int N = decltype(x)::RowsAtCompileTime;
    x.template tail<N - 9>() *= 1e-9;
    Eigen::Matrix<double, N, 1> r;
    Eigen::Matrix<double, N, N> J;
    gr_system<N>(data, x, r, J);
    GrBlockLu<N> s;
    s.factor(J);
    CHECK(int(s.path) == int(path));
    if (kept >= 0) CHECK(s.c == kept);
    const auto dense = J.partialPivLu().solve(-r).eval();
    CHECK((s.solve(r) - dense).norm() / dense.norm() < 1e-12);
  };
  const Problem free_body = catalogue_problem("free_body");
  Problem nt = catalogue_problem("non_twisting_case3_tables");
  nt.loads.clear();
  for (const auto& c : cases) {
    GrStepData d = step_data<15>(free_body, 0.01, 0.005);
    d.euler = c.euler;
    check(d, perturbed_point<15>(free_body, 0.01), c.path, c.kept);
    GrStepData d16 = step_data<16>(nt, 0.01, 0.25, 0.3);
    d16.euler = c.euler;
    check(d16, perturbed_point<16>(nt, 0.01), c.path, c.kept);
  }
  // The catalogue's free body is such a lamina (J3 = J1 + J2): its solver is path two in every step.
  GrBlockLu<15> s;
  const GrStepData d = step_data<15>(free_body, 0.01, 0.005);
  Eigen::Matrix<double, 15, 1> x = perturbed_point<15>(free_body, 0.01), r;
  x.tail<6>() *= 1e-9;
  Eigen::Matrix<double, 15, 15> J;
  gr_system<15>(d, x, r, J);
  s.factor(J);
  CHECK(s.path == GrBlockLu<15>::Path::two);
}

TEST_CASE("GR standard: the director energy and pi are conserved to round-off but the canonical energy only at O(h^4)",
          "[gebhardt_romero]") {
  const Problem p = catalogue_problem("free_body");
  double canonical[2];
  for (int lev = 0; lev < 2; ++lev) {
    const double h = 0.05 / (1 << lev);
    GebhardtRomeroStandard s(p);
    s.reset(p.initial, p.t0);
    const Mat3 euler = euler_coefficients(p.inertia());
    const double K0 = director_energy(s.director_velocities(), euler);
    const double E0 = p.energy(p.initial);
    const Vec3 pi0 = p.initial.body().R * (p.inertia() * p.initial.body().W);
    State x(1);
    double dK = 0, dpi = 0, dE = 0;
    for (int n = 0; n < int(std::lround(5.0 / h)); ++n) {
      REQUIRE(s.step(n * h, h).ok);
      s.read(x);
      dK = std::max(dK, std::abs(director_energy(s.director_velocities(), euler) - K0) / K0);
      dpi = std::max(dpi, (x.body().R * (p.inertia() * x.body().W) - pi0).norm() / pi0.norm());
      dE = std::max(dE, std::abs(p.energy(x) - E0) / E0);
    }
    CHECK(dK < 1e-13);   // Theorem 5.1: K = 1/2 qdot.M qdot
    CHECK(dpi < 1e-13);  // ... and pi
    canonical[lev] = dE;
  }
  // K(W) of the canonical state is not 1/2 qdot.M qdot: the endpoint director velocities are off
  // the tangent space by O(h^2) (docs/findings.md). Measured, not assumed: the error falls as h^4.
  CHECK(canonical[0] > 1e-9);
  const double ratio = canonical[0] / canonical[1];
  CHECK(ratio > 13);
  CHECK(ratio < 19);
}

TEST_CASE("GR nonholonomic: the discrete non-twist condition holds step to step and a does not change the motion",
          "[gebhardt_romero]") {
  const Problem p = catalogue_problem("non_twisting_case3_tables");
  const double h = 0.005;
  Vec9 q_final[3];
  int idx = 0;
  for (double a : {1.0, 0.0, 0.5}) {
    GebhardtRomeroNonholonomic s(p, a);
    s.reset(p.initial, p.t0);
    double worst = 0;
    for (int n = 0; n < 400; ++n) {  // across both kinks of the load (t = 0.5, 1)
      const Vec9 q0 = s.directors();
      REQUIRE(s.step(p.t0 + n * h, h).ok);
      const Vec9& q1 = s.directors();
      // d1_{n+1} . d2_n = d1_n . d2_{n+1} (eq. 94 with the six constraints, any a)
      worst = std::max(worst, std::abs(q1.segment<3>(0).dot(q0.segment<3>(3)) - q0.segment<3>(0).dot(q1.segment<3>(3))));
    }
    INFO("a = " << a);
    CHECK(worst < 1e-14);
    q_final[idx++] = s.directors();
  }
  CHECK((q_final[0] - q_final[1]).norm() < 1e-12);
  CHECK((q_final[0] - q_final[2]).norm() < 1e-12);
}

TEST_CASE("GR nonholonomic reproduces paper 000 Table 4 from the variant problem (t = 1)", "[gebhardt_romero]") {
  // The printed numbers are the paper's; the run is ours (h = 0.005, Newton 1e-10 as in section 6).
  const Problem p = catalogue_problem("non_twisting_case2_tables");
  GebhardtRomeroNonholonomic s(p, 1.0, NewtonSettings{.tolerance = 1e-10, .reuse_rate = 0});
  s.reset(p.initial, p.t0);
  State x(1);
  REQUIRE(integrate(s, FixedSteps{p.t0, 0.005, 200}, x).ok);
  const Vec3 Pi = p.inertia() * x.body().W;
  auto trunc6 = [](double v) { return std::trunc(v * 1e6) / 1e6; };
  CHECK(trunc6(Pi[0]) == -61.749731);
  CHECK(trunc6(Pi[1]) == -26.845155);
  CHECK(trunc6(0.5 * x.body().W.dot(Pi)) == 746.591699);
  // The same run on the printed loads lands elsewhere (the table is not the printed problem).
  const Problem printed = catalogue_problem("non_twisting_case2");
  GebhardtRomeroNonholonomic sp(printed, 1.0, NewtonSettings{.tolerance = 1e-10, .reuse_rate = 0});
  sp.reset(printed.initial, printed.t0);
  REQUIRE(integrate(sp, FixedSteps{0.0, 0.005, 200}, x).ok);
  CHECK(std::abs((printed.inertia() * x.body().W)[0] - -61.749731) > 100);
}

TEST_CASE("non-twisting reference agrees with the closed forms of cases 1 and 2", "[reference][non_twisting]") {
  // Case 1: W constant, R = exp(t hat(W0)). Case 2: W(t) = F(t) u with u = J_perp^-1 B_perp fixed,
  // F = int f, so R = exp(G(t) hat(u)), G = int F -- both piecewise polynomials across the kinks.
  const std::vector<double> grid = {0.0, 0.3, 0.5, 0.7, 1.0, 2.5, 5.0};
  {
    const Problem p = catalogue_problem("non_twisting_case1");
    const ReferenceSolution r = compute_reference(p, grid);
    CHECK(r.formulation == "non_twisting_kirchhoff_multiplier");
    for (std::size_t i = 0; i < grid.size(); ++i) {
      const Mat3 R = so3::exp(grid[i] * p.initial.body().W);
      CHECK(so3::angle_between(r.states[i].body().R, R) < 1e-10);
      CHECK((r.states[i].body().W - p.initial.body().W).norm() < 1e-10);
    }
  }
  {
    const Problem p = catalogue_problem("non_twisting_case2_tables");
    const ReferenceSolution r = compute_reference(p, grid);
    CHECK(r.notes.find("kink") != std::string::npos);
    const Vec3 B = std::get<FollowerMoment>(p.loads[0]).body;
    Eigen::Matrix2d Jp = p.inertia().topLeftCorner<2, 2>();
    const Eigen::Vector2d u2 = Jp.inverse() * B.head<2>();
    const Vec3 u(u2[0], u2[1], 0);
    auto F = [](double t) { return t < 0.5 ? t * t : t < 1 ? 2 * t - t * t - 0.5 : 0.5; };
    auto G = [](double t) {
      const double g05 = 0.125 / 3, g1 = g05 + (1 - 1.0 / 3 - 0.5) - (0.25 - 0.125 / 3 - 0.25);
      return t < 0.5 ? t * t * t / 3 : t < 1 ? g05 + (t * t - t * t * t / 3 - 0.5 * t) - (0.25 - 0.125 / 3 - 0.25)
                                             : g1 + 0.5 * (t - 1);
    };
    for (std::size_t i = 0; i < grid.size(); ++i) {
      const double t = grid[i];
      CHECK(so3::angle_between(r.states[i].body().R, so3::exp(G(t) * u)) < 1e-10);
      CHECK((r.states[i].body().W - F(t) * u).norm() < 1e-10 * std::max(1.0, u.norm()));
    }
  }
}

TEST_CASE("non_twisting problems: follower loads round-trip and bad input is refused", "[problems][non_twisting]") {
  const Problem p = catalogue_problem("non_twisting_case3");
  CHECK(problem_from_json(nlohmann::json::parse(problem_to_json(p).dump()), "round trip") == p);
  const auto& f = std::get<FollowerMoment>(p.loads[0]).profile;
  CHECK(f(0.25) == 0.5);
  CHECK(f(0.5) == 1.0);
  CHECK(f(0.75) == 0.5);
  CHECK(f(1.0) == 0.0);
  CHECK(f(3.0) == 0.0);
  CHECK(p.quiet_from() == 1.0);
  CHECK(p.load_kinks() == std::vector<double>{0.5, 1.0});
  for (const auto& d : p.invariants())
    if (d.kind != InvariantKind::constraint && d.kind != InvariantKind::nonholonomic) CHECK(d.from_time == 1.0);

  Problem twisted = p;
  twisted.initial.body().W = Vec3(1, 0, 0.5);
  CHECK_THROWS_WITH(twisted.finalize(), Catch::Contains("W3"));
  Problem coupled = p;
  coupled.bodies[0].inertia(0, 2) = coupled.bodies[0].inertia(2, 0) = 0.1;
  CHECK_THROWS_WITH(coupled.finalize(), Catch::Contains("J13 = J23 = 0"));
  Problem bad = p;
  std::get<FollowerMoment>(bad.loads[0]).profile.knots = {{0.0, 0.0}, {0.0, 1.0}};
  CHECK_THROWS_WITH(bad.finalize(), Catch::Contains("increase strictly"));
  auto j = nlohmann::json::parse(problem_to_json(p).dump());
  j["loads"][0]["profile"][1] = {0.5};
  CHECK_THROWS_WITH(problem_from_json(j, "f"), Catch::Contains("/loads/0/profile/1"));
}

TEST_CASE("GR nonholonomic, case-3 table variant: each momentum is judged against its own size, and Pi^2 fails "
          "its exact claim", "[gebhardt_romero]") {
  // After the load (t >= 1) the discrete momenta are conserved only up to a small O(h^p) drift
  // (docs/findings.md, "Gebhardt-Romero nonholonomic momenta"): Pi^2 moves by ~1e-10 at h0 = 0.005,
  // ~2e-11 of its own size |Pi^2(1)| ~ 4 but ~2e-12 of the vector's bound |J W0| + impulse ~ 52,
  // which used to scale both components and passed it as exact.
  const Problem p = catalogue_problem("non_twisting_case3_tables");
  const Ladder L = make_ladder(p, 2);
  const ReferenceSolution ref = compute_reference(p, L.obs_times(), {.cache_dir = ""});
  const PairResult r = verify_pair(p, find_scheme("gr_nonholonomic"), L, ref);
  const InvariantResult* pi2 = nullptr;
  for (const InvariantResult& ir : r.invariants)
    if (ir.name == "nonholonomic_momentum_2") pi2 = &ir;
  REQUIRE(pi2);
  INFO("|Pi^2(1)| " << pi2->initial << ", S " << pi2->scale << ", vector " << pi2->roundoff_scale << ", drift at h0 "
                    << pi2->drift_by_level.at(0) << ", threshold " << pi2->threshold);
  CHECK(pi2->claim == Claim::exact);
  CHECK(pi2->scale == std::abs(pi2->initial));             // its own size ...
  CHECK(pi2->roundoff_scale > 5 * pi2->scale);             // ... much smaller than its vector's
  CHECK(pi2->drift_by_level.at(0) > p.verification.exact_threshold);
  CHECK(pi2->verdict == Verdict::fail);
}
