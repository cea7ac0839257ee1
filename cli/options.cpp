// The option groups the commands share (options.hpp; docs/architecture.md, "Shared options").
#include "options.hpp"

#include "../core/types.hpp"
#include "../problems/problem_file.hpp"

namespace rigidbench::cli {

namespace {

std::string with_note(std::string help, const std::string& note) { return note.empty() ? help : help + "; " + note; }

}  // namespace

void SchemeOptions::add_to(CLI::App* sc, Use use, const std::string& note, bool with_sets) {
  switch (use) {
    case Use::run:
      sc->add_option("--integrator", integrators, with_note("Names, globs or 'all' (default all)", note));
      break;
    case Use::run_one:
      sc->add_option("--integrator", integrators, with_note("Registered integrator name", note))
          ->required()
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
      break;
    case Use::filter:
      sc->add_option("--integrator", integrators, with_note("Only these schemes (names or globs)", note));
      return;  // a filter of rows configures nothing
  }
  if (!with_sets) return;
  sc->add_option("--set", sets,
                 "Scheme setting name=value (every selected scheme declaring it) or scheme.name=value; repeatable. "
                 "`list` shows each scheme's settings");
}

void ProblemOptions::add_to(CLI::App* sc, Use use, bool with_file, bool with_t_end, const std::string& note) {
  switch (use) {
    case Use::run:
      sc->add_option("--problem", problems, with_note("Catalogue problems (default: the suite's)", note));
      break;
    case Use::run_one:
      sc->add_option("--problem", problems, with_note("Catalogue problem", note))
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
      break;
    case Use::filter:
      sc->add_option("--problem", problems, with_note("Only these problems (names or globs)", note));
      break;
  }
  if (with_file)
    sc->add_option("--problem-file", problem_file,
                   use == Use::run ? "A problem file instead of catalogue problems" : "Problem file (JSON)");
  if (with_t_end) add_optional(sc, "--t-end", t_end, "Final time (default: the problem's)");
}

Problem ProblemOptions::one() const {
  return resolve_problem(problems.empty() ? std::string() : problems.front(), problem_file);
}

void LadderOptions::add_to(CLI::App* sc, const std::string& note, bool runs) {
  add_optional(sc, "--h", ladder.h0, with_note("Coarsest step h0 of the ladder h0 2^-k (default: the problem's)", note));
  if (!runs) {
    add_optional(sc, "--levels", ladder.levels, with_note("Number of ladder levels (default: the problem's)", note));
    return;
  }
  add_optional(sc, "--levels", ladder.levels,
               "Number of ladder levels, every one of them run (a fixed ladder; default: the problem's, a sequential "
               "ladder that stops where the pair's claims are settled, docs/metrics.md)");
  sc->add_flag("--fixed-ladder", ladder.fixed,
               "Run every level of each problem's ladder (default: sequential - levels past the fourth only until the "
               "claims are settled; a scheme wrong only at finer steps than that passes: docs/metrics.md)");
}

void ToleranceOptions::add_to(CLI::App* sc, const std::string& note) {
  const ToleranceLadder defaults;
  add_optional(sc, "--tol0", tol0,
               with_note(cat("Adaptive schemes: the loosest tolerance of the ladder tol0 10^(-k/2) (default ",
                             message_number(defaults.tol0), "; docs/adaptive.md)"),
                         note))
      ->check(CLI::Range(kMinTol0, kMaxTol0));
  add_optional(sc, "--tol-levels", levels,
               with_note(cat("Adaptive schemes: levels of the tolerance ladder (default ", std::to_string(defaults.levels), ")"),
                         note))
      ->check(CLI::Range(kMinToleranceLevels, kMaxToleranceLevels));
}

void ReferenceCliOptions::add_to(CLI::App* sc, bool with_aliases) {
  // The `reference` command's first spellings stay as aliases there.
  const auto name = [&](const char* main, const char* alias) {
    return with_aliases ? cat(main, ",", alias) : std::string(main);
  };
  sc->add_option(name("--reference", "--formulation"), options.formulation,
                 "Reference formulation: one the problem's family lists (kirchhoff, newton_euler, euler_angles, hybrid, "
                 "..., a program's own) or analytic (default: analytic where it applies, else the family's first)");
  sc->add_option(name("--reference-precision", "--precision"), options.precision,
                 "double (default) or quad (cpp_bin_float_quad): references beyond double precision");
  add_optional(sc, name("--reference-tol", "--tol"), options.tol,
               "Reference tolerance, absolute and relative (default 1e-13; 1e-25 in quad)");
  sc->add_option("--cache-dir", options.cache_dir,
                 "Reference cache folder (default $RIGIDBENCH_CACHE_DIR or ~/.cache/rigidbench)");
  sc->add_flag("--no-cache", options.no_cache, "Neither read nor write the reference cache");
}

}  // namespace rigidbench::cli
