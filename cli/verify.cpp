// `rigidbench verify`: the quick suite (or a selection of pairs) or the paper suite, with its report.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "rigidbench/cli/commands.hpp"
#include "rigidbench/reports/report.hpp"
#include "rigidbench/verification/expectations.hpp"
#include "rigidbench/verification/paper_suite.hpp"

namespace rigidbench::cli {

Command add_verify(CLI::App& app, const std::vector<std::string>& argv) {
  struct Options {
    SuiteRequest req;
    std::vector<std::string> integrators, problems, sets;
    double h = NAN, t_end = NAN, reference_tol = NAN;
    int levels = 0;
    bool quiet = false, no_cache = false;
    std::string reference, reference_precision = "double", cache_dir, out, expect, shard;
    HistoryOptions history;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("verify", "Convergence, Q_II, invariants and errors against the reference");
  sc->add_option("--suite", o->req.suite, "Suite: quick (default) or paper");
  sc->add_option("--integrator", o->integrators, "Names, globs or 'all' (default all)");
  sc->add_option("--set", o->sets,
                 "Scheme setting name=value (every selected scheme declaring it) or scheme.name=value; repeatable. "
                 "`list` shows each scheme's settings");
  sc->add_option("--problem", o->problems, "Catalogue problems (default: the suite's)");
  sc->add_option("--problem-file", o->req.problem_file, "A problem file instead of catalogue problems");
  auto* h = sc->add_option("--h", o->h, "Coarsest step h0 of the ladder h0 2^-k (default: the problem's)");
  auto* levels = sc->add_option("--levels", o->levels, "Number of ladder levels (default: the problem's)");
  auto* tend = sc->add_option("--t-end", o->t_end, "Final time (default: the problem's)");
  sc->add_option("--jobs", o->req.jobs, "Worker threads for the work units (default: all cores; docs/scaling.md)");
  sc->add_option("--reference", o->reference,
                 "Reference formulation: kirchhoff, newton_euler, euler_angles, analytic (default: analytic where "
                 "it applies, else kirchhoff)");
  sc->add_option("--reference-precision", o->reference_precision, "double (default) or quad: references beyond double precision");
  auto* tol = sc->add_option("--reference-tol", o->reference_tol, "Reference tolerance (default 1e-13; 1e-25 in quad)");
  sc->add_option("--cache-dir", o->cache_dir, "Reference cache folder (default $RIGIDBENCH_CACHE_DIR or ~/.cache/rigidbench)");
  sc->add_flag("--no-cache", o->no_cache, "Neither read nor write the reference cache");
  sc->add_option("--out", o->out, "Report file (.json) or folder (report.json inside)");
  sc->add_option("--expect", o->expect,
                 "Expected findings (JSON, docs/gate.md): listed failures do not fail the run; a listed check that "
                 "passes, or a failure not listed, does");
  sc->add_option("--shard", o->shard,
                 "Run shard k/N of the pairs (a CI matrix; `rigidbench merge` joins the N reports; docs/gate.md)");
  o->history.add_to(sc);
  sc->add_flag("--quiet", o->quiet, "No progress on stderr");
  return {sc, [o, h, tend, levels, tol, argv] {
            SuiteRequest& req = o->req;
            const std::string report_path = o->out.empty() ? std::string() : report_file_for(o->out);
            if (!o->shard.empty()) req.shard = parse_shard(o->shard);
            Expectations expect;
            if (!o->expect.empty()) expect = load_expectations(o->expect);
            req.reference = reference_settings(o->reference, o->reference_precision, o->reference_tol, tol->count() > 0,
                                               o->cache_dir, o->no_cache);
            if (!o->integrators.empty()) req.integrators = o->integrators;
            req.scheme_settings = o->sets;
            req.problems = o->problems;
            if (h->count()) req.ladder.h0 = o->h;
            if (levels->count()) req.ladder.levels = o->levels;
            if (tend->count()) req.t_end = o->t_end;
            req.progress = !o->quiet;
            if (req.suite == "paper" && (o->history.record || !o->history.path.empty()))
              throw InputError("--history records the quick suite or a selection of pairs, not the paper suite's items");
            const std::unique_ptr<HistoryDb> history = o->history.open();
            const std::string started = iso8601_now();
            if (req.suite == "paper") {
              if (!o->shard.empty()) throw InputError("--shard applies to the quick suite's pairs, not to the paper suite");
              if (!o->expect.empty())
                throw InputError("--expect applies to the quick suite's checks; the paper suite's items carry their findings");
              if (!o->integrators.empty() || !o->problems.empty() || !req.problem_file.empty() || h->count() ||
                  levels->count() || tend->count() || !o->sets.empty())
                throw InputError("the paper suite runs the papers' own settings: --integrator, --problem, --problem-file, "
                                 "--h, --levels, --t-end and --set do not apply");
              const PaperSuiteResult ps = run_paper_suite(!o->quiet);
              std::printf("%-6s %-26s %-18s %-10s %s\n", "paper", "integrator", "problem", "verdict", "finding");
              for (const auto& i : ps.items)
                std::printf("%-6s %-26s %-18s %-10s %s\n", i.paper.c_str(), i.integrator.c_str(), i.problem.c_str(),
                            to_string(i.verdict), i.finding.c_str());
              if (!report_path.empty()) {
                write_report(report_path, paper_report(ps, argv, started).dump(1) + "\n");
                std::printf("report: %s\n", report_path.c_str());
              }
              return ps.any_failed() ? kVerdictFailed : kOk;
            }
            const SuiteResult s = run_suite(req);
            print_summary(s);
            nlohmann::ordered_json report = suite_report(s, argv, started);
            bool failed = s.any_failed();
            if (!o->expect.empty()) {
              const ExpectationReport e = apply_expectations(s, expect);
              print_expectations(e, expect.origin);
              add_expectations(report, e, expect.origin);
              failed = !e.ok();
            }
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
          }};
}

}  // namespace rigidbench::cli
