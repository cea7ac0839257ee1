// The gate (docs/metrics.md, The gate): an identical run passes; doctored baselines fail or report stale as
// specified; round-off-floor noise does not fail; missing data never passes.
#include <nlohmann/json.hpp>

#include "rigidbench/reports/gate.hpp"
#include "rigidbench/reports/report.hpp"
#include "support.hpp"

using namespace rigidbench;
using nlohmann::json;

namespace {
/// A real snapshot: the quick suite on the heavy top (three schemes, short ladder) plus bench data.
json make_snapshot() {
  static const json snap = [] {
    SuiteRequest req;
    req.problems = {"heavy_top"};
    req.integrators = {"odeint_rk4_quat", "terze", "rig_neg"};
    req.ladder.levels = 4;
    req.progress = false;
    req.measure_cost = false;
    const json verify = json::parse(suite_report(run_suite(req), {}, "2026-01-01T00:00:00Z").dump());
    json bench = {{"instruction_counts", {{"tool", "valgrind-3.19.0"}}}, {"results", json::array()}};
    for (const char* s : {"odeint_rk4_quat", "terze", "rig_neg"})
      bench["results"].push_back({{"integrator", s}, {"problem", "heavy_top"}, {"instructions_per_step", 1000.0},
                                  {"ratio_to_baseline", 0.5}});
    return json::parse(gate_snapshot(verify, bench).dump());
  }();
  return snap;
}
int count(const GateResult& g, const std::string& status) {
  int n = 0;
  for (const auto& r : g.rows) n += r.status == status;
  return n;
}
}  // namespace

TEST_CASE("gate: an identical run passes", "[gate]") {
  const json s = make_snapshot();
  const GateResult g = gate_compare(s, s);
  CHECK(g.exit_code() == 0);
  CHECK(g.failures == 0);
  // 3 pairs x 5 convergence metrics + 3 Q_II + exact invariants (RK4 1, Terze 2, RIG_NEG 2)
  // + 3 instruction counts + 3 wall-clock ratios: every check is made and passes.
  CHECK(count(g, "pass") == 3 * 5 + 3 + 5 + 3 + 3);
  CHECK(g.rows.size() == 29u);
  CHECK_THAT(gate_junit(g), Catch::Contains("<testsuite name=\"rigidbench-gate\""));
}

TEST_CASE("gate: a baseline with errors 10x smaller fails (the current error rose by a decade)", "[gate]") {
  json base = make_snapshot();
  for (auto& e : base["accuracy"]["terze/heavy_top"]["convergence"]["attitude_error_final"]["error"])
    e = e.get<double>() / 10;
  const GateResult g = gate_compare(base, make_snapshot());
  CHECK(g.exit_code() == 1);
  bool found = false;
  for (const auto& r : g.rows)
    if (r.integrator == "terze" && r.metric == "attitude_error_final") {
      CHECK(r.status == "fail");
      CHECK_THAT(r.message, Catch::Contains("rose by 1 decades"));
      found = true;
    }
  CHECK(found);
  CHECK_THAT(gate_junit(g), Catch::Contains("<failure"));
}

TEST_CASE("gate: an error that improved by more than 0.3 decades says stale - re-bless", "[gate]") {
  json base = make_snapshot();
  for (auto& e : base["accuracy"]["rig_neg/heavy_top"]["convergence"]["h1_distance"]["error"]) e = e.get<double>() * 3;
  const GateResult g = gate_compare(base, make_snapshot());
  CHECK(g.failures == 0);
  CHECK(g.stale == 1);
  CHECK(g.exit_code() == 4);
}

TEST_CASE("gate: verdict flips from pass to fail fail the gate", "[gate]") {
  json cur = make_snapshot();
  cur["accuracy"]["terze/heavy_top"]["exact_invariants"]["momentum_along_field"] = "fail";
  cur["accuracy"]["rig_neg/heavy_top"]["q_ii"] = "fail";
  cur["accuracy"]["odeint_rk4_quat/heavy_top"]["convergence"]["omega_error_max"]["verdict"] = "fail";
  const GateResult g = gate_compare(make_snapshot(), cur);
  CHECK(g.exit_code() == 1);
  CHECK(g.failures == 3);
}

TEST_CASE("gate: an entry missing from the current run fails; a new one is only listed", "[gate]") {
  json cur = make_snapshot();
  cur["accuracy"].erase("rig_neg/heavy_top");
  cur["accuracy"]["brand_new/heavy_top"] = {{"status", "ok"}};
  const GateResult g = gate_compare(make_snapshot(), cur);
  CHECK(g.exit_code() == 1);
  CHECK(count(g, "missing") == 1);
  CHECK(count(g, "new") == 1);
}

TEST_CASE("gate: a different compiler or flags makes the baseline stale with its own exit code", "[gate]") {
  json base = make_snapshot();
  base["environment"]["compiler"] = "GNU 11.4.0";
  const GateResult g = gate_compare(base, make_snapshot());
  CHECK(g.environment_stale);
  CHECK(g.exit_code() == 4);
  CHECK(g.rows.empty());  // no verdicts on a stale baseline
  CHECK_THAT(gate_table(g), Catch::Contains("baseline stale"));
  json b2 = make_snapshot();
  b2["environment"]["valgrind"] = "valgrind-3.22.0";
  CHECK(gate_compare(b2, make_snapshot()).exit_code() == 4);
}

TEST_CASE("gate: noise at the round-off floor does not fail", "[gate]") {
  json base = make_snapshot(), cur = make_snapshot();
  auto& bm = base["accuracy"]["terze/heavy_top"]["convergence"]["attitude_error_final"];
  auto& cm = cur["accuracy"]["terze/heavy_top"]["convergence"]["attitude_error_final"];
  // Put the finest level at its floor in both, with a 10x difference between them.
  const double f = bm["floor"][3].get<double>();
  bm["error"][3] = f / 2;
  cm["error"][3] = f / 20;
  CHECK(gate_compare(base, cur).exit_code() == 0);
  CHECK(gate_compare(cur, base).exit_code() == 0);
}

TEST_CASE("gate: instructions +3% fail, +1% pass; wall-clock only warns; no valgrind skips speed", "[gate]") {
  json cur = make_snapshot();
  cur["speed"]["terze/heavy_top"]["instructions_per_step"] = 1030.0;
  cur["speed"]["rig_neg/heavy_top"]["instructions_per_step"] = 1010.0;
  cur["speed"]["odeint_rk4_quat/heavy_top"]["ratio_to_baseline"] = 0.9;
  GateResult g = gate_compare(make_snapshot(), cur);
  CHECK(g.failures == 1);
  CHECK(g.warnings == 1);
  CHECK(g.exit_code() == 1);
  cur["environment"]["valgrind"] = "";
  g = gate_compare(make_snapshot(), cur);
  CHECK(g.failures == 0);  // speed skipped, not failed, where valgrind is absent
  CHECK(count(g, "skipped") == 3);
}

TEST_CASE("gate: not a snapshot is bad input", "[gate]") {
  CHECK_THROWS_AS(gate_compare(json::object(), make_snapshot()), InputError);
  const auto r = test::run_cli("gate --baseline " + test::tmp_path("nope.json") + " --current " + test::tmp_path("nope.json"));
  CHECK(r.exit_code == 2);
  CHECK(test::run_cli("gate --baseline x.json").exit_code == 2);  // neither --run nor --current
}
