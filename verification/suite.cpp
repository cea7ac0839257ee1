#include "rigidbench/verification/suite.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "rigidbench/core/task_graph.hpp"
#include "rigidbench/problems/catalogue.hpp"
#include "rigidbench/problems/problem_file.hpp"

namespace rigidbench {

std::vector<std::string> suite_names() { return {"quick", "paper", "full"}; }

std::vector<std::string> full_problem_names() { return catalogue_names(); }

bool SuiteResult::any_failed() const {
  for (const auto& r : results)
    if (r.failed()) return true;
  return false;
}

SuiteResult run_suite(const SuiteRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  SuiteResult out;
  out.suite = req.suite;
  bool known = false;
  for (const auto& s : suite_names()) known |= s == req.suite;
  if (!known) throw InputError("unknown suite '" + req.suite + "' (available: quick, paper, full)");
  const bool full = req.suite == "full";
  if (req.jobs < 0) throw InputError("--jobs must be >= 0");
  out.jobs = req.jobs > 0 ? req.jobs : int(std::max(1u, std::thread::hardware_concurrency()));

  if (!req.problem_models.empty()) {
    if (!req.problems.empty() || !req.problem_file.empty())
      throw std::logic_error("run_suite: problem models and problem names or a file given together");
    out.problems = req.problem_models;
  } else if (!req.problem_file.empty()) {
    if (!req.problems.empty()) throw InputError("give either --problem or --problem-file, not both");
    out.problems.push_back(load_problem_file(req.problem_file));
  } else {
    for (const auto& name : req.problems.empty() ? (full ? full_problem_names() : quick_problem_names()) : req.problems)
      out.problems.push_back(catalogue_problem(name));
  }
  if (full) {
    // The full suite: one level more and twice the span on every problem (docs/metrics.md, "Suites").
    for (Problem& p : out.problems) {
      ++p.verification.levels;
      if (!req.t_end) {
        if (p.verification.t_end) p.verification.t_end = std::min(p.t_end, 2 * (*p.verification.t_end - p.t0) + p.t0);
        else p.t_end = p.t0 + 2 * (p.t_end - p.t0);
      }
      p.finalize();
    }
  }
  const std::int64_t long_time_steps = req.long_time_steps >= 0 ? req.long_time_steps : full ? 100000 : 0;
  if (req.t_end) {
    for (Problem& p : out.problems) {
      if (!std::isfinite(*req.t_end) || *req.t_end <= p.t0)
        throw InputError("--t-end must be finite and greater than t0 (got " + std::to_string(*req.t_end) + ")");
      p.t_end = *req.t_end;
      p.verification.t_end = std::nullopt;  // --t-end sets the convergence study's span
      std::erase_if(p.verification.sample_times, [&](double t) { return t > p.t_end; });
      p.finalize();
    }
  }
  const std::vector<SchemeEntry> configured =
      req.schemes.empty() ? configure_schemes(select_schemes(req.integrators), req.scheme_settings) : req.schemes;
  std::vector<const SchemeEntry*> schemes;
  for (const SchemeEntry& e : configured) schemes.push_back(&e);

  // Pairs, their ladders (validated here, before any work), and the reference grids they need.
  struct Pair {
    std::size_t problem;
    const SchemeEntry* scheme;
    Ladder ladder;
    std::string skip;
    std::size_t ref = 0;
  };
  std::vector<Pair> pairs;
  std::map<std::tuple<std::size_t, double, std::int64_t>, std::size_t> grid_index;
  std::vector<std::pair<std::size_t, Ladder>> grids;
  out.shard = req.shard;
  for (std::size_t pi = 0; pi < out.problems.size(); ++pi)
    for (const SchemeEntry* s : schemes) {
      const std::size_t ordinal = out.pairs_total++;
      if (!req.shard.contains(shard_key(s->info->name, out.problems[pi].name))) continue;
      out.ordinals.push_back(ordinal);
      Pair pr{pi, s, {}, not_applicable(*s->info, out.problems[pi])};
      if (pr.skip.empty()) {
        pr.ladder = make_ladder(out.problems[pi], s->info->order, req.ladder);
        const auto key = std::make_tuple(pi, pr.ladder.obs_dt(), pr.ladder.m);
        auto [it, inserted] = grid_index.emplace(key, grids.size());
        if (inserted) grids.emplace_back(pi, pr.ladder);
        pr.ref = it->second;
      }
      pairs.push_back(std::move(pr));
    }

  // Work units (docs/scaling.md, "Work units"): the units of every reference (ReferenceJob) and
  // then its finish; one unit per level of every pair (a level needs no reference); a pair's
  // assessment once its levels and its reference are done. Each unit writes only its own slot and
  // the combinations are in a fixed order, so the report is the same on any number of workers.
  // Priorities: finishing first (it frees a pair's runs), then references (assessments wait on
  // them), then the pairs' levels, the costliest pair first and its finest level first, so that the
  // run does not end on one long unit and few pairs' runs are held at once.
  TaskGraph graph;
  constexpr double kFinish = 2e18, kReference = 1e18;
  std::vector<std::unique_ptr<ReferenceJob>> ref_jobs(grids.size());
  std::vector<TaskGraph::Id> ref_ready(grids.size());
  out.references.resize(grids.size());
  std::size_t cached = 0;
  for (std::size_t g = 0; g < grids.size(); ++g) {
    const auto& [pi, L] = grids[g];
    ref_jobs[g] = std::make_unique<ReferenceJob>(out.problems[pi], L.obs_times(), req.reference);
    cached += ref_jobs[g]->units() == 0;
    std::vector<TaskGraph::Id> units;
    for (std::size_t u = 0; u < ref_jobs[g]->units(); ++u)
      units.push_back(graph.add([&ref_jobs, g, u] { ref_jobs[g]->run_unit(u); }, {}, kReference));
    ref_ready[g] = graph.add(
        [&out, &ref_jobs, g] {
          out.references[g] = std::make_unique<ReferenceSolution>(ref_jobs[g]->finish());
          ref_jobs[g].reset();
        },
        units, kFinish);
  }

  out.results.resize(pairs.size());
  std::vector<std::vector<LevelRun>> runs(pairs.size());
  std::vector<LongTimeEnergy> long_time(long_time_steps > 0 ? pairs.size() : 0);
  // The order of the pairs' levels: by the finest level's steps times bodies (the total is about
  // twice that), the largest first (ties: suite order).
  std::vector<std::size_t> rank(pairs.size());
  {
    std::vector<std::pair<double, std::size_t>> weight;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const Ladder& L = pairs[i].ladder;
      const double bodies = double(out.problems[pairs[i].problem].bodies.size());
      weight.emplace_back(pairs[i].skip.empty() ? -double(L.steps(L.levels - 1)) * bodies : 0.0, i);
    }
    std::sort(weight.begin(), weight.end());
    for (std::size_t r = 0; r < weight.size(); ++r) rank[weight[r].second] = r;
  }
  std::size_t done = 0, to_run = 0, skipped = 0;  // done: under `io`
  std::mutex io;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const Pair& pr = pairs[i];
    const Problem& p = out.problems[pr.problem];
    if (!pr.skip.empty()) {
      PairResult& r = out.results[i];
      r.integrator = std::string(pr.scheme->info->name);
      r.info = pr.scheme->info;
      r.origin = pr.scheme->origin;
      r.problem = p.name;
      r.status = "skipped";
      r.reason = pr.skip;
      ++skipped;
      continue;
    }
    ++to_run;
    std::vector<TaskGraph::Id> after{ref_ready[pr.ref]};
    runs[i].resize(std::size_t(pr.ladder.levels));
    const double base = double(pairs.size() - rank[i]) * 64;  // levels <= 24 (make_ladder)
    for (int k = 0; k < pr.ladder.levels; ++k)
      after.push_back(graph.add(
          [&runs, &pr, &p, i, k] {
            auto integ = pr.scheme->make(p);
            runs[i][std::size_t(k)] = run_level(*integ, p, pr.ladder, k);
          },
          {}, base + k));
    if (long_time_steps > 0)
      after.push_back(graph.add(
          [&long_time, &pr, &p, i, long_time_steps] {
            long_time[i] = long_time_energy(p, *pr.scheme, pr.ladder.h(std::min(1, pr.ladder.levels - 1)), long_time_steps);
          },
          {}, base + pr.ladder.levels));
    graph.add(
        [&, i] {
          const Pair& q = pairs[i];
          out.results[i] = assess_pair(out.problems[q.problem], *q.scheme, q.ladder, std::move(runs[i]),
                                       *out.references[q.ref]);
          runs[i] = {};
          if (long_time_steps > 0) out.results[i].long_time = std::move(long_time[i]);
          if (req.progress) {
            std::lock_guard lock(io);
            const auto& res = out.results[i];
            std::fprintf(stderr, "[%zu/%zu] %-18s %-14s %-9s %s(%.1f s)\n", ++done, to_run, res.integrator.c_str(),
                         res.problem.c_str(), res.status.c_str(), res.failed() ? "VERDICT FAILED " : "", res.seconds);
          }
        },
        after, kFinish);
  }
  if (req.progress)
    std::fprintf(stderr,
                 "verify: %zu pair(s) to run (%zu not applicable), %zu reference grid(s) (%zu from the cache); "
                 "%zu work unit(s) on %d worker(s)\n",
                 to_run, skipped, grids.size(), cached, graph.size(), out.jobs);
  graph.run(out.jobs);

  // Cost: measured serially after the parallel phase so that runs do not compete for cores.
  if (req.measure_cost) {
    const SchemeEntry& base = baseline_scheme();
    const SchemeEntry& rk4 = rk4_baseline_scheme();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (!pairs[i].skip.empty()) continue;
      const Problem& p = out.problems[pairs[i].problem];
      const double h = pairs[i].ladder.h(std::min(2, pairs[i].ladder.levels - 1));
      out.results[i].cost = measure_cost(p, *pairs[i].scheme, h);
      const CostResult b = measure_cost(p, base, h);
      out.results[i].cost.ratio_to_baseline = out.results[i].cost.ns_per_step / b.ns_per_step;
      out.results[i].cost.ratio_to_rk4 = out.results[i].cost.ns_per_step / measure_cost(p, rk4, h).ns_per_step;
    }
  } else {
    for (std::size_t i = 0; i < pairs.size(); ++i) out.results[i].cost.source = req.no_cost_reason;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace rigidbench
