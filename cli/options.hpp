#pragma once
// The option groups the commands share (docs/architecture.md, "Shared options"): problem selection, scheme
// selection, the step ladder, the tolerance ladder and the reference, each declared here once with its
// help and its checks and added by every command that takes it. What they fill are the library's own
// request types (LadderRequest, ToleranceLadder, ReferenceOptions), which the Python module fills from
// keyword arguments of the same names, through the same checks (python/module.cpp).
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "../problems/problem.hpp"
#include "../reference/reference.hpp"
#include "../verification/runner.hpp"
#include "../verification/tolerance_ladder.hpp"

namespace rigidbench::cli {

/// What a command does with the schemes or problems it is given.
enum class Use {
  run,      // runs them: several names, globs or 'all'
  run_one,  // runs one (simulate, score, ladder, reference)
  filter,   // reads only these rows of reports or histories (names or globs)
};

/// --integrator, and --set where the command runs schemes.
struct SchemeOptions {
  std::vector<std::string> integrators, sets;
  /// `note` is appended to --integrator's help (what this command adds to the selection); with_sets:
  /// --set as well (the commands that run schemes with their settings).
  void add_to(CLI::App* sc, Use use, const std::string& note = "", bool with_sets = true);
  /// The one scheme of Use::run_one.
  const std::string& one() const { return integrators.front(); }
};

/// --problem, --problem-file, --t-end.
struct ProblemOptions {
  std::vector<std::string> problems;
  std::string problem_file;
  std::optional<double> t_end;
  /// with_file: --problem-file as well (run, run_one); with_t_end: --t-end (the span's end).
  void add_to(CLI::App* sc, Use use, bool with_file, bool with_t_end, const std::string& note = "");
  /// The problem of Use::run_one: the catalogue's or the file's (exactly one of them).
  Problem one() const;
  /// The end of p's span: --t-end, or the problem's own.
  double t_end_of(const Problem& p) const { return t_end.value_or(p.t_end); }
  bool given() const { return !problems.empty() || !problem_file.empty() || t_end.has_value(); }
};

/// --h, --levels: the step ladder h0 2^-k (verify, score, ladder); --fixed-ladder where a ladder is
/// sequential by default (verify: `runs`).
struct LadderOptions {
  LadderRequest ladder;
  void add_to(CLI::App* sc, const std::string& note = "", bool runs = false);
  bool given() const { return ladder.h0.has_value() || ladder.levels.has_value() || ladder.fixed; }
};

/// --tol0, --tol-levels: an adaptive scheme's tolerance ladder (verify, score --adaptive, ladder --adaptive).
struct ToleranceOptions {
  std::optional<double> tol0;
  std::optional<int> levels;
  void add_to(CLI::App* sc, const std::string& note = "");
  /// The ladder asked for (defaults where not given).
  ToleranceLadder ladder() const { return user_tolerance_ladder(tol0, levels); }
  bool given() const { return tol0 || levels; }
  /// Of a command whose --adaptive chooses the ladder: the ladder when adaptive, nothing otherwise
  /// (and InputError when a tolerance was given without it).
  std::optional<ToleranceLadder> ladder_if(bool adaptive) const { return adaptive_tolerance_ladder(adaptive, tol0, levels); }
};

/// --reference, --reference-precision, --reference-tol, --cache-dir, --no-cache.
struct ReferenceCliOptions {
  ReferenceOptions options;
  /// with_aliases: the `reference` command's earlier names --formulation, --precision, --tol.
  void add_to(CLI::App* sc, bool with_aliases = false);
  ReferenceSettings settings() const { return options.settings(); }
};

/// A std::optional<T> option: set when given, nullopt otherwise.
template <class T>
CLI::Option* add_optional(CLI::App* sc, const std::string& name, std::optional<T>& value, const std::string& help) {
  return sc->add_option_function<T>(name, [&value](const T& v) { value = v; }, help);
}

}  // namespace rigidbench::cli
