#include "rigidbench/verification/suite.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "rigidbench/problems/catalogue.hpp"
#include "rigidbench/problems/problem_file.hpp"

namespace rigidbench {

std::vector<std::string> suite_names() { return {"quick", "paper"}; }

bool SuiteResult::any_failed() const {
  for (const auto& r : results)
    if (r.failed()) return true;
  return false;
}

namespace {

/// Runs tasks 0..n-1 on `jobs` threads; each task writes only its own slot.
void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& task) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < n;) {
      try {
        task(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::jthread> pool;
  for (int j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  pool.clear();  // joins
  if (error) std::rethrow_exception(error);
}

}  // namespace

SuiteResult run_suite(const SuiteRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  SuiteResult out;
  out.suite = req.suite;
  bool known = false;
  for (const auto& s : suite_names()) known |= s == req.suite;
  if (!known) throw InputError("unknown suite '" + req.suite + "' (available: quick, paper)");
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
    for (const auto& name : req.problems.empty() ? quick_problem_names() : req.problems)
      out.problems.push_back(catalogue_problem(name));
  }
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

  out.references.resize(grids.size());
  parallel_for(grids.size(), out.jobs, [&](std::size_t g) {
    const auto& [pi, L] = grids[g];
    out.references[g] = std::make_unique<ReferenceSolution>(
        compute_reference(out.problems[pi], L.obs_times(), req.reference));
  });
  if (req.progress)
    std::fprintf(stderr, "verify: %zu reference grid(s) ready; %zu pair(s) on %d worker(s)\n", grids.size(),
                 pairs.size(), out.jobs);

  out.results.resize(pairs.size());
  std::atomic<std::size_t> done{0};
  std::mutex io;
  parallel_for(pairs.size(), out.jobs, [&](std::size_t i) {
    const Pair& pr = pairs[i];
    const Problem& p = out.problems[pr.problem];
    PairResult r;
    if (!pr.skip.empty()) {
      r.integrator = std::string(pr.scheme->info->name);
      r.info = pr.scheme->info;
      r.origin = pr.scheme->origin;
      r.problem = p.name;
      r.status = "skipped";
      r.reason = pr.skip;
    } else {
      r = verify_pair(p, *pr.scheme, pr.ladder, *out.references[pr.ref]);
    }
    out.results[i] = std::move(r);
    if (req.progress) {
      std::lock_guard lock(io);
      const auto& res = out.results[i];
      std::fprintf(stderr, "[%zu/%zu] %-18s %-14s %-9s %s(%.1f s)\n", ++done, pairs.size(), res.integrator.c_str(),
                   res.problem.c_str(), res.status.c_str(), res.failed() ? "VERDICT FAILED " : "", res.seconds);
    }
  });

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
