// Metric functions on synthetic data with known answers.
#include <cmath>
#include <functional>

#include "../problems/catalogue.hpp"
#include "../verification/metric_table.hpp"
#include "../verification/metrics.hpp"
#include "../verification/verdicts.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {
std::vector<double> ladder(double h0, int n) {
  std::vector<double> h;
  for (int k = 0; k < n; ++k) h.push_back(h0 / std::pow(2.0, k));
  return h;
}
}  // namespace

TEST_CASE("fit_line recovers slope - intercept and a zero stderr on exact data", "[metrics]") {
  const LineFit f = fit_line({0, 1, 2, 3}, {1, 3, 5, 7});
  CHECK(f.slope == Approx(2));
  CHECK(f.intercept == Approx(1));
  CHECK(f.r2 == Approx(1));
  CHECK(f.stderr_slope == Approx(0).margin(1e-15));
  CHECK(std::isnan(fit_line({1}, {1}).slope));
}

TEST_CASE("assess_order: C h^p passes - a wrong order fails - floors and pre-asymptotic levels are excluded",
          "[metrics]") {
  const auto h = ladder(0.1, 6);
  std::vector<double> e2, e3, floor(6, 1e-14);
  for (double x : h) e2.push_back(3 * x * x), e3.push_back(3 * x * x * x);
  const Convergence c2 = assess_order(h, e2, floor, 2);
  CHECK(c2.verdict == Verdict::pass);
  CHECK(c2.fit.slope == Approx(2).epsilon(1e-12));
  for (double s : c2.local_slopes) CHECK(s == Approx(2).epsilon(1e-12));
  CHECK(assess_order(h, e3, floor, 2).verdict == Verdict::fail);

  // Two finest levels at the floor: excluded, the rest still decides.
  std::vector<double> ef = e2;
  ef[4] = ef[5] = 1e-15;
  const Convergence cf = assess_order(h, ef, floor, 2);
  CHECK_FALSE(cf.asymptotic[4]);
  CHECK_FALSE(cf.asymptotic[5]);
  CHECK(cf.verdict == Verdict::pass);
  CHECK_THAT(cf.note, Catch::Contains("2 level(s) at reference accuracy"));

  // A pre-asymptotic coarse level (error bends) drops out of the range, no matter the expected order.
  std::vector<double> ep = e2;
  ep[0] *= 8;
  const Convergence cp = assess_order(h, ep, floor, 2);
  CHECK_FALSE(cp.asymptotic[0]);
  CHECK(cp.fit.slope == Approx(2).epsilon(1e-9));
  // Too few usable levels: undefined, never a pass.
  std::vector<double> few = e2;
  few[2] = few[3] = few[4] = few[5] = 0;
  CHECK(assess_order(h, few, floor, 2).verdict == Verdict::undefined);
  // A broken-down level (NaN) is reported, not fitted.
  std::vector<double> nan = e2;
  nan[0] = kNaN;
  CHECK(assess_order(h, nan, floor, 2).verdict == Verdict::pass);
  // Lower-bound orders: superconvergence passes, a lower slope fails.
  CHECK(assess_order(h, e3, floor, 2, kSlopeTolerance, true).verdict == Verdict::pass);
  std::vector<double> e1;
  for (double x : h) e1.push_back(x);
  CHECK(assess_order(h, e1, floor, 2, kSlopeTolerance, true).verdict == Verdict::fail);
}

TEST_CASE("second_quotient: 2^p for synthetic order-p solutions - undefined where exact", "[metrics]") {
  // xi(t, h) = sin(t) + C(t) h^p with C(t) = 1 + t: Q_II = 2^p exactly.
  const int p = 2;
  const std::vector<double> t{0, 1, 2, 3, 4};
  auto make = [&](double h) {
    Eigen::MatrixXd m(5, 2);
    for (int r = 0; r < 5; ++r) {
      m(r, 0) = std::sin(t[r]) + (1 + t[r]) * std::pow(h, p);
      m(r, 1) = 1.0;  // an exactly reproduced component
    }
    return m;
  };
  const auto a = make(0.1), b = make(0.05), c = make(0.025);
  QiiLevel q = second_quotient(a, b, c, t, {0}, {2, 4}, 4.0);
  CHECK(q.verdict == Verdict::pass);
  CHECK(q.median == Approx(4.0).epsilon(1e-9));
  CHECK(q.sample_value[0] == Approx(4.0).epsilon(1e-9));
  // Order 1 data against expected 4: fail.
  QiiLevel wrong = second_quotient(a, b, c, t, {0}, {2, 4}, 2.0);
  CHECK(wrong.verdict == Verdict::fail);
  // Only the exact component: undefined (numerator at round-off), never a pass.
  QiiLevel exact = second_quotient(a, b, c, t, {1}, {2, 4}, 4.0);
  CHECK(exact.verdict == Verdict::undefined);
  CHECK(exact.defined_points == 0);
}

TEST_CASE("trapezoid and median", "[metrics]") {
  CHECK(trapezoid({0, 1, 2, 3}, 0.5) == Approx(2.25));
  CHECK(trapezoid({5}, 1.0) == 0.0);
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 2, 3}) == 2.5);
  CHECK(std::isnan(median({})));
}

TEST_CASE("exact claim: a component's drift is relative to its own size, its round-off allowance to its vector's",
          "[metrics]") {
  // Ladder of 3 levels: 1000, 2000, 4000 steps; exact_threshold 1e-11 (the default).
  Ladder L;
  L.h0 = 0.01, L.levels = 3, L.n0 = 1000, L.m = 1000;
  const Problem p = catalogue_problem("free_body");
  auto claim = [](double scale, double roundoff_scale, std::vector<double> drift) {
    InvariantResult ir;
    ir.claim = Claim::exact;
    ir.scale = scale, ir.roundoff_scale = roundoff_scale;
    ir.drift_by_level = std::move(drift);
    return ir;
  };
  SECTION("a drift above exact_threshold of the component's own size fails") {
    InvariantResult ir = claim(4.0, 4.0, {2.3e-11, 3e-12, 1e-12});
    judge_exact(ir, p, L);
    CHECK(ir.verdict == Verdict::fail);
  }
  SECTION("rounding of a component 200x smaller than its vector is allowed in ulps of the vector") {
    // 4 x 4000 steps x eps x 200 = 7.1e-10 relative to the component: 4 ulps of the vector per step.
    InvariantResult small = claim(0.01, 2.0, {2e-11, 5e-11, 1.7e-10});
    judge_exact(small, p, L);
    CHECK(small.verdict == Verdict::pass);
    CHECK(small.threshold == Approx(4 * 4000 * 0x1p-52 * 200));
    // The same drifts of an invariant that is its own vector are not rounding.
    InvariantResult own = claim(0.01, 0.01, {2e-11, 5e-11, 1.7e-10});
    judge_exact(own, p, L);
    CHECK(own.verdict == Verdict::fail);
  }
}

TEST_CASE("exact claim: rounding accumulated at a few ulps per step passes, an O(h^p) drift of that size fails",
          "[metrics]") {
  // Ladder of 16 000, 32 000, 64 000 steps: budgets 4 N eps = 1.4e-11, 2.8e-11, 5.7e-11 (above tau = 1e-11).
  Ladder L;
  L.h0 = 0.001, L.levels = 3, L.n0 = 16000, L.m = 16000;
  const Problem p = catalogue_problem("free_body");
  InvariantResult ir;
  ir.claim = Claim::exact;
  ir.scale = ir.roundoff_scale = 1;
  // 2.5 ulps per step at every level, growing with N: a correct scheme's rounding (a textbook
  // exponential map's orthogonality; a Newton solve's last ulp). The old budget of one ulp per step
  // failed it.
  ir.drift_by_level = {2.5 * 16000 * 0x1p-52, 2.5 * 32000 * 0x1p-52, 2.5 * 64000 * 0x1p-52};
  judge_exact(ir, p, L);
  CHECK(ir.verdict == Verdict::pass);
  // A second-order drift as large as that rounding at the finest level is 16x larger at the coarsest,
  // where the budget is smallest: it fails there.
  ir.drift_by_level = {16 * 3.6e-11, 4 * 3.6e-11, 3.6e-11};
  judge_exact(ir, p, L);
  CHECK(ir.verdict == Verdict::fail);
  CHECK(ir.threshold == Approx(4 * 16000 * 0x1p-52));
}

TEST_CASE("exact claim: an O(h) drift within 4 ulps per step still fails on a first-order ladder (it shrinks with h)",
          "[metrics]") {
  // The ladder a first-order scheme gets on dzhanibekov starts at 80 000 steps, where 4 N eps = 7.1e-11:
  // an energy error E0 C h t halving with h (6e-11, 3e-11, 1.5e-11; found by a hostile user) is
  // within it at every level, but above one ulp per step at the coarsest and converging: the
  // scheme's error (it failed under the one-ulp budget of 0.4 too).
  Ladder L;
  L.h0 = 1e-4, L.levels = 3, L.n0 = 80000, L.m = 80000;
  const Problem p = catalogue_problem("free_body");
  InvariantResult ir;
  ir.claim = Claim::exact;
  ir.scale = ir.roundoff_scale = 1;
  ir.drift_by_level = {6e-11, 3e-11, 1.5e-11};
  judge_exact(ir, p, L);
  CHECK(ir.verdict == Verdict::fail);
  CHECK(ir.judged_level == 0);
  CHECK_THAT(ir.note, Catch::Contains("falls as h falls"));
  // The same sizes growing with N (rounding) pass; and so does a drift that falls once by chance.
  ir.drift_by_level = {1.5e-11, 3e-11, 6e-11};
  judge_exact(ir, p, L);
  CHECK(ir.verdict == Verdict::pass);
  ir.drift_by_level = {3e-11, 1.5e-11, 4e-11};
  judge_exact(ir, p, L);
  CHECK(ir.verdict == Verdict::pass);
  // Measured (Clang -O3 -march=native, gr_nonholonomic's energy on non_twisting_case2_tables, 1000 to
  // 64 000 steps): rounding that falls once at the last level. Not a converging error: it passes.
  Ladder Lc;
  Lc.h0 = 0.005, Lc.levels = 7, Lc.n0 = 1000, Lc.m = 1000;
  ir.drift_by_level = {1.13e-13, 1.48e-13, 2.34e-13, 5.76e-13, 1.89e-12, 1.78e-11, 5.65e-12};
  judge_exact(ir, p, Lc);
  CHECK(ir.verdict == Verdict::pass);
}

TEST_CASE("bounded claim: judged on the finest level clear of round-off, not on rounding noise", "[metrics]") {
  // Ladder of 3 levels: 100, 200, 400 steps; round-off budgets max(100 eps, 4 N eps) = 8.9e-14,
  // 1.8e-13, 3.6e-13. The judged level's growth exponent a +- se of the running maximum deviation
  // decides: pass when a + 2 se < 1/2, fail when a - 2 se > 1/2, undecided between.
  Ladder L;
  L.h0 = 0.1, L.levels = 3, L.n0 = 100, L.m = 100;
  auto claim = [](std::vector<double> drift, std::vector<LineFit> growth) {
    InvariantResult ir;
    ir.claim = Claim::bounded;
    ir.drift_by_level = std::move(drift);
    ir.growth_by_level = std::move(growth);
    return ir;
  };
  const auto a = [](double slope, double se) {
    LineFit f;
    f.slope = slope, f.stderr_slope = se;
    return f;
  };
  SECTION("an O(h^2) oscillation with a noisy finest level passes on the level above it") {
    // Level 2 is rounding: a random walk (a = 1/2) whose verdict would depend on the build.
    InvariantResult ir = claim({4e-8, 1e-8, 2e-13}, {a(0.01, 0.01), a(0.02, 0.01), a(0.5, 0.1)});
    judge_bounded(ir, L);
    CHECK(ir.verdict == Verdict::pass);
    CHECK(ir.judged_level == 1);
    CHECK_THAT(ir.note, Catch::Contains("a = 0.02 +- 0.01") && Catch::Contains("bounded"));
  }
  SECTION("a secular drift at a level clear of round-off fails, whatever the finest level shows") {
    InvariantResult ir = claim({4e-8, 2e-8, 1e-13}, {a(1, 0.02), a(1, 0.02), a(0, 0)});
    judge_bounded(ir, L);
    CHECK(ir.verdict == Verdict::fail);
    CHECK(ir.judged_level == 1);
    CHECK_THAT(ir.note, Catch::Contains("a secular drift"));
  }
  SECTION("the finest level is judged when it is clear of round-off") {
    InvariantResult ir = claim({4e-8, 1e-8, 2.5e-9}, {a(0, 0), a(0, 0), a(0.98, 0.05)});
    judge_bounded(ir, L);
    CHECK(ir.verdict == Verdict::fail);
    CHECK(ir.judged_level == 2);
  }
  SECTION("a finest level above its budget but no longer converging is noise: the level above it is judged") {
    // Measured shape (gr_energy_momentum, pendulum3d, Clang -march=native): the drift grows again
    // at the finest level, from the Newton tolerance's residuals.
    InvariantResult ir = claim({4e-8, 1e-8, 1.6e-8}, {a(0, 0), a(0.01, 0.005), a(1.2, 0.1)});
    judge_bounded(ir, L);
    CHECK(ir.verdict == Verdict::pass);
    CHECK(ir.judged_level == 1);
  }
  SECTION("at the edge no verdict flips: a growth whose margin straddles 1/2 is undecided, and says so") {
    // The old rule (second half <= 2x the first) sat exactly at a linear drift and flipped on 2.01.
    for (const LineFit& g : {a(0.6, 0.1), a(0.4, 0.1), a(0.5, 0)}) {
      InvariantResult ir = claim({4e-8, 1e-8, 2.5e-9}, {a(0, 0), a(0, 0), g});
      judge_bounded(ir, L);
      CHECK(ir.verdict == Verdict::undefined);
      CHECK_THAT(ir.note, Catch::Contains("straddles 1/2, undecided"));
    }
    InvariantResult nofit = claim({4e-8, 1e-8, 2.5e-9}, {a(0, 0), a(0, 0), LineFit{}});
    judge_bounded(nofit, L);
    CHECK(nofit.verdict == Verdict::undefined);
    CHECK_THAT(nofit.note, Catch::Contains("could not be fitted"));
  }
  SECTION("every level at round-off: bounded at round-off; a level that broke down is skipped") {
    InvariantResult ir = claim({5e-14, kNaN, 3e-13}, {a(1, 0), LineFit{}, a(1, 0)});
    judge_bounded(ir, L);
    CHECK(ir.verdict == Verdict::pass);
    CHECK(ir.judged_level == -1);
  }
  SECTION("no level ran: undefined") {
    InvariantResult ir = claim({kNaN, kNaN, kNaN}, {LineFit{}, LineFit{}, LineFit{}});
    judge_bounded(ir, L);
    CHECK(ir.verdict == Verdict::undefined);
  }
}

TEST_CASE("the growth exponent of a run's running maximum deviation: 0 bounded, 1 linear, 2 quadratic", "[metrics]") {
  Ladder L;
  L.t0 = 0, L.h0 = 0.01, L.levels = 1, L.n0 = 1000, L.m = 1000;  // observations every 0.01 over [0, 10]
  const auto run_of = [&](const std::function<double(double)>& dev) {
    LevelRun r;
    r.inv_obs.resize(L.m + 1, 1);
    r.inv_anchor = {2.0};
    for (Eigen::Index j = 0; j <= L.m; ++j) r.inv_obs(j, 0) = 2.0 + dev(double(j) * L.obs_dt());
    return r;
  };
  const LineFit bounded = growth_exponent(run_of([](double t) { return 1e-6 * std::sin(7 * t); }), 0, L, -INFINITY);
  CHECK(std::abs(bounded.slope) < 0.05);
  const LineFit linear = growth_exponent(run_of([](double t) { return 1e-6 * t * (1 + 0.3 * std::sin(7 * t)); }), 0, L, -INFINITY);
  CHECK(linear.slope == Approx(1).margin(0.15));
  CHECK(linear.slope - 2 * linear.stderr_slope > kBoundedGrowth);
  const LineFit quad = growth_exponent(run_of([](double t) { return -1e-6 * t * t; }), 0, L, -INFINITY);
  CHECK(quad.slope == Approx(2).margin(0.05));
  // An invariant that holds from t = 6: fitted over the second half of [6, 10] from there.
  const LineFit later = growth_exponent(run_of([](double t) { return t < 6 ? 1.0 : 1e-6 * (t - 6); }), 0, L, 6.0);
  CHECK(later.slope == Approx(1).margin(0.05));
  // A deviation that is zero throughout cannot be fitted.
  CHECK(std::isnan(growth_exponent(run_of([](double) { return 0.0; }), 0, L, -INFINITY).slope));
}

TEST_CASE("the order fit leaves out levels whose error is not above the rounding their run accumulates", "[metrics]") {
  // Second order from 1e-8 at h = 0.1, then two levels at pure rounding (their error grows with N as
  // h shrinks), each below its N_k eps S: fitted, they gave the particle gas's angular velocity a
  // slope of -1 and a fail.
  const MetricDef& m = *find_metric("attitude_error_final");
  std::vector<double> h;
  ErrorSeries s;
  s.floor = 1e-15;
  for (int k = 0; k < 6; ++k) {
    h.push_back(0.1 / double(1 << k));
    s.rounding.push_back(kRoundoffUlpsPerStep * kEps * 100.0 * double(1 << k));
  }
  s.error = {1e-8, 2.5e-9, 6.25e-10, 1.5625e-10, 0.9 * s.rounding[4], 0.9 * s.rounding[5]};
  const Convergence c = judge_order(m, h, s, 2);
  CHECK(c.verdict == Verdict::pass);
  CHECK(c.fit.slope == Approx(2).margin(1e-9));
  CHECK_FALSE(c.asymptotic[4]);
  CHECK_FALSE(c.asymptotic[5]);
  CHECK_THAT(c.note, Catch::Contains("2 level(s) at reference accuracy or round-off excluded"));
  // The same errors with the rounding 1000x smaller are the scheme's: the last two levels are fitted.
  for (double& r : s.rounding) r *= 1e-3;
  CHECK(judge_order(m, h, s, 2).asymptotic[5]);
}
