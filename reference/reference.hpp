#pragma once
// High-accuracy reference solutions (docs/metrics.md, Reference error).
// A reference is the canonical state on a given time grid, with its own error estimate: the same
// run repeated at a 10x looser tolerance (odeint; an upper bound), or the same closed form
// evaluated in extended precision (analytic); the difference is the estimate, kept per output time.
//
// Formulations (paper 003), each able to produce the canonical state:
//   kirchhoff     left-invariant: quaternion + body angular velocity W (formulations/kirchhoff.hpp)
//   newton_euler  right-invariant: quaternion + spatial angular momentum pi (formulations/rigid_body_t.hpp)
//   euler_angles  Lagrange / jet coordinates: Euler angles and their rates, switching between the
//                 ZYX and ZYZ charts away from their singularities (formulations/euler_angles.hpp)
//   analytic      closed form of the torque-free body (analytic.hpp)
// Tests require every applicable formulation to agree within the tolerance on every catalogue
// problem (tests/test_reference_formulations.cpp).
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../core/state.hpp"
#include "../core/types.hpp"
#include "../problems/problem.hpp"

namespace rigidbench {

enum class ReferenceStepper {
  /// odeint bulirsch_stoer_dense_out with error-controlled interpolation (default): its steps do
  /// not depend on the output grid, so the tol vs tol/100 comparison is a genuine estimate.
  bulirsch_stoer,
  /// controlled runge_kutta_fehlberg78 landing exactly on every output time. When the grid is finer
  /// than its natural step, both runs take the same grid-bound steps and agree bit for bit, so the
  /// estimate collapses to 0: kept as an independent cross-check, not as the default.
  rkf78,
  /// controlled runge_kutta_dopri5 (Dormand-Prince 5(4)) landing exactly on every output time: the
  /// body systems with Hertz contact. Their right-hand side is only C^1 at a contact's onset and end;
  /// Dormand-Prince's error estimate weighs every stage and sees those instants, RKF78's
  /// (41/840 (k1 + k11 - k12 - k13), the step's two ends only) does not (docs/decisions.md, "P5").
  dopri5,
};

/// hybrid: SE(3) only (spatial velocity of the reference point, body angular velocity).
/// non_twisting: the non_twisting family only (paper 000 eqs. 69-71, formulations/non_twisting.hpp).
/// body_system: SE(3)^n, every body in Kirchhoff form with the interactions (formulations/body_system.hpp).
/// A formulation of a family's equations, by name (docs/extending.md, "Its reference"): a family lists
/// the names that solve its problems (Family::formulations), each solved by the solver registered
/// under the family's equations and that name (register_reference_solver); "analytic" is the closed
/// form. The built-in names are the constants below; a program's own family registers solvers under
/// names of its own (one to 64 of a-z, 0-9 and _), e.g. Formulation{"my_formulation"}.
class Formulation {
 public:
  Formulation() = default;
  explicit Formulation(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  bool operator==(const Formulation&) const = default;
  static const Formulation kirchhoff, newton_euler, euler_angles, analytic, hybrid, non_twisting, body_system;

 private:
  std::string name_;
};
inline const Formulation Formulation::kirchhoff{"kirchhoff"};
inline const Formulation Formulation::newton_euler{"newton_euler"};
inline const Formulation Formulation::euler_angles{"euler_angles"};
inline const Formulation Formulation::analytic{"analytic"};
inline const Formulation Formulation::hybrid{"hybrid"};
inline const Formulation Formulation::non_twisting{"non_twisting"};
inline const Formulation Formulation::body_system{"body_system"};
std::string to_string(const Formulation& f);
/// The formulation of that name: "analytic", or a name under which a solver is registered; empty
/// for any other name.
std::optional<Formulation> formulation_from_string(const std::string& s);
/// Every known formulation name: "analytic", then the registered solvers' in order of registration.
std::vector<std::string> formulation_names();

enum class Precision { binary64, quad };  // double, or boost::multiprecision::cpp_bin_float_quad
const char* to_string(Precision p);

struct ReferenceSettings {
  double tolerance = 1e-13;  // absolute and relative, per component (default; 1e-25 for quad)
  /// The estimating rerun runs at tolerance * loosen: the difference from it bounds the reference's
  /// own error from above when the looser run is at least twice as wrong (docs/metrics.md).
  double loosen = 10.0;
  ReferenceStepper stepper = ReferenceStepper::bulirsch_stoer;
  /// Empty: the problem's default (analytic where it applies, else kirchhoff).
  std::optional<Formulation> formulation = std::nullopt;
  Precision precision = Precision::binary64;  // quad: kirchhoff and newton_euler only
  /// Folder of the on-disk cache; empty: no caching.
  std::string cache_dir{};
};

struct ReferenceErrorEstimate {
  double attitude = 0.0;  // max over the grid of the geodesic angle between the two runs [rad]
  double omega = 0.0;     // max |W - W_second| [rad/s]
  double position = 0.0;  // SE(3): max |x - x_second|
  double velocity = 0.0;  // SE(3): max |v - v_second|
  double max() const { return std::max({attitude, omega, position, velocity}); }
};

/// What a reference solution is, less its states: what a report says of the reference a pair was
/// judged against (reports/result_fields.hpp).
struct ReferenceSummary {
  std::string kind = "odeint";  // odeint | analytic
  std::string formulation;      // e.g. "kirchhoff_quaternion"
  std::string stepper;          // e.g. "bulirsch_stoer_dense_out ..."
  std::string precision = "binary64";
  std::string notes;            // e.g. chart switches, the analytic variant
  double tolerance = 0.0;
  ReferenceErrorEstimate error_estimate;  // maxima over the grid
  std::size_t steps = 0;  // accepted steps of the main run
  double seconds = 0.0;   // wall clock of computing it (both runs), 0 when read from the cache
  bool from_cache = false;
};

struct ReferenceSolution : ReferenceSummary {
  std::vector<double> times;
  std::vector<State> states;  // states[i] at times[i]
  // Per grid time: the estimate is time dependent (e.g. large during the flips of P1b, small
  // between them), so each metric uses the estimate where it is taken.
  std::vector<double> estimate_attitude, estimate_omega;
  std::string cache_key;  // hex digest, when cached
};

/// One run of a reference solver: the canonical state at every grid time.
/// A reference's solve took more steps than it may (reference_step_limit): an InputError of its
/// own kind, which the work estimate's pilot solves tell from the solver's other failures.
struct ReferenceStepLimit : InputError {
  using InputError::InputError;
};
/// Steps one solve of a reference may take: 10^8 (~15 minutes on the heavy top at 1e-13), or
/// $RIGIDBENCH_REFERENCE_MAX_STEPS (a whole number in [1, 10^12]). A reference estimated to need
/// more is refused before it starts (docs/decisions.md, "Input limits"). Every built-in solver
/// counts its steps against it; a program's own solver should (the limit is read per solve).
std::size_t reference_step_limit();

struct ReferenceRun {
  std::vector<State> states;
  std::size_t steps = 0;  // accepted steps
  std::string notes;      // e.g. restarts at load kinks, chart switches
  std::string stepper;    // what the report's reference.stepper says; empty: the settings' stepper
};

/// How a (family equations, formulation) pair is solved: registered once, looked up by
/// compute_reference, which runs it twice (tol and tol * loosen) for the error estimate and adds
/// the cache and the report's fields around it. Built-in solvers cover rigid_body (kirchhoff,
/// newton_euler, euler_angles), kirchhoff_body (kirchhoff, newton_euler, hybrid), non_twisting and
/// body_system; a program that registers a family (problems/family.hpp) registers its solvers here
/// (docs/extending.md). The closed form (`analytic`) is not a solver: it applies per problem.
struct ReferenceSolver {
  std::string equations;       // Family::equations() of the problems it solves
  Formulation formulation;     // which formulation it implements (the family lists it by name)
  std::string name;            // what the report's reference.formulation says, e.g. "kirchhoff_quaternion"
  bool grid_bound = false;     // a controlled Runge-Kutta landing on the grid, whatever the settings
  bool quad = false;           // can run in quad precision
  /// The states on `times` at tolerance `tol`; throws InputError for what it cannot solve.
  std::function<ReferenceRun(const Problem& p, const std::vector<double>& times, double tol,
                             const ReferenceSettings& settings)>
      run;
};
/// Adds a solver; throws InputError when (equations, formulation) is already registered.
void register_reference_solver(ReferenceSolver s);
/// The solver of (p.family->equations(), f), or nullptr.
const ReferenceSolver* find_reference_solver(const Problem& p, Formulation f);

/// The formulations that apply to p: those its family lists that have a solver (analytic: where
/// the closed form applies).
std::vector<Formulation> applicable_formulations(const Problem& p);
/// analytic where it applies, else kirchhoff.
Formulation default_formulation(const Problem& p);

/// The reference on `times` (increasing, starting at p.t0). Throws InputError for a formulation
/// that does not apply, a bad grid or tolerance, or when odeint cannot meet the tolerance.
ReferenceSolution compute_reference(const Problem& p, const std::vector<double>& times,
                                    const ReferenceSettings& settings = {});

/// compute_reference split into work units for a scheduler (docs/scaling.md, "Work units"): the
/// constructor validates like compute_reference and reads the cache (then there is no unit); every
/// unit is run once, in any order, concurrently if wished (distinct units touch distinct data); then
/// finish() combines them and writes the cache. The result is compute_reference's, bit for bit, in
/// whatever order the units ran. Units: an odeint reference has two (the run and its looser
/// estimating rerun); the closed form has segments of output intervals of both evaluations.
/// `p` must outlive the job.
class ReferenceJob {
 public:
  ReferenceJob(const Problem& p, std::vector<double> times, const ReferenceSettings& settings = {});
  ~ReferenceJob();
  ReferenceJob(const ReferenceJob&) = delete;
  ReferenceJob& operator=(const ReferenceJob&) = delete;
  std::size_t units() const;
  void run_unit(std::size_t i);
  /// Once, after every unit has run.
  ReferenceSolution finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// What identifies the reference of p on `times` under `settings` (its cache entry's key): the
/// problem, formulation, stepper, tolerances, precision, grid and the reference code's version.
nlohmann::json reference_key(const Problem& p, const std::vector<double>& times, const ReferenceSettings& settings = {});

/// compute_reference with the Kirchhoff formulation (the historical default, kept for callers
/// that need that formulation specifically).
ReferenceSolution kirchhoff_reference(const Problem& p, const std::vector<double>& times,
                                      const ReferenceSettings& settings = {});

/// The reference as a user asks for it, declared once for every command (--reference,
/// --reference-precision, --reference-tol, --cache-dir, --no-cache) and the Python module (reference,
/// reference_precision, reference_tol, cache_dir, cache).
struct ReferenceOptions {
  std::string formulation;           // a formulation's name; empty: the problem's default
  std::string precision = "double";  // or "quad"
  std::optional<double> tol;         // default 1e-13, 1e-25 in quad
  std::string cache_dir;             // empty: default_cache_dir()
  bool no_cache = false;
  /// The settings these options mean; throws InputError for a bad value.
  ReferenceSettings settings() const;
};

/// The default cache folder: $RIGIDBENCH_CACHE_DIR, else $XDG_CACHE_HOME/rigidbench, else
/// ~/.cache/rigidbench, else empty (no caching).
std::string default_cache_dir();

}  // namespace rigidbench
