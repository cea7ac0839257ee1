// The metric table is the one declaration every layer reads: the runner computes and judges exactly
// its metrics, the report carries it, compare and the gate select from it.
#include <set>

#include "../core/so3.hpp"
#include "../core/state.hpp"
#include "../integrators/builtin.hpp"
#include "../integrators/registry.hpp"
#include "../reference/reference.hpp"
#include "../problems/catalogue.hpp"
#include "../tracking/compare.hpp"
#include "../tracking/gate.hpp"
#include "../reports/report.hpp"
#include "../verification/error_metrics/error_metric.hpp"
#include "../verification/metric_table.hpp"
#include "../verification/metrics.hpp"
#include "../verification/suite.hpp"
#include "../verification/tolerance_ladder.hpp"
#include "../verification/verdicts.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {
const SuiteResult& one_pair() {
  static const SuiteResult s = [] {
    SuiteRequest req;
    req.problems = {"free_body"};
    req.integrators = {"akw_midpoint"};
    req.ladder.levels = 4;
    req.progress = false;
    req.measure_cost = false;
    return run_suite(req);
  }();
  return s;
}
}  // namespace

TEST_CASE("metric table: names are unique and every rule that needs an order factor has one", "[metrics]") {
  std::set<std::string_view> seen;
  for (const MetricDef& m : metric_table()) {
    CHECK(seen.insert(m.name).second);
    CHECK_FALSE(m.label.empty());
    CHECK_FALSE(m.what.empty());
    CHECK_FALSE(m.units.empty());
    if (m.rule == VerdictRule::order || m.rule == VerdictRule::order_at_least) CHECK(m.order_factor > 0);
    CHECK(find_metric(m.name) == &m);
  }
  CHECK(find_metric("no_such_metric") == nullptr);
}

TEST_CASE("metric table: the runner computes and judges exactly the table's error metrics", "[metrics]") {
  const PairResult& r = one_pair().results.at(0);
  REQUIRE(r.status == "ok");
  std::size_t n_conv = 0, n_paper = 0;
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    const auto& sec = m.section == MetricSection::convergence ? r.convergence : r.paper_measures;
    (m.section == MetricSection::convergence ? n_conv : n_paper)++;
    INFO(m.name);
    REQUIRE(sec.count(std::string(m.name)) == 1);
    const Convergence& c = sec.at(std::string(m.name));
    CHECK(c.gating == m.gating);
    CHECK(c.expected == Approx(m.order_factor * 2));  // the implicit midpoint is of order 2
    CHECK(c.at_least == (m.rule == VerdictRule::order_at_least));
    CHECK(c.error.size() == r.h.size());
  }
  CHECK(r.convergence.size() == n_conv);
  CHECK(r.paper_measures.size() == n_paper);
}

TEST_CASE("metric table: the report carries the table and its sections follow it", "[metrics]") {
  const auto rep = suite_report(one_pair(), {"test"}, "2026-01-01T00:00:00Z");
  REQUIRE(rep.contains("metrics"));
  REQUIRE(rep["metrics"].size() == metric_table().size());
  std::size_t i = 0;
  for (const MetricDef& m : metric_table()) {
    const auto& j = rep["metrics"][i++];
    CHECK(j["name"] == std::string(m.name));
    CHECK(j["rule"] == to_string(m.rule));
    CHECK(j["gating"] == m.gating);
    if (is_error_metric(m)) CHECK(rep["results"][0][to_string(m.section)].contains(std::string(m.name)));
  }
}

TEST_CASE("metric table: a failed gating metric fails the pair, an informational one does not", "[metrics]") {
  PairResult r = one_pair().results.at(0);
  REQUIRE_FALSE(r.failed());
  for (const MetricDef& m : metric_table()) {
    if (!is_error_metric(m)) continue;
    PairResult x = r;
    (m.section == MetricSection::convergence ? x.convergence : x.paper_measures).at(std::string(m.name)).verdict =
        Verdict::fail;
    INFO(m.name);
    CHECK(x.failed() == m.gating);
  }
  PairResult q = r;
  REQUIRE(q.q_ii_full.primary >= 0);
  q.q_ii_full.levels[std::size_t(q.q_ii_full.primary)].verdict = Verdict::fail;
  CHECK(q.failed() == find_metric("q_ii_full")->gating);
}

TEST_CASE("metric table: compare accepts error metrics only - the gate snapshots the gating ones", "[metrics]") {
  const auto rep = nlohmann::json::parse(suite_report(one_pair(), {"test"}, "2026-01-01T00:00:00Z").dump());
  CompareOptions o;
  o.metric = "ns_per_step";
  CHECK_THROWS_WITH(compare_reports(rep, nullptr, o), Catch::Contains("not an error metric"));
  o.metric = "h1_distance";
  const auto c = compare_reports(rep, nullptr, o);
  CHECK(c["metric_definition"]["units"] == "mixed");
  const auto snap = GateSnapshot::of_reports(VerifyReport::read(rep, "the report")).to_json();
  const auto& e = snap["accuracy"]["akw_midpoint/free_body"];
  for (const MetricDef& m : metric_table()) {
    INFO(m.name);
    if (m.section == MetricSection::convergence) CHECK(e["convergence"].contains(std::string(m.name)) == m.gating);
    if (m.section == MetricSection::q_ii || is_measure(m)) CHECK(e["checks"].contains(std::string(m.name)) == m.gating);
  }
}

namespace {
/// A reference on the ladder's grid that is the initial state at every time (the metrics compare
/// data: they do not ask whether it solves anything), with estimates of zero, and a level run whose
/// observables are that reference rotated by exp(theta e3) on the right at every time.
struct SyntheticLevel {
  Problem p = catalogue_problem("free_body");
  Ladder L = make_ladder(p, 2, {.h0 = 0.01, .levels = 3});
  ReferenceSolution ref;
  LevelRun run;
  explicit SyntheticLevel(double theta) {
    const std::size_t n = std::size_t(L.m) + 1;
    ref.times = L.obs_times();
    ref.states.assign(n, p.initial);
    ref.estimate_attitude.assign(n, 0.0);
    ref.estimate_omega.assign(n, 0.0);
    State x = p.initial;
    x.bodies[0].R = x.bodies[0].R * so3::exp(Vec3(0, 0, theta));
    run.xi.resize(Eigen::Index(n), p.observables());
    Eigen::VectorXd row(p.observables());
    flatten(x, p.translating(), row.data());
    for (Eigen::Index j = 0; j < Eigen::Index(n); ++j) run.xi.row(j) = row.transpose();
    run.energy.assign(n, p.energy(x));
  }
  double error(std::string_view metric) const {
    const MetricDef* m = find_metric(metric);
    REQUIRE(m);
    REQUIRE(m->error);
    return m->error->level_error(ErrorInputs{p, L, ref}, run);
  }
};
}  // namespace

TEST_CASE("metric table: every error metric carries its computation, and only they", "[metrics]") {
  for (const MetricDef& m : metric_table()) {
    INFO(m.name);
    CHECK((m.error != nullptr) == is_error_metric(m));
  }
}

TEST_CASE("metric table: a tolerance ladder's rows carry their verdict and their band, and only they", "[metrics]") {
  int rows = 0;
  for (const MetricDef& m : metric_table()) {
    INFO(m.name);
    const bool tol = m.section == MetricSection::tolerance_ladder;
    rows += tol;
    CHECK((m.tolerance_verdict != nullptr) == tol);
    if (m.rule == VerdictRule::tolerance_slope || m.rule == VerdictRule::estimator_slope) CHECK(m.band > 0);
    if (m.rule == VerdictRule::at_most) CHECK(m.band >= 0);
  }
  CHECK(rows == 3);  // proportionality, rejected steps, the estimator's order
  // Each row reads its own verdict of a study.
  ToleranceStudy t;
  t.proportionality_verdict = Verdict::fail;
  t.rejection_verdict = Verdict::pass;
  CHECK(find_metric("tolerance_proportionality")->tolerance_verdict(t) == Verdict::fail);
  CHECK(find_metric("rejected_steps")->tolerance_verdict(t) == Verdict::pass);
  CHECK(find_metric("estimator_order")->tolerance_verdict(t) == Verdict::undefined);  // not measured
  t.estimator = EstimatorOrder{};
  t.estimator->verdict = Verdict::fail;
  CHECK(find_metric("estimator_order")->tolerance_verdict(t) == Verdict::fail);
}

TEST_CASE("verdict rules tolerance_slope and at_most", "[metrics]") {
  const MetricDef& prop = *find_metric("tolerance_proportionality");
  REQUIRE(prop.band == 0.25);
  const auto fit = [](double slope, double se) {
    LineFit f;
    f.slope = slope;
    f.stderr_slope = se;
    return f;
  };
  CHECK(judge_slope(prop, fit(1.2, 0.5), 1.0) == Verdict::pass);        // within the band
  CHECK(judge_slope(prop, fit(1.25, 0.0), 1.0) == Verdict::pass);       // at its edge
  CHECK(judge_slope(prop, fit(1.40, 0.05), 1.0) == Verdict::fail);      // beyond it by more than 2 se
  CHECK(judge_slope(prop, fit(1.40, 0.1), 1.0) == Verdict::undefined);  // beyond it, within 2 se
  CHECK(judge_slope(prop, fit(0.60, 0.01), 1.0) == Verdict::fail);      // on either side
  CHECK(judge_slope(prop, fit(1.25, 0.01), 1.25) == Verdict::pass);     // Radau IIA's 5/4
  CHECK(judge_slope(prop, fit(kNaN, kNaN), 1.0) == Verdict::undefined);
  CHECK(judge_slope(prop, fit(2.0, kNaN), 1.0) == Verdict::undefined);  // no standard error: not decided
  const MetricDef& rej = *find_metric("rejected_steps");
  CHECK(judge_at_most(rej, 0.0) == Verdict::pass);
  CHECK(judge_at_most(rej, rej.band) == Verdict::pass);
  CHECK(judge_at_most(rej, 0.5) == Verdict::fail);
  CHECK(judge_at_most(rej, kNaN) == Verdict::undefined);
}

namespace {
/// Lie-Euler whose every new integrator starts from an angular velocity a few ulps off the last one's
/// (a state kept between runs in the process, as a cache or a static would): not deterministic.
class DriftingEuler final {
 public:
  static const SchemeInfo& info() {
    static const SchemeInfo i{.name = "test_drifting_euler", .title = "Lie-Euler with a state kept between runs",
                              .source = "tests/test_metric_table.cpp", .representation = "R, W", .order = 1,
                              .kind = SchemeKind::explicit_, .applies = {.families = {"rigid_body"}}, .claims = {},
                              .notes = ""};
    return i;
  }
  explicit DriftingEuler(const Problem& p) : s_(p) {}
  void reset(const State& x0, double t0) {
    static int runs = 0;
    State x = x0;
    x.bodies[0].W *= 1 + 4 * kEps * ++runs;
    s_.reset(x, t0);
  }
  StepStatus step(double t, double h) { return s_.step(t, h); }
  void read(State& x) const { s_.read(x); }
  Counters counters() const { return s_.counters(); }

 private:
  LieEuler s_;
};
}  // namespace

TEST_CASE("measures of a pair: every one of the table on every pair, a rerun that differs is seen", "[metrics]") {
  const Problem p = catalogue_problem("free_body");
  const Ladder L = make_ladder(p, 1, {.levels = 3});
  const ReferenceSolution ref = compute_reference(p, L.obs_times(), {.cache_dir = ""});
  const auto measure = [](const PairResult& r, const std::string& name) -> const MeasureResult& {
    for (const auto& [n, m] : r.measures)
      if (n == name) return m;
    FAIL("no measure " << name);
    throw std::logic_error("unreachable");
  };
  const PairResult same = verify_pair(p, find_scheme("lie_euler"), L, ref);
  std::size_t rows = 0;
  for (const MetricDef& m : metric_table()) {
    INFO(m.name);
    CHECK((m.measure != nullptr) == is_measure(m));
    if (is_measure(m)) CHECK(same.measures.at(rows++).first == m.name);  // in the table's order
  }
  CHECK(same.measures.size() == rows);
  CHECK(measure(same, "rerun_difference").value == 0.0);
  CHECK(measure(same, "rerun_difference").verdict == Verdict::pass);
  const PairResult drifting = verify_pair(p, scheme_entry<DriftingEuler>(), L, ref);
  const MeasureResult& d = measure(drifting, "rerun_difference");
  CHECK(d.value > 0);
  CHECK(d.value < 1e-10);  // a few ulps of W, grown over the span
  CHECK(d.verdict == Verdict::fail);
  CHECK_THAT(d.note, Catch::Contains("differ in their bits"));
  // Informational: it does not fail the pair, and the gate does not hold a run to it.
  const bool gating = find_metric("rerun_difference")->gating;
  bool checked = false;
  for (const PairResult::Check& c : drifting.checks()) checked = checked || c.name == "rerun_difference";
  CHECK(checked == gating);
  // An adaptive pair's measures: its tolerance ladder's first level run again at its tolerance.
  const PairResult adaptive = assess_adaptive_pair(p, find_scheme("odeint_dopri5"), L, ref, {.tol0 = 1e-4, .levels = 3});
  REQUIRE(adaptive.tolerance);
  CHECK(adaptive.measures.size() == rows);
  CHECK(measure(adaptive, "rerun_difference").value == 0.0);
  CHECK_THAT(measure(adaptive, "rerun_difference").note, Catch::Contains("bit-identical"));
}

TEST_CASE("error metrics: computed from the observed run against the reference", "[metrics]") {
  const SyntheticLevel same(0.0);
  for (const char* m : {"attitude_error_final", "attitude_error_max", "omega_error_final", "omega_error_max",
                        "h1_distance", "q_error", "E_error"}) {
    INFO(m);
    CHECK(same.error(m) == 0.0);
  }
  // A rotation by theta about the body's e3: the geodesic attitude error is theta at every time; the
  // body angular velocity is the reference's (W is in body components), the spatial one is not
  // (Omega = R W); the energy of a free body does not see R.
  const double theta = 1e-3, span = same.L.t_end() - same.L.t0;
  const SyntheticLevel off(theta);
  CHECK(off.error("attitude_error_final") == Approx(theta).epsilon(1e-12));
  CHECK(off.error("attitude_error_max") == Approx(theta).epsilon(1e-12));
  CHECK(off.error("omega_error_final") == 0.0);
  CHECK(off.error("omega_error_max") == 0.0);
  const Vec3 W = same.p.initial.body().W, dOmega = same.p.initial.body().R * (so3::exp(Vec3(0, 0, theta)) * W - W);
  CHECK(off.error("h1_distance") ==
        Approx(std::sqrt(span * (theta * theta + dOmega.squaredNorm()))).epsilon(1e-9));
  CHECK(off.error("E_error") == Approx(0.0).margin(1e-15));
  // The floors follow the reference's estimates: 100x them where they are larger than round-off.
  SyntheticLevel coarse(theta);
  coarse.ref.estimate_attitude.back() = 1e-6;
  const MetricDef* final_att = find_metric("attitude_error_final");
  CHECK(final_att->error->floor(ErrorInputs{coarse.p, coarse.L, coarse.ref}) == Approx(1e-4));
  CHECK(final_att->error->floor(ErrorInputs{same.p, same.L, same.ref}) == Approx(kRoundoffUlps * kEps));
}
