#pragma once
// The integrator contract. Every scheme is one `final` type in its own file that satisfies it;
// the verification suites, the CLI and the microbenchmarks all drive that same object.
//
// | expression            | type / effect                                                           |
// |-----------------------|-------------------------------------------------------------------------|
// | S::info()             | const SchemeInfo&: name, source (paper, equations), order p, kind,      |
// |                       | applicability (model families and restrictions), claims per invariant   |
// | S s(problem)          | binds to a problem that outlives s; precondition: applicable(info, p)   |
// | S s(problem, set)     | optional; required when info().settings is not empty: SchemeSettings    |
// | s.reset(x0, t0)       | map-in: canonical state -> the scheme's own representation              |
// | s.step(t, h)          | StepStatus: advance from t to t + h (t = t0 + n h is computed by the    |
// |                       | caller, never accumulated). After an ok step, read() gives the state at |
// |                       | t + h; after a breakdown the state is unspecified and reason says why.  |
// | s.read(x)             | map-out: writes the canonical state into x (sized to the problem)       |
// | s.counters()          | Counters: cumulative load evaluations, Newton iterations and Jacobians  |
// |                       | since reset                                                             |
//
// Order p: the global error at a fixed final time behaves as C h^p for h -> 0 on smooth problems.
//
// Adaptive schemes (SchemeInfo::adaptive; docs/adaptive.md) choose their own steps under an absolute
// and a relative tolerance (the settings kAbsTolerance, kRelTolerance). For them s.step(t, h) means
// "advance from t to the requested output time t + h", with as many internal steps as their controller
// takes (stepping exactly onto t + h, or past it and interpolating with dense output); the counters
// say how many it accepted and rejected and how many right-hand sides it evaluated. Their order p is
// the order of the method, not a rate in the output interval h.
// Claims: what the scheme's source asserts for each kind of invariant of the exact flow; the
// verification suite checks every claim against the problem's own evaluation of the invariant.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <stdexcept>
#include <cmath>
#include <concepts>
#include <map>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../core/names.hpp"
#include "../core/newton.hpp"
#include "../core/state.hpp"
#include "flops.hpp"
#include "../problems/problem.hpp"

namespace rigidbench {

enum class SchemeKind { explicit_, implicit, semi_implicit };
const char* to_string(SchemeKind k);

enum class Claim { none, bounded, exact };
const char* to_string(Claim c);

/// Claim per invariant kind (see InvariantKind).
struct Claims {
  Claim energy = Claim::none;
  Claim momentum = Claim::none;    // momenta of spatial symmetries (pi; e . pi under a uniform field)
  Claim casimir = Claim::none;     // |Pi| for the free body
  Claim axial = Claim::none;       // body momentum about a symmetry axis
  Claim constraint = Claim::none;  // the representation stays on SO(3) (|R^T R - I| ~ round-off)
  Claim nonholonomic = Claim::none;  // w . d3 = 0 at the output states (non_twisting family)
  /// The energy claim on problems with a potential (uniform fields), where it is weaker than the
  /// torque-free one (Simo-Wong: exact for the free body, bounded under a configuration-dependent
  /// moment). Unset: `energy` everywhere.
  std::optional<Claim> energy_with_potential = std::nullopt;
  /// Structure of the one-step map Phi_h that the source asserts (verification/structure.hpp): symmetric
  /// (Phi_-h o Phi_h = identity, so the order is even) and symplectic (Phi_h preserves the canonical
  /// symplectic form of T*SE(3)^n on Hamiltonian problems). Checked to round-off / differencing error.
  bool symmetric = false;
  bool symplectic = false;
  Claim of(InvariantKind k, bool with_potential = false) const {
    switch (k) {
      case InvariantKind::energy: return with_potential && energy_with_potential ? *energy_with_potential : energy;
      case InvariantKind::momentum: return momentum;
      case InvariantKind::casimir: return casimir;
      case InvariantKind::axial: return axial;
      case InvariantKind::constraint: return constraint;
      case InvariantKind::nonholonomic: return nonholonomic;
    }
    return Claim::none;
  }
};

/// Which problems a scheme integrates: applicability is decided by the problem's model family (its
/// equations), never by switching on schemes elsewhere. Data, so that outside families and schemes
/// match by name.
struct Applicability {
  /// Names of the model families whose equations the scheme integrates ("rigid_body",
  /// "body_system", "non_twisting", or an outside family's name).
  NameList families;
  /// Terms beyond a family's basic equations that the scheme handles; a family may require some
  /// (docs/extending.md). Names, like the families.
  NameList features = {};
  bool spherical_only = false;    // scalar inertia only (e.g. paper 001's maps)
  bool torque_free_only = false;
  /// A further condition of the scheme's own on the problem, beyond its family and features: the
  /// reason it refuses `p` (recorded as "skipped"), or empty. An engine's scheme refuses a body that
  /// no engine can build, e.g. a central inertia that is not positive (engines/engine_body.hpp).
  std::string (*refuses)(const Problem& p) = nullptr;
};

/// A numeric setting a scheme accepts from the user (`--set [scheme.]name=value`): its default and
/// the closed range of values it makes sense for (integer: the value must be a whole number).
struct SettingInfo {
  std::string_view name;
  std::string_view description;
  double default_value;
  double min, max;
  bool integer = false;
};

/// The Newton settings every implicit scheme declares (a setting; 1e-14 by
/// default so that exact-invariant checks measure the scheme, paper 000 runs 1e-10).
inline const SettingInfo kNewtonTolerance{"newton_tolerance", "relative increment |dx| <= tol |x| that ends Newton",
                                          1e-14, 1e-16, 1e-2};
inline const SettingInfo kNewtonMaxIterations{"newton_max_iterations",
                                              "iterations before a step is a breakdown", 50, 1, 1000, true};

/// The tolerances every adaptive scheme declares (SchemeInfo::adaptive): its controller accepts a step
/// whose error estimate e_i satisfies max_i |e_i| / (abs + rel |y_i|) <= 1 (odeint's default error
/// checker; docs/adaptive.md). The tolerance ladder sets both to tol_k.
inline const SettingInfo kAbsTolerance{"abs_tolerance", "absolute tolerance of the error control", 1e-6, 1e-16, 1e-1};
inline const SettingInfo kRelTolerance{"rel_tolerance", "relative tolerance of the error control", 1e-6, 1e-16, 1e-1};

/// Values given for a scheme's declared settings, by name (validated against SettingInfo by
/// configure_schemes). A setting not given takes its default.
struct SchemeSettings {
  std::map<std::string, double, std::less<>> values;
  double get(const SettingInfo& s) const {
    const auto it = values.find(s.name);
    return it == values.end() ? s.default_value : it->second;
  }
  /// The Newton settings of kNewtonTolerance / kNewtonMaxIterations.
  NewtonSettings newton() const {
    return {.tolerance = get(kNewtonTolerance), .max_iterations = int(get(kNewtonMaxIterations))};
  }
};

struct SchemeInfo {
  std::string_view name;            // stable identifier used on the command line and in reports
  std::string_view title;
  std::string_view source;          // paper and equation numbers
  std::string_view representation;  // what the scheme integrates internally
  int order;
  SchemeKind kind;
  Applicability applies;
  Claims claims;
  std::string_view notes;           // decisions taken where the source is ambiguous
  std::vector<SettingInfo> settings = {};  // what `--set` may change (constructor S(problem, SchemeSettings))
  /// The step's floating-point work on a problem, derived from the code (integrators/flops.hpp,
  /// docs/flops.md); null, or nothing returned, where it was not derived.
  FlopModelFn flops = nullptr;
  /// Run in a child process (integrators/integrate.hpp, "Isolated schemes"): for a scheme whose code
  /// may end the process (an engine that aborts on a fault), so that the fault is the run's breakdown.
  bool isolate = false;
  /// Chooses its own steps under kAbsTolerance / kRelTolerance (the contract above, docs/adaptive.md):
  /// judged on a tolerance ladder, not a step ladder.
  bool adaptive = false;
  /// An adaptive scheme's error estimate, where it is not local extrapolation's: its order q (the
  /// estimate of one step ~ h^(q+1)). -1: order - 1, the usual pair whose order-p solution propagates
  /// and whose estimate is its difference to an order-(p-1) one. A controller holding that estimate at
  /// tol makes h ~ tol^(1/(q+1)) and the global error ~ h^p, so the tolerance ladder expects the slope
  /// p / (q + 1) (Radau IIA: p = 5 with a third-order estimate, 5/4; docs/adaptive.md, "What is judged").
  int error_estimate_order = -1;
  /// An adaptive scheme with dense output: it steps past an output time and interpolates there, so
  /// its steps are set by its tolerance whatever the output grid - no level of its ladder is
  /// grid-bound (tolerance_ladder.hpp), and its error at the output times is its interpolant's.
  bool dense_output = false;
  /// The version of code the scheme runs that is not rigidbench's, e.g. "MuJoCo 2.2.2" for an engine;
  /// empty for schemes written for rigidbench (versioned by the tool). The report carries it and the
  /// gate pins it: a baseline blessed with another version is stale (docs/gate.md).
  std::string_view version = {};
  /// The arithmetic the scheme's state is kept in where it is not double precision: "float32" for an
  /// engine built in single precision (Rapier's WebAssembly build). `list` and the report's scheme
  /// notes say it; an error below its rounding is that precision's floor, not the scheme's order.
  std::string_view precision = {};
  /// What the history keys an outside scheme's results by (docs/history.md, "Outside schemes"): the
  /// code it ran, e.g. a hash of a Python class's source. Empty: the version where there is one, else
  /// for a scheme compiled into an outside program the program's (program_identity()), else
  /// rigidbench's revision. Unlike `version`, the gate does not pin it: a rebuilt scheme is gated.
  std::string_view identity = {};
  /// Claims on a family where they differ from `claims` (which hold on the families the scheme was
  /// first written for), by family name: the LGVI's energy is exact on one free body (the discrete
  /// Moser-Veselov map) and only bounded on a chain of bodies. claims_on() picks the one for a problem.
  std::vector<std::pair<std::string_view, Claims>> family_claims = {};
};

struct StepStatus {
  bool ok = true;
  std::string reason;  // filled on breakdown only (Newton non-convergence, leaving a chart...)
  static StepStatus success() { return {}; }
  static StepStatus breakdown(std::string why) { return {false, std::move(why)}; }
};

/// The breakdown of a step whose Newton solve did not converge (the step's iterations,
/// last increment of `unknown` and residual, in one wording for every implicit scheme).
inline StepStatus newton_breakdown(std::string_view scheme, std::string_view unknown, const NewtonResult& nr) {
  return StepStatus::breakdown(cat(std::string(scheme), ": Newton did not converge in ", std::to_string(nr.iterations),
                                   " iterations (last |d", std::string(unknown), "| = ",
                                   format_number(nr.last_increment, 3), ", |r| = ", format_number(nr.last_residual, 3),
                                   ")"));
}

struct Counters {
  std::uint64_t load_evaluations = 0;
  std::uint64_t newton_iterations = 0;
  std::uint64_t jacobian_evaluations = 0;  // Jacobians evaluated and factorised (<= Newton iterations)
  /// An adaptive scheme's internal steps (SchemeInfo::adaptive): accepted, rejected by its
  /// controller, and its right-hand-side evaluations (loaded or not). Zero for a fixed-step scheme.
  std::uint64_t accepted_steps = 0;
  std::uint64_t rejected_steps = 0;
  std::uint64_t rhs_evaluations = 0;
  /// Accepted steps the scheme shortened to land on an output time (exact landing): where most are,
  /// the output grid, not the tolerance, sets the steps (docs/adaptive.md).
  std::uint64_t shortened_steps = 0;
};

template <class S>
concept Integrator = requires(S s, const S cs, const State& x0, State& x, double t, double h) {
  { S::info() } -> std::same_as<const SchemeInfo&>;
  requires std::constructible_from<S, const Problem&>;
  { s.reset(x0, t) } -> std::same_as<void>;
  { s.step(t, h) } -> std::same_as<StepStatus>;
  { cs.read(x) } -> std::same_as<void>;
  { cs.counters() } -> std::same_as<Counters>;
};

/// An implicit scheme exposes the Newton system of its next step (core/newton.hpp). Calling it may
/// evaluate loads (and count them) but leaves the scheme's state as it was.
template <class S>
concept HasNewtonSystem = requires(S s, double t, double h) {
  { s.newton_system(t, h) } -> std::same_as<NewtonSystem>;
};

/// An adaptive scheme may expose its error estimator (docs/adaptive.md, "The estimator's own order"):
/// the max norm, in the units of its state, of the error estimate of one step of exactly h from its
/// current state (at time t), without error control; the scheme's state is left as it was. Under step
/// halving the estimate of a step falls as h^(q+1), q the estimate's order (SchemeInfo::
/// error_estimate_order, p - 1 by default): what Drake's ErrEstOrder test checks of its integrators.
template <class S>
concept HasErrorEstimate = requires(S s, double t, double h) {
  { s.error_estimate(t, h) } -> std::convertible_to<double>;
};

/// The "first same as last" moment of explicit schemes: the moment evaluated at the end of a step
/// (t_{n+1}, R_{n+1}) is the next step's T_n. It is reused when the next step starts at that time,
/// to round-off in t (the caller computes t_n = t0 + n h, which may differ from t + h by an ulp or
/// two); any other t, or a reset, re-evaluates it.
template <class V>
struct MomentCache {
  V value{};
  double t = 0;
  bool valid = false;
  bool holds(double t_now) const { return valid && std::abs(t_now - t) <= 8e-16 * std::max(1.0, std::abs(t_now)); }
  void store(double t_end, const V& v) {
    value = v;
    t = t_end;
    valid = true;
  }
};

/// Empty when `info` applies to `p`, else the reason (recorded as "skipped" in reports).
std::string not_applicable(const SchemeInfo& info, const Problem& p);
/// The claims of `info` on p's family (SchemeInfo::family_claims, else its claims).
const Claims& claims_on(const SchemeInfo& info, const Problem& p);
/// "a, b, c" ("none" for an empty list).
std::string join(const NameList& names, std::string_view sep = ", ");

}  // namespace rigidbench
