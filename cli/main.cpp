// rigidbench command line (SPEC.md, Command line). Exit codes: 0 ok, 1 a verdict failed (or a
// numerical breakdown; for `gate`, a regression), 2 bad input, 3 internal error (a bug: please report
// it), 4 (`gate`) the baseline is stale: toolchain changed or results improved - re-bless.
#include <CLI/CLI.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "integrators/registry.hpp"
#include "problems/catalogue.hpp"
#include "problems/problem_file.hpp"
#include "reference/reference.hpp"
#include "benchmarks/bench_suite.hpp"
#include "reports/compare.hpp"
#include "reports/gate.hpp"
#include "reports/report.hpp"
#include "verification/runner.hpp"
#include "verification/suite.hpp"

using namespace rigidbench;
using nlohmann::ordered_json;

namespace {

constexpr int kOk = 0, kVerdictFailed = 1, kBadInput = 2, kInternal = 3;

std::string claims_text(const Claims& c) {
  std::string s;
  for (InvariantKind k : {InvariantKind::energy, InvariantKind::momentum, InvariantKind::casimir, InvariantKind::axial,
                          InvariantKind::constraint, InvariantKind::nonholonomic})
    if (c.of(k) != Claim::none) s += cat(s.empty() ? "" : ", ", to_string(k), ": ", to_string(c.of(k)));
  if (c.energy_with_potential && *c.energy_with_potential != c.energy)
    s += cat(s.empty() ? "" : ", ", "energy with a potential: ", to_string(*c.energy_with_potential));
  return s.empty() ? "none" : s;
}

std::string applies_text(const Applicability& a) {
  std::string s;
  if (a.rigid_body) s += "rigid_body ";
  if (a.body_system) s += "body_system ";
  if (a.non_twisting) s += "non_twisting ";
  if (a.spherical_only) s += "(spherical only) ";
  if (a.torque_free_only) s += "(torque-free only) ";
  if (!s.empty()) s.pop_back();
  return s;
}

ordered_json settings_json(const SchemeInfo& i) {
  ordered_json a = ordered_json::array();
  for (const SettingInfo& si : i.settings)
    a.push_back({{"name", si.name}, {"description", si.description}, {"default", si.default_value}, {"min", si.min},
                 {"max", si.max}, {"integer", si.integer}});
  return a;
}

int cmd_list(bool json) {
  if (json) {
    ordered_json j;
    j["integrators"] = ordered_json::array();
    for (const auto& e : registry()) {
      const SchemeInfo& i = *e.info;
      j["integrators"].push_back({{"name", i.name}, {"title", i.title}, {"source", i.source}, {"order", i.order},
                                  {"kind", to_string(i.kind)}, {"applies", applies_text(i.applies)},
                                  {"claims", claims_text(i.claims)}, {"representation", i.representation},
                                  {"settings", settings_json(i)}});
    }
    j["problems"] = ordered_json::array();
    for (const auto& n : catalogue_names()) {
      const Problem p = catalogue_problem(n);
      ordered_json inv = ordered_json::array();
      for (const auto& d : p.invariants()) inv.push_back(d.name);
      j["problems"].push_back({{"name", p.name}, {"title", p.title}, {"source", p.source},
                               {"family", to_string(p.family)}, {"invariants", inv}});
    }
    j["suites"] = suite_names();
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  std::printf("Integrators (%zu):\n", registry().size());
  for (const auto& e : registry()) {
    const SchemeInfo& i = *e.info;
    std::printf("  %-18s order %d  %-13s %-28s claims: %s\n      %s\n      source: %s\n", std::string(i.name).c_str(),
                i.order, to_string(i.kind), applies_text(i.applies).c_str(), claims_text(i.claims).c_str(),
                std::string(i.title).c_str(), std::string(i.source).c_str());
    for (const SettingInfo& si : i.settings)
      std::printf("      --set %s.%s=%s  (in [%s, %s]%s) %s\n", std::string(i.name).c_str(), std::string(si.name).c_str(),
                  format_number(si.default_value, 6).c_str(), format_number(si.min, 6).c_str(),
                  format_number(si.max, 6).c_str(), si.integer ? ", whole" : "", std::string(si.description).c_str());
  }
  std::printf("\nProblems:\n");
  for (const auto& n : catalogue_names()) {
    const Problem p = catalogue_problem(n);
    std::string inv;
    for (const auto& d : p.invariants()) inv += cat(inv.empty() ? "" : ", ", d.name);
    std::printf("  %-14s %s\n      t in [%g, %g]; invariants: %s\n", p.name.c_str(), p.title.c_str(), p.t0, p.t_end,
                inv.c_str());
  }
  std::printf("\nSuites: quick\n");
  return kOk;
}

void require_out_folder(const std::string& out) {
  const std::filesystem::path p(out);
  const auto dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir)) throw InputError(cat("--out '", out, "': folder '", dir.string(), "' does not exist"));
}

std::string fmt(double x, const char* f = "%.3g") {
  if (!std::isfinite(x)) return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

void print_summary(const SuiteResult& s) {
  std::printf("%-18s %-14s %-9s %-14s %-16s %-22s %-9s %s\n", "integrator", "problem", "status", "slope(att)/p",
              "Q_II(h)/2^p", "exact invariants", "ns/step", "x RK4");
  for (const auto& r : s.results) {
    if (r.status == "skipped") {
      std::printf("%-18s %-14s %-9s %s\n", r.integrator.c_str(), r.problem.c_str(), "skipped", r.reason.c_str());
      continue;
    }
    const auto it = r.convergence.find("attitude_error_final");
    std::string slope = "-";
    if (it != r.convergence.end())
      slope = cat(fmt(it->second.fit.slope, "%.2f"), "/", fmt(it->second.expected, "%.0f"), " ", to_string(it->second.verdict));
    std::string q = "-";
    if (r.q_ii.primary >= 0) {
      const auto& l = r.q_ii.levels[std::size_t(r.q_ii.primary)];
      q = cat(fmt(l.median, "%.3f"), "(", fmt(l.h, "%.2g"), ") ", to_string(l.verdict));
    }
    int ex = 0, ex_pass = 0;
    for (const auto& i : r.invariants)
      if (i.claim == Claim::exact) ex++, ex_pass += i.verdict == Verdict::pass;
    std::printf("%-18s %-14s %-9s %-14s %-16s %-22s %-9s %s%s\n", r.integrator.c_str(), r.problem.c_str(), r.status.c_str(),
                slope.c_str(), q.c_str(), cat(std::to_string(ex_pass), "/", std::to_string(ex), " pass").c_str(),
                fmt(r.cost.ns_per_step, "%.0f").c_str(), fmt(r.cost.ratio_to_baseline, "%.2f").c_str(),
                r.failed() ? "  <- FAILED" : "");
  }
}

/// Reference settings from the command line: formulation, precision (quad: default tolerance 1e-25),
/// the cache folder (default on).
ReferenceSettings reference_settings(const std::string& form, const std::string& prec, double tol, bool tol_given,
                                     const std::string& cache_dir, bool no_cache) {
  ReferenceSettings s;
  if (!form.empty()) {
    s.formulation = formulation_from_string(form);
    if (!s.formulation)
      throw InputError(cat("unknown reference formulation '", form, "' (known: kirchhoff, newton_euler, euler_angles, analytic, hybrid)"));
  }
  if (prec == "quad") s.precision = Precision::quad;
  else if (prec != "double") throw InputError(cat("--precision must be double or quad (got '", prec, "')"));
  s.tolerance = tol_given ? tol : s.precision == Precision::quad ? 1e-25 : 1e-13;
  if (!std::isfinite(s.tolerance) || s.tolerance <= 0 || s.tolerance >= 1)
    throw InputError(cat("--tol must be in (0, 1) (got ", format_number(s.tolerance, 4), ")"));
  if (s.precision == Precision::binary64 && s.tolerance < 1e-15)
    throw InputError(cat("--tol ", format_number(s.tolerance, 4), " is below what double precision can meet; use --precision quad"));
  s.cache_dir = no_cache ? std::string() : cache_dir.empty() ? default_cache_dir() : cache_dir;
  return s;
}

/// `report`: the plots and the HTML page are rendered by reports/render/render_report.py from the
/// JSON files alone (SPEC.md, Reports). Inputs are checked here first so that bad input is exit 2
/// with the file named before Python starts; the renderer itself exits 2 for a report it cannot use.
int run_renderer(const std::vector<std::string>& inputs, const std::string& out_dir, const std::string& formats) {
  for (const auto& f : inputs) {
    const nlohmann::json j = read_json_file(f, "report");
    if (!j.is_object() || !j.contains("schema_version"))
      throw InputError(cat("report: '", f, "' is not a rigidbench report (no schema_version)"));
  }
  for (std::size_t a = 0, b; a <= formats.size(); a = b + 1) {
    b = formats.find(',', a);
    if (b == std::string::npos) b = formats.size();
    const std::string f = formats.substr(a, b - a);
    if (f != "png" && f != "svg" && f != "pdf")
      throw InputError(cat("report: --format '", f, "' is not one of png, svg, pdf"));
  }
  std::filesystem::create_directories(out_dir);
  const char* py_env = std::getenv("RIGIDBENCH_PYTHON");
  const char* script_env = std::getenv("RIGIDBENCH_RENDERER");
  const std::string py = py_env ? py_env : RIGIDBENCH_PYTHON_EXE;
  const std::string script = script_env ? script_env : RIGIDBENCH_RENDERER_SCRIPT;
  if (!std::filesystem::exists(script)) throw InputError(cat("report: the renderer '", script, "' is missing"));
  std::vector<std::string> args{py, script, "--out", out_dir, "--format", formats};
  args.insert(args.end(), inputs.begin(), inputs.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("report: fork failed");
  if (pid == 0) {
    execv(py.c_str(), argv.data());
    std::fprintf(stderr, "rigidbench: error: report: cannot run '%s' (python3 with matplotlib is needed)\n", py.c_str());
    _exit(kBadInput);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("report: waitpid failed");
  }
  if (!WIFEXITED(status)) return kInternal;
  const int rc = WEXITSTATUS(status);
  return rc == 0 ? kOk : rc == kBadInput ? kBadInput : kInternal;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rigidbench: verification and benchmark harness for rigid-body time integrators"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");

  bool list_json = false;
  auto* list = app.add_subcommand("list", "List registered integrators, catalogue problems and suites");
  list->add_flag("--json", list_json, "Machine-readable output");

  std::string export_name, export_out;
  auto* problem = app.add_subcommand("problem", "Problem catalogue tools");
  problem->require_subcommand(1);
  auto* pexport = problem->add_subcommand("export", "Print a catalogue entry as its problem file (JSON)");
  pexport->add_option("NAME", export_name, "Catalogue name")->required();
  pexport->add_option("--out", export_out, "Write to this file instead of stdout");

  std::string integrator, problem_name, problem_file, out;
  double h = 0, t_end = NAN, tol = 1e-13;
  std::int64_t every = 1;
  std::vector<std::string> sets;  // --set of simulate and verify
  auto* sim = app.add_subcommand("simulate", "Run one integrator on one problem and write the trajectory");
  sim->add_option("--integrator", integrator, "Registered integrator name")->required();
  sim->add_option("--problem", problem_name, "Catalogue problem");
  sim->add_option("--problem-file", problem_file, "Problem file (JSON)");
  sim->add_option("--h", h, "Step size")->required();
  auto* sim_tend = sim->add_option("--t-end", t_end, "Final time (default: the problem's)");
  sim->add_option("--every", every, "Write every k-th step (the final state is always written)");
  sim->add_option("--out", out, "Output file, .csv or .json")->required();
  sim->add_option("--set", sets, "Scheme setting name=value; repeatable");

  auto* ref = app.add_subcommand("reference", "High-accuracy reference solution on an output grid");
  ref->add_option("--problem", problem_name, "Catalogue problem");
  ref->add_option("--problem-file", problem_file, "Problem file (JSON)");
  ref->add_option("--h", h, "Output grid spacing")->required();
  auto* ref_tend = ref->add_option("--t-end", t_end, "Final time (default: the problem's)");
  auto* ref_tol = ref->add_option("--tol", tol, "Absolute and relative tolerance (default 1e-13; 1e-25 in quad)");
  std::string ref_form, ref_prec = "double", cache_dir;
  bool no_cache = false;
  ref->add_option("--formulation", ref_form,
                  "kirchhoff, newton_euler, euler_angles or analytic (default: analytic where it applies, else kirchhoff)");
  ref->add_option("--precision", ref_prec, "double (default) or quad (cpp_bin_float_quad)");
  ref->add_option("--cache-dir", cache_dir, "Reference cache folder (default $RIGIDBENCH_CACHE_DIR or ~/.cache/rigidbench)");
  ref->add_flag("--no-cache", no_cache, "Neither read nor write the reference cache");
  ref->add_option("--out", out, "Output file, .csv or .json")->required();

  SuiteRequest vreq;
  std::vector<std::string> v_int, v_prob;
  double v_h = NAN, v_tend = NAN;
  int v_levels = 0;
  bool quiet = false;
  auto* verify = app.add_subcommand("verify", "Convergence, Q_II, invariants and errors against the reference");
  verify->add_option("--suite", vreq.suite, "Suite: quick (default) or paper");
  verify->add_option("--integrator", v_int, "Names, globs or 'all' (default all)");
  verify->add_option("--set", sets,
                     "Scheme setting name=value (every selected scheme declaring it) or scheme.name=value; repeatable. "
                     "`list` shows each scheme's settings");
  verify->add_option("--problem", v_prob, "Catalogue problems (default: the suite's)");
  verify->add_option("--problem-file", vreq.problem_file, "A problem file instead of catalogue problems");
  auto* v_h_opt = verify->add_option("--h", v_h, "Coarsest step h0 of the ladder h0 2^-k (default: the problem's)");
  verify->add_option("--levels", v_levels, "Number of ladder levels (default: the problem's)");
  auto* v_tend_opt = verify->add_option("--t-end", v_tend, "Final time (default: the problem's)");
  verify->add_option("--jobs", vreq.jobs, "Worker threads (default: all cores)");
  std::string v_ref_form, v_ref_prec = "double";
  double v_ref_tol = NAN;
  verify->add_option("--reference", v_ref_form,
                     "Reference formulation: kirchhoff, newton_euler, euler_angles, analytic (default: analytic where "
                     "it applies, else kirchhoff)");
  verify->add_option("--reference-precision", v_ref_prec, "double (default) or quad: references beyond double precision");
  verify->add_option("--reference-tol", v_ref_tol, "Reference tolerance (default 1e-13; 1e-25 in quad)");
  verify->add_option("--cache-dir", cache_dir, "Reference cache folder (default $RIGIDBENCH_CACHE_DIR or ~/.cache/rigidbench)");
  verify->add_flag("--no-cache", no_cache, "Neither read nor write the reference cache");
  verify->add_option("--out", out, "Report file (.json) or folder (report.json inside)");
  verify->add_flag("--quiet", quiet, "No progress on stderr");

  BenchRequest breq;
  std::vector<std::string> b_int, b_prob;
  bool no_icount = false, no_wp = false;
  auto* bench = app.add_subcommand("bench", "Cost per step (ratio to the RK4 baseline), instruction counts, work-precision");
  bench->add_option("--integrator", b_int, "Names, globs or 'all' (default all); the baseline always runs");
  bench->add_option("--problem", b_prob, "Catalogue problems (default all)");
  bench->add_option("--min-time", breq.min_time, "Google Benchmark minimum time per repetition [s] (default 0.05)");
  bench->add_option("--repetitions", breq.repetitions, "Interleaved repetitions; the min is used (default 5)");
  bench->add_option("--icount-steps", breq.icount_steps, "Steps N of the instruction-count driver (runs N and 2N)");
  bench->add_flag("--no-icount", no_icount, "Skip the instruction counts (callgrind)");
  bench->add_flag("--require-icount", breq.require_icount, "Fail (exit 2) when valgrind is missing");
  bench->add_flag("--no-work-precision", no_wp, "Skip the work-precision sweeps");
  bench->add_option("--out", out, "Output folder: bench.json (rigidbench) and benchmark.json (Google Benchmark)");
  bench->add_flag("--quiet", quiet, "No console table or progress");

  std::string g_baseline, g_current, g_junit, g_snapshot_out;
  bool g_run = false, g_bless = false;
  auto* gate = app.add_subcommand("gate", "Compare a run with a blessed baseline (accuracy and speed regressions)");
  gate->add_option("--baseline", g_baseline, "Baseline snapshot (JSON); written only with --bless")->required();
  gate->add_option("--current", g_current, "Current snapshot or verify report (JSON)");
  gate->add_flag("--run", g_run, "Run the quick suite and the benchmarks to produce the current snapshot");
  gate->add_flag("--bless", g_bless, "Write the current snapshot as the new baseline (the only way to write one)");
  gate->add_option("--junit", g_junit, "Write JUnit XML (one testcase per scheme x problem x metric)");
  gate->add_option("--snapshot-out", g_snapshot_out, "Also write the current snapshot to this file");

  std::vector<std::string> c_int, c_prob;
  std::string c_report, c_bench;
  CompareOptions copt;
  double c_h = NAN;
  auto* compare = app.add_subcommand("compare", "Head-to-head tables per problem (order, Q_II, invariants, error, "
                                                "cost per step, cost to a target accuracy), Markdown and JSON");
  compare->add_option("--report", c_report, "A verify report (JSON); without it the quick suite is run first");
  compare->add_option("--bench", c_bench, "A bench report (JSON): CPU time and instructions per step");
  compare->add_option("--problem", c_prob, "Problems to compare (default: every problem)");
  compare->add_option("--integrator", c_int, "Names, globs or 'all' (only when running the suite)");
  compare->add_option("--metric", copt.metric, "Error metric (default attitude_error_final)");
  compare->add_option("--target", copt.target, "Target error for the cost-to-accuracy ranking (default 1e-6)");
  auto* c_h_opt = compare->add_option("--h", c_h, "Fixed h for the error column (default: the problem's h0 / 4)");
  compare->add_option("--out", out, "File (.md or .json) or folder (compare.md and compare.json); default stdout");
  compare->add_flag("--quiet", quiet, "No progress on stderr");

  std::vector<std::string> r_in;
  std::string r_out, r_format = "png";
  auto* report = app.add_subcommand("report", "Plots (matplotlib) and one HTML page, from report JSON alone");
  report->add_option("--in", r_in, "Report files: verify, paper, bench, compare (JSON)")->required();
  report->add_option("--out", r_out, "Output folder (index.html, figures/)")->required();
  report->add_option("--format", r_format, "Figure formats, comma-separated: png (default), svg, pdf");

  std::int64_t driver_steps = 2000;
  std::vector<std::string> d_int, d_prob;
  auto* driver = app.add_subcommand("bench-driver", "(internal) fixed-work driver run under callgrind by `bench`");
  driver->group("");  // hidden from --help
  driver->add_option("--steps", driver_steps)->required();
  driver->add_option("--integrator", d_int)->required();
  driver->add_option("--problem", d_prob)->required();

  // An unknown first word would otherwise only get CLI11's "A subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const CLI::App* sc : app.get_subcommands([](const CLI::App*) { return true; })) {
      known |= sc->get_name() == argv[1];
      names += cat(names.empty() ? "" : ", ", sc->get_name());
    }
    if (!known) {
      std::fprintf(stderr, "rigidbench: error: unknown command '%s' (known: %s)\n", argv[1], names.c_str());
      return kBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kBadInput;
  }

  try {
    if (*list) return cmd_list(list_json);

    if (*pexport) {
      const std::string text = problem_to_json(catalogue_problem(export_name)).dump(2) + "\n";
      if (export_out.empty()) std::cout << text;
      else write_atomic(export_out, text);
      return kOk;
    }

    if (*sim) {
      check_trajectory_path(out);
      require_out_folder(out);
      const Problem p = resolve_problem(problem_name, problem_file);
      const SchemeEntry s = configure_schemes({&find_scheme(integrator)}, sets).front();
      if (std::string why = not_applicable(*s.info, p); !why.empty())
        throw InputError(cat("integrator '", integrator, "' does not apply to problem '", p.name, "': ", why));
      const double te = sim_tend->count() ? t_end : p.t_end;
      auto integ = s.make(p);
      const Trajectory tr = simulate(*integ, p, h, te, every);
      if (!tr.ok) {
        std::fprintf(stderr, "rigidbench: breakdown: %s (no output written)\n", tr.reason.c_str());
        return kVerdictFailed;
      }
      write_trajectory(out, p, tr.t, tr.states,
                       {{"integrator", s.info->name}, {"scheme_settings", s.settings.values}, {"problem", p.name}, {"h", h}, {"t_end", te},
                        {"problem_file", problem_to_json(p)}});
      return kOk;
    }

    if (*ref) {
      check_trajectory_path(out);
      require_out_folder(out);
      const Problem p = resolve_problem(problem_name, problem_file);
      const double te = ref_tend->count() ? t_end : p.t_end;
      if (!std::isfinite(h) || h <= 0) throw InputError(cat("--h must be positive and finite (got ", std::to_string(h), ")"));
      if (!std::isfinite(te) || te <= p.t0) throw InputError("--t-end must be finite and greater than t0");
      const ReferenceSettings rs = reference_settings(ref_form, ref_prec, tol, ref_tol->count() > 0, cache_dir, no_cache);
      std::vector<double> grid;
      const double n = std::ceil((te - p.t0) / h - 1e-9);
      if (n > 1e8) throw InputError("--h is too small: more than 1e8 output points");
      for (std::int64_t j = 0; j < std::int64_t(n); ++j) grid.push_back(p.t0 + double(j) * h);
      grid.push_back(te);
      const ReferenceSolution r = compute_reference(p, grid, rs);
      std::fprintf(stderr, "reference: %s (%s), tolerance %g, error estimate %.3g rad / %.3g rad/s, %zu steps, %.3g s%s\n",
                   r.formulation.c_str(), r.precision.c_str(), r.tolerance, r.error_estimate.attitude,
                   r.error_estimate.omega, r.steps, r.seconds, r.from_cache ? " (from the cache)" : "");
      if (!r.notes.empty()) std::fprintf(stderr, "reference: %s\n", r.notes.c_str());
      write_trajectory(out, p, r.times, r.states,
                       {{"reference", {{"kind", r.kind}, {"formulation", r.formulation}, {"stepper", r.stepper},
                                       {"precision", r.precision}, {"tolerance", r.tolerance},
                                       {"error_estimate", r.error_estimate.max()}, {"notes", r.notes}}},
                        {"problem", p.name}, {"problem_file", problem_to_json(p)}});
      return kOk;
    }

    if (*bench) {
      if (!out.empty()) std::filesystem::create_directories(out);
      if (!b_int.empty()) breq.integrators = b_int;
      breq.problems = b_prob;
      breq.icount = !no_icount;
      breq.work_precision = !no_wp;
      breq.quiet = quiet;
      breq.out_dir = out;
      const std::string started = iso8601_now();
      add_benchmark_context();
      const BenchResult b = run_bench(breq);
      std::printf("\n%-18s %-14s %10s %9s %14s %9s\n", "integrator", "problem", "ns/step", "x RK4", "instr/step", "x RK4");
      for (const auto& e : b.entries)
        std::printf("%-18s %-14s %10s %9s %14s %9s\n", e.integrator.c_str(), e.problem.c_str(),
                    fmt(e.ns_per_step, "%.1f").c_str(), fmt(e.ratio_to_baseline, "%.3f").c_str(),
                    fmt(e.instructions_per_step, "%.1f").c_str(), fmt(e.instruction_ratio_to_baseline, "%.3f").c_str());
      if (!out.empty()) {
        const std::string path = (std::filesystem::path(out) / "bench.json").string();
        write_atomic(path, bench_report(b, std::vector<std::string>(argv, argv + argc), started).dump(1) + "\n");
        std::printf("report: %s\ngoogle benchmark: %s\n", path.c_str(), b.gbench_json.c_str());
      }
      return kOk;
    }

    if (*gate) {
      if (g_run == !g_current.empty()) throw InputError("gate: give exactly one of --run and --current FILE");
      nlohmann::json current;
      if (g_run) {
        SuiteRequest sr;
        sr.progress = false;
        sr.measure_cost = false;
        std::fprintf(stderr, "gate: running the quick suite...\n");
        const std::string started = iso8601_now();
        const SuiteResult s = run_suite(sr);
        const nlohmann::json verify_json = nlohmann::json::parse(suite_report(s, {}, started).dump());
        BenchRequest br;
        br.min_time = 0.01;
        br.repetitions = 3;
        br.work_precision = false;
        br.quiet = true;
        std::fprintf(stderr, "gate: running the benchmarks (instruction counts where valgrind is present)...\n");
        add_benchmark_context();
        const BenchResult b = run_bench(br);
        const nlohmann::json bench_json = nlohmann::json::parse(bench_report(b, {}, started).dump());
        current = nlohmann::json::parse(gate_snapshot(verify_json, bench_json).dump());
      } else {
        std::ifstream in(g_current);
        if (!in) throw InputError("gate: cannot open '" + g_current + "'");
        try {
          current = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
          throw InputError(cat("gate: '", g_current, "' is not valid JSON: ", e.what()));
        }
        // A plain verify report is accepted too (no speed data).
        if (current.value("kind", "") != "rigidbench-gate-snapshot" && current.contains("results"))
          current = nlohmann::json::parse(gate_snapshot(current, nlohmann::json()).dump());
      }
      if (!g_snapshot_out.empty()) write_atomic(g_snapshot_out, current.dump(1) + "\n");
      if (g_bless) {
        write_atomic(g_baseline, current.dump(1) + "\n");
        std::printf("gate: blessed %s as the baseline\n", g_baseline.c_str());
        return kOk;
      }
      std::ifstream bin(g_baseline);
      if (!bin) throw InputError("gate: cannot open the baseline '" + g_baseline + "' (create one with --bless)");
      nlohmann::json baseline;
      try {
        baseline = nlohmann::json::parse(bin);
      } catch (const nlohmann::json::exception& e) {
        throw InputError(cat("gate: the baseline '", g_baseline, "' is not valid JSON: ", e.what()));
      }
      const GateResult g = gate_compare(baseline, current);
      std::fputs(gate_table(g).c_str(), stdout);
      if (!g_junit.empty()) write_atomic(g_junit, gate_junit(g));
      return g.exit_code();
    }

    if (*compare) {
      if (c_h_opt->count()) copt.h = c_h;
      copt.problems = c_prob;
      std::string md_path, json_path;
      if (!out.empty()) {
        const auto ext = std::filesystem::path(out).extension();
        if (ext == ".md") md_path = out;
        else if (ext == ".json") json_path = out;
        else {
          std::filesystem::create_directories(out);
          md_path = (std::filesystem::path(out) / "compare.md").string();
          json_path = (std::filesystem::path(out) / "compare.json").string();
        }
        require_out_folder(md_path.empty() ? json_path : md_path);
      }
      nlohmann::json verify_json, bench_json;
      if (!c_report.empty()) {
        if (!c_int.empty()) throw InputError("compare: --integrator selects schemes to run; with --report it does not apply");
        verify_json = read_json_file(c_report, "verify report");
      } else {
        SuiteRequest sr;
        if (!c_int.empty()) sr.integrators = c_int;
        sr.problems = c_prob;
        sr.progress = !quiet;
        const std::string started = iso8601_now();
        verify_json = nlohmann::json::parse(suite_report(run_suite(sr), {}, started).dump());
      }
      if (!c_bench.empty()) bench_json = read_json_file(c_bench, "bench report");
      ordered_json c = compare_reports(verify_json, c_bench.empty() ? nullptr : &bench_json, copt);
      c["command"] = std::vector<std::string>(argv, argv + argc);
      const std::string md = compare_markdown(c);
      if (!json_path.empty()) write_atomic(json_path, c.dump(1) + "\n");
      if (!md_path.empty()) write_atomic(md_path, md);
      if (out.empty()) std::cout << md;
      else std::printf("compare: %s%s%s\n", md_path.c_str(), md_path.empty() || json_path.empty() ? "" : ", ",
                       json_path.c_str());
      return kOk;
    }

    if (*report) return run_renderer(r_in, r_out, r_format);

    if (*driver) {
      std::vector<Problem> problems;
      for (const auto& n : d_prob) problems.push_back(catalogue_problem(n));
      run_icount_driver(bench_pairs(select_schemes(d_int), problems), driver_steps);
      return kOk;
    }

    if (*verify) {
      std::string report_path;
      if (!out.empty()) {
        if (std::filesystem::path(out).extension() == ".json") {
          report_path = out;
        } else {
          std::filesystem::create_directories(out);
          report_path = (std::filesystem::path(out) / "report.json").string();
        }
        require_out_folder(report_path);
      }
      vreq.reference = reference_settings(v_ref_form, v_ref_prec, v_ref_tol, std::isfinite(v_ref_tol), cache_dir, no_cache);
      if (!v_int.empty()) vreq.integrators = v_int;
      vreq.scheme_settings = sets;
      vreq.problems = v_prob;
      if (v_h_opt->count()) vreq.ladder.h0 = v_h;
      if (v_levels != 0) vreq.ladder.levels = v_levels;
      if (v_tend_opt->count()) vreq.t_end = v_tend;
      vreq.progress = !quiet;
      const std::string started = iso8601_now();
      if (vreq.suite == "paper") {
        if (!v_int.empty() || !v_prob.empty() || !vreq.problem_file.empty() || v_h_opt->count() || v_levels != 0 ||
            v_tend_opt->count() || !sets.empty())
          throw InputError("the paper suite runs the papers' own settings: --integrator, --problem, --problem-file, "
                           "--h, --levels, --t-end and --set do not apply");
        const PaperSuiteResult ps = run_paper_suite(!quiet);
        std::printf("%-6s %-26s %-18s %-10s %s\n", "paper", "integrator", "problem", "verdict", "finding");
        for (const auto& i : ps.items)
          std::printf("%-6s %-26s %-18s %-10s %s\n", i.paper.c_str(), i.integrator.c_str(), i.problem.c_str(),
                      to_string(i.verdict), i.finding.c_str());
        if (!report_path.empty()) {
          write_atomic(report_path, paper_report(ps, std::vector<std::string>(argv, argv + argc), started).dump(1) + "\n");
          std::printf("report: %s\n", report_path.c_str());
        }
        return ps.any_failed() ? kVerdictFailed : kOk;
      }
      const SuiteResult s = run_suite(vreq);
      print_summary(s);
      if (!report_path.empty()) {
        write_atomic(report_path, suite_report(s, std::vector<std::string>(argv, argv + argc), started).dump(1) + "\n");
        std::printf("report: %s\n", report_path.c_str());
      }
      return s.any_failed() ? kVerdictFailed : kOk;
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", e.what());
    return kBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rigidbench: internal error: %s\n", e.what());
    return kInternal;
  }
  return kOk;
}
