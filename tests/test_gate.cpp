// The gate (docs/gate.md): an identical run passes; doctored snapshots fail, or say stale, as
// specified; nothing that cannot be compared ever passes (fail closed); differences of the size
// floating-point reassociation makes do not fail; expectations are strict.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "../core/json_input.hpp"
#include "../core/json_schema.hpp"
#include "../core/types.hpp"
#include "../problems/catalogue.hpp"
#include "../tracking/gate.hpp"
#include "../tracking/mann_whitney.hpp"
#include "../reports/report.hpp"
#include "../verification/expectations.hpp"
#include "support.hpp"

using namespace rigidbench;
using nlohmann::json;

namespace {
/// A real snapshot: the quick suite on the heavy top (three schemes, short ladder) plus bench data.
const json& verify_report() {
  static const json verify = [] {
    SuiteRequest req;
    req.problems = {"heavy_top"};
    req.integrators = {"odeint_rk4_quat", "terze", "rig_neg"};
    req.ladder.levels = 4;
    req.progress = false;
    req.measure_cost = false;
    return json::parse(suite_report(run_suite(req), {}, "2026-01-01T00:00:00Z").dump());
  }();
  return verify;
}
json make_snapshot() {
  static const json snap = [] {
    const json& verify = verify_report();
    json bench = {{"schema_version", "1.0"}, {"kind", "bench"},      {"tool", verify["tool"]},
                  {"machine", verify["machine"]}, {"started", "x"}, {"duration_s", 1.0},
                  {"baseline", "odeint_rk4_quat"}, {"instruction_counts", {{"tool", "valgrind-3.19.0"}, {"note", ""}}},
                  {"results", json::array()},     {"work_precision", {{"error_metric", "attitude_error_final"}, {"series", json::array()}}}};
    for (const char* s : {"odeint_rk4_quat", "terze", "rig_neg"})
      bench["results"].push_back({{"integrator", s}, {"problem", "heavy_top"}, {"h", 0.01}, {"ns_per_step", 10.0},
                                  {"ratio_to_baseline", 0.5}, {"instructions_per_step", 1000.0},
                                  {"instruction_ratio_to_baseline", 1.0}, {"load_evaluations_per_step", 1.0},
                                  {"newton_iterations_per_step", 0.0}});
    const BenchReport b = BenchReport::read(bench, "the bench report");
    return GateSnapshot::of_reports(VerifyReport::read(verify, "the verify report"), &b).to_json();
  }();
  return snap;
}
int count(const GateResult& g, const std::string& status) {
  int n = 0;
  for (const auto& r : g.rows) n += r.status == status;
  return n;
}
const GateRow* row(const GateResult& g, const std::string& integrator, const std::string& metric) {
  for (const auto& r : g.rows)
    if (r.integrator == integrator && r.metric == metric) return &r;
  return nullptr;
}
json& ladder(json& s, const std::string& pair, const std::string& metric) {
  return s["accuracy"][pair]["convergence"][metric];
}
}  // namespace

TEST_CASE("gate snapshot: one reader and one serialiser that round-trip, the committed baseline byte for byte",
          "[gate]") {
  // A snapshot made from reports, written and read back, is the same value (NaN levels included).
  const GateSnapshot made = GateSnapshot::read(make_snapshot(), "the snapshot");
  CHECK(GateSnapshot::read(made.to_json(), "again") == made);
  const PairSnapshot* p = made.pair("terze", "heavy_top");
  REQUIRE(p != nullptr);
  REQUIRE(p->ladder("attitude_error_final") != nullptr);
  CHECK(p->ladder("attitude_error_final")->h.size() == 4);
  REQUIRE(p->check("status") != nullptr);
  CHECK(*p->check("status") == "pass");
  CHECK(made.speed_of("rig_neg", "heavy_top")->instructions_per_step == 1000.0);
  // A breakdown level (null in JSON, NaN here) and a missing count survive the trip as such.
  json doctored = make_snapshot();
  ladder(doctored, "terze/heavy_top", "attitude_error_final")["error"][3] = nullptr;
  doctored["speed"]["terze/heavy_top"]["instructions_per_step"] = nullptr;
  const GateSnapshot d = GateSnapshot::read(doctored, "doctored");
  CHECK(std::isnan(d.pair("terze", "heavy_top")->ladder("attitude_error_final")->error[3]));
  CHECK(d.to_json() == doctored);
  CHECK(!(d == made));
  // The blessed baselines: read and written again, the same bytes (a re-bless changes only what moved).
  for (const char* name : {"quick-gate.json", "on-request-gate.json", "adaptive-gate.json"}) {
    const std::string path = std::string(RIGIDBENCH_SOURCE_DIR) + "/baselines/" + name;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const GateSnapshot b = GateSnapshot::read(parse_json_input(text.str(), path), path);
    CHECK(b.to_json().dump(1) + "\n" == text.str());
  }
  // The reader refuses what the schema refuses, naming the path.
  json bad = make_snapshot();
  bad["accuracy"]["terze/heavy_top"]["checks"]["status"] = "maybe";
  CHECK_THROWS_WITH(GateSnapshot::read(bad, "the baseline"),
                    Catch::Contains("the baseline") && Catch::Contains("/accuracy/terze~1heavy_top/checks/status"));
}

TEST_CASE("gate: an identical run passes, every check compared", "[gate]") {
  const json s = make_snapshot();
  const GateResult g = gate_compare(s, s);
  CHECK(g.exit_code() == 0);
  CHECK(g.failures == 0);
  CHECK(count(g, "pass") == int(g.rows.size()));
  // Every convergence metric and every check of every pair has its row, plus the speed rows.
  std::size_t expected = 0;
  for (const auto& [k, e] : s["accuracy"].items()) expected += e["convergence"].size() + e["checks"].size();
  CHECK(g.rows.size() == expected + 3);
  CHECK(s["accuracy"]["terze/heavy_top"]["checks"].contains("invariant:momentum_along_field"));
  CHECK(s["accuracy"]["terze/heavy_top"]["checks"]["status"] == "pass");
}

TEST_CASE("gate: fail closed - what cannot be compared fails, naming what is missing", "[gate]") {
  const json s = make_snapshot();
  SECTION("a baseline with no accuracy entries") {
    json base = s;
    base["accuracy"] = json::object();
    const GateResult g = gate_compare(base, s);
    CHECK(g.exit_code() == 1);
    CHECK_THAT(gate_table(g), Catch::Contains("the baseline has no accuracy entries"));
  }
  SECTION("a pair of the current run that the baseline lacks") {
    json base = s;
    base["accuracy"].erase("rig_neg/heavy_top");
    const GateResult g = gate_compare(base, s);
    CHECK(g.exit_code() == 1);
    REQUIRE(row(g, "rig_neg", "*") != nullptr);
    CHECK_THAT(row(g, "rig_neg", "*")->message, Catch::Contains("not in the baseline"));
  }
  SECTION("a pair of the baseline that the current run lacks") {
    json cur = s;
    cur["accuracy"].erase("terze/heavy_top");
    const GateResult g = gate_compare(s, cur);
    CHECK(g.exit_code() == 1);
    CHECK_THAT(row(g, "terze", "*")->message, Catch::Contains("missing from the current run"));
  }
  SECTION("current error arrays all empty") {
    json cur = s;
    for (auto& [k, e] : cur["accuracy"].items())
      for (auto& [m, c] : e["convergence"].items()) c["error"] = json::array(), c["floor"] = json::array(), c["h"] = json::array();
    const GateResult g = gate_compare(s, cur);
    CHECK(g.exit_code() == 1);
    CHECK(count(g, "missing") == 15);  // 3 pairs x 5 metrics, none compared
    CHECK_THAT(row(g, "terze", "attitude_error_final")->message, Catch::Contains("ladders differ"));
  }
  SECTION("a level fewer inside the ladder, another h, or an array of another length") {
    json cur = s;
    auto& c = ladder(cur, "terze/heavy_top", "h1_distance");
    REQUIRE(c["h"].size() >= 3);
    c["error"].erase(1), c["floor"].erase(1), c["h"].erase(1);
    ladder(cur, "rig_neg/heavy_top", "h1_distance")["h"][1] = 0.004;
    ladder(cur, "odeint_rk4_quat/heavy_top", "h1_distance")["error"].erase(0);
    const GateResult g = gate_compare(s, cur);
    CHECK(g.exit_code() == 1);
    CHECK(row(g, "terze", "h1_distance")->status == "missing");
    CHECK(row(g, "rig_neg", "h1_distance")->status == "missing");
    CHECK(row(g, "odeint_rk4_quat", "h1_distance")->status == "missing");
  }
  SECTION("the finest level fewer: the levels both ran are compared (a sequential ladder settled earlier)") {
    json cur = s;
    auto& c = ladder(cur, "terze/heavy_top", "h1_distance");
    const std::size_t n = c["h"].size();
    REQUIRE(n >= 3);
    c["error"].erase(n - 1), c["floor"].erase(n - 1), c["h"].erase(n - 1);
    GateResult g = gate_compare(s, cur);
    CHECK(row(g, "terze", "h1_distance")->status == "pass");
    CHECK_THAT(row(g, "terze", "h1_distance")->message,
               Catch::Contains(cat("compared on the first ", std::to_string(n - 1), " levels")));
    c["error"][0] = 10 * c["error"][0].get<double>();  // and what they compare still gates
    g = gate_compare(s, cur);
    CHECK(row(g, "terze", "h1_distance")->status == "fail");
    CHECK(g.exit_code() == 1);
  }
  SECTION("a verdict that turned from fail to pass on a shorter ladder is not an improvement") {
    json base = s, cur = s;
    for (auto& [m, l] : cur["accuracy"]["terze/heavy_top"]["convergence"].items())
      l["error"].erase(l["h"].size() - 1), l["floor"].erase(l["h"].size() - 1), l["h"].erase(l["h"].size() - 1);
    base["accuracy"]["terze/heavy_top"]["checks"]["q_ii"] = "fail";
    cur["accuracy"]["terze/heavy_top"]["checks"]["q_ii"] = "pass";
    const GateResult g = gate_compare(base, cur);
    CHECK(row(g, "terze", "q_ii")->status == "fail");
    CHECK_THAT(row(g, "terze", "q_ii")->message, Catch::Contains("on another ladder"));
    CHECK_THAT(gate_table(g), Catch::Contains("1 pair(s) ran another number of levels than the baseline"));
    json same = s;  // the same change on the same ladder is an improvement
    same["accuracy"]["terze/heavy_top"]["checks"]["q_ii"] = "pass";
    CHECK(row(gate_compare(base, same), "terze", "q_ii")->status == "improved");
  }
  SECTION("a check missing on either side") {
    json cur = s;
    cur["accuracy"]["terze/heavy_top"]["checks"].erase("q_ii");
    cur["accuracy"]["rig_neg/heavy_top"]["checks"]["invariant:made_up"] = "pass";
    const GateResult g = gate_compare(s, cur);
    CHECK(g.exit_code() == 1);
    CHECK(row(g, "terze", "q_ii")->status == "missing");
    CHECK(row(g, "rig_neg", "invariant:made_up")->status == "missing");
  }
  SECTION("filters that select nothing") {
    GateOptions o;
    o.integrators = {"no_such_scheme*"};
    const GateResult g = gate_compare(s, s, o);
    CHECK(g.exit_code() == 1);
    CHECK_THAT(gate_table(g), Catch::Contains("no baseline entry matches"));
  }
  SECTION("no instruction counts in the current run unless accuracy alone is asked for") {
    json cur = s;
    cur["environment"]["valgrind"] = "";
    cur["speed"] = json::object();
    CHECK(gate_compare(s, cur).exit_code() == 1);
    GateOptions o;
    o.accuracy_only = true;
    const GateResult g = gate_compare(s, cur, o);
    CHECK(g.exit_code() == 0);
    CHECK_THAT(gate_table(g), Catch::Contains("speed not compared (--accuracy-only)"));
  }
}

TEST_CASE("gate: the ladder tolerance - a real rise fails, reassociation noise passes", "[gate]") {
  const json s = make_snapshot();
  SECTION("errors 10x larger than the baseline's fail, with the numbers in the message") {
    json base = s;
    for (auto& e : ladder(base, "terze/heavy_top", "attitude_error_final")["error"]) e = e.get<double>() / 10;
    const GateResult g = gate_compare(base, s);
    CHECK(g.exit_code() == 1);
    const GateRow* r = row(g, "terze", "attitude_error_final");
    CHECK(r->status == "fail");
    CHECK_THAT(r->message, Catch::Contains("rose from") && Catch::Contains("(1 decades; allowed 0.1 decades"));
    CHECK_THAT(gate_junit(g, "2026-01-01T00:00:00Z", "host"), Catch::Contains("<failure type=\"regression\""));
  }
  SECTION("a rise of 0.2 decades fails; of 0.05 decades passes") {
    json cur = s;
    for (auto& e : ladder(cur, "terze/heavy_top", "omega_error_final")["error"]) e = e.get<double>() * std::pow(10, 0.2);
    for (auto& e : ladder(cur, "rig_neg/heavy_top", "omega_error_final")["error"]) e = e.get<double>() * std::pow(10, 0.05);
    const GateResult g = gate_compare(s, cur);
    CHECK(row(g, "terze", "omega_error_final")->status == "fail");
    CHECK(row(g, "rig_neg", "omega_error_final")->status == "pass");
  }
  SECTION("relative changes of 1e-9 everywhere (another compiler's rounding) pass both ways") {
    json cur = s;
    int sign = 1;
    for (auto& [k, e] : cur["accuracy"].items())
      for (auto& [m, c] : e["convergence"].items())
        for (auto& x : c["error"])
          if (x.is_number()) x = x.get<double>() * (1 + (sign = -sign) * 1e-9);
    CHECK(gate_compare(s, cur).exit_code() == 0);
    CHECK(gate_compare(cur, s).exit_code() == 0);
  }
  SECTION("differences within the two runs' reference floors pass") {
    json base = s, cur = s;
    auto& bm = ladder(base, "terze/heavy_top", "attitude_error_final");
    auto& cm = ladder(cur, "terze/heavy_top", "attitude_error_final");
    const double f = bm["floor"][3].get<double>();
    bm["error"][3] = f / 2;
    cm["error"][3] = 2 * f;  // 0.6 decades up, but within floor_b + floor_c of the baseline
    CHECK(gate_compare(base, cur).exit_code() == 0);
    CHECK(gate_compare(cur, base).exit_code() == 0);
    cm["error"][3] = 5 * f;  // beyond them: fails
    CHECK(gate_compare(base, cur).exit_code() == 1);
  }
  SECTION("a level that breaks down fails") {
    json cur = s;
    ladder(cur, "rig_neg/heavy_top", "h1_distance")["error"][2] = nullptr;
    const GateResult g = gate_compare(s, cur);
    CHECK_THAT(row(g, "rig_neg", "h1_distance")->message, Catch::Contains("broke down"));
  }
}

TEST_CASE("gate: tolerances of your own - per run, and per scheme and check in the baseline", "[gate]") {
  const json s = make_snapshot();
  json cur = s;
  for (const char* pair : {"terze/heavy_top", "rig_neg/heavy_top"})
    for (auto& e : ladder(cur, pair, "omega_error_final")["error"]) e = e.get<double>() * std::pow(10, 0.3);
  cur["speed"]["terze/heavy_top"]["instructions_per_step"] =
      cur["speed"]["terze/heavy_top"]["instructions_per_step"].get<double>() * 1.04;
  const GateResult strict = gate_compare(s, cur);
  REQUIRE(row(strict, "terze", "omega_error_final")->status == "fail");
  REQUIRE(row(strict, "rig_neg", "omega_error_final")->status == "fail");
  REQUIRE(row(strict, "terze", "instructions_per_step")->status == "fail");
  SECTION("in the baseline: the rows it matches, and only those, with its reason") {
    json base = s;
    base["tolerances"] = json::array({{{"integrator", "terze"}, {"problem", "*"}, {"check", "omega_*"}, {"error_band", 0.5},
                                       {"reason", "chaotic orbit: 0.5 decades"}},
                                      {{"integrator", "terze"}, {"problem", "heavy_top"}, {"check", "instructions_per_step"},
                                       {"instruction_tolerance", 0.05}}});
    const GateResult g = gate_compare(base, cur);
    CHECK(row(g, "terze", "omega_error_final")->status == "pass");
    CHECK_THAT(row(g, "terze", "omega_error_final")->message, Catch::Contains("chaotic orbit"));
    CHECK(row(g, "rig_neg", "omega_error_final")->status == "fail");  // not matched: the default band
    CHECK(row(g, "terze", "instructions_per_step")->status == "pass");
    // Later entries override earlier ones: a tighter band after the wide one fails the row again.
    base["tolerances"].push_back({{"integrator", "*"}, {"problem", "*"}, {"check", "omega_error_final"}, {"error_band", 0.05}});
    CHECK(row(gate_compare(base, cur), "terze", "omega_error_final")->status == "fail");
    // The baseline's tolerances round-trip through its one reader and serialiser.
    const GateSnapshot read = GateSnapshot::read(base, "the baseline");
    CHECK(read.tolerances.size() == 3);
    CHECK(GateSnapshot::read(read.to_json(), "again") == read);
  }
  SECTION("per run: every row") {
    GateOptions wide;
    wide.rules.log10_rise = 0.5;
    wide.rules.instruction_rise = 0.05;
    CHECK(gate_compare(s, cur, wide).exit_code() == 0);
  }
  SECTION("a tolerance that is not one is refused with its path") {
    for (const json& bad : {json{{"integrator", "*"}, {"problem", "*"}, {"check", "*"}, {"error_band", 0}},
                            json{{"integrator", "*"}, {"problem", "*"}, {"check", "*"}},
                            json{{"integrator", "*"}, {"problem", "*"}, {"check", "*"}, {"error_band", 100}}}) {
      json base = s;
      base["tolerances"] = json::array({bad});
      CHECK_THROWS_AS(gate_compare(base, cur), InputError);
    }
  }
}

TEST_CASE("gate: improvements are reported and pass, or make the baseline stale with --require-rebless", "[gate]") {
  const json s = make_snapshot();
  json base = s;
  // The current run is better than the baseline: an error 3x smaller at every level, a verdict that
  // failed now passes, 10 % fewer instructions.
  for (auto& e : ladder(base, "rig_neg/heavy_top", "h1_distance")["error"]) e = e.get<double>() * 3;
  ladder(base, "terze/heavy_top", "omega_error_max")["verdict"] = "fail";
  base["speed"]["terze/heavy_top"]["instructions_per_step"] = 1100.0;
  GateResult g = gate_compare(base, s);
  CHECK(g.failures == 0);
  CHECK(g.stale == 0);
  CHECK(g.improved == 3);
  CHECK(g.exit_code() == 0);
  CHECK_THAT(row(g, "rig_neg", "h1_distance")->message, Catch::Contains("improved from"));
  CHECK_THAT(row(g, "terze", "omega_error_max")->message, Catch::Contains("from fail to pass"));
  CHECK_THAT(row(g, "terze", "instructions_per_step")->message, Catch::Contains("fell by 9.091 %"));
  CHECK_THAT(gate_table(g), Catch::Contains("3 improved"));
  CHECK(gate_summary_json(g)["counts"]["improved"] == 3);
  GateOptions require;
  require.require_rebless = true;
  g = gate_compare(base, s, require);
  CHECK(g.exit_code() == 4);
  CHECK(g.failures == 0);
  CHECK(row(g, "terze", "omega_error_max")->failing);
  CHECK_THAT(gate_markdown(g), Catch::Contains("stale baseline (re-bless)"));
  // An error that improved does not hide a verdict that turned to fail (an error smaller at the
  // coarse levels with a lost order), nor a failure not listed in the expectations.
  json lost = s;
  ladder(lost, "rig_neg/heavy_top", "h1_distance")["verdict"] = "fail";
  g = gate_compare(base, lost);
  CHECK(row(g, "rig_neg", "h1_distance")->status == "fail");
  CHECK(g.exit_code() == 1);
  Expectations none;
  none.origin = "none.json";
  GateOptions strict;
  strict.expect = &none;
  ladder(base, "rig_neg/heavy_top", "h1_distance")["verdict"] = "fail";
  g = gate_compare(base, lost, strict);
  CHECK(row(g, "rig_neg", "h1_distance")->status == "fail");
  CHECK_THAT(row(g, "rig_neg", "h1_distance")->message, Catch::Contains("not listed"));
  ladder(base, "rig_neg/heavy_top", "h1_distance")["verdict"] = "pass";
  // A listed expected failure that passes is not an improvement: the list is wrong (unexpected pass).
  Expectations x;
  x.origin = "expect.json";
  x.items.push_back({"terze", "heavy_top", "omega_error_max", "listed", true});
  GateOptions listed;
  listed.expect = &x;
  g = gate_compare(base, s, listed);
  CHECK(row(g, "terze", "omega_error_max")->status == "unexpected_pass");
  CHECK(g.exit_code() == 1);

}

TEST_CASE("gate: stale - speed counted by another toolchain fails unless allowed", "[gate]") {
  const json s = make_snapshot();
  GateResult g;
  // Another compiler: accuracy is still compared (and passes); the speed rows are stale.
  json other = s;
  other["environment"]["compiler"] = "Clang 14.0.6";
  other["environment"]["flags"] = "-march=native -O3 -DNDEBUG";
  g = gate_compare(s, other);
  CHECK(g.failures == 0);
  CHECK(g.stale == 3);
  CHECK(g.exit_code() == 4);
  CHECK_THAT(row(g, "terze", "instructions_per_step")->message, Catch::Contains("compiler: baseline"));
  GateOptions acc;
  acc.accuracy_only = true;
  CHECK(gate_compare(s, other, acc).exit_code() == 0);
  GateOptions allow;
  allow.allow_stale = true;
  g = gate_compare(s, other, allow);
  CHECK(g.exit_code() == 0);
  CHECK(g.stale == 3);
  CHECK(g.warnings == 0);  // counted once, as stale ("allowed" in their messages), not as warnings too
  CHECK_THAT(row(g, "terze", "instructions_per_step")->message, Catch::Contains("(allowed: --allow-stale)"));
}

TEST_CASE("gate: a scheme of another version (an engine's library) is stale, its results not compared", "[gate]") {
  json base = make_snapshot(), cur = base;
  base["accuracy"]["terze/heavy_top"]["version"] = "Engine 2.2.2";
  cur["accuracy"]["terze/heavy_top"]["version"] = "Engine 3.0.0";
  for (auto& e : ladder(cur, "terze/heavy_top", "h1_distance")["error"]) e = e.get<double>() * 100;  // not compared
  GateResult g = gate_compare(base, cur);
  CHECK(g.failures == 0);
  CHECK(g.stale == 1);
  CHECK(g.exit_code() == 4);
  const GateRow* r = row(g, "terze", "version");
  REQUIRE(r != nullptr);
  CHECK(r->baseline == "Engine 2.2.2");
  CHECK(r->current == "Engine 3.0.0");
  CHECK_THAT(r->message, Catch::Contains("bless to gate this version"));
  CHECK(row(g, "terze", "h1_distance") == nullptr);
  // A version where the baseline had none (or none where it had one) is a change too.
  cur = base;
  cur["accuracy"]["terze/heavy_top"].erase("version");
  CHECK(gate_compare(base, cur).stale == 1);
  // The same version: compared as any pair.
  CHECK(gate_compare(base, base).exit_code() == 0);
  // The report carries an engine's version into the snapshot (the built-ins have none).
  CHECK_FALSE(make_snapshot()["accuracy"]["terze/heavy_top"].contains("version"));
}

TEST_CASE("gate: verdicts turning from pass to fail fail the gate - fail to fail does not", "[gate]") {
  const json s = make_snapshot();
  json cur = s;
  cur["accuracy"]["terze/heavy_top"]["checks"]["invariant:momentum_along_field"] = "fail";
  cur["accuracy"]["rig_neg/heavy_top"]["checks"]["q_ii"] = "fail";
  ladder(cur, "odeint_rk4_quat/heavy_top", "omega_error_max")["verdict"] = "fail";
  cur["accuracy"]["terze/heavy_top"]["checks"]["status"] = "fail";
  GateResult g = gate_compare(s, cur);
  CHECK(g.exit_code() == 1);
  CHECK(g.failures == 4);
  g = gate_compare(cur, cur);
  CHECK(g.exit_code() == 0);
}

TEST_CASE("gate summaries: Markdown names every failed check in one line, JSON valid against its schema", "[gate]") {
  const json s = make_snapshot();
  json cur = s;
  cur["accuracy"]["terze/heavy_top"]["checks"]["invariant:momentum_along_field"] = "fail";
  cur["accuracy"]["rig_neg/heavy_top"]["checks"]["q_ii"] = "fail";
  cur["speed"]["odeint_rk4_quat/heavy_top"]["ratio_to_baseline"] = 0.9;  // a warning, listed after the failures
  const GateResult g = gate_compare(s, cur);
  REQUIRE(g.failures == 2);
  const std::string md = gate_markdown(g);
  CHECK_THAT(md, Catch::StartsWith("### rigidbench gate: FAILED"));
  std::vector<std::string> lines;
  std::istringstream in(md);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // One table line per check that did not pass, failures first: each names its scheme and check.
  std::vector<std::string> rows;
  for (const auto& l : lines)
    if (l.rfind("| **fail**", 0) == 0 || l.rfind("| warn", 0) == 0) rows.push_back(l);
  REQUIRE(rows.size() == 3);
  CHECK_THAT(rows[0] + rows[1], Catch::Contains("terze") && Catch::Contains("invariant:momentum_along_field"));
  CHECK_THAT(rows[0] + rows[1], Catch::Contains("rig_neg") && Catch::Contains("q_ii"));
  CHECK_THAT(rows[2], Catch::StartsWith("| warn"));
  const auto j = gate_summary_json(g);
  CHECK(j["outcome"] == "fail");
  CHECK(j["exit_code"] == 1);
  CHECK(j["counts"]["failed"] == 2);
  CHECK(j["rows"].size() == 3);
  CHECK_NOTHROW(validate_document(json::parse(j.dump()), DocumentSchema::gate_summary, "the gate summary"));
  // A passing gate: the outcome and its counts, no table.
  const GateResult ok = gate_compare(s, s);
  CHECK(gate_markdown(ok).find("| status") == std::string::npos);
  CHECK(gate_summary_json(ok)["outcome"] == "pass");
  CHECK_NOTHROW(validate_document(json::parse(gate_summary_json(ok).dump()), DocumentSchema::gate_summary, "the gate summary"));
}

TEST_CASE("gate: instructions +3% fail, +1% pass, the wall-clock ratio only warns", "[gate]") {
  json cur = make_snapshot();
  cur["speed"]["terze/heavy_top"]["instructions_per_step"] = 1030.0;
  cur["speed"]["rig_neg/heavy_top"]["instructions_per_step"] = 1010.0;
  cur["speed"]["odeint_rk4_quat/heavy_top"]["ratio_to_baseline"] = 0.9;
  const GateResult g = gate_compare(make_snapshot(), cur);
  CHECK(g.failures == 1);
  CHECK(g.warnings == 1);
  CHECK(g.exit_code() == 1);
  CHECK_THAT(row(g, "terze", "instructions_per_step")->message, Catch::Contains("rose by 3 %"));
}

TEST_CASE("gate --against: a scheme or problem new in this build warns, a new pair of known ones fails", "[gate]") {
  // Two builds' speed-only snapshots (what gate --against compares): the current one adds a scheme
  // the other does not have, a problem the other does not have, and a pair of a scheme and a problem
  // both have.
  GateOptions opt;
  opt.speed_only = true;
  json base = make_snapshot(), cur = make_snapshot();
  base["speed"]["rig_neg/free_body"] = base["speed"]["rig_neg/heavy_top"];
  cur["speed"]["rig_neg/free_body"] = cur["speed"]["rig_neg/heavy_top"];
  cur["speed"]["brand_new/heavy_top"] = cur["speed"]["terze/heavy_top"];
  cur["speed"]["terze/new_problem"] = cur["speed"]["terze/heavy_top"];
  GateResult g = gate_compare(base, cur, opt);
  CHECK(g.failures == 0);
  REQUIRE(row(g, "brand_new", "instructions_per_step"));
  CHECK(row(g, "brand_new", "instructions_per_step")->status == "warn");
  CHECK_THAT(row(g, "brand_new", "instructions_per_step")->message, Catch::Contains("a scheme the other build"));
  CHECK(count(g, "warn") == 2);
  CHECK(g.exit_code() == 0);
  cur["speed"]["terze/free_body"] = cur["speed"]["terze/heavy_top"];
  g = gate_compare(base, cur, opt);
  CHECK(g.exit_code() == 1);
  CHECK(count(g, "missing") == 1);
  // Against a blessed baseline (not speed-only) a new scheme is missing: bless to gate it.
  json full = make_snapshot();
  full["speed"]["brand_new/heavy_top"] = full["speed"]["terze/heavy_top"];
  CHECK(gate_compare(make_snapshot(), full).exit_code() == 1);
}

TEST_CASE("gate: expected findings are strict", "[gate]") {
  const json s = make_snapshot();
  json cur = s;
  cur["accuracy"]["terze/heavy_top"]["checks"]["q_ii"] = "fail";
  Expectations e;
  e.origin = "expect.json";
  e.items.push_back({"terze", "heavy_top", "q_ii", "a reason long enough"});
  GateOptions o;
  o.expect = &e;
  // Listed and failing: passes, said as expected.
  GateResult g = gate_compare(s, cur, o);
  CHECK(g.exit_code() == 0);
  CHECK(g.expected == 1);
  // Listed and passing: fails (remove it from the list).
  g = gate_compare(s, s, o);
  CHECK(g.exit_code() == 1);
  CHECK(row(g, "terze", "q_ii")->status == "unexpected_pass");
  // Failing in both runs but not listed: with a list, every failure must be on it.
  json both = cur;
  both["accuracy"]["rig_neg/heavy_top"]["checks"]["q_ii"] = "fail";
  g = gate_compare(both, both, o);
  CHECK(g.exit_code() == 1);
  CHECK(row(g, "rig_neg", "q_ii")->status == "fail");
  // An entry naming a scheme nobody knows (a typo) would never apply: it fails instead of being ignored.
  e.items.push_back({"terzee", "heavy_top", "q_ii", "a typo of terze"});
  g = gate_compare(s, cur, o);
  CHECK(g.exit_code() == 1);
  REQUIRE(row(g, "terzee", "q_ii") != nullptr);
  CHECK(row(g, "terzee", "q_ii")->status == "missing");
  CHECK_THAT(row(g, "terzee", "q_ii")->message, Catch::Contains("no scheme of that name ran or is registered"));
  // verify --expect: the same entry is an unknown scheme, counted with the unknown checks; an entry
  // for a registered scheme the run left out is only not run.
  SuiteResult run;
  Expectations v;
  v.items = {{"terzee", "heavy_top", "q_ii", "typo"}, {"lgvi", "heavy_top", "q_ii", "filtered out"}};
  const ExpectationReport R = apply_expectations(run, v);
  REQUIRE(R.outcomes.size() == 2);
  CHECK(R.outcomes[0].outcome == "unknown_scheme");
  CHECK(R.outcomes[1].outcome == "not_run");
  CHECK(R.unknown_checks == 1);
  CHECK_FALSE(R.ok());
  // A misspelt problem is as unknown as a misspelt scheme (it was "not run", and passed); a problem
  // of the run (a problem file's) or a catalogue size variant is known.
  v.items = {{"lgvi", "heavy_topp", "q_ii", "typo"}, {"lgvi", "particle_gas_640", "q_ii", "a size variant"},
             {"lgvi", "my_file_problem", "q_ii", "a problem file's"}, {"lgvi", "particle_gas_1", "q_ii", "a size the catalogue refuses"},
             {"lgvi", "particle_gas_0640", "q_ii", "not a name of particle_gas_640"}};
  Problem mine = catalogue_problem("free_body");
  mine.name = "my_file_problem";
  run.problems.push_back(mine);
  const ExpectationReport P = apply_expectations(run, v);
  REQUIRE(P.outcomes.size() == 5);
  CHECK(P.outcomes[0].outcome == "unknown_problem");
  CHECK(P.outcomes[1].outcome == "not_run");
  CHECK(P.outcomes[2].outcome == "not_run");
  CHECK(P.outcomes[3].outcome == "unknown_problem");
  CHECK(P.outcomes[4].outcome == "unknown_problem");
  CHECK(P.unknown_checks == 3);
  CHECK_FALSE(P.ok());
  e.items = {{"terze", "heavy_top", "q_ii", "a reason long enough"}, {"terze", "heavy_topp", "q_ii", "typo"}};
  g = gate_compare(s, cur, o);
  CHECK(g.exit_code() == 1);
  const auto typo = std::find_if(g.rows.begin(), g.rows.end(), [](const GateRow& r) { return r.problem == "heavy_topp"; });
  REQUIRE(typo != g.rows.end());
  CHECK(typo->status == "missing");
  CHECK_THAT(typo->message, Catch::Contains("no problem of that name ran or is in the catalogue"));
  // ... and a check the pair ran without (verify's unknown check): it was silently never applied.
  e.items = {{"terze", "heavy_top", "q_ii", "a reason long enough"}, {"terze", "heavy_top", "q_iii", "typo"}};
  g = gate_compare(s, cur, o);
  CHECK(g.exit_code() == 1);
  REQUIRE(row(g, "terze", "q_iii") != nullptr);
  CHECK(row(g, "terze", "q_iii")->status == "missing");
  CHECK_THAT(row(g, "terze", "q_iii")->message, Catch::Contains("the pair ran without a check of that name"));
}

TEST_CASE("gate: shapes are checked against the snapshot schema, with the JSON path", "[gate]") {
  const json s = make_snapshot();
  auto message = [&](const json& base) {
    try {
      gate_compare(base, s);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message(json::array()), Catch::Contains("does not follow the gate snapshot schema"));
  json b = s;
  b.erase("environment");
  CHECK_THAT(message(b), Catch::Contains("environment"));
  b = s;
  ladder(b, "terze/heavy_top", "h1_distance")["error"][0] = "big";
  CHECK_THAT(message(b), Catch::Contains("/accuracy/terze~1heavy_top/convergence/h1_distance/error/0"));
  // Through the command: exit 2, never 3.
  const std::string path = test::tmp_path("gate-array.json");
  std::ofstream(path) << "[1, 2, 3]";
  const auto r = test::run_cli("gate --baseline " + path + " --current " + path);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("does not follow"));
  const auto r2 = test::run_cli("gate --baseline " + test::tmp_path("nope.json") + " --current " + test::tmp_path("nope.json"));
  CHECK(r2.exit_code == 2);
  CHECK(test::run_cli("gate --baseline x.json").exit_code == 2);  // neither --run nor --current
}

TEST_CASE("verify --expect: listed failures pass - an unlisted failure, a listed pass or an unknown check fail", "[gate][cli]") {
  const std::string project = std::string(RIGIDBENCH_SOURCE_DIR) + "/baselines/expected-findings.json";
  const std::string pair = "verify --integrator rig_pos --problem dzhanibekov --quiet --expect ";
  // rig_pos on dzhanibekov fails attitude_error_final and q_ii, both listed in the project's file.
  auto r = test::run_cli(pair + project + " --out " + test::tmp_path("expect-report.json"));
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("2 failed as expected, 0 unexpected failure(s)"));
  std::ifstream in(test::tmp_path("expect-report.json"));
  const json rep = json::parse(in);
  CHECK(rep["summary"]["expected_failures"] == 2);
  CHECK(rep["expectations"]["outcomes"].size() >= 2u);

  auto write = [](const std::string& name, const json& items) {
    const std::string path = test::tmp_path(name);
    std::ofstream(path) << json{{"kind", "rigidbench-expectations"}, {"schema_version", "1.0"}, {"expected_failures", items}}.dump();
    return path;
  };
  const std::string why = "a reason of some length";
  // Only one of the two failures listed: the other fails the run.
  r = test::run_cli(pair + write("expect-partial.json", json::array({{{"integrator", "rig_pos"}, {"problem", "dzhanibekov"},
                                                                       {"checks", {"attitude_error_final"}}, {"reason", why}}})));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("UNEXPECTED FAILURE") && Catch::Contains("q_ii"));
  // A check listed that passes: strict.
  r = test::run_cli(pair + write("expect-xpass.json",
                                 json::array({{{"integrator", "rig_pos"}, {"problem", "dzhanibekov"},
                                               {"checks", {"attitude_error_final", "q_ii", "attitude_error_max"}}, {"reason", why}}})));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("UNEXPECTED PASS") && Catch::Contains("attitude_error_max"));
  // A misspelt check of a pair that ran.
  r = test::run_cli(pair + write("expect-typo.json",
                                 json::array({{{"integrator", "rig_pos"}, {"problem", "dzhanibekov"},
                                               {"checks", {"attitude_error_final", "q_ii", "attitude_eror_max"}}, {"reason", why}}})));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("UNKNOWN CHECK"));
  // A wrong shape: exit 2 with the path.
  r = test::run_cli(pair + write("expect-shape.json", json::array({{{"integrator", "rig_pos"}, {"problem", "dzhanibekov"},
                                                                     {"checks", "q_ii"}, {"reason", why}}})));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("/expected_failures/0/checks"));
}

TEST_CASE("gate: no input can fool it - duplicates, impossible values and self-declared floors", "[gate]") {
  const json s = make_snapshot();
  SECTION("a pair twice in a verify report, the regression in the first copy: refused, not resolved") {
    json report = verify_report();
    json bad = report["results"][1];
    bad["convergence"]["attitude_error_final"]["error"][0] = 1.0;
    report["results"].insert(report["results"].begin(), bad);
    try {
      (void)GateSnapshot::of_reports(VerifyReport::read(report, "the verify report"));
      FAIL("a report with a pair twice was snapshotted");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains("is already at /results/0") && Catch::Contains("each pair once"));
    }
  }
  SECTION("a key twice in one object of a snapshot file: refused at parsing (the parser would keep the last)") {
    const std::string text = R"({"accuracy": {"terze/heavy_top": {"status": "breakdown"}, "terze/heavy_top": {"status": "ok"}}})";
    CHECK_THROWS_WITH(parse_json_input(text, "the baseline"), Catch::Contains("\"terze/heavy_top\" appears twice"));
    // The same key in two different objects is fine.
    CHECK_NOTHROW(parse_json_input(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})", "x"));
  }
  SECTION("negative errors, floors and counts in a baseline: bad input, never a NaN comparison that passes") {
    for (const char* field : {"error", "floor", "rounding"}) {
      json base = s;
      ladder(base, "terze/heavy_top", "attitude_error_final")[field][1] = -1e-3;
      CHECK_THROWS_AS(gate_compare(base, s), InputError);
    }
    json base = s;
    base["speed"]["terze/heavy_top"]["instructions_per_step"] = -5.0;
    CHECK_THROWS_WITH(gate_compare(base, s), Catch::Contains("instructions_per_step"));
    json verify = verify_report();
    verify["results"][0]["convergence"]["attitude_error_final"]["floor"][0] = -1.0;
    CHECK_THROWS_AS(GateSnapshot::of_reports(VerifyReport::read(verify, "the verify report")), InputError);
  }
  SECTION("a current run that declares its own floors cannot pass errors 1000x worse") {
    json cur = s;
    json& m = ladder(cur, "terze/heavy_top", "attitude_error_final");
    for (auto& e : m["error"]) e = e.get<double>() * 1000;
    for (auto& f : m["floor"]) f = 1e300;
    const GateResult g = gate_compare(s, cur);
    CHECK(g.exit_code() == 1);
    const GateRow* r = row(g, "terze", "attitude_error_final");
    REQUIRE(r != nullptr);
    CHECK(r->status == "fail");
    CHECK_THAT(r->message, Catch::Contains("does not follow from the same reference"));
    // The same errors with the floors left alone fail as a rise: the check above is not what catches them.
    json honest = s;
    for (auto& e : ladder(honest, "terze/heavy_top", "attitude_error_final")["error"]) e = e.get<double>() * 1000;
    const GateResult hg = gate_compare(s, honest);  // (row() points into the result: keep it alive)
    const GateRow* h = row(hg, "terze", "attitude_error_final");
    REQUIRE(h != nullptr);
    CHECK(h->status == "fail");
    CHECK_THAT(h->message, Catch::Contains("rose from"));
  }
  SECTION("a comparison whose allowed error overflows fails instead of passing") {
    json base = s;
    ladder(base, "terze/heavy_top", "attitude_error_final")["error"][0] = 1.7e308;
    const GateResult g = gate_compare(base, s);
    const GateRow* r = row(g, "terze", "attitude_error_final");
    REQUIRE(r != nullptr);
    CHECK(r->status == "fail");
    CHECK_THAT(r->message, Catch::Contains("not a finite number"));
  }
}

TEST_CASE("gate for someone else's CI: a baseline of some pairs, a failure that tells the story and the next commands",
          "[gate][cli]") {
  // An outside scheme's project blesses its own pairs only (accuracy only: its runner may lack
  // valgrind); later gates without a selection compare exactly those.
  const std::string base = test::tmp_path("gate-subset.json"), tampered = test::tmp_path("gate-subset-tampered.json");
  const std::string junit = test::tmp_path("gate-subset.xml");
  auto r = test::run_cli("gate --run --bless --accuracy-only --integrator terze --problem free_body heavy_top --quiet --baseline " +
                         base);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  json b = json::parse(std::ifstream(base));
  CHECK(b["selection"]["integrators"] == json::array({"terze"}));
  CHECK(b["selection"]["problems"] == json::array({"free_body", "heavy_top"}));
  CHECK(b["accuracy"].size() == 2);
  CHECK(b["speed"].empty());
  const auto t0 = std::chrono::steady_clock::now();
  r = test::run_cli("gate --run --accuracy-only --quiet --baseline " + base + " --junit " + junit);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("blessed for a selection of pairs") != std::string::npos);
  CHECK(r.output.find(" 0 failed") != std::string::npos);
  CHECK(r.output.find("re-bless") == std::string::npos);  // nothing to suggest when it passes
  {  // JUnit: the suite's time is the whole run's wall time, as this test measured it from outside
     // (it was the sum of the pairs' own work: 0.16 s of a 39 s run, 0.4 %). The process's start and
     // exit are outside what the gate measures, and on a busy machine they are most of a 0.1 s run
     // (a bound of half failed so in CI): a tenth still tells the whole run from the pairs' work.
    std::stringstream xml;
    xml << std::ifstream(junit).rdbuf();
    const std::string x = xml.str();
    std::smatch m;
    REQUIRE(std::regex_search(x, m, std::regex("<testsuite [^>]*time=\"([0-9.]+)\"")));
    const double suite = std::stod(m[1]);
    CHECK(suite <= elapsed);
    CHECK(suite >= 0.1 * elapsed);
  }

  // The error at every level rises a hundredfold: the failure gives every level, the fitted order
  // on both sides, the command that reproduces it and the one that re-blesses the same selection.
  json& c = b["accuracy"]["terze/heavy_top"]["convergence"]["attitude_error_final"];
  for (auto& e : c["error"]) e = e.get<double>() * 0.01;
  std::ofstream(tampered) << b.dump();
  r = test::run_cli("gate --run --accuracy-only --quiet --baseline " + tampered);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("Every level (baseline -> current): h = ") != std::string::npos);
  CHECK(r.output.find("Fitted order ") != std::string::npos);
  CHECK(r.output.find("reproduce with: ") != std::string::npos);
  CHECK(r.output.find("gate --run --bless --baseline " + tampered + " --integrator terze --problem free_body heavy_top "
                      "--accuracy-only") != std::string::npos);
  // The global options before the subcommand (a program's declaration registers schemes) are kept in
  // the re-bless command too: without them it names schemes that are not registered.
  const std::string decl = std::string(RIGIDBENCH_SOURCE_DIR) + "/examples/program/rk4_quaternion.json";
  r = test::run_cli("--program " + decl + " gate --run --accuracy-only --quiet --baseline " + tampered);
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("re-bless with: ") != std::string::npos);
  CHECK(r.output.find("--program " + decl + " gate --run --bless --baseline " + tampered) != std::string::npos);
}

TEST_CASE("Mann-Whitney U: exact one-sided p-values, ties by midranks, the normal approximation beyond",
          "[gate]") {
  // Five values all above five others: U = 25, and 1 of the C(10, 5) = 252 splits is as extreme.
  RankTest t = mann_whitney_greater({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  CHECK(t.exact);
  CHECK(t.u == 25);
  CHECK(t.p == Approx(1.0 / 252));
  // The other way round: every split is at least as extreme.
  CHECK(mann_whitney_greater({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}).p == Approx(1.0));
  // Interleaved samples: no evidence (Mann & Whitney 1947's table: U = 15 of 25 for n = m = 5, p = 0.345).
  t = mann_whitney_greater({2, 4, 6, 8, 10}, {1, 3, 5, 7, 9});
  CHECK(t.u == 15);
  CHECK(t.p == Approx(0.3452).epsilon(1e-3));
  // Ties count one half: {1, 2} against {1, 1}: U = 0.5 + 0.5 + 1 + 1 = 3.
  CHECK(mann_whitney_greater({1, 2}, {1, 1}).u == 3);
  // Large samples: the normal approximation, and it agrees with a shift it should detect.
  std::vector<double> a, b;
  for (int i = 0; i < 40; ++i) a.push_back(1.0 + 0.01 * (i % 7)), b.push_back(1.2 + 0.01 * (i % 5));
  t = mann_whitney_greater(b, a);
  CHECK_FALSE(t.exact);
  CHECK(t.p < 1e-6);
  CHECK(mann_whitney_greater(a, b).p > 0.999);
  CHECK_THROWS(mann_whitney_greater({}, {1.0}));
}

TEST_CASE("gate: a time rise is a warning only when the repetitions say so (Mann-Whitney), with the spread",
          "[gate]") {
  json base = make_snapshot(), cur = base;
  auto samples = [](json& s, const char* pair, std::vector<double> v) { s["speed"][pair]["ratio_samples"] = v; };
  samples(base, "terze/heavy_top", {1.00, 1.01, 0.99, 1.02, 1.00});
  samples(cur, "terze/heavy_top", {1.20, 1.21, 1.19, 1.22, 1.20});  // 20 % slower in every repetition
  samples(base, "rig_neg/heavy_top", {1.00, 1.01, 0.99, 1.02, 1.00});
  samples(cur, "rig_neg/heavy_top", {0.95, 1.60, 1.00, 1.45, 1.15});  // median +14 %, within its spread
  const GateResult g = gate_compare(base, cur);
  const GateRow* slow = nullptr;
  for (const auto& r : g.rows)
    if (r.metric == "wallclock_ratio") {
      CHECK(r.integrator == "terze");
      slow = &r;
    }
  REQUIRE(slow != nullptr);
  CHECK(slow->status == "warn");
  CHECK_THAT(slow->message, Catch::Contains("rose by 20 %") && Catch::Contains("median of 5 1 [0.99, 1.02]") &&
                                Catch::Contains("p = 0.003968, exact"));
  CHECK(g.exit_code() == 0);  // times warn; instructions decide
  // A baseline without repetitions (blessed before 0.5): the fastest ratios, said untested.
  json old = base;
  old["speed"]["terze/heavy_top"].erase("ratio_samples");
  cur["speed"]["terze/heavy_top"]["ratio_to_baseline"] = 0.6;  // baseline 0.5
  const GateRow* untested = nullptr;
  const GateResult g2 = gate_compare(old, cur);
  for (const auto& r : g2.rows)
    if (r.metric == "wallclock_ratio" && r.integrator == "terze") untested = &r;
  REQUIRE(untested != nullptr);
  CHECK_THAT(untested->message, Catch::Contains("no repetitions on one side to test"));
}
