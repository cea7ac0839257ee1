// Benchmarks: every registered pair is benchmarked, instruction counts are reproducible,
// Pareto fronts are right, and `bench` rejects bad input.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <nlohmann/json.hpp>
#include <set>

#include "../benchmarks/bench_suite.hpp"
#include "../reports/bench_report.hpp"
#include "../engines/engines.hpp"
#include "../integrators/builtin.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "support.hpp"

using namespace rigidbench;
using nlohmann::json;

namespace {
/// This process's registry made the `rigidbench` command's: the built-ins plus the engines the
/// command registers (docs/engines.md).
void register_as_the_command() {
  engines::register_engines();
}

/// Every (scheme, problem) pair the registry has in "all".
std::set<std::pair<std::string, std::string>> applicable_pairs() {
  std::set<std::pair<std::string, std::string>> s;
  for (const auto& n : catalogue_names()) {
    const Problem p = catalogue_problem(n);
    for (const auto& e : registry())
      if (e.in_all && not_applicable(*e.info, p).empty()) s.emplace(std::string(e.info->name), n);
  }
  return s;
}
}  // namespace

TEST_CASE("bench covers every registered (scheme - problem) pair in both outputs", "[bench][ci][sanitize]") {
  register_as_the_command();
  const std::string dir = test::tmp_path("bench-coverage");
  std::filesystem::remove_all(dir);
  const auto r = test::run_cli("bench --quiet --no-icount --no-work-precision --min-time 0.001 --repetitions 1 --out " + dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const json ours = json::parse(std::ifstream(dir + "/bench.json"));
  const json gb = json::parse(std::ifstream(dir + "/benchmark.json"));
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& e : ours["results"]) {
    CHECK(seen.emplace(e["integrator"], e["problem"]).second);  // once each
    CHECK(e["ns_per_step"].get<double>() > 0);
    // The baseline (RK4 on the standard model) does not integrate the non_twisting family: no ratio there.
    if (not_applicable(BaselineScheme::info(), catalogue_problem(e["problem"].get<std::string>())).empty()) {
      CHECK(e["ratio_to_baseline"].get<double>() > 0);
      CHECK(e["ratio_to_rk4"].get<double>() > 0);
    } else {
      CHECK(e["ratio_to_baseline"].is_null());
      CHECK(e["ratio_to_rk4"].is_null());
    }
    // Each baseline's ratio to itself: the same run's figure divided by itself.
    if (e["integrator"] == "odeint_rk4_quat" && !e["ratio_to_baseline"].is_null()) CHECK(e["ratio_to_baseline"] == 1.0);
    if (e["integrator"] == "rk4_quat" && !e["ratio_to_rk4"].is_null()) CHECK(e["ratio_to_rk4"] == 1.0);
    // The scheme's derived flops at the iterations this run measured (docs/flops.md); no instruction
    // counts here, so no instructions per flop.
    const SchemeInfo& info = *find_scheme(e["integrator"].get<std::string>()).info;
    const auto model = info.flops ? info.flops(catalogue_problem(e["problem"].get<std::string>())) : std::nullopt;
    if (model) {
      CHECK(e["flops_per_step"].get<double>() == model->flops_at(e["newton_iterations_per_step"].get<double>(),
                                                                 e["jacobian_evaluations_per_step"].get<double>()));
      CHECK(e["jacobian_evaluations_per_step"].get<double>() <= e["newton_iterations_per_step"].get<double>());
      CHECK(e["transcendental_calls_per_step"].get<double>() == model->calls_at(e["newton_iterations_per_step"].get<double>()));
    } else {
      CHECK(e["flops_per_step"].is_null());
    }
    CHECK(e["instructions_per_flop"].is_null());
  }
  CHECK(ours["baselines"] == json::array({"odeint_rk4_quat", "rk4_quat"}));
  CHECK(seen == applicable_pairs());
  std::set<std::string> gb_names;
  for (const auto& b : gb["benchmarks"]) gb_names.insert(b["run_name"].get<std::string>());
  for (const auto& [s, p] : applicable_pairs()) CHECK(gb_names.count("step/" + s + "/" + p) == 1);
  CHECK(gb["context"]["rigidbench_baseline"] == "odeint_rk4_quat");
}

TEST_CASE("bench output into a file: no colour codes, no debug warning, steps as numbers, no NaN", "[bench][cli]") {
  // Output redirected (run_cli reads a pipe, TERM as the caller's): Google Benchmark's own "auto"
  // colour looked at TERM only. With repetitions, its cv row of a counter that is 0 on every
  // repetition was "-nan%" on the console and the token NaN in benchmark.json (not JSON).
  const std::string dir = test::tmp_path("bench-output");
  std::filesystem::remove_all(dir);
  const std::string args = "bench --no-icount --no-work-precision --min-time 0.001 --repetitions 2 --problem pendulum3d "
                           "--integrator terze rig_imp --out " + dir;
  const auto r = test::run_cli(args);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find('\x1b') == std::string::npos);
  CHECK(r.output.find("Library was built as DEBUG") == std::string::npos);
  CHECK(r.output.find("nan") == std::string::npos);
  CHECK(r.output.find("h=0.025 ") == std::string::npos);  // the label ends the row
  CHECK(r.output.find("h=0.025\n") != std::string::npos);
  CHECK(r.output.find("_cv") != std::string::npos);  // the aggregates were printed
  const json gb = json::parse(std::ifstream(dir + "/benchmark.json"));  // throws on NaN
  CHECK(gb["benchmarks"].size() > 4);
  // The per-step counts are deterministic: a second run gives the same, RK4 makes 4 load evaluations
  // a step, and the semi-implicit RIG_IMP at least one Newton iteration.
  const json first = json::parse(std::ifstream(dir + "/bench.json"));
  REQUIRE(test::run_cli(args).exit_code == 0);
  const json second = json::parse(std::ifstream(dir + "/bench.json"));
  REQUIRE(first["results"].size() == second["results"].size());
  for (std::size_t i = 0; i < first["results"].size(); ++i) {
    const json &a = first["results"][i], &b = second["results"][i];
    INFO(a["integrator"]);
    for (const char* k : {"load_evaluations_per_step", "newton_iterations_per_step", "jacobian_evaluations_per_step"})
      CHECK(a[k] == b[k]);
    if (a["integrator"] == "rk4_quat") CHECK(a["load_evaluations_per_step"].get<double>() == 4.0);
    if (a["integrator"] == "rig_imp") CHECK(a["newton_iterations_per_step"].get<double>() >= 1.0);
  }
}

TEST_CASE("the callgrind driver reports the pairs counted and the time left", "[bench][cli]") {
  // Outside valgrind the client requests are no-ops: the driver's loops and its progress alone.
  const std::string args = "bench-driver --steps 200 --integrator terze lie_euler --problem free_body heavy_top";
  const auto quiet = test::run_cli(args);
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.output.find("pairs counted") == std::string::npos);
  const auto r = test::run_cli(args + " --progress --progress-every 0");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // A line after each pair but the last (the caller reports the end), with the pairs' total.
  const std::regex line(R"(bench: callgrind: (\d+) of (\d+) pairs counted after \d+ s, about \d+ s left\n)");
  std::vector<int> done;
  int total = 0;
  for (std::sregex_iterator it(r.output.begin(), r.output.end(), line), end; it != end; ++it) {
    done.push_back(std::stoi((*it)[1]));
    total = std::stoi((*it)[2]);
  }
  CHECK(total >= 4);  // two schemes on two problems
  REQUIRE(int(done.size()) == total - 1);
  for (int k = 0; k < total - 1; ++k) CHECK(done[std::size_t(k)] == k + 1);
}

TEST_CASE("instruction counts: two consecutive runs agree to 0.1% for every pair", "[bench][ci]") {
  std::vector<Problem> problems;
  for (const auto& n : catalogue_names()) problems.push_back(catalogue_problem(n));
  const auto pairs = bench_pairs(select_schemes({"all"}), problems);
  std::string tool;
  // Each pair at its own step count (fewer steps for the 2000-sphere gas).
  const auto a = count_instructions_by_size(pairs, 500, tool, RIGIDBENCH_EXE);
  const auto b = count_instructions_by_size(pairs, 500, tool, RIGIDBENCH_EXE);
  INFO(tool);
  REQUIRE(a.size() == pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    INFO(pairs[i].name() << ": " << a[i] << " vs " << b[i]);
    CHECK(a[i] > 50);  // a real step, not an empty loop
    CHECK(std::abs(a[i] - b[i]) <= 1e-3 * a[i]);
  }
}

TEST_CASE("Pareto fronts mark exactly the non-dominated points", "[bench]") {
  std::vector<WorkSeries> s{{"a", "p", {{0.1, 1e-2, 1.0, 10, false, false}, {0.05, 1e-3, 2.0, 20, false, false}}},
                            {"b", "p", {{0.1, 5e-3, 3.0, 5, false, false}, {0.05, 1e-2, 4.0, 40, false, false}}}};
  mark_pareto(s);
  CHECK(s[0].points[0].pareto_cpu);        // cheapest
  CHECK(s[0].points[1].pareto_cpu);        // most accurate
  CHECK_FALSE(s[1].points[0].pareto_cpu);  // 3.0 s for 5e-3: beaten by (2.0 s, 1e-3)
  CHECK_FALSE(s[1].points[1].pareto_cpu);
  CHECK(s[1].points[0].pareto_instructions);  // but the cheapest in instructions
  CHECK_FALSE(s[1].points[1].pareto_instructions);
}

TEST_CASE("scaling study: growth exponents fitted from the entries, and step counts per size", "[bench][fast]") {
  // Synthetic costs ns = 3 n and instructions = 5 n^1.25 at four sizes, plus a pair that has no size.
  std::vector<Problem> problems;
  std::vector<BenchEntry> entries;
  for (const std::size_t n : {40, 80, 160, 320}) {
    problems.push_back(catalogue_problem("particle_gas_" + std::to_string(n)));
    REQUIRE(problems.back().bodies.size() == n);
    BenchEntry e;
    e.integrator = "bg_newmark";
    e.problem = problems.back().name;
    e.ns_per_step = 3.0 * double(n);
    e.instructions_per_step = 5.0 * std::pow(double(n), 1.25);
    entries.push_back(e);
  }
  problems.push_back(catalogue_problem("heavy_top"));
  entries.push_back(BenchEntry{.integrator = "bg_newmark", .problem = "heavy_top", .ns_per_step = 7.0});
  const auto s = scaling_series(entries, problems);
  REQUIRE(s.size() == 1);
  CHECK(s[0].problem == "particle_gas");
  REQUIRE(s[0].points.size() == 4);
  CHECK(s[0].points.front().n == 40);
  CHECK(s[0].ns_fit.slope == Approx(1.0).margin(1e-12));
  CHECK(s[0].instruction_fit.slope == Approx(1.25).margin(1e-12));
  CHECK(s[0].instruction_fit.stderr_slope < 1e-10);
  // Instruction counts: N steps up to 80 bodies, N * 80 / n beyond, at least 4.
  CHECK(icount_steps_for(2000, 1) == 2000);
  CHECK(icount_steps_for(2000, 80) == 2000);
  CHECK(icount_steps_for(2000, 10000) == 16);
  CHECK(icount_steps_for(2000, 1000000) == 4);
}

TEST_CASE("bench rejects bad settings with exit code 2", "[bench][cli]") {
  CHECK(test::run_cli("bench --sizes 100 200 --problem heavy_top --no-icount").exit_code == 2);
  CHECK(test::run_cli("bench --sizes 1 --problem particle_gas --no-icount").exit_code == 2);
  CHECK(test::run_cli("bench --sizes 100 --no-icount").exit_code == 2);
  CHECK(test::run_cli("bench --min-time 0 --no-icount --no-work-precision").exit_code == 2);
  CHECK(test::run_cli("bench --repetitions 0 --no-icount --no-work-precision").exit_code == 2);
  CHECK(test::run_cli("bench --integrator nope").exit_code == 2);
  CHECK(test::run_cli("bench --problem nope").exit_code == 2);
}

TEST_CASE("instruction counts do not depend on which other pairs are measured", "[bench][icount][ci]") {
  // One-off costs (lazy binding of libm symbols) are paid in an unmeasured warm-up, so a pair's
  // count is the same alone as in the full set.
  std::vector<Problem> problems{catalogue_problem("free_body")};
  const auto all = bench_pairs(select_schemes({"all"}), problems);
  const auto alone = bench_pairs(select_schemes({"lie_euler"}), problems);  // + the baseline
  std::string tool;
  const auto a = count_instructions(all, 500, tool, RIGIDBENCH_EXE);
  const auto b = count_instructions(alone, 500, tool, RIGIDBENCH_EXE);
  auto find = [](const std::vector<BenchPair>& pairs, const std::vector<double>& v, const std::string& n) {
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (pairs[i].scheme->info->name == n) return v[i];
    return -1.0;
  };
  CHECK(find(all, a, "lie_euler") == find(alone, b, "lie_euler"));
  CHECK(find(all, a, "odeint_rk4_quat") == find(alone, b, "odeint_rk4_quat"));

  // Nor on the driver that counts them: count_instructions_by_size shares the problems among `jobs`
  // drivers run at once (costs that put each problem in a driver of its own here).
  const std::vector<Problem> two{catalogue_problem("free_body"), catalogue_problem("heavy_top")};
  const auto shared = bench_pairs(select_schemes({"lie_euler", "bg_body"}), two);  // + the baselines
  const auto c = count_instructions_by_size(shared, 500, tool, RIGIDBENCH_EXE, false, 2, std::vector<double>(shared.size(), 1.0));
  REQUIRE(c.size() == shared.size());
  CHECK(find(shared, c, "lie_euler") == find(alone, b, "lie_euler"));  // free_body comes first
  CHECK(find(shared, c, "odeint_rk4_quat") == find(alone, b, "odeint_rk4_quat"));
  for (std::size_t i = 0; i < shared.size(); ++i) {
    INFO(shared[i].name());
    CHECK(c[i] > 50);
  }
}

TEST_CASE("the hand-written RK4 baseline steps odeint's numbers to round-off", "[bench][fast]") {
  // rk4_quat repeats odeint's runge_kutta4 operation for operation on the same right-hand side, so the
  // two baselines differ only in the cost of the algebra around the arithmetic. A load (heavy_top), an
  // internal momentum (gyrostat) and a body system (torus, contact and bonds) take every branch.
  for (const char* name : {"free_body", "heavy_top", "gyrostat", "torus_impact"}) {
    const Problem p = catalogue_problem(name);
    auto a = find_scheme("odeint_rk4_quat").make(p), b = find_scheme("rk4_quat").make(p);
    a->reset(p.initial, p.t0);
    b->reset(p.initial, p.t0);
    const double h = 1e-3;
    const int steps = p.translating() ? 200 : 2000;
    bool ok = true;
    for (int n = 0; n < steps; ++n) ok = a->step(p.t0 + n * h, h).ok && b->step(p.t0 + n * h, h).ok && ok;
    REQUIRE(ok);
    State xa = p.initial, xb = p.initial;
    a->read(xa);
    b->read(xb);
    double d = 0;
    for (std::size_t k = 0; k < xa.bodies.size(); ++k) {
      d = std::max(d, (xa.bodies[k].R - xb.bodies[k].R).cwiseAbs().maxCoeff());
      d = std::max(d, (xa.bodies[k].W - xb.bodies[k].W).cwiseAbs().maxCoeff() / std::max(1.0, xa.bodies[k].W.norm()));
    }
    INFO(name << ": max difference " << d);
    CHECK(d <= 1e-13);
    CHECK(a->counters().load_evaluations == b->counters().load_evaluations);
  }
}

TEST_CASE("bench report: one serialiser and one reader that round-trip, unmeasured numbers as null", "[bench]") {
  BenchResult b;
  b.seconds = 12.5;
  b.icount_tool = "valgrind-3.19.0";
  b.icount_note = "callgrind, 2000 and 4000 steps";
  b.gbench_json = "/tmp/x/benchmark.json";
  b.shard = Shard{2, 3};
  BenchEntry e{.integrator = "lgvi", .problem = "free_body", .h = 0.01, .ns_per_step = 512.25, .ns_per_step_median = 530.5,
               .ratio_to_baseline = 1.5, .instructions_per_step = 1378.125, .instruction_ratio_to_baseline = 1.25};
  e.repetitions = 3;
  b.entries.push_back(e);
  b.entries.push_back(BenchEntry{.integrator = "rkmk4", .problem = "heavy_top", .h = 0.002});  // nothing measured
  b.work.push_back({"lgvi", "free_body", {{0.01, 1e-4, 2e-3, 1e7, true, false}, {0.005, kNaN, 4e-3, 2e7, false, true}}});
  ScalingSeries sc{"bg_newmark", "particle_gas", {{40, 120.0, 300.0}, {80, 240.0, kNaN}}, {}, {}};
  sc.ns_fit.slope = 1.0;
  sc.ns_fit.stderr_slope = 0.01;
  sc.ns_fit.r2 = 0.999;
  b.scaling.push_back(sc);
  const json written = json::parse(bench_report(b, {"rigidbench", "bench"}, "2026-01-01T00:00:00Z").dump());
  const BenchReport r = BenchReport::read(written, "the report");
  CHECK(json::parse(r.to_json().dump()) == written);
  CHECK(r.entries.size() == 2);
  CHECK(r.entry("lgvi", "free_body")->instructions_per_step == 1378.125);
  CHECK(std::isnan(r.entry("rkmk4", "heavy_top")->ns_per_step));
  CHECK(written["results"][1]["ns_per_step"].is_null());
  CHECK(written["scaling"][0]["points"][1]["instructions_per_step"].is_null());
  REQUIRE(r.shard.has_value());
  CHECK(r.shard->to_string() == "2/3");
  CHECK(r.tool == ToolInfo::current());
  CHECK(r.machine == MachineInfo::current());
  // Not a bench report: refused by the reader with the JSON path, before anything is taken from it.
  json bad = written;
  bad["results"][0]["instructions_per_step"] = -1.0;
  CHECK_THROWS_WITH(BenchReport::read(bad, "the bench report"),
                    Catch::Contains("the bench report") && Catch::Contains("/results/0/instructions_per_step"));
  CHECK_THROWS_AS(BenchReport::read(json::object(), "x"), InputError);
}
