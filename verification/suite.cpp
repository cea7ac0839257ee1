#include "suite.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "../core/atomic_file.hpp"
#include "../core/cancel.hpp"
#include "../core/names.hpp"
#include "../core/parallel.hpp"
#include "../core/task_graph.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/problem_file.hpp"
#include "../reference/cache.hpp"
#include "memory.hpp"

namespace rigidbench {

std::vector<std::string> suite_names() { return {"quick", "paper", "full"}; }

std::vector<std::string> full_problem_names() { return catalogue_names(); }

bool SuiteResult::any_failed() const {
  for (const auto& r : results)
    if (r.failed()) return true;
  return false;
}

namespace {

/// "40 s", "12 min", "2.5 h": a time left for people.
std::string duration_text(double s) {
  if (s < 90) return cat(format_number(std::round(s), 3), " s");
  if (s < 5400) return cat(format_number(std::round(s / 60), 3), " min");
  return cat(format_number(std::round(s / 360) / 10, 3), " h");
}

/// A (scheme, problem) pair of the suite: its ladder (validated before any work), why it is skipped,
/// and the reference grid it needs.
struct Pair {
  std::size_t problem;
  const SchemeEntry* scheme;
  Ladder ladder;
  std::string skip;
  std::size_t ref = 0;
};

/// The suite's problems: models, a problem file or catalogue names; the full suite's longer spans and
/// extra level (docs/metrics.md, "Suites"); --t-end.
std::vector<Problem> suite_problems(const SuiteRequest& req, bool full) {
  std::vector<Problem> problems;
  if (!req.problem_models.empty()) {
    if (!req.problems.empty() || !req.problem_file.empty())
      throw std::logic_error("run_suite: problem models and problem names or a file given together");
    problems = req.problem_models;
  } else if (!req.problem_file.empty()) {
    if (!req.problems.empty()) throw InputError("give either --problem or --problem-file, not both");
    problems.push_back(load_problem_file(req.problem_file));
  } else {
    std::set<std::string> seen;  // a name given twice (--problem x --problem x) is one problem, as for schemes
    for (const auto& name : req.problems.empty() ? (full ? full_problem_names() : quick_problem_names()) : req.problems)
      if (seen.insert(name).second) problems.push_back(catalogue_problem(name));
  }
  if (full) {
    // The full suite: one level more and twice the span on every problem (docs/metrics.md, "Suites").
    for (Problem& p : problems) {
      ++p.verification.levels;
      if (!req.t_end) {
        if (p.verification.t_end) p.verification.t_end = std::min(p.t_end, 2 * (*p.verification.t_end - p.t0) + p.t0);
        else p.t_end = p.t0 + 2 * (p.t_end - p.t0);
      }
      p.finalize();
    }
  }
  if (req.t_end) {
    for (Problem& p : problems) {
      if (!std::isfinite(*req.t_end) || *req.t_end <= p.t0)
        throw InputError("--t-end must be finite and greater than t0 (got " + std::to_string(*req.t_end) + ")");
      p.t_end = *req.t_end;
      p.verification.t_end = std::nullopt;  // --t-end sets the convergence study's span
      std::erase_if(p.verification.sample_times, [&](double t) { return t > p.t_end; });
      p.finalize();
    }
  }
  return problems;
}

/// A report holds each integrator/problem pair once (its readers key by pair), so two different
/// schemes or problems under one name - two Python classes, a class named like a registered scheme,
/// two Problem objects - are refused before any work, not written as a report no reader accepts.
void require_distinct_names(const std::vector<Problem>& problems, const std::vector<const SchemeEntry*>& schemes) {
  std::set<std::string> seen;
  for (const Problem& p : problems) {
    // A problem built in a program (not registered, not read from a file) meets the name rule here.
    if (!is_name(p.name)) throw InputError(cat("problem name '", p.name, "' is not ", kNameRule, " (it is a report key)"));
    if (!seen.insert(p.name).second)
      throw InputError(cat("two problems are named '", p.name, "': a report holds each pair once - rename one"));
  }
  seen.clear();
  for (const SchemeEntry* e : schemes)
    if (!seen.insert(std::string(e->info->name)).second)
      throw InputError(cat("two schemes are named '", std::string(e->info->name),
                           "': a report holds each pair once - rename one"));
}

/// The pairs of this shard and the distinct reference grids they need (one per problem, observation
/// interval and number of observations).
void plan_pairs(const SuiteRequest& req, const Shard& shard, const std::vector<const SchemeEntry*>& schemes,
                SuiteResult& out, std::vector<Pair>& pairs, std::vector<std::pair<std::size_t, Ladder>>& grids) {
  std::map<std::tuple<std::size_t, double, std::int64_t>, std::size_t> grid_index;
  out.shard = req.shard;
  for (std::size_t pi = 0; pi < out.problems.size(); ++pi)
    for (const SchemeEntry* s : schemes) {
      const std::size_t ordinal = out.pairs_total++;
      if (!shard.contains(shard_key(s->info->name, out.problems[pi].name))) continue;
      out.ordinals.push_back(ordinal);
      Pair pr{pi, s, {}, not_applicable(*s->info, out.problems[pi])};
      if (pr.skip.empty()) {
        // An adaptive scheme is observed on the grid of the problem's step ladders of order >= 2 (its
        // reference is theirs); its own ladder is of tolerances (tolerance_ladder.hpp).
        pr.ladder = make_ladder(out.problems[pi], s->info->adaptive ? 2 : s->info->order, req.ladder);
        const auto key = std::make_tuple(pi, pr.ladder.obs_dt(), pr.ladder.m);
        auto [it, inserted] = grid_index.emplace(key, grids.size());
        if (inserted) grids.emplace_back(pi, pr.ladder);
        pr.ref = it->second;
      }
      pairs.push_back(std::move(pr));
    }

}

/// What this process does with a reference grid of the sweep: computes it (or reads it from the
/// cache), receives it from the rank that does (RankGroup), or nothing (no pair of its needs it).
enum class GridRole { compute, import, none };

/// The estimated work of a pair and of a reference grid, in seconds of this project's 2-core machine
/// (docs/decisions.md, "Balance across ranks", where the constants were measured on the full suite). An
/// estimate decides where and in which order a unit runs, never what it computes.
/// A pair: every step of its levels and of its long-time run costs kStep plus kPerBody per body (an
/// engine's step of one body takes 0.6-2 us, a built-in scheme's step of the 2 000-sphere gas 0.4-0.7
/// ms); an adaptive pair's tolerance ladder costs about as much as its order-2 step ladder.
double pair_work(const Pair& pr, const Problem& p, std::int64_t long_time_steps) {
  constexpr double kStep = 1e-6, kPerBody = 2.5e-7;
  if (!pr.skip.empty()) return 0;
  double steps = 0;
  for (int k = 0; k < pr.ladder.levels; ++k) steps += double(pr.ladder.steps(k));
  if (long_time_steps > 0 && !pr.scheme->info->adaptive) steps += double(long_time_steps);
  return steps * (kStep + kPerBody * double(p.bodies.size()));
}

/// A reference takes its own steps, which no model knows before it runs: per step h0 of the
/// problem's ladder over the grid's span and per body, the reference and its estimate took 5e-5 to
/// 1.6e-4 s on the body systems (contact and bonds keep the controller's steps short: the gas, the
/// two tori) and below 1e-5 s on one body.
double reference_work(const Problem& p, const Ladder& L) {
  constexpr double kBodySystem = 1.5e-4, kOneBody = 1e-5;
  const double steps = (L.t_end() - L.t0) / p.verification.h0;
  return (p.family->many_bodies() ? kBodySystem : kOneBody) * steps * double(p.bodies.size());
}

/// Longest processing time first (Graham, "Bounds on multiprocessing timing anomalies", SIAM J.
/// Appl. Math. 17, 1969): the items by estimated work, the largest first (ties: the earlier), each
/// to the rank with the least work so far (ties: the lower rank). Within 4/3 of the best split.
std::vector<int> longest_first(const std::vector<double>& work, int ranks) {
  std::vector<std::size_t> order(work.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  std::vector<double> load(std::size_t(std::max(1, ranks)), 0.0);
  std::vector<int> owner(work.size(), 0);
  for (const std::size_t i : order) {
    const auto least = std::min_element(load.begin(), load.end());
    owner[i] = int(least - load.begin());
    *least += work[i];
  }
  return owner;
}

/// This rank's share of the whole sweep (all pairs planned on every rank alike): the references
/// and the pairs as items of one longest-first split, so that the costliest references start first
/// on different ranks and the pairs fill the ranks around them. Keeps this rank's pairs (and their
/// positions in the sweep) and returns each grid's role here; `sent` marks the grids computed here
/// that another rank's pairs need.
std::vector<GridRole> share_among_ranks(const RankGroup& group, const std::vector<Problem>& problems,
                                        std::int64_t long_time_steps, SuiteResult& out, std::vector<Pair>& pairs,
                                        const std::vector<std::pair<std::size_t, Ladder>>& grids, std::vector<bool>& sent) {
  std::vector<double> work;
  for (const auto& [pi, L] : grids) work.push_back(reference_work(problems[pi], L));
  for (const Pair& pr : pairs) work.push_back(pair_work(pr, problems[pr.problem], long_time_steps));
  const std::vector<int> owner = longest_first(work, group.size);
  std::vector<GridRole> roles(grids.size(), GridRole::none);
  sent.assign(grids.size(), false);
  for (std::size_t g = 0; g < grids.size(); ++g)
    if (owner[g] == group.rank) roles[g] = GridRole::compute;
  std::vector<Pair> mine;
  std::vector<std::size_t> ordinals;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const bool here = owner[grids.size() + i] == group.rank, needs = pairs[i].skip.empty();
    if (needs && !here && owner[pairs[i].ref] == group.rank) sent[pairs[i].ref] = true;
    if (!here) continue;
    if (needs && roles[pairs[i].ref] == GridRole::none) roles[pairs[i].ref] = GridRole::import;
    mine.push_back(std::move(pairs[i]));
    ordinals.push_back(out.ordinals[i]);
  }
  pairs = std::move(mine);
  out.ordinals = std::move(ordinals);
  return roles;
}

/// The run's memory at its worst (memory.hpp): every reference grid, and every pair's level runs held
/// at once.
MemoryEstimate estimate_memory(const std::vector<Pair>& pairs, const std::vector<std::pair<std::size_t, Ladder>>& grids,
                               const std::vector<GridRole>& roles, const std::vector<Problem>& problems) {
  MemoryEstimate e;
  for (std::size_t g = 0; g < grids.size(); ++g)
    if (roles.empty() || roles[g] != GridRole::none) e.references += reference_grid_bytes(problems[grids[g].first], grids[g].second.m);
  for (const Pair& pr : pairs)
    if (pr.skip.empty()) e.levels += double(pr.ladder.levels) * level_run_bytes(problems[pr.problem], pr.ladder.m);
  double fixed = 0;
  for (const Problem& p : problems) fixed = std::max(fixed, fixed_bytes(p));
  e.fixed = fixed;
  return e;
}

/// The order of the pairs' levels: by the finest level's steps times bodies (the total is about twice
/// that), the largest first (ties: suite order).
std::vector<std::size_t> pair_ranks(const std::vector<Pair>& pairs, const std::vector<Problem>& problems) {
  std::vector<std::size_t> rank(pairs.size());
  std::vector<std::pair<double, std::size_t>> weight;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const Ladder& L = pairs[i].ladder;
    const double bodies = double(problems[pairs[i].problem].bodies.size());
    weight.emplace_back(pairs[i].skip.empty() ? -double(L.steps(L.levels - 1)) * bodies : 0.0, i);
  }
  std::sort(weight.begin(), weight.end());
  for (std::size_t r = 0; r < weight.size(); ++r) rank[weight[r].second] = r;
  return rank;
}

/// The work units of a suite (docs/scaling.md, "Work units"): the units of every reference
/// (ReferenceJob) and then its finish; one unit per level of every pair (a level needs no reference);
/// a pair's assessment once its levels and its reference are done. Each unit writes only its own slot
/// and the combinations are in a fixed order, so the report is the same on any number of workers.
/// Priorities: finishing first (it frees a pair's runs), then references (assessments wait on them),
/// then the pairs' levels, the costliest pair first and its finest level first, so that the run does
/// not end on one long unit and few pairs' runs are held at once.
struct SuiteSchedule {
  static constexpr double kFinish = 2e18, kReference = 1e18;
  const SuiteRequest& req;
  SuiteResult& out;
  const std::vector<Pair>& pairs;
  std::int64_t long_time_steps;
  TaskGraph graph;
  /// Under ranks, what waits for the references received from other ranks (exchange_references):
  /// the assessments of the pairs that need them, run after `graph`.
  TaskGraph later;
  std::vector<GridRole> roles;  // empty: every grid computed here
  std::vector<std::unique_ptr<ReferenceJob>> ref_jobs;
  std::vector<TaskGraph::Id> ref_ready;
  std::vector<std::vector<LevelRun>> runs;
  std::vector<LongTimeEnergy> long_time;
  std::size_t done = 0, to_run = 0, skipped = 0, cached = 0;  // done: under `io`
  std::mutex io;

  SuiteSchedule(const SuiteRequest& r, SuiteResult& o, const std::vector<Pair>& p, std::int64_t lt)
      : req(r), out(o), pairs(p), long_time_steps(lt), runs(p.size()), long_time(lt > 0 ? p.size() : 0) {
    out.results.resize(pairs.size());
  }

  /// Whether pair i's reference comes from another rank.
  bool imported(std::size_t i) const { return !roles.empty() && roles[pairs[i].ref] == GridRole::import; }

  void add_references(const std::vector<std::pair<std::size_t, Ladder>>& grids) {
    ref_jobs.resize(grids.size());
    ref_ready.resize(grids.size());
    out.references.resize(grids.size());
    for (std::size_t g = 0; g < grids.size(); ++g) {
      if (!roles.empty() && roles[g] != GridRole::compute) continue;
      const auto& [pi, L] = grids[g];
      ref_jobs[g] = std::make_unique<ReferenceJob>(out.problems[pi], L.obs_times(), req.reference);
      cached += ref_jobs[g]->units() == 0;
      std::vector<TaskGraph::Id> units;
      for (std::size_t u = 0; u < ref_jobs[g]->units(); ++u)
        units.push_back(graph.add([this, g, u] { ref_jobs[g]->run_unit(u); }, {}, kReference));
      ref_ready[g] = graph.add(
          [this, g] {
            out.references[g] = std::make_unique<ReferenceSolution>(ref_jobs[g]->finish());
            ref_jobs[g].reset();
          },
          units, kFinish);
    }
  }

  /// Progress of one level that runs long: after req.long_level_after seconds, a line every
  /// req.long_level_every seconds with the fraction done and the time left at the rate so far, marked
  /// as a warning when that is more than req.long_level_warn; a level estimated at more than that in all
  /// is announced once as soon as a rate is known (one second in) - so that a first-order ladder of millions of
  /// steps is announced within seconds of its start, not after it (docs/scaling.md, "Progress").
  LevelProgress level_watch(const Pair& pr, const Problem& p, int k) {
    const auto start = std::chrono::steady_clock::now();
    return [this, &pr, &p, k, start, last = -1e300, warned = false](std::int64_t done, std::int64_t total) mutable {
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (done <= 0 || done >= total) return;
      // The warning comes as soon as a rate is known (one second in), before the regular lines start.
      if (!warned && t >= std::min(1.0, req.long_level_after) && t * double(total) / double(done) > req.long_level_warn) {
        warned = true;
        std::lock_guard lock(io);
        std::fprintf(stderr, "      warning: long level: %s on %s, level %d of %d (h = %s, %lld steps) is estimated at %s in all\n",
                     std::string(pr.scheme->info->name).c_str(), p.name.c_str(), k + 1, pr.ladder.levels,
                     format_number(pr.ladder.h(k), 4).c_str(), static_cast<long long>(total),
                     duration_text(t * double(total) / double(done)).c_str());
      }
      if (t < req.long_level_after || t - last < req.long_level_every) return;
      last = t;
      const double f = double(done) / double(total), left = t * (1 - f) / f;
      std::lock_guard lock(io);
      std::fprintf(stderr, "      %s%s on %s, level %d of %d (h = %s, %lld steps): %.0f%% after %.0f s, about %s left\n",
                   left > req.long_level_warn ? "warning: long level: " : "", std::string(pr.scheme->info->name).c_str(),
                   p.name.c_str(), k + 1, pr.ladder.levels, format_number(pr.ladder.h(k), 4).c_str(),
                   static_cast<long long>(total), std::floor(100 * f), t, duration_text(left).c_str());
    };
  }

  /// Level k of a pair's ladder, with its progress lines.
  LevelRun level(const Pair& pr, const Problem& p, int k) {
    auto integ = pr.scheme->make(p);
    const LevelProgress watch = level_watch(pr, p, k);
    // A program's level is one exchange: its states are observed after its whole run, so a rate taken
    // at the first observation would put the whole level's time on its first steps (332 h estimated for
    // a 5-minute level). Its levels have no progress lines.
    const bool replayed = pr.scheme->origin == SchemeOrigin::program;
    return run_level(*integ, p, pr.ladder, k, req.progress && !replayed ? &watch : nullptr);
  }

  /// Pair i's levels, long-time run and assessment (a skipped pair is recorded at once).
  void add_pair(std::size_t i, std::size_t rank) {
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
      return;
    }
    ++to_run;
    if (pr.scheme->info->adaptive) {
      // The whole tolerance ladder is one unit: its levels together cost about one fixed-step level.
      (imported(i) ? later : graph).add(
          [&, i] {
            const Pair& q = pairs[i];
            ToleranceLadder T = req.tolerance_ladder;
            if (req.measure_cost) T.repetitions = std::max(T.repetitions, kTimingRepetitions);
            out.results[i] = assess_adaptive_pair(out.problems[q.problem], *q.scheme, q.ladder, *out.references[q.ref], T);
            report_done(out.results[i]);
          },
          imported(i) ? std::vector<TaskGraph::Id>{} : std::vector<TaskGraph::Id>{ref_ready[pr.ref]}, kFinish);
      return;
    }
    const double base = double(pairs.size() - rank) * 64;  // levels <= 24 (make_ladder)
    // A fixed ladder's levels, and a sequential one's first kMinDecidingLevels, are independent units
    // that need no reference; a sequential ladder's further levels are a chain, each unit first
    // deciding from the levels before it (and the reference) whether to run (docs/scaling.md, "Work
    // units"). Under ranks, a chain whose reference comes from another rank runs once it has come.
    const int independent = pr.ladder.sequential ? std::min(pr.ladder.levels, kMinDecidingLevels) : pr.ladder.levels;
    runs[i].resize(std::size_t(independent));
    std::vector<TaskGraph::Id> after;  // in `graph`: what the assessment waits for
    for (int k = 0; k < independent; ++k)
      after.push_back(graph.add([this, &pr, &p, i, k] { runs[i][std::size_t(k)] = level(pr, p, k); }, {}, base + k));
    if (!imported(i)) after.push_back(ref_ready[pr.ref]);
    std::vector<TaskGraph::Id> chained = imported(i) ? std::vector<TaskGraph::Id>{} : after;
    for (int k = independent; k < pr.ladder.levels; ++k)
      chained = {(imported(i) ? later : graph)
                     .add(
                         [this, &pr, &p, i, k] {
                           if (runs[i].size() != std::size_t(k) ||
                               !ladder_decision(p, *pr.scheme, pr.ladder, runs[i], *out.references[pr.ref]).empty())
                             return;  // decided before this level
                           runs[i].push_back(level(pr, p, k));
                         },
                         chained, base + k)};
    if (!imported(i) && independent < pr.ladder.levels) after = chained;
    if (long_time_steps > 0)
      after.push_back(graph.add(
          [this, &pr, &p, i] {
            long_time[i] = long_time_energy(p, *pr.scheme, pr.ladder.h(std::min(1, pr.ladder.levels - 1)), long_time_steps);
          },
          {}, base + pr.ladder.levels));
    // A reference from another rank: the first levels run here now, the chain and the assessment once
    // it has come.
    (imported(i) ? later : graph).add(
        [&, i] {
          const Pair& q = pairs[i];
          out.results[i] = assess_pair(out.problems[q.problem], *q.scheme, q.ladder, std::move(runs[i]),
                                       *out.references[q.ref]);
          runs[i] = {};
          if (long_time_steps > 0) out.results[i].long_time = std::move(long_time[i]);
          report_done(out.results[i]);
        },
        imported(i) ? chained : after, kFinish);
  }

  /// The progress line of a pair assessed.
  void report_done(const PairResult& res) {
    if (!req.progress || cancel_requested()) return;  // an interrupted pair's "breakdown" is no result
    std::lock_guard lock(io);
    std::fprintf(stderr, "[%zu/%zu] %-18s %-14s %-9s %s(%.1f s)\n", ++done, to_run, res.integrator.c_str(),
                 res.problem.c_str(), res.status.c_str(), res.failed() ? "VERDICT FAILED " : "", res.seconds);
  }
};

/// Hands the references computed here to the ranks whose pairs need them and takes theirs, on every
/// rank once whatever happened before (RankGroup::all_gather is collective): a rank's message is
/// its failure - then every rank raises it, as that kind of error, and they all stop together - or
/// the encoded references it sends (reference/cache.hpp: the cache's entry format, with the time it
/// took and whether it came from the cache, so that the report says what a single process would).
/// Returns how long each rank's part before the exchange took (`seconds` is this rank's): how even
/// the longest-first split came out.
std::vector<double> exchange_references(const RankGroup& group, const std::exception_ptr& failed, double seconds,
                                        const SuiteRequest& req, const std::vector<std::pair<std::size_t, Ladder>>& grids,
                                        const std::vector<bool>& sent, SuiteResult& out, const std::vector<GridRole>& roles) {
  const auto key = [&](std::size_t g) {
    return reference_key(out.problems[grids[g].first], grids[g].second.obs_times(), req.reference);
  };
  std::string message;
  if (failed) {
    try {
      std::rethrow_exception(failed);
    } catch (const InputError& e) {
      message = cat("Ei", e.what());
    } catch (const IoError& e) {
      message = cat("Eo", e.what());
    } catch (const std::exception& e) {
      message = cat("Ex", e.what());
    }
  } else {
    message = cat("R", format_number(seconds, 17), "\n");
    for (std::size_t g = 0; g < grids.size(); ++g) {
      if (!sent[g]) continue;
      const ReferenceSolution& r = *out.references[g];
      const std::string entry = encode_reference(
          key(g), r, {{"seconds", r.seconds}, {"from_cache", r.from_cache}, {"cache_key", r.cache_key}});
      message += cat(std::to_string(g), " ", std::to_string(entry.size()), "\n", entry);
    }
  }
  const std::vector<std::string> parts = group.all_gather(message);
  if (failed) std::rethrow_exception(failed);
  for (const std::string& m : parts)
    if (!m.empty() && m[0] == 'E') {
      const std::string what = m.substr(2);
      if (m[1] == 'i') throw InputError(what);
      if (m[1] == 'o') throw IoError(what);
      throw std::runtime_error(what);
    }
  std::vector<double> shares;
  for (const std::string& m : parts)
    for (std::size_t at = m.find('\n') + 1; at < m.size();) {
      const std::size_t eol = m.find('\n', at);
      std::size_t g = 0, n = 0;
      if (eol == std::string::npos || std::sscanf(m.c_str() + at, "%zu %zu", &g, &n) != 2 || g >= grids.size() ||
          eol + 1 + n > m.size())
        throw std::runtime_error("verify: a rank's references arrived garbled");
      const std::string_view entry(m.data() + eol + 1, n);
      at = eol + 1 + n;
      if (roles[g] != GridRole::import) continue;
      auto r = std::make_unique<ReferenceSolution>();
      nlohmann::json extra;
      if (!decode_reference(entry, key(g), out.problems[grids[g].first].bodies.size(), *r, &extra))
        throw std::runtime_error("verify: a rank's reference is not the one this rank planned");
      r->times = grids[g].second.obs_times();
      r->seconds = extra.at("seconds").get<double>();
      r->from_cache = extra.at("from_cache").get<bool>();
      r->cache_key = extra.at("cache_key").get<std::string>();
      out.references[g] = std::move(r);
    }
  for (std::size_t g = 0; g < grids.size(); ++g)
    if (roles[g] == GridRole::import && !out.references[g])
      throw std::runtime_error("verify: a reference this rank needs came from no rank");
  for (const std::string& m : parts) shares.push_back(std::atof(m.c_str() + 1));
  return shares;
}

/// Cost: measured serially after the parallel phase so that runs do not compete for cores.
void measure_costs(const SuiteRequest& req, const std::vector<Pair>& pairs, SuiteResult& out) {
  if (req.measure_cost) {
    const SchemeEntry& base = baseline_scheme();
    const SchemeEntry& rk4 = rk4_baseline_scheme();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (!pairs[i].skip.empty() || pairs[i].scheme->info->adaptive) continue;  // adaptive: per unit time, in its ladder
      const Problem& p = out.problems[pairs[i].problem];
      const double h = pairs[i].ladder.h(std::min(2, pairs[i].ladder.levels - 1));
      out.results[i].cost = measure_cost(p, *pairs[i].scheme, h);
      const CostResult b = measure_cost(p, base, h);
      out.results[i].cost.ratio_to_baseline = out.results[i].cost.ns_per_step / b.ns_per_step;
      out.results[i].cost.ratio_to_rk4 = out.results[i].cost.ns_per_step / measure_cost(p, rk4, h).ns_per_step;
    }
  } else {
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (!pairs[i].scheme->info->adaptive) out.results[i].cost.source = req.no_cost_reason;
  }
}

}  // namespace

void require_verified(const SuiteResult& s, const std::string& where) {
  if (!std::all_of(s.results.begin(), s.results.end(), [](const PairResult& r) { return r.status == "skipped"; })) return;
  std::string why;
  for (const PairResult& r : s.results)
    if (why.find(r.reason) == std::string::npos) why += cat(why.empty() ? "" : "; ", r.reason);
  throw InputError(cat("nothing verified: none of the ", std::to_string(s.results.size()), " selected pair(s) applies (",
                       where.empty() ? why : where, "); no report written"));
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
  out.jobs = req.jobs > 0 ? req.jobs : parallel::cores();
  out.problems = suite_problems(req, full);
  const std::int64_t long_time_steps = req.long_time_steps >= 0 ? req.long_time_steps : full ? 100000 : 0;
  const std::vector<SchemeEntry> configured =
      req.schemes.empty() ? configure_schemes(select_schemes(req.integrators), req.scheme_settings) : req.schemes;
  std::vector<const SchemeEntry*> schemes;
  for (const SchemeEntry& e : configured) schemes.push_back(&e);
  require_distinct_names(out.problems, schemes);
  for (const SchemeEntry* e : schemes) require_ladder_tolerances(*e);  // before any reference is computed
  // A tolerance ladder asked for with no adaptive scheme to run it would be ignored without a word.
  if (req.tolerance_ladder_given &&
      std::none_of(schemes.begin(), schemes.end(), [](const SchemeEntry* e) { return e->info->adaptive; }))
    throw InputError("a tolerance ladder (--tol0, --tol-levels; Python's tol0, tol_levels) is run by adaptive schemes, "
                     "and none of the selected schemes is adaptive (docs/adaptive.md)");

  std::vector<Pair> pairs;
  std::vector<std::pair<std::size_t, Ladder>> grids;
  // Under ranks every rank plans the whole sweep alike, then keeps its share of it.
  plan_pairs(req, req.ranks ? Shard{} : req.shard, schemes, out, pairs, grids);
  std::vector<GridRole> roles;
  std::vector<bool> sent;
  if (req.ranks) roles = share_among_ranks(*req.ranks, out.problems, long_time_steps, out, pairs, grids, sent);
  const MemoryEstimate memory = estimate_memory(pairs, grids, roles, out.problems);
  require_memory(memory, "verify");  // before any reference is read or computed
  SuiteSchedule sched(req, out, pairs, long_time_steps);
  sched.roles = roles;
  sched.add_references(grids);
  const std::vector<std::size_t> rank = pair_ranks(pairs, out.problems);
  for (std::size_t i = 0; i < pairs.size(); ++i) sched.add_pair(i, rank[i]);
  if (req.progress) {
    std::size_t here = grids.size(), received = 0;
    if (req.ranks) {
      here = std::size_t(std::count(roles.begin(), roles.end(), GridRole::compute));
      received = std::size_t(std::count(roles.begin(), roles.end(), GridRole::import));
    }
    const std::string share =
        req.ranks ? cat("rank ", std::to_string(req.ranks->rank), " of ", std::to_string(req.ranks->size), ": ") : "";
    const std::string from_ranks = req.ranks ? cat(", ", std::to_string(received), " from other ranks") : "";
    std::fprintf(stderr,
                 "verify: %s%zu pair(s) to run (%zu not applicable), %zu reference grid(s) (%zu from the cache%s); "
                 "%zu work unit(s) on %d worker(s); memory at most ~%s\n",
                 share.c_str(), sched.to_run, sched.skipped, here, sched.cached, from_ranks.c_str(), sched.graph.size(),
                 out.jobs, format_bytes(memory.total()).c_str());
  }
  if (!req.ranks) {
    sched.graph.run(out.jobs);
  } else {
    std::exception_ptr failed;
    try {
      sched.graph.run(out.jobs);
    } catch (...) {
      failed = std::current_exception();
    }
    const double part = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::vector<double> shares = exchange_references(*req.ranks, failed, part, req, grids, sent, out, roles);
    if (req.progress) {
      std::string list;
      for (double x : shares) list += cat(list.empty() ? "" : ", ", format_number(x < 10 ? x : std::round(x), x < 10 ? 2 : 6), " s");
      std::fprintf(stderr, "verify: the ranks' shares took %s before the references were exchanged\n", list.c_str());
    }
    sched.later.run(out.jobs);
  }
  measure_costs(req, pairs, out);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace rigidbench
