// `rigidbench ladder` and `rigidbench score`: trajectories written by any program, judged like a
// compiled scheme (verification/scoring.hpp, docs/trajectory-files.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "../problems/problem_file.hpp"
#include "../reports/report.hpp"
#include "../verification/program_scheme.hpp"
#include "../verification/scoring.hpp"

namespace rigidbench::cli {
namespace {

/// The bodies' initial states and the loads of a ladder description as "key value..." lines.
void body_and_load_lines(std::ostream& os, const nlohmann::ordered_json& j) {
  for (const auto& b : j["initial"]) {
    os << "body\n";
    for (const char* k : {"inertia", "R"}) {
      os << k;
      for (const auto& row : b[k])
        for (const auto& v : row) os << ' ' << v.get<double>();
      os << '\n';
    }
    os << "mass " << b["mass"].get<double>() << '\n';
    for (const char* k : {"W", "x", "v"}) {
      if (!b.contains(k)) continue;
      os << k;
      for (const auto& v : b[k]) os << ' ' << v.get<double>();
      os << '\n';
    }
  }
  // The loads, one "load TYPE" line and then a "load_KEY numbers..." line per parameter (prefixed so that
  // a reader never takes a load's mass for a body's); anything not numbers, and the interactions of a
  // body system, is named with where to read it: the JSON form has the whole problem file.
  const auto& file = j["problem_file"];
  const auto& loads = file.contains("loads") ? file["loads"] : nlohmann::ordered_json::array();
  os << "loads " << loads.size() << '\n';
  for (const auto& l : loads) {
    os << "load " << l.value("type", "?") << '\n';
    for (auto it = l.begin(); it != l.end(); ++it) {
      if (it.key() == "type") continue;
      const auto& v = it.value();
      const bool numbers = v.is_number() || (v.is_array() && std::all_of(v.begin(), v.end(), [](const auto& x) { return x.is_number(); }));
      os << "load_" << it.key();
      if (numbers && v.is_number()) os << ' ' << v.get<double>();
      if (numbers && v.is_array())
        for (const auto& x : v) os << ' ' << x.get<double>();
      if (!numbers) os << " (not numbers: rigidbench ladder --json)";
      os << '\n';
    }
  }
  if (file.contains("interactions") && !file["interactions"].empty())
    os << "interactions " << file["interactions"].size() << " (their parameters: rigidbench ladder --json)\n";
}

/// The ladder as "key value..." lines, one fact per line, numbers in %.17g: what a Fortran or C
/// program reads with list-directed input without a JSON parser.
std::string ladder_text(const nlohmann::ordered_json& j) {
  std::ostringstream os;
  os.precision(17);
  const bool adaptive = j.contains("adaptive");  // tolerance_ladder_description: a file per tolerance
  if (adaptive)
    os << "# rigidbench ladder --adaptive (docs/trajectory-files.md, \"Adaptive schemes\"): for every tolerance run with\n"
          "# abs = rel = tol and write <file> with a row at t = t0 + j output_dt, j = 0..outputs; columns as below; and\n"
          "# manifest.json with each run's counts; then: rigidbench score --adaptive --trajectories DIR ...\n";
  else
    os << "# rigidbench ladder (docs/trajectory-files.md): for every level write <file> with a row at every\n"
          "# t = t0 + n h, n = 0..steps, or only at t = t0 + j observation_dt, j = 0..observations; columns as below\n"
          "# (or in another attitude form or angular-velocity frame, declared); then: rigidbench score --trajectories DIR ...\n";
  for (const char* k : {"problem", "family"}) os << k << ' ' << j[k].get<std::string>() << '\n';
  os << "bodies " << j["bodies"].get<std::size_t>() << '\n';
  os << "translating " << int(j["translating"].get<bool>()) << '\n';
  os << "torque_free " << int(j["torque_free"].get<bool>()) << '\n';
  if (!adaptive) os << "order " << j["order"].get<int>() << '\n';
  os << "t0 " << j["t0"].get<double>() << '\n';
  os << "t_end " << j["t_end"].get<double>() << '\n';
  if (adaptive) {
    os << "tolerances " << j["tolerances"].size() << '\n';
    os << "output_dt " << j["output_dt"].get<double>() << '\n';
    os << "outputs " << j["outputs"].get<std::int64_t>() << '\n';
  } else {
    os << "levels " << j["levels"].size() << '\n';
    os << "observation_dt " << j["observation_dt"].get<double>() << '\n';
    os << "observations " << j["observations"].get<std::int64_t>() << '\n';
  }
  body_and_load_lines(os, j);
  if (adaptive) {
    for (const auto& l : j["tolerances"])
      os << "tolerance " << l["level"].get<int>() << ' ' << l["tol"].get<double>() << ' ' << l["file"].get<std::string>() << '\n';
    // manifest.json's entry per tolerance (the last two optional): docs/trajectory-files.md.
    os << "manifest_level_keys tol,file,accepted_steps,rejected_steps,rhs_evaluations,load_evaluations,shortened_steps\n";
  } else {
    for (const auto& l : j["levels"])
      os << "level " << l["level"].get<int>() << ' ' << l["h"].get<double>() << ' ' << l["steps"].get<std::int64_t>() << ' '
         << l["file"].get<std::string>() << '\n';
  }
  os << "columns";
  for (const auto& c : j["columns"]) os << (c == j["columns"][0] ? " " : ",") << c.get<std::string>();
  os << '\n';
  // The other forms a file set may declare (score --attitude / --angular-velocity, or manifest.json).
  for (const auto& [form, cols] : j["attitude_forms"].items()) {
    os << "attitude_form " << form;
    for (const auto& c : cols) os << (c == cols[0] ? " " : ",") << c.get<std::string>();
    os << '\n';
  }
  for (const auto& [frame, cols] : j["angular_velocity_frames"].items()) {
    os << "angular_velocity_frame " << frame;
    for (const auto& c : cols) os << (c == cols[0] ? " " : ",") << c.get<std::string>();
    os << '\n';
  }
  return os.str();
}

}  // namespace

Command add_ladder(CLI::App& app) {
  struct Options {
    ProblemOptions problem;
    LadderOptions ladder;
    ToleranceOptions tolerance;
    std::string out;
    int order = 0;
    bool json = false, adaptive = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("ladder", "What an outside program must write for `score`: the initial state, the steps "
                                          "h, the span, the output grid and the columns");
  o->problem.add_to(sc, Use::run_one, true, false);
  sc->add_option("--order", o->order, "The scheme's order p (first-order schemes may get a smaller h0; not with --adaptive)");
  o->ladder.add_to(sc);
  sc->add_flag("--adaptive", o->adaptive,
               "An adaptive scheme (docs/adaptive.md): the tolerances, the output times and the manifest instead of the steps");
  o->tolerance.add_to(sc, "with --adaptive");
  sc->add_flag("--json", o->json, "JSON (with the problem file) instead of key-value lines");
  sc->add_option("--out", o->out, "Write to this file instead of stdout");
  return {sc, [o] {
            const std::optional<ToleranceLadder> tolerance = o->tolerance.ladder_if(o->adaptive);
            if (!o->adaptive && (o->order < 1 || o->order > 12)) throw InputError("--order must be an integer in [1, 12]");
            const Problem p = o->problem.one();
            const LadderRequest& lr = o->ladder.ladder;
            const auto j = tolerance ? tolerance_ladder_description(p, *tolerance, lr)
                                     : ladder_description(p, make_ladder(p, o->order, lr), o->order);
            const std::string text = o->json ? j.dump(1) + "\n" : ladder_text(j);
            if (o->out.empty()) std::cout << text;
            else {
              require_out_folder(o->out);
              write_atomic(o->out, text);
            }
            return kOk;
          }};
}

Command add_score(CLI::App& app, const std::vector<std::string>& argv) {
  struct Options {
    ProblemOptions problem;
    LadderOptions ladder;
    ToleranceOptions tolerance;
    ReferenceCliOptions reference;
    std::string dir, out, kind = "explicit", attitude, omega, grid;
    ScoreRequest req;
    std::vector<std::string> claims;
    bool quiet = false, adaptive = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("score", "Verify trajectories written by any program (one per step of the ladder): "
                                         "orders, Q_II, invariants, errors, verdicts against declared claims");
  o->problem.add_to(sc, Use::run_one, true, false);
  sc->add_option("--trajectories", o->dir, "Folder with level<k>.csv|json or manifest.json")->required();
  sc->add_option("--name", o->req.scheme.name, "The scheme's name in the report ([a-z0-9_]{1,64})")->required();
  sc->add_option("--order", o->req.scheme.order, "The order p it claims (adaptive: the method's, 0 for a variable order)")
      ->required();
  sc->add_option("--claims", o->claims,
                 "Invariant claims kind=none|bounded|exact, comma-separated or repeated (kinds: energy, momentum, "
                 "casimir, axial, constraint, nonholonomic, energy_with_potential)");
  sc->add_option("--kind", o->kind, "explicit (default), implicit or semi-implicit");
  sc->add_option("--attitude", o->attitude,
                 "How the files write the attitude: R (row-major, default), R_column_major, quaternion_wxyz or "
                 "quaternion_xyzw (or \"attitude\" in manifest.json)");
  sc->add_option("--angular-velocity", o->omega,
                 "body (columns W1..W3, default) or world (w1..w3, w = R W) components (or \"angular_velocity\" in manifest.json)");
  sc->add_option("--grid", o->grid,
                 "Rows at every_step or on the observation grid only (default: told by the number of rows; or \"grid\" in "
                 "manifest.json)");
  sc->add_flag("--adaptive", o->adaptive,
               "An adaptive scheme's runs, one per tolerance, with their counts in manifest.json (`ladder --adaptive`; "
               "docs/adaptive.md): judged on the tolerance ladder");
  o->tolerance.add_to(sc, "with --adaptive, as given to `ladder`");
  sc->add_option("--error-estimate-order", o->req.scheme.error_estimate_order,
                 "With --adaptive: the order q of the program's error estimate where it is not p - 1 (local "
                 "extrapolation); the tolerance proportionality is then judged against p/(q+1) (docs/adaptive.md)");
  sc->add_flag("--dense-output", o->req.scheme.dense_output,
               "With --adaptive: the program interpolates its output states (dense output), so no level is "
               "grid-bound (docs/adaptive.md)");
  sc->add_option("--title", o->req.scheme.title, "A title for the report");
  sc->add_option("--source", o->req.scheme.source, "Where the scheme comes from (paper, equations)");
  o->ladder.add_to(sc, "as given to `ladder`");
  o->reference.add_to(sc);
  sc->add_option("--out", o->out, "Report file (.json) or folder (report.json inside)");
  sc->add_flag("--quiet", o->quiet, "No progress on stderr");
  return {sc, [o, argv] {
            const std::string report_path = o->out.empty() ? std::string() : report_file_for(o->out);
            ScoreRequest req = o->req;
            req.tolerance = o->tolerance.ladder_if(o->adaptive);
            req.problem = o->problem.one();
            req.trajectories = o->dir;
            req.scheme.kind = scheme_kind_from_string(o->kind);
            req.scheme.claims = parse_claims(o->claims);
            if (!o->attitude.empty()) req.attitude = attitude_form_from_string(o->attitude);
            if (!o->omega.empty()) req.omega = omega_frame_from_string(o->omega);
            if (!o->grid.empty()) req.grid = row_grid_from_string(o->grid);
            req.ladder = o->ladder.ladder;
            req.reference = o->reference.settings();
            req.progress = !o->quiet;
            const std::string started = iso8601_now();
            const SuiteResult s = score_trajectories(req);  // every file is read and checked before output
            print_summary(s);
            if (!report_path.empty()) {
              if (std::filesystem::path(o->out).extension() != ".json") std::filesystem::create_directories(o->out);
              require_out_folder(report_path);
              write_report(report_path, suite_report(s, argv, started).dump(1) + "\n");
              std::printf("report: %s\n", report_path.c_str());
            }
            return s.any_failed() ? kVerdictFailed : kOk;
          }};
}

Command add_program_serve(CLI::App& app) {
  auto o = std::make_shared<SchemeOptions>();
  auto* sc = app.add_subcommand("program-serve",
                                "(internal) a registered scheme speaking the program protocol on stdin/stdout "
                                "(docs/programs.md): the protocol's reference implementation");
  sc->group("");  // hidden from --help
  o->add_to(sc, Use::run_one, "", false);
  return {sc, [o] { return serve_program(find_scheme(o->one()), std::cin, std::cout); }};
}

}  // namespace rigidbench::cli
