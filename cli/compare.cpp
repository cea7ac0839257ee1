// `rigidbench compare`: head-to-head tables per problem, Markdown and JSON (docs/report-format.md).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "../core/json_input.hpp"
#include "../tracking/compare.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

Command add_compare(CLI::App& app, const std::vector<std::string>& argv) {
  struct Options {
    SchemeOptions schemes;
    ProblemOptions problems;
    std::vector<std::string> reports;
    std::string bench, out;
    CompareOptions copt;
    double h = NAN;
    bool quiet = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("compare", "Head-to-head tables per problem (order, Q_II, invariants, error, "
                                           "cost per step, cost to a target accuracy), Markdown and JSON");
  sc->add_option("--in,--report", o->reports,
                 "Verify or score reports (JSON; repeatable: their pairs side by side); without it the quick suite is "
                 "run first (--report: its earlier name)");
  sc->add_option("--bench", o->bench, "A bench report (JSON): CPU time and instructions per step");
  o->problems.add_to(sc, Use::filter, false, false, "without --in, the problems the suite runs");
  o->schemes.add_to(sc, Use::run, "only without --in, when the suite runs", false);
  sc->add_option("--metric", o->copt.metric, "Error metric (default attitude_error_final)");
  sc->add_option("--target", o->copt.target, "Target error for the cost-to-accuracy ranking (default 1e-6)");
  auto* h = sc->add_option("--h", o->h, "Fixed h for the error column (default: the problem's h0 / 4)");
  sc->add_option("--out", o->out, "File (.md or .json) or folder (compare.md and compare.json); default stdout");
  sc->add_flag("--quiet", o->quiet, "No progress on stderr");
  return {sc, [o, h, argv] {
            CompareOptions copt = o->copt;
            if (h->count()) copt.h = o->h;
            copt.problems = o->problems.problems;
            std::string md_path, json_path;
            if (!o->out.empty()) {
              const auto ext = std::filesystem::path(o->out).extension();
              if (ext == ".md") md_path = o->out;
              else if (ext == ".json") json_path = o->out;
              else {
                std::filesystem::create_directories(o->out);
                md_path = (std::filesystem::path(o->out) / "compare.md").string();
                json_path = (std::filesystem::path(o->out) / "compare.json").string();
              }
              require_out_folder(md_path.empty() ? json_path : md_path);
            }
            nlohmann::json bench_json;
            std::optional<VerifyReport> verify;
            if (!o->reports.empty()) {
              if (!o->schemes.integrators.empty())
                throw InputError("compare: --integrator selects schemes to run; with --report it does not apply");
              std::vector<nlohmann::json> reps;
              for (const std::string& r : o->reports) reps.push_back(read_json_input(r, "the verify report"));
              verify = merge_verify_reports(reps, o->reports);
            } else {
              SuiteRequest sr;
              if (!o->schemes.integrators.empty()) sr.integrators = o->schemes.integrators;
              sr.problems = o->problems.problems;
              sr.progress = !o->quiet;
              const std::string started = iso8601_now();
              verify = VerifyReport::of(run_suite(sr), {}, started);
            }
            std::optional<BenchReport> bench;
            if (!o->bench.empty()) {
              bench_json = read_json_input(o->bench, "the bench report");
              if (!bench_json.is_object() || !bench_json.contains("results") || bench_json.value("kind", "") != "bench")
                throw InputError("compare: the --bench input is not a rigidbench bench report (kind \"bench\")");
              bench = BenchReport::read(bench_json, "compare: the --bench report");
            }
            nlohmann::ordered_json c = compare_reports(*verify, bench ? &*bench : nullptr, copt);
            c["command"] = argv;
            const std::string md = compare_markdown(c);
            if (!json_path.empty()) write_atomic(json_path, c.dump(1) + "\n");
            if (!md_path.empty()) write_atomic(md_path, md);
            if (o->out.empty()) std::cout << md;
            else std::printf("compare: %s%s%s\n", md_path.c_str(), md_path.empty() || json_path.empty() ? "" : ", ",
                             json_path.c_str());
            return kOk;
          }};
}

}  // namespace rigidbench::cli
