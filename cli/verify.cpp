// `rigidbench verify`: the quick suite (or a selection of pairs) or the paper suite, with its report.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "commands.hpp"
#include "ranks.hpp"
#include "../core/atomic_file.hpp"
#include "../problems/problem_file.hpp"
#include "../problems/random_family.hpp"
#include "../tracking/merge.hpp"
#include "../reports/report.hpp"
#include "../reports/verify_report.hpp"
#include "../verification/random_study.hpp"
#include "../verification/expectations.hpp"
#include "../verification/paper_suite.hpp"

namespace rigidbench::cli {

namespace {

/// What the options of `verify` fill (CLI11), before they become a request.
struct VerifyOptions {
  SuiteRequest req;
  SchemeOptions schemes;
  ProblemOptions problems;
  LadderOptions ladder;
  ToleranceOptions tolerance;
  ReferenceCliOptions reference;
  bool quiet = false;
  std::string out, expect, shard;
  HistoryOptions history;
  RandomFamilyRequest random;
  std::uint64_t seed = 0;
  // The options whose presence matters (CLI11's count()).
  CLI::Option *random_given = nullptr, *seed_given = nullptr, *family_given = nullptr, *energy_given = nullptr,
              *loaded_given = nullptr;
};

/// The request of one `verify` run, whichever mode it is (the paper suite, a suite or selection of
/// pairs, a random study, MPI ranks): the suite request, and what becomes of the result - the report
/// file, the expected findings, the history it is recorded in.
struct VerifyRun {
  SuiteRequest req;
  std::vector<std::string> argv;
  std::string started, report_path;
  bool quiet = false;
  std::optional<Expectations> expect;
  std::unique_ptr<HistoryDb> history;
  std::optional<RandomFamilyRequest> random;

  /// The report written, the run recorded, the exit code.
  int finish(const nlohmann::ordered_json& report, bool failed) const {
    if (!report_path.empty()) {
      write_report(report_path, report.dump(1) + "\n");
      std::printf("report: %s\n", report_path.c_str());
    }
    if (history) {
      HistoryRun run;
      run.command = "verify";
      run.outcome = failed ? "fail" : "pass";
      run.verify = nlohmann::json::parse(report.dump());
      record_run(history.get(), run);
    }
    return failed ? kVerdictFailed : kOk;
  }
};

/// The paper suite: the papers' own settings, its table and report.
int run_paper(const VerifyRun& v) {
  const std::string& report_path = v.report_path;
  const PaperSuiteResult ps = run_paper_suite(!v.quiet);
  std::printf("%-6s %-26s %-18s %-10s %s\n", "paper", "integrator", "problem", "verdict", "finding");
  for (const auto& i : ps.items)
    std::printf("%-6s %-26s %-18s %-10s %s\n", i.paper.c_str(), i.integrator.c_str(), i.problem.c_str(),
                to_string(i.verdict), i.finding.c_str());
  if (!report_path.empty()) {
    write_report(report_path, paper_report(ps, v.argv, v.started).dump(1) + "\n");
    std::printf("report: %s\n", report_path.c_str());
  }
  return ps.any_failed() ? kVerdictFailed : kOk;
}

/// N ranks (mpirun/srun): the ranks split the sweep longest first, references included, and hand
/// each other the references (RankGroup); rank 0 merges and writes (docs/scaling.md).
int run_distributed(VerifyRun& v) {
  SuiteRequest& req = v.req;
  req.progress = req.progress && ranks().root();
  const auto parts = gather_parts([&](const Shard& shard) {
    SuiteRequest mine = req;
    mine.shard = shard;  // what the rank's report says, for merge; the share itself is longest first
    mine.ranks = RankGroup{ranks().rank, ranks().size, all_gather_bytes};
    return suite_report(run_suite(mine), v.argv, v.started);
  });
  if (!parts) return kOk;  // rank 0 writes; every rank exits with its code
  std::vector<std::string> names;
  for (int r = 0; r < ranks().size; ++r) names.push_back(cat("rank ", std::to_string(r)));
  const nlohmann::ordered_json merged = merge_shard_reports(*parts, names, ShardKeys::planned);
  const auto& sum = merged.at("summary");
  std::printf("verify: %d MPI ranks, %zu pairs (%zu ok, %zu skipped, %zu breakdown), %zu with a failed verdict\n",
              ranks().size, sum.at("pairs").get<std::size_t>(), sum.at("ok").get<std::size_t>(),
              sum.at("skipped").get<std::size_t>(), sum.at("breakdown").get<std::size_t>(),
              sum.at("failed_verdicts").get<std::size_t>());
  return v.finish(merged, sum.at("failed_verdicts").get<std::size_t>() > 0);
}

/// A suite, a selection of pairs or a random study in this process.
int run_local(VerifyRun& v) {
  const SuiteRequest& req = v.req;
  const bool is_random = v.random.has_value();
  const std::string& report_path = v.report_path;
  const SuiteResult s = run_suite(req);
  if (!is_random) print_summary(s);
  // A shard may be empty, and a random study reports its skips.
  if (!is_random && req.shard.all()) require_verified(s, "the reasons are above");
  VerifyReport report = VerifyReport::of(s, v.argv, v.started);
  if (is_random) {
    const RandomStudy study = summarize_random_study(s, *v.random);
    std::map<std::string, std::string> files;
    if (!report_path.empty()) {
      // The worst problem of each scheme, as a problem file that reproduces it alone.
      const std::filesystem::path dir = std::filesystem::path(report_path).parent_path() / "random-worst";
      std::filesystem::create_directories(dir);
      for (const RandomStudy::Scheme& sc : study.schemes) {
        if (sc.worst_problem.empty()) continue;
        const std::filesystem::path file = dir / (sc.integrator + ".json");
        write_atomic(file.string(), problem_to_json(s.problems[sc.worst_problem_index]).dump(2) + "\n");
        files[sc.integrator] = file.string();
      }
    }
    report.random = random_study_json(study, files);
    print_random_study(study);
  }
  bool failed = s.any_failed();
  if (v.expect) {
    const ExpectationReport e = apply_expectations(s, *v.expect);
    print_expectations(e, v.expect->origin);
    report.add(e, v.expect->origin);
    failed = !e.ok();
  }
  return v.finish(report.to_json(), failed);
}

}  // namespace

namespace {

/// The subcommand and its options.
CLI::App* add_verify_options(CLI::App& app, VerifyOptions& o) {
  auto* sc = app.add_subcommand("verify", "Convergence, Q_II, invariants and errors against the reference");
  sc->add_option("--suite", o.req.suite,
                 "Suite: quick (default), paper, or full (every problem with the torus, one level more, twice the span, "
                 "and each pair's long-time energy run)");
  sc->add_option("--long-time-steps", o.req.long_time_steps,
                 "Steps of each pair's long-time energy run (default: 100000 in the full suite, none otherwise)");
  o.schemes.add_to(sc, Use::run);
  o.problems.add_to(sc, Use::run, true, true);
  o.ladder.add_to(sc, "", true);
  o.tolerance.add_to(sc);
  sc->add_option("--jobs", o.req.jobs, "Worker threads for the work units (default: all cores; docs/scaling.md)");
  o.reference.add_to(sc);
  sc->add_option("--out", o.out, "Report file (.json) or folder (report.json inside)");
  sc->add_option("--expect", o.expect,
                 "Expected findings (JSON, docs/gate.md): listed failures do not fail the run; a listed check that "
                 "passes, or a failure not listed, does");
  sc->add_option("--shard", o.shard,
                 "Run shard k/N of the pairs (a CI matrix; `rigidbench merge` joins the N reports; docs/gate.md)");
  o.random_given = sc->add_option("--random", o.random.count,
                                 "Draw N problems of a random family instead of catalogue problems: verdicts become "
                                 "distributions, the worst problem of each scheme is written as a problem file "
                                 "(docs/metrics.md, \"Random families\")");
  o.seed_given = sc->add_option("--seed", o.seed, "Seed of --random (default: drawn, and printed)");
  o.family_given = sc->add_option("--family", o.random.family, "Family of --random (default rigid_body)");
  o.energy_given = sc->add_option("--energy", o.random.energy, "Kinetic energy of every --random draw (default 1)");
  o.loaded_given = sc->add_option("--load-fraction", o.random.load_fraction,
                                "Fraction of --random draws with a uniform-field load (default 0.5)");
  o.history.add_to(sc);
  sc->add_flag("--quiet", o.quiet, "No progress on stderr");
  return sc;
}

}  // namespace

Command add_verify(CLI::App& app, const std::vector<std::string>& argv) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* sc = add_verify_options(app, *o);
  return {sc, [o, argv] {
            VerifyRun v;
            SuiteRequest& req = v.req = o->req;
            v.argv = argv;
            v.quiet = o->quiet;
            v.report_path = o->out.empty() ? std::string() : report_file_for(o->out);
            if (!o->shard.empty()) req.shard = parse_shard(o->shard);
            if (!o->expect.empty()) v.expect = load_expectations(o->expect);
            req.reference = o->reference.settings();
            if (!o->schemes.integrators.empty()) req.integrators = o->schemes.integrators;
            req.scheme_settings = o->schemes.sets;
            req.problems = o->problems.problems;
            req.problem_file = o->problems.problem_file;
            req.t_end = o->problems.t_end;
            req.ladder = o->ladder.ladder;
            req.tolerance_ladder = o->tolerance.ladder();
            req.tolerance_ladder_given = o->tolerance.given();
            req.progress = !o->quiet;
            if (req.suite == "paper" && (o->history.record || !o->history.path.empty()))
              throw InputError("--history records the quick suite or a selection of pairs, not the paper suite's items");
            v.history = o->history.open();
            v.started = iso8601_now();
            if (req.suite == "paper") {
              if (ranks().distributed()) throw InputError("the paper suite runs in one process (not under MPI with several ranks)");
              if (!o->shard.empty()) throw InputError("--shard applies to the quick suite's pairs, not to the paper suite");
              if (!o->expect.empty())
                throw InputError("--expect applies to the quick suite's checks; the paper suite's items carry their findings");
              if (!o->schemes.integrators.empty() || !o->schemes.sets.empty() || o->problems.given() || o->ladder.given())
                throw InputError("the paper suite runs the papers' own settings: --integrator, --problem, --problem-file, "
                                 "--h, --levels, --t-end and --set do not apply");
              return run_paper(v);
            }
            const bool is_random = o->random_given->count() > 0;
            if (!is_random && (o->seed_given->count() || o->family_given->count() || o->energy_given->count() || o->loaded_given->count()))
              throw InputError("--seed, --family, --energy and --load-fraction go with --random N");
            if (is_random) {
              if (!o->problems.problems.empty() || !o->problems.problem_file.empty())
                throw InputError("--random draws its own problems: --problem and --problem-file do not apply");
              if (!o->shard.empty() || !o->expect.empty())
                throw InputError("--random's study is summarised over all its pairs: --shard and --expect do not apply");
              if (!o->seed_given->count()) o->seed = std::random_device{}() | (std::uint64_t(std::random_device{}()) << 32);
              o->random.seed = o->seed;
              if (!o->quiet)
                std::fprintf(stderr, "verify: --random %zu --seed %llu (family %s)\n", o->random.count,
                             static_cast<unsigned long long>(o->seed), o->random.family.c_str());
              req.problem_models = random_problems(o->random);
              v.random = o->random;
            }
            if (ranks().distributed()) {
              if (!o->shard.empty())
                throw InputError("--shard and MPI both split the pairs: under mpirun each rank runs shard rank+1/N");
              if (is_random || !o->expect.empty())
                throw InputError("--random and --expect run in one process (not under MPI with several ranks)");
              return run_distributed(v);
            }
            return run_local(v);
          }};
}

}  // namespace rigidbench::cli
