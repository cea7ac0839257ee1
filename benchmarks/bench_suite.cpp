#include "bench_suite.hpp"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <thread>

#include "../core/parallel.hpp"
#include "../core/text_escape.hpp"
#include "../problems/catalogue.hpp"
#include "../verification/suite.hpp"

namespace rigidbench {
namespace fs = std::filesystem;

namespace {

/// Colour in Google Benchmark's table only on a terminal that has it: its own "auto" looks at TERM
/// alone, so a redirected `bench` wrote escape sequences into files (https://no-color.org too).
bool console_colour() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr && term != nullptr &&
         std::string_view(term) != "dumb";
}

/// Forwards to the console (unless quiet) and keeps every iteration run for the ratios.
class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  explicit CollectingReporter(bool quiet)
      : ConsoleReporter(console_colour() ? OO_ColorTabular : OO_Tabular), quiet_(quiet) {}
  /// The context without Google Benchmark's "Library was built as DEBUG" line: it is about Debian's
  /// libbenchmark, built without NDEBUG (its own bookkeeping asserts), not about the code it times,
  /// which is rigidbench's, built with the flags the context's rigidbench_flags line gives; and the
  /// timing loop is inline in benchmark.h (docs/decisions.md, "Benchmark output").
  bool ReportContext(const Context& c) override {
    if (quiet_) return true;
    std::ostream* err = &GetErrorStream();
    std::ostringstream captured;
    SetErrorStream(&captured);
    const bool ok = ConsoleReporter::ReportContext(c);
    SetErrorStream(err);
    std::istringstream lines(captured.str());
    for (std::string line; std::getline(lines, line);)
      if (line.find("Library was built as DEBUG") == std::string::npos) *err << line << '\n';
    return ok;
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type == Run::RT_Iteration && r.error_occurred) {  // SkipWithError: the scheme's breakdown
        std::string name = r.benchmark_name();
        if (const auto at = name.rfind("/manual_time"); at != std::string::npos && at + 12 == name.size()) name.resize(at);
        errors_[name] = r.error_message;
      }
      if (r.run_type == Run::RT_Iteration && !r.error_occurred) {
        // A benchmark with manual time (an isolated scheme, timed in its child: bm_step) carries the
        // child's CPU time as its "real" time, and Google Benchmark names it ".../manual_time"; its
        // own CPU time is the parent's wait.
        std::string name = r.benchmark_name();
        const bool manual = name.size() > 12 && name.compare(name.size() - 12, 12, "/manual_time") == 0;
        if (manual) name.resize(name.size() - 12);
        cpu_ns_[name].push_back((manual ? r.GetAdjustedRealTime() : r.GetAdjustedCPUTime()) * time_unit_ns(r.time_unit));
      }
    }
    if (!quiet_) ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, std::vector<double>> cpu_ns_;
  std::map<std::string, std::string> errors_;  // why a benchmark has no time

 private:
  static double time_unit_ns(benchmark::TimeUnit u) {
    switch (u) {
      case benchmark::kNanosecond: return 1.0;
      case benchmark::kMicrosecond: return 1e3;
      case benchmark::kMillisecond: return 1e6;
      case benchmark::kSecond: return 1e9;
    }
    return 1.0;
  }
  bool quiet_;
};

std::string self_exe() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw InputError("cannot locate the rigidbench executable (/proc/self/exe)");
  return p.string();
}

std::string run_capture(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int st = pclose(p);
  status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

}  // namespace

void mark_pareto(std::vector<WorkSeries>& series) {
  std::map<std::string, std::vector<WorkPoint*>> by_problem;
  for (auto& s : series)
    for (auto& p : s.points)
      if (std::isfinite(p.error)) by_problem[s.problem].push_back(&p);
  for (auto& entry : by_problem) {
    auto& pts = entry.second;  // not a structured binding: Clang 14 cannot capture one in a lambda
    auto front = [&](auto cost, auto flag) {
      for (WorkPoint* a : pts) {
        if (!std::isfinite(cost(*a))) continue;
        bool dominated = false;
        for (WorkPoint* b : pts)
          if (b != a && std::isfinite(cost(*b)) && cost(*b) <= cost(*a) && b->error <= a->error &&
              (cost(*b) < cost(*a) || b->error < a->error)) {
            dominated = true;
            break;
          }
        flag(*a) = !dominated;
      }
    };
    front([](const WorkPoint& p) { return p.cpu_seconds; }, [](WorkPoint& p) -> bool& { return p.pareto_cpu; });
    front([](const WorkPoint& p) { return p.instructions; },
          [](WorkPoint& p) -> bool& { return p.pareto_instructions; });
  }
}

std::vector<double> count_instructions(const std::vector<BenchPair>& pairs, std::int64_t steps, std::string& tool,
                                       const std::string& driver_exe, bool progress) {
  int st = 0;
  tool = run_capture("valgrind --version 2>/dev/null", st);
  while (!tool.empty() && (tool.back() == '\n' || tool.back() == '\r')) tool.pop_back();
  if (st != 0 || tool.empty()) throw InputError("instruction counts need valgrind (not found on PATH)");
  char tmpl[] = "/tmp/rigidbench-icount-XXXXXX";
  if (!mkdtemp(tmpl)) throw InputError("cannot create a temporary folder for callgrind output");
  const fs::path dir(tmpl);
  // With progress, the driver's lines go straight to this process's stderr while it runs, and
  // valgrind's own messages to a log file read back on failure.
  const fs::path vlog = dir / "valgrind.log";
  std::string cmd = cat("valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=",
                        shell_text((dir / "cg.%p").string()),
                        progress ? cat(" --log-file=", shell_text(vlog.string())) : std::string(), " ",
                        shell_text(driver_exe.empty() ? self_exe() : driver_exe), " bench-driver --steps ",
                        std::to_string(steps), progress ? " --progress" : "");
  std::vector<std::string> schemes, problems;
  for (const BenchPair& bp : pairs) {
    if (std::find(schemes.begin(), schemes.end(), bp.scheme->info->name) == schemes.end())
      schemes.emplace_back(bp.scheme->info->name);
    if (std::find(problems.begin(), problems.end(), bp.problem->name) == problems.end())
      problems.push_back(bp.problem->name);
  }
  for (const auto& s : schemes) cmd += cat(" --integrator ", shell_text(s));
  for (const auto& p : problems) cmd += cat(" --problem ", shell_text(p));
  std::string log = run_capture(progress ? cmd : cmd + " 2>&1", st);
  if (progress && st != 0) {
    std::ifstream in(vlog);
    log += std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::map<std::string, double> totals;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    std::string line, trigger;
    double total = kNaN;
    while (std::getline(in, line)) {
      if (line.rfind("desc: Trigger: Client Request: ", 0) == 0) trigger = line.substr(31);
      if (line.rfind("totals: ", 0) == 0) total = std::stod(line.substr(8));
    }
    if (!trigger.empty()) totals[trigger] = total;
  }
  fs::remove_all(dir);
  if (st != 0) throw InputError(cat("the callgrind run failed (exit ", std::to_string(st), "): ", log.substr(0, 2000)));
  std::vector<double> out;
  for (const BenchPair& bp : pairs) {
    if (bp.adaptive()) {  // the whole run's instructions (its set-up outside the instrumented part)
      const auto r = totals.find(cat(bp.name(), "#run"));
      out.push_back(r != totals.end() ? r->second : kNaN);
      continue;
    }
    const auto a = totals.find(cat(bp.name(), "#", std::to_string(steps)));
    const auto b = totals.find(cat(bp.name(), "#", std::to_string(2 * steps)));
    // The difference of the N- and 2N-step loops cancels the fixed cost of set-up and requests.
    out.push_back(a != totals.end() && b != totals.end() ? (b->second - a->second) / double(steps) : kNaN);
  }
  return out;
}

std::vector<double> count_instructions_by_size(const std::vector<BenchPair>& pairs, std::int64_t steps, std::string& tool,
                                               const std::string& driver_exe, bool progress, int jobs,
                                               const std::vector<double>& cost) {
  // The units: the pairs of one problem (one step count each). Longest first (LPT) into `jobs`
  // groups by estimated cost = cost per step x steps, each group one callgrind run per step count.
  struct Unit {
    std::int64_t n = 0;
    std::vector<std::size_t> idx;
    double cost = 0;
  };
  std::map<std::string, Unit> units;
  std::vector<std::size_t> isolated;  // counted each in a driver of its own, below
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].scheme->origin == SchemeOrigin::program) continue;  // its instructions are its program's: NaN
    if (pairs[i].scheme->info->isolate) {
      isolated.push_back(i);
      continue;
    }
    Unit& u = units[pairs[i].problem->name];
    u.n = icount_steps_for(steps, pairs[i].problem->bodies.size());
    u.idx.push_back(i);
    const double c = i < cost.size() && std::isfinite(cost[i]) && cost[i] > 0 ? cost[i] : double(pairs[i].problem->bodies.size());
    u.cost += c * double(u.n);
  }
  std::vector<const Unit*> order;
  for (const auto& [name, u] : units) order.push_back(&u);
  std::stable_sort(order.begin(), order.end(), [](const Unit* a, const Unit* b) { return a->cost > b->cost; });
  const std::size_t groups = std::clamp<std::size_t>(std::size_t(std::max(jobs, 1)), 1, std::max<std::size_t>(order.size(), 1));
  std::vector<std::map<std::int64_t, std::vector<std::size_t>>> group(groups);
  std::vector<double> load(groups, 0.0);
  for (const Unit* u : order) {
    const std::size_t g = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
    load[g] += u->cost;
    auto& ix = group[g][u->n];
    ix.insert(ix.end(), u->idx.begin(), u->idx.end());
  }
  std::vector<double> out(pairs.size(), kNaN);
  std::vector<std::string> tools(groups);
  std::vector<std::exception_ptr> failed(groups);
  auto count_group = [&](std::size_t g) {
    try {
      for (const auto& [n, idx] : group[g]) {
        std::vector<BenchPair> some;
        for (const std::size_t i : idx) some.push_back(pairs[i]);
        const auto c = count_instructions(some, n, tools[g], driver_exe, progress);
        for (std::size_t k = 0; k < idx.size(); ++k) out[idx[k]] = c[k];
      }
    } catch (...) {
      failed[g] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::size_t g = 1; g < groups; ++g) threads.emplace_back(count_group, g);
    count_group(0);
  }
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  tool = tools.front();
  // An isolated scheme (an engine that may abort the process) is counted in a callgrind driver of
  // its own: should it abort there, its count is missing (NaN) and the others stand.
  for (const std::size_t i : isolated) {
    try {
      std::string t;
      out[i] = count_instructions({pairs[i]}, icount_steps_for(steps, pairs[i].problem->bodies.size()), t, driver_exe, progress)[0];
      if (tool.empty()) tool = t;
    } catch (const InputError& e) {
      if (progress) std::fprintf(stderr, "bench: %s: not counted: %s\n", pairs[i].name().c_str(), e.what());
    }
  }
  return out;
}

std::int64_t icount_steps_for(std::int64_t steps, std::size_t bodies) { return steps_for_bodies(steps, bodies, 4); }

std::vector<ScalingSeries> scaling_series(const std::vector<BenchEntry>& entries, const std::vector<Problem>& problems) {
  std::vector<ScalingSeries> out;
  for (const BenchEntry& e : entries) {
    std::string base;
    if (!sized_problem(e.problem, base)) continue;
    std::size_t n = 0;
    for (const Problem& p : problems)
      if (p.name == e.problem) n = p.bodies.size();
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const ScalingSeries& s) { return s.integrator == e.integrator && s.problem == base; });
    if (it == out.end()) it = out.insert(out.end(), ScalingSeries{e.integrator, base, {}, {}, {}});
    it->points.push_back({n, e.ns_per_step, e.instructions_per_step});
  }
  for (ScalingSeries& s : out) {
    std::sort(s.points.begin(), s.points.end(), [](const ScalingPoint& a, const ScalingPoint& b) { return a.n < b.n; });
    std::vector<double> xn, yn, xi, yi;
    for (const ScalingPoint& q : s.points) {
      if (std::isfinite(q.ns_per_step) && q.ns_per_step > 0) xn.push_back(std::log(double(q.n))), yn.push_back(std::log(q.ns_per_step));
      if (std::isfinite(q.instructions_per_step) && q.instructions_per_step > 0)
        xi.push_back(std::log(double(q.n))), yi.push_back(std::log(q.instructions_per_step));
    }
    if (xn.size() >= 2) s.ns_fit = fit_line(xn, yn);
    if (xi.size() >= 2) s.instruction_fit = fit_line(xi, yi);
  }
  return out;
}

namespace {

/// The adaptive pairs' series (one per scheme x problem of `runs`, a point per tolerance): the costs of
/// the whole run at each tolerance - thread CPU time (min of `repetitions`) and instructions
/// (callgrind; NaN without counts) - and no error yet (set from verify's tolerance ladder by the
/// work-precision sweeps; without them the series carries the costs alone, for the gate).
std::vector<WorkSeries> adaptive_series(const std::vector<BenchPair>& runs, const std::map<std::string, double>& instructions,
                                        int repetitions) {
  std::vector<WorkSeries> out;
  for (const BenchPair& run : runs) {
    const std::string integ(run.scheme->info->name);
    if (out.empty() || out.back().integrator != integ || out.back().problem != run.problem->name)
      out.push_back({integ, run.problem->name, {}});
    WorkPoint wp;
    wp.tol = run.tol;
    const RunSeconds secs = cpu_seconds_of_adaptive_run(run, repetitions);
    wp.cpu_seconds = secs.fastest;
    if (repetitions > 1) wp.cpu_seconds_max = secs.slowest;
    if (const auto it = instructions.find(run.name()); it != instructions.end()) wp.instructions = it->second;
    out.back().points.push_back(wp);
  }
  return out;
}

}  // namespace

namespace {

/// The problems a bench runs: the catalogue's (or those named), or with --sizes each scalable named
/// problem at every size.
std::vector<Problem> bench_problems(const BenchRequest& req) {
  std::vector<Problem> problems;
  if (req.sizes.empty()) {
    for (const auto& n : req.problems.empty() ? catalogue_names() : req.problems) problems.push_back(catalogue_problem(n));
  } else {
    if (req.problems.empty()) throw InputError("--sizes needs --problem with a scalable problem (particle_gas)");
    for (const auto& name : req.problems) {
      std::string base = name;
      const auto scalable = scalable_problem_names();
      if (std::find(scalable.begin(), scalable.end(), name) == scalable.end() && !sized_problem(name, base)) {
        std::string known;
        for (const auto& k : scalable) known += (known.empty() ? "" : ", ") + k;
        throw InputError(cat("--sizes: problem '", name, "' has no size (scalable: ", known, ")"));
      }
      for (const std::size_t n : req.sizes) problems.push_back(catalogue_problem(cat(base, "_", std::to_string(n))));
    }
  }
  return problems;
}

/// x over the problem's baseline; NaN where a baseline does not apply (the non_twisting family:
/// null in the report).
double ratio(double x, const std::map<std::string, double>& base, const std::string& problem) {
  const auto it = base.find(problem);
  return it == base.end() ? kNaN : x / it->second;
}

/// Wall clock: Google Benchmark, repetitions randomly interleaved across pairs; one entry per pair,
/// with its counts per step and its ratios to the baselines.
void time_steps(const std::vector<BenchPair>& pairs, const BenchRequest& req, BenchResult& out) {
  register_step_benchmarks(pairs);
  std::vector<std::string> args{"rigidbench-bench", cat("--benchmark_min_time=", format_number(req.min_time)),
                                cat("--benchmark_repetitions=", std::to_string(req.repetitions)),
                                "--benchmark_enable_random_interleaving=true"};
  std::string tmp_json;
  if (!req.out_dir.empty()) {
    out.gbench_json = (fs::path(req.out_dir) / "benchmark.json").string();
    tmp_json = cat(out.gbench_json, ".tmp.", std::to_string(::getpid()));
    args.push_back(cat("--benchmark_out=", tmp_json));
    args.push_back("--benchmark_out_format=json");
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = int(argv.size());
  benchmark::Initialize(&argc, argv.data());
  CollectingReporter rep(req.quiet);
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::ClearRegisteredBenchmarks();
  if (!tmp_json.empty()) fs::rename(tmp_json, out.gbench_json);

  std::map<std::string, double> base_ns, rk4_ns;
  for (const BenchPair& bp : pairs) {
    BenchEntry e;
    e.integrator = std::string(bp.scheme->info->name);
    e.problem = bp.problem->name;
    e.h = bp.h;
    const auto& v = rep.cpu_ns_[bp.name()];
    if (v.empty()) e.breakdown = rep.errors_[bp.name()];
    if (!v.empty()) {
      e.ns_per_step = *std::min_element(v.begin(), v.end());
      e.ns_per_step_median = median(v);
      e.repetitions = int(v.size());
      e.ratio_samples = v;  // ns per step here; over the baseline's median below
    }
    const StepCounts counts = step_counts(bp);
    e.loads_per_step = counts.loads;
    e.newton_per_step = counts.newton;
    e.jacobians_per_step = counts.jacobians;
    if (bp.scheme->info->flops)
      if (const auto m = bp.scheme->info->flops(*bp.problem)) {
        e.flops_per_step = m->flops_at(e.newton_per_step, e.jacobians_per_step);
        e.calls_per_step = m->calls_at(e.newton_per_step);
      }
    if (bp.scheme == &baseline_scheme()) base_ns[e.problem] = e.ns_per_step;
    if (bp.scheme == &rk4_baseline_scheme()) rk4_ns[e.problem] = e.ns_per_step;
    out.entries.push_back(e);
  }
  std::map<std::string, double> base_median;
  for (const auto& e : out.entries)
    if (e.integrator == std::string_view(baseline_scheme().info->name)) base_median[e.problem] = e.ns_per_step_median;
  for (auto& e : out.entries) {
    e.ratio_to_baseline = ratio(e.ns_per_step, base_ns, e.problem);
    e.ratio_to_rk4 = ratio(e.ns_per_step, rk4_ns, e.problem);
    std::vector<double> samples;
    for (double ns : e.ratio_samples)
      if (const double r = ratio(ns, base_median, e.problem); std::isfinite(r)) samples.push_back(r);
    e.ratio_samples = std::move(samples);
  }
}

/// Instruction counts (deterministic; what the speed gate uses), of the pairs' steps and of the
/// adaptive runs (into run_instructions, by BenchPair::name()).
void count_instructions(const std::vector<BenchPair>& pairs, const std::vector<BenchPair>& runs, const BenchRequest& req,
                        BenchResult& out, std::map<std::string, double>& run_instructions) {
  if (req.icount) {
    try {
      if (!req.quiet) std::fprintf(stderr, "bench: counting instructions under callgrind (%zu pairs)...\n", pairs.size());
      std::vector<double> timed;  // the cost estimate that shares the pairs among the drivers
      for (const BenchEntry& e : out.entries) timed.push_back(e.ns_per_step);
      const int jobs = req.jobs > 0 ? req.jobs : parallel::cores();
      std::vector<BenchPair> counted = pairs;
      counted.insert(counted.end(), runs.begin(), runs.end());
      const auto ips = count_instructions_by_size(counted, req.icount_steps, out.icount_tool, "", !req.quiet, jobs, timed);
      for (std::size_t i = pairs.size(); i < counted.size(); ++i) run_instructions[counted[i].name()] = ips[i];
      std::map<std::string, double> base_i, rk4_i;
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        out.entries[i].instructions_per_step = ips[i];
        if (pairs[i].scheme == &baseline_scheme()) base_i[pairs[i].problem->name] = ips[i];
        if (pairs[i].scheme == &rk4_baseline_scheme()) rk4_i[pairs[i].problem->name] = ips[i];
      }
      for (auto& e : out.entries) {
        e.instruction_ratio_to_baseline = ratio(e.instructions_per_step, base_i, e.problem);
        e.instruction_ratio_to_rk4 = ratio(e.instructions_per_step, rk4_i, e.problem);
        e.instructions_per_flop = e.instructions_per_step / e.flops_per_step;
      }
      bool scaled = false;
      for (const Problem& p : out.problems) scaled = scaled || icount_steps_for(req.icount_steps, p.bodies.size()) != req.icount_steps;
      out.icount_note = cat("callgrind Ir per step = (Ir(2N) - Ir(N)) / N, N = ", std::to_string(req.icount_steps),
                            scaled ? " (N * 80 / n for n > 80 bodies, at least 4)" : "");
    } catch (const InputError& e) {
      if (req.require_icount) throw;
      out.icount_note = cat("not measured: ", e.what());
      if (!req.quiet) std::fprintf(stderr, "bench: %s\n", out.icount_note.c_str());
    }
  } else {
    out.icount_note = "not requested";
  }
}

/// Work-precision: the final attitude error on the verification ladder against the cost, per pair
/// (and the errors of the adaptive series, from their tolerance ladders).
void work_precision(const BenchRequest& req, BenchResult& out, std::vector<WorkSeries>& adaptive) {
  if (req.work_precision && req.sizes.empty()) {
    SuiteRequest sr;
    sr.integrators = req.integrators;
    sr.problems = req.problems;
    sr.shard = req.shard;
    sr.progress = !req.quiet;  // a line per pair, and the long levels' own (verify's progress)
    sr.measure_cost = false;
    if (!req.quiet) std::fprintf(stderr, "bench: work-precision sweeps on the verification ladders...\n");
    const SuiteResult s = run_suite(sr);
    for (const PairResult& r : s.results) {
      if (r.status == "skipped") continue;
      if (r.tolerance) {  // the errors of its series (below), from its tolerance ladder
        for (WorkSeries& w : adaptive)
          if (w.integrator == r.integrator && w.problem == r.problem)
            for (std::size_t k = 0; k < w.points.size() && k < r.tolerance->levels.size(); ++k) {
              const ToleranceLevel& lv = r.tolerance->levels[k];
              w.points[k].error = lv.ok ? tolerance_level_error(lv, out.work_metric) : kNaN;
            }
        continue;
      }
      const SchemeEntry& se = find_scheme(r.integrator);
      const Problem* p = nullptr;
      for (const auto& q : out.problems)
        if (q.name == r.problem) p = &q;
      double ips = kNaN;
      for (const auto& e : out.entries)
        if (e.integrator == r.integrator && e.problem == r.problem) ips = e.instructions_per_step;
      WorkSeries ws{r.integrator, r.problem, {}};
      const Convergence& c = r.convergence.at(out.work_metric);
      for (std::size_t k = 0; k < r.h.size(); ++k) {
        const std::int64_t n = r.ladder.steps(int(k));
        WorkPoint wp;
        wp.h = r.h[k];
        wp.error = c.error[k];
        const int reps = n < 100000 ? 3 : 1;
        const RunSeconds secs = cpu_seconds_of_run(se, *p, wp.h, n, reps);
        wp.cpu_seconds = secs.fastest;
        if (reps > 1) wp.cpu_seconds_max = secs.slowest;
        wp.instructions = ips * double(n);
        ws.points.push_back(wp);
      }
      out.work.push_back(std::move(ws));
    }
  }
}

}  // namespace

BenchResult run_bench(const BenchRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  BenchResult out;
  if (!(req.min_time > 0) || !std::isfinite(req.min_time)) throw InputError("--min-time must be positive");
  if (req.repetitions < 1) throw InputError("--repetitions must be >= 1");
  if (req.icount_steps < 1) throw InputError("--icount-steps must be >= 1");
  out.problems = bench_problems(req);
  const auto schemes = select_schemes(req.integrators);
  out.shard = req.shard;
  auto pairs = bench_pairs(schemes, out.problems);
  std::erase_if(pairs, [&](const BenchPair& bp) {
    return bp.scheme != &baseline_scheme() && bp.scheme != &rk4_baseline_scheme() && !req.shard.contains(shard_key(bp.scheme->info->name, bp.problem->name));
  });
  // The adaptive schemes' whole runs, one per tolerance: points of the work-precision series, not
  // entries (they have no step of their own size to time).
  auto runs = req.sizes.empty() ? adaptive_bench_runs(schemes, out.problems) : std::vector<BenchPair>{};
  std::erase_if(runs, [&](const BenchPair& bp) { return !req.shard.contains(shard_key(bp.scheme->info->name, bp.problem->name)); });
  std::map<std::string, double> run_instructions;  // by BenchPair::name()

  time_steps(pairs, req, out);
  count_instructions(pairs, runs, req, out, run_instructions);
  // The adaptive schemes' whole runs at each tolerance (their costs; errors by work_precision).
  std::vector<WorkSeries> adaptive = adaptive_series(runs, run_instructions, req.repetitions);
  if (req.work_precision && req.sizes.empty()) work_precision(req, out, adaptive);
  out.work.insert(out.work.end(), adaptive.begin(), adaptive.end());
  if (req.work_precision && req.sizes.empty()) mark_pareto(out.work);
  if (!req.sizes.empty()) out.scaling = scaling_series(out.entries, out.problems);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace rigidbench
