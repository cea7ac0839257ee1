#pragma once
// The problem model (docs/problems.md): bodies with inertia and mass, external loads, initial state,
// time span, and the invariants of the exact flow -- evaluated here, from the canonical state,
// identically for every integrator (an integrator never reports its own invariants).
//
// Loads are data, not code, so that every problem round-trips through a problem file (JSON).
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <variant>
#include <nlohmann/json.hpp>
#include <vector>

#include "../core/state.hpp"
#include "../core/types.hpp"
#include "family.hpp"
#include "family_data.hpp"

namespace rigidbench {

/// Uniform force field m*a acting at the body-fixed point p_B (relative to the pivot/reference
/// point). Potential U = -m a . (R p_B); spatial moment t = (R p_B) x (m a).
/// Heavy top: m = M, a = -g e3, p_B = l E3 gives U = M g e3 . r. 3-D pendulum of paper 001: a = +g e3
/// gives U = -m g e3 . R rho0, exactly as printed there (docs/problems.md P3).
struct UniformField {
  double mass = 0.0;
  Vec3 acceleration = Vec3::Zero();  // spatial
  Vec3 point = Vec3::Zero();         // body frame
  bool operator==(const UniformField&) const = default;
};

/// Piecewise-linear interpolation through knots (t_i, v_i) sorted by t, constant outside them, the
/// constant 1 without knots; right-continuous at a knot (paper 000 eq. 116: 2 - 2t from t = 0.5 on;
/// linear pieces agree there anyway). A template so that references evaluate it in their own
/// scalar type (formulations/rigid_body_t.hpp).
template <class T>
T piecewise_linear(const std::vector<std::pair<T, T>>& k, const T& t) {
  if (k.empty()) return T(1);
  if (t <= k.front().first) return k.front().second;
  if (t >= k.back().first) return k.back().second;
  std::size_t i = 1;
  while (k[i].first <= t) ++i;
  return k[i - 1].second + (k[i].second - k[i - 1].second) * ((t - k[i - 1].first) / (k[i].first - k[i - 1].first));
}

/// A scalar profile of time, piecewise linear through its knots (t_i, v_i), constant (v_first,
/// v_last) outside them; no knots: the constant 1. The knots are the load's kinks, where references
/// restart their integration and where the grid t_n = t0 + n h must take the right branch.
struct TimeProfile {
  std::vector<std::pair<double, double>> knots;
  double operator()(double t) const;
  /// The time from which the profile is 0 for ever (+inf if it never settles at 0).
  double quiet_from() const;
  bool operator==(const TimeProfile&) const = default;
};

/// A follower moment: fixed components B in the body basis (d1, d2, d3), scaled by a time profile:
/// spatial moment m(t) = f(t) R B, body moment f(t) B. Not conservative (no potential).
/// Paper 000 eqs. 115 and 118: m_ext(t) = -f(t)(c1 d1 + c2 d2) is B = -(c1, c2, 0) with the hat f of eq. 116.
struct FollowerMoment {
  Vec3 body = Vec3::Zero();
  TimeProfile profile;
  bool operator==(const FollowerMoment&) const = default;
};

/// An external load of a single body. Every use dispatches with std::visit over an `overloaded` set of
/// one handler per alternative, so that a load type added here and handled nowhere fails to compile.
using Load = std::variant<UniformField, FollowerMoment>;

/// The handlers of a std::visit, one lambda per alternative.
template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;  // Clang 14 has no class template argument deduction for aggregates

struct BodyModel {
  Mat3 inertia = Mat3::Identity();  // J_B about the pivot / centre of mass, body frame
  double mass = 1.0;
  bool operator==(const BodyModel&) const = default;
};

/// Settings of the verification runs that belong to the problem (docs/problems.md gives some of them).
struct VerificationSettings {
  double h0 = 0.0;                    // coarsest step of the ladder h0 * 2^-k
  int levels = 6;                     // k = 0 .. levels-1
  std::optional<double> h0_order1;    // coarsest step for first-order schemes (when they need smaller steps)
  std::vector<double> sample_times;   // where Q_II is reported
  /// End of the convergence study's span when it is shorter than the problem's (P5: [0, 10] of
  /// [0, 35]); empty: t_end. Sample times lie in (t0, this].
  std::optional<double> t_end = std::nullopt;
  double exact_threshold = 1e-11;     // drift threshold of an "exact" invariant claim (docs/metrics.md default)
  bool operator==(const VerificationSettings&) const = default;
};

class Problem {
 public:
  std::string name;
  std::string title;
  std::string source;
  /// The equations the problem poses (problems/family.hpp); the built-in rigid_body by default.
  const Family* family = &find_family("rigid_body");
  /// Parameters of the family that have no field here (an outside family's, the gyrostat's rotor),
  /// as its problem-file section holds them; the family derives what it needs in validate().
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  /// The family's own typed data (problems/family_data.hpp): a body system's interactions and
  /// diameters, a body in a fluid's added mass, the gyrostat's internal momentum. Read it through the
  /// family's header (body_system_data(p), added_mass(p), internal_momentum(p)).
  FamilyDataSlot family_data;
  std::vector<BodyModel> bodies{BodyModel{}};
  std::vector<Load> loads;
  State initial{1};
  double t0 = 0.0;
  double t_end = 1.0;
  VerificationSettings verification;

  /// Checks every field (SPD symmetric inertia, rotations in SO(3), finite numbers, t_end > t0...)
  /// and derives the invariants. Throws InputError naming the offending value.
  void finalize();

  bool operator==(const Problem& o) const;

  // ---- structure (valid after finalize) ----
  bool of_family(std::string_view name) const { return family->name() == name; }
  /// No external loads and no loads of the family's own (Family::internal_loads: a body system's
  /// interactions). Valid after finalize.
  bool torque_free() const { return loads.empty() && !internal_loads_; }
  /// Some load has a potential (a uniform field); follower moments have none. Valid after finalize.
  bool has_potential() const { return !fields_.empty(); }
  /// Times in (t0, t_end) where a load's profile has a kink (references restart there). Valid after finalize.
  std::vector<double> load_kinks() const;
  /// The time from which every follower moment vanishes (t0 if there are none; +inf if never).
  double quiet_from() const;
  bool spherical(std::size_t body = 0) const;
  bool translating() const { return family->translating(); }
  int observables() const { return int(bodies.size()) * observables_per_body(translating()); }
  /// Observables that form the configuration (R entries, plus x): the Q_II norm of paper 000.
  std::vector<int> configuration_observables() const;

  // ---- loads (single rigid body) ----
  const Mat3& inertia(std::size_t body = 0) const { return bodies[body].inertia; }
  const Mat3& inertia_inverse(std::size_t body = 0) const { return inertia_inv_[body]; }
  /// Spatial moment t(t, R) about the pivot [N m].
  Vec3 spatial_moment(double t, const Mat3& R) const;
  /// Body moment T = R^T t(t, R), evaluated in the body frame: for a field, T = p x (R^T m a) -- one
  /// matrix-vector product instead of two (the hot path of every loaded scheme).
  Vec3 body_moment(double t, const Mat3& R) const;
  /// d t / d delta for a spatial rotation R -> exp(hat(delta)) R (the moment's tangent, for Newton).
  /// For a field: r f^T - (f . r) I with r = R p, f = m a; for a follower moment m: -hat(m).
  Mat3 spatial_moment_jacobian(double t, const Mat3& R) const;
  /// Potential of the uniform fields (follower moments have none).
  double potential(const Mat3& R) const;
  /// The family's energy of s.
  double energy(const State& s) const { return family->energy(*this, s); }
  /// The loads by type (valid after finalize): the moment evaluations loop over these.
  const std::vector<UniformField>& fields() const { return fields_; }
  const std::vector<FollowerMoment>& followers() const { return followers_; }

  // ---- invariants (the family's, problems/family.hpp) ----
  const std::vector<InvariantDef>& invariants() const { return invariants_; }
  /// Evaluates every invariant of invariants() at s into out (size invariants().size()).
  void evaluate_invariants(const State& s, double* out) const;
  /// evaluate_invariants for one run observed at consecutive states: the same values bit for bit,
  /// through each group's `along` evaluator where the family has one (InvariantGroup::along), which
  /// keeps work between calls. Valid while this problem is; one per run, not shared between threads.
  std::function<void(const State&, double* out)> invariants_along() const;
  /// The same for the invariant invariants()[i] alone (its group is the only one evaluated).
  std::function<double(const State&)> invariant_along(std::size_t i) const;

 private:
  std::vector<Mat3> inertia_inv_;
  // The loads split by type at finalize (the moment evaluations loop over these, no variant dispatch).
  std::vector<UniformField> fields_;
  std::vector<FollowerMoment> followers_;
  bool internal_loads_ = false;
  std::vector<InvariantGroup> invariant_groups_;
  std::vector<InvariantDef> invariants_;  // the groups' definitions, in order
};

}  // namespace rigidbench
