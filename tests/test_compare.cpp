// `rigidbench compare`: values read off error ladders, ranking by cost at a target accuracy, the
// invariant columns, and bad input. Synthetic reports with known power laws make every expected
// number computable by hand; the CLI cases run the real executable on a real (small) report.
#include <filesystem>
#include <fstream>
#include <numbers>
#include <nlohmann/json.hpp>

#include "../tracking/compare.hpp"
#include "support.hpp"

using namespace rigidbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// A verify-report result for a scheme whose error is exactly C h^p on the ladder h0 2^-k.
json synthetic_result(const std::string& name, double C, int p, double ns, double h0 = 0.01, int levels = 5,
                      const std::vector<bool>& asymptotic = {}) {
  json h = json::array(), e = json::array(), a = json::array(), lv = json::array();
  for (int k = 0; k < levels; ++k) {
    const double hk = h0 / std::pow(2.0, k);
    h.push_back(hk);
    e.push_back(C * std::pow(hk, p));
    a.push_back(asymptotic.empty() ? true : bool(asymptotic[std::size_t(k)]));
    lv.push_back({{"h", hk}, {"steps", std::llround(10.0 / hk)}, {"status", "ok"}});
  }
  json r;
  r["integrator"] = name;
  r["problem"] = "toy";
  r["status"] = "ok";
  r["reason"] = "";
  r["scheme"] = {{"kind", "explicit"}};
  r["settings"] = {{"h0", h0}, {"levels", levels}, {"h", h}, {"t0", 0.0}, {"t_end", 10.0},
                   {"problem", {{"title", "toy"}, {"verification", {{"h0", h0}, {"exact_threshold", 1e-11}}}}}};
  r["levels"] = lv;
  r["convergence"]["attitude_error_final"] = {
      {"h", h},           {"error", e},           {"slope", double(p)},
      {"stderr", 0.0},    {"r2", 1.0},            {"local_slopes", json::array()},
      {"expected", double(p)}, {"verdict", "pass"}, {"asymptotic", a},
      {"floor", json(std::vector<double>(std::size_t(levels), 0.0))}, {"gating", true}};
  r["paper_measures"] = {{"q_error", r["convergence"]["attitude_error_final"]},
                         {"E_error", r["convergence"]["attitude_error_final"]}};
  r["reference"] = {{"kind", "analytic"}, {"formulation", "analytic_torque_free"}, {"tolerance", 1e-15},
                    {"error_estimate", 1e-15}};
  const double q = std::pow(2.0, p);
  r["q_ii"] = {{"h", h0},        {"samples", json::array()},      {"median", q},           {"min", q},
               {"max", q},       {"verdict", "pass"}, {"expected", q},         {"components", {"attitude"}},
               {"levels", json::array()}};
  r["invariants"] = json::object();
  r["cost"] = {{"ns_per_step", ns}, {"instructions_per_step", nullptr}, {"ratio_to_baseline", 1.0}};
  return r;
}

json synthetic_report(const std::vector<json>& results) {
  json j;
  j["schema_version"] = "1.0";
  j["suite"] = "quick";
  j["tool"] = {{"name", "rigidbench"}, {"version", "0"}, {"git_revision", "test"}, {"compiler", ""}, {"flags", ""},
               {"build_type", ""}};
  j["machine"] = {{"hostname", "test"}, {"hardware_threads", 1}};
  j["started"] = "2026-01-01T00:00:00Z";
  j["duration_s"] = 0.0;
  j["results"] = results;
  j["summary"] = {{"pairs", results.size()}, {"ok", results.size()}, {"skipped", 0}, {"breakdown", 0},
                  {"failed_verdicts", 0}};
  return j;
}

/// A bench report with no results yet: baseline scheme_a, instructions from callgrind.
json synthetic_bench() {
  json bench = synthetic_report({});
  bench.erase("suite");
  bench.erase("summary");
  bench["baseline"] = "scheme_a";
  bench["instruction_counts"] = {{"tool", "callgrind"}, {"note", ""}};
  bench["work_precision"] = {{"error_metric", "attitude_error_final"}, {"series", json::array()}};
  bench["kind"] = "bench";
  return bench;
}

}  // namespace

TEST_CASE("ladder reading: log-log interpolation is exact for a power law and extrapolation is flagged",
          "[compare]") {
  // e = 3 h^2 on h = 0.1 .. 0.0125
  std::vector<double> h{0.1, 0.05, 0.025, 0.0125}, e;
  for (double x : h) e.push_back(3 * x * x);
  const std::vector<bool> all(4, true);
  const auto inside = step_for_error(h, e, all, 2.0, 3e-3);  // h* = sqrt(1e-3) = 0.0316 (between levels)
  CHECK_FALSE(inside.extrapolated);
  CHECK(inside.value == Approx(std::sqrt(1e-3)).epsilon(1e-12));
  const auto below = step_for_error(h, e, all, 2.0, 3e-8);  // h* = 1e-4, beyond the finest level
  CHECK(below.extrapolated);
  CHECK(below.value == Approx(1e-4).epsilon(1e-12));
  const auto at = error_at_step(h, e, all, 2.0, 0.03);
  CHECK_FALSE(at.extrapolated);
  CHECK(at.value == Approx(3 * 0.03 * 0.03).epsilon(1e-12));
  const auto far = error_at_step(h, e, all, 2.0, 0.001);
  CHECK(far.extrapolated);
  CHECK(far.value == Approx(3e-6).epsilon(1e-12));

  // Levels outside the asymptotic range are not read: a floor-polluted finest level is skipped,
  // and the value below it comes from the last usable level along the slope.
  std::vector<double> e2 = e;
  e2[3] = 1e-3;  // a plateau (not on the power law)
  const auto skip = step_for_error(h, e2, {true, true, true, false}, 2.0, 3 * 0.0125 * 0.0125);
  CHECK(skip.extrapolated);
  CHECK(skip.value == Approx(0.0125).epsilon(1e-12));
  // Nothing usable, or a non-positive slope outside the range: no value (NaN), never a guess.
  CHECK(std::isnan(step_for_error(h, e, {false, false, false, false}, 2.0, 1e-3).value));
  CHECK(std::isnan(step_for_error(h, e, all, 0.0, 1e-12).value));
}

TEST_CASE("compare ranks by the cost of reaching the target accuracy", "[compare]") {
  // A: e = h^2, 100 ns/step; B: e = 10 h^4, 300 ns/step. Span 10, target 1e-8:
  // A needs h = 1e-4 (1e5 steps, 10 ms); B needs h = (1e-9)^(1/4) (1778 steps, 0.53 ms).
  const json rep = synthetic_report({synthetic_result("scheme_a", 1.0, 2, 100), synthetic_result("scheme_b", 10.0, 4, 300)});
  CompareOptions opt;
  opt.target = 1e-8;
  const auto c = compare_reports(rep, nullptr, opt);
  REQUIRE(c["problems"].size() == 1);
  const auto& rows = c["problems"][0]["rows"];
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["integrator"] == "scheme_b");
  CHECK(rows[0]["rank"] == 1);
  CHECK(rows[1]["integrator"] == "scheme_a");
  const double hB = std::pow(1e-9, 0.25);
  CHECK(rows[0]["cost_to_target"]["h"].get<double>() == Approx(hB).epsilon(1e-12));
  CHECK(rows[0]["cost_to_target"]["cpu_seconds"].get<double>() == Approx(10.0 / hB * 300e-9).epsilon(1e-12));
  CHECK(rows[1]["cost_to_target"]["steps"].get<double>() == Approx(1e5).epsilon(1e-12));
  CHECK(rows[1]["cost_to_target"]["extrapolated"] == true);  // 1e-4 is below A's finest level
  CHECK(c["problems"][0]["rank_by"].get<std::string>().find("cpu_seconds") != std::string::npos);
  // Error at the default fixed h = h0 / 4 = 0.0025 (a ladder level): exact, not extrapolated.
  CHECK(rows[1]["error_at_h"]["error"].get<double>() == Approx(0.0025 * 0.0025).epsilon(1e-12));
  CHECK(rows[1]["error_at_h"]["extrapolated"] == false);

  // With a bench report giving instructions, the ranking switches to instructions: a scheme cheap
  // in time but expensive in instructions moves down.
  json bench = synthetic_bench();
  bench["results"] = {{{"integrator", "scheme_a"}, {"problem", "toy"}, {"ns_per_step", 1.0}, {"ratio_to_baseline", 1.0},
                       {"instructions_per_step", 1.0}, {"instruction_ratio_to_baseline", 1.0}, {"h", 0.01},
                       {"load_evaluations_per_step", 0.0}, {"newton_iterations_per_step", 0.0}},
                      {{"integrator", "scheme_b"}, {"problem", "toy"}, {"ns_per_step", 1.0}, {"ratio_to_baseline", 1.0},
                       {"instructions_per_step", 1000.0}, {"instruction_ratio_to_baseline", 1000.0}, {"h", 0.01},
                       {"load_evaluations_per_step", 0.0}, {"newton_iterations_per_step", 0.0}}};
  const BenchReport bench_read = BenchReport::read(bench, "the bench report");
  const auto cb = compare_reports(rep, &bench_read, opt);
  const auto& rb = cb["problems"][0]["rows"];
  CHECK(rb[0]["integrator"] == "scheme_a");  // 1e5 x 1 < 1778 x 1000
  CHECK(rb[1]["cost_to_target"]["instructions"].get<double>() == Approx(10.0 / hB * 1000).epsilon(1e-12));
  CHECK(cb["problems"][0]["rank_by"].get<std::string>().find("instructions") != std::string::npos);
}

TEST_CASE("compare: invariant columns use the exact-claim test at every level", "[compare]") {
  json r = synthetic_result("scheme_a", 1.0, 2, 100);  // levels of 1000 .. 16000 steps: N eps < 1e-11
  r["invariants"]["momentum"] = {{"threshold", 1e-11}, {"claim", "exact"}, {"verdict", "pass"}, {"drift", 1e-14},
                                 {"drift_by_level", {1e-14, 1e-14, 1e-14, 1e-14, 1e-14}}};
  r["invariants"]["casimir"] = {{"threshold", 1e-11}, {"claim", "exact"}, {"verdict", "fail"}, {"drift", 1e-6},
                                {"drift_by_level", {1e-6, 1e-6, 1e-6, 1e-6, 1e-6}}};
  r["invariants"]["energy_small_at_finest_only"] = {{"threshold", 1e-11}, {"claim", "none"},
                                                    {"verdict", "undefined"}, {"drift", 1e-12},
                                                    {"drift_by_level", {1e-6, 1e-8, 1e-9, 1e-10, 1e-12}}};
  r["invariants"]["axial"] = {{"threshold", 1e-11}, {"claim", "none"}, {"verdict", "undefined"}, {"drift", 0.0},
                              {"drift_by_level", {0.0, 1e-15, 0.0, 2e-15, 0.0}}};
  const auto c = compare_reports(synthetic_report({r}), nullptr, {});
  const auto& inv = c["problems"][0]["rows"][0]["invariants"];
  CHECK(inv["claimed_and_held"] == nlohmann::ordered_json::array({"momentum"}));
  CHECK(inv["claimed_and_failed"] == nlohmann::ordered_json::array({"casimir"}));
  CHECK(inv["unclaimed_exact_at_every_level"] == nlohmann::ordered_json::array({"axial"}));
  const std::string md = compare_markdown(c);
  CHECK(md.find("FAILED: casimir") != std::string::npos);
}

TEST_CASE("compare reads the problem's verification settings only where the report has them", "[compare]") {
  // settings.problem is open in the schema: without verification.h0 the fixed h comes from
  // settings.h0 (h0 / 4); a problem that is not an object, or a verification that is not one, is
  // ignored. (A missing verification.h0 was an assertion in nlohmann's const operator[]: found by
  // fuzz/report.cpp, fuzz/corpus/report/regress-compare-verification-without-h0.json.)
  json r = synthetic_result("scheme_a", 1.0, 2, 100);
  const double h0 = r["settings"]["h0"].get<double>();
  for (const json& problem : {json{{"title", "toy"}, {"verification", {{"levels", 5}}}}, json{{"verification", 3}},
                              json(42), json{{"title", 7}}}) {
    INFO(problem.dump());
    r["settings"]["problem"] = problem;
    const auto c = compare_reports(synthetic_report({r}), nullptr, {});
    CHECK(c["problems"][0]["h_fixed"].get<double>() == h0 / 4);
  }
  r["settings"]["problem"] = {{"verification", {{"h0", 8 * h0}}}};
  CHECK(compare_reports(synthetic_report({r}), nullptr, {})["problems"][0]["h_fixed"].get<double>() == 2 * h0);
}

TEST_CASE("compare: an attitude error extrapolated past pi is pi, flagged as clipped", "[compare]") {
  // Errors 2 h^2 / h0^2 rad on the ladder (2 rad at h0), read at 2 h0, outside it: the power law
  // says 8 rad, but an angle is at most pi.
  json r = synthetic_result("scheme_a", 2e4, 2, 100);
  const double h0 = r["settings"]["h0"].get<double>();
  r["settings"]["problem"] = {{"verification", {{"h0", 8 * h0}}}};
  const json at = compare_reports(synthetic_report({r}), nullptr, {})["problems"][0]["rows"][0]["error_at_h"];
  CHECK(at["extrapolated"] == true);
  CHECK(at["clipped"] == true);
  CHECK(at["error"].get<double>() == std::numbers::pi);
  r = synthetic_result("scheme_a", 1.0, 2, 100);  // 4e-4 rad at 2 h0: extrapolated, not clipped
  r["settings"]["problem"] = {{"verification", {{"h0", 8 * h0}}}};
  const json small = compare_reports(synthetic_report({r}), nullptr, {})["problems"][0]["rows"][0]["error_at_h"];
  CHECK(small["extrapolated"] == true);
  CHECK(small["clipped"] == false);
  CHECK(small["error"].get<double>() == Approx(4e-4).epsilon(1e-9));
}

TEST_CASE("compare: bad input is an InputError naming what is wrong", "[compare]") {
  const json good = synthetic_report({synthetic_result("scheme_a", 1.0, 2, 100)});
  CHECK_THROWS_WITH(compare_reports(json::object(), nullptr, {}), Catch::Contains("not a rigidbench verify report"));
  CHECK_THROWS_WITH(compare_reports(synthetic_report({}), nullptr, {}), Catch::Contains("no pair results"));
  CompareOptions bad_metric;
  bad_metric.metric = "no_such_metric";
  CHECK_THROWS_WITH(compare_reports(good, nullptr, bad_metric), Catch::Contains("no_such_metric"));
  CompareOptions bad_target;
  bad_target.target = -1;
  CHECK_THROWS_WITH(compare_reports(good, nullptr, bad_target), Catch::Contains("--target"));
  bad_target.target = std::nan("");
  CHECK_THROWS_AS(compare_reports(good, nullptr, bad_target), InputError);
  CompareOptions bad_problem;
  bad_problem.problems = {"nope"};
  CHECK_THROWS_WITH(compare_reports(good, nullptr, bad_problem), Catch::Contains("'nope'"));
  CHECK_THROWS_WITH(BenchReport::read(json::object(), "compare: the --bench report"), Catch::Contains("--bench report"));
}

TEST_CASE("compare and report on the command line: bad input exits 2 and writes nothing", "[compare][cli]") {
  const std::string dir = test::tmp_path("cmp-bad");
  fs::remove_all(dir);
  const std::string malformed = test::tmp_path("cmp-malformed.json");
  std::ofstream(malformed) << "{\"results\": [";
  const std::string not_report = test::tmp_path("cmp-not-report.json");
  std::ofstream(not_report) << "{\"hello\": 1}";
  for (const std::string& args :
       {"compare --report " + malformed + " --out " + dir, "compare --report " + not_report + " --out " + dir,
        "compare --report /nonexistent.json --out " + dir, "report --in " + malformed + " --out " + dir,
        "report --in " + not_report + " --out " + dir, "report --in /nonexistent.json --out " + dir}) {
    INFO(args);
    const auto r = test::run_cli(args);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("error") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/compare.md"));
    CHECK_FALSE(fs::exists(dir + "/index.html"));
  }
  // A verify report from the real tool compares; the Markdown names every scheme that ran.
  const std::string rep = test::tmp_path("cmp-real.json");
  // Schemes of order >= 2 (a first-order ladder on heavy_top is 3.1 million steps: 80 s under the
  // sanitizers) and one that does not apply (bg_body: spherical bodies only).
  const auto v = test::run_cli("verify --problem heavy_top --levels 4 --quiet --integrator odeint_rk4_quat terze rig_imp "
                               "dlm_splitting rkmk4 bg_body --out " + rep);
  REQUIRE(v.exit_code <= 1);
  const auto c = test::run_cli("compare --in " + rep + " --target 1e-5");
  REQUIRE(c.exit_code == 0);
  for (const char* s : {"odeint_rk4_quat", "terze", "rig_imp", "dlm_splitting", "rkmk4"})
    CHECK(c.output.find(std::string("| ") + s) != std::string::npos);
}

TEST_CASE("compare: the ranked column in one unit, each skipped scheme with its reason, no empty table",
          "[compare]") {
  // scheme_a has a bench entry with instructions, scheme_b only the verify report's wall clock: the
  // problem ranks in CPU seconds, and scheme_a's cost to target is in ms like scheme_b's (it was
  // printed in Minstr, a column that could not be read down).
  const auto skipped = [](const std::string& name, const std::string& problem, const std::string& reason) {
    json r = synthetic_result(name, 1.0, 2, 100);
    r["problem"] = problem;
    r["status"] = "skipped";
    r["reason"] = reason;
    return r;
  };
  const json rep = synthetic_report({synthetic_result("scheme_a", 1.0, 2, 100), synthetic_result("scheme_b", 10.0, 4, 300),
                                     skipped("s1", "toy", "spherical only"), skipped("s2", "toy", "another family"),
                                     skipped("s3", "toy", "spherical only"), skipped("s1", "lonely", "spherical only")});
  json bench = synthetic_bench();
  const json bench_row = {{"integrator", "scheme_a"},     {"problem", "toy"},
                          {"ns_per_step", 100.0},         {"ratio_to_baseline", 1.0},
                          {"instructions_per_step", 1e3}, {"instruction_ratio_to_baseline", 1.0},
                          {"h", 0.01},                    {"load_evaluations_per_step", 0.0},
                          {"newton_iterations_per_step", 0.0}};
  bench["results"] = json::array({bench_row});
  CompareOptions opt;
  opt.target = 1e-8;
  const BenchReport one = BenchReport::read(bench, "the bench report");
  const auto c = compare_reports(rep, &one, opt);
  REQUIRE(c["problems"].size() == 2);
  const auto& toy = c["problems"][0];
  CHECK(toy["rank_unit"] == "cpu_seconds");
  CHECK(toy["rows"][0]["rank"] == 1);
  CHECK(toy["rows"][1]["rank"] == 2);
  const std::string md = compare_markdown(c);
  const std::string toy_md = md.substr(md.find("## toy"), md.find("## lonely") - md.find("## toy"));
  CHECK(toy_md.find("Minstr") == std::string::npos);
  CHECK(toy_md.find("cost to target (ms) |") != std::string::npos);
  // Each skipped scheme with its own reason, grouped.
  CHECK(toy_md.find("Not applicable: s1, s3 (spherical only); s2 (another family).") != std::string::npos);
  // A problem no scheme integrates: said so, without an empty ranked table.
  const auto& lonely = c["problems"][1];
  CHECK(lonely["rows"].empty());
  const std::string lonely_md = md.substr(md.find("## lonely"));
  CHECK(lonely_md.find("No scheme of the report integrates this problem") != std::string::npos);
  CHECK(lonely_md.find("| rank |") == std::string::npos);
  CHECK(lonely_md.find("Not applicable: s1 (spherical only).") != std::string::npos);

  // Both schemes with instructions: the column is in Minstr, every ranked row has a value in it.
  json b2 = bench_row;
  b2["integrator"] = "scheme_b";
  bench["results"].push_back(b2);
  const BenchReport two = BenchReport::read(bench, "the bench report");
  const auto ci = compare_reports(rep, &two, opt);
  CHECK(ci["problems"][0]["rank_unit"] == "instructions");
  const std::string md_i = compare_markdown(ci);
  CHECK(md_i.find("cost to target (Minstr) |") != std::string::npos);
  CHECK(md_i.find(" ms |") == std::string::npos);
}
