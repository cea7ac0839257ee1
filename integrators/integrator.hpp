#pragma once
// The integrator contract. Every scheme is one `final` type in its own file that satisfies it;
// the verification suites, the CLI and the microbenchmarks all drive that same object.
//
// | expression            | type / effect                                                           |
// |-----------------------|-------------------------------------------------------------------------|
// | S::info()             | const SchemeInfo&: name, source (paper, equations), order p, kind,      |
// |                       | applicability (model families and restrictions), claims per invariant   |
// | S s(problem)          | binds to a problem that outlives s; precondition: applicable(info, p)   |
// | s.reset(x0, t0)       | map-in: canonical state -> the scheme's own representation              |
// | s.step(t, h)          | StepStatus: advance from t to t + h (t = t0 + n h is computed by the    |
// |                       | caller, never accumulated). After an ok step, read() gives the state at |
// |                       | t + h; after a breakdown the state is unspecified and reason says why.  |
// | s.read(x)             | map-out: writes the canonical state into x (sized to the problem)       |
// | s.counters()          | Counters: cumulative load evaluations and Newton iterations since reset |
//
// Order p: the global error at a fixed final time behaves as C h^p for h -> 0 on smooth problems.
// Claims: what the scheme's source asserts for each kind of invariant of the exact flow; the
// verification suite checks every claim against the problem's own evaluation of the invariant.
#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/state.hpp"
#include "problems/problem.hpp"

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
  Claim of(InvariantKind k) const {
    switch (k) {
      case InvariantKind::energy: return energy;
      case InvariantKind::momentum: return momentum;
      case InvariantKind::casimir: return casimir;
      case InvariantKind::axial: return axial;
      case InvariantKind::constraint: return constraint;
      case InvariantKind::nonholonomic: return nonholonomic;
    }
    return Claim::none;
  }
};

struct Applicability {
  bool rigid_body = false;
  bool body_system = false;
  bool non_twisting = false;
  bool spherical_only = false;    // scalar inertia only (e.g. paper 001's maps)
  bool torque_free_only = false;
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
};

struct StepStatus {
  bool ok = true;
  std::string reason;  // filled on breakdown only (Newton non-convergence, leaving a chart...)
  static StepStatus success() { return {}; }
  static StepStatus breakdown(std::string why) { return {false, std::move(why)}; }
};

struct Counters {
  std::uint64_t load_evaluations = 0;
  std::uint64_t newton_iterations = 0;
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

}  // namespace rigidbench
