#pragma once
// A model family: the equations a problem poses, and everything that follows from them. Each family
// is one file under problems/families/ that declares, in one place:
//
// | member                     | what it declares                                                          |
// |----------------------------|---------------------------------------------------------------------------|
// | name(), title()            | the name problems and schemes use (Applicability::families), a title      |
// | equations()                | the family whose equations schemes integrate: its own name, or the name   |
// |                            | of the family it builds on (the gyrostat: rigid_body + required_features) |
// | translating()              | the canonical state carries x, v: observables per body 18, else 12        |
// | many_bodies()              | more than one body is allowed (SE(3)^n)                                   |
// | required_features()        | terms a scheme must handle beyond its family's equations (Applicability)  |
// | validate(p)                | the family's own checks and derived data, after the common ones           |
// | (its data type)            | what only the family means, in Problem::family_data (family_data.hpp)     |
// | internal_loads(p)          | the family's own forces act (a body system's interactions): not torque-free|
// | length_scale(p)            | the length the positions vary on (the symplecticity check's perturbations) |
// | invariants(p)              | each invariant of the exact flow with, next to it, its evaluation from    |
// |                            | the canonical state (docs/metrics.md, Invariants)                          |
// | energy(p, s)               | the energy of the canonical state (paper 001's E-error, plots)             |
// | momenta(p, s, m),          | the Legendre transform of a Hamiltonian problem and its inverse (optional: |
// | velocities(p, m, s)        | the symplecticity check needs them)                                        |
// | formulations(p)            | the reference formulations that solve it, by name, the default first      |
// | read(...), write(...)      | its problem-file section (docs/problem-files.md)                           |
// | catalogue()                | catalogue problems of the family (optional)                               |
//
// Nothing outside a family's file switches on families: schemes say which families they integrate
// (by name), references are looked up by (family, formulation), and the problem model asks its
// family. Adding a family is its file plus one line in problems/families/builtin.cpp (or, from a
// program linking the library, one call to register_family: docs/extending.md).
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/names.hpp"
#include "../core/state.hpp"

namespace rigidbench {

class Problem;
struct ProblemFileReader;

/// nonholonomic: a nonholonomic constraint of the canonical state (the non-twist condition w . d3 = 0
/// of paper 000 eq. 72). A scheme's claims are made per kind (integrators/integrator.hpp, Claims).
enum class InvariantKind { energy, momentum, casimir, axial, constraint, nonholonomic };
const char* to_string(InvariantKind k);

struct InvariantDef {
  std::string name;
  InvariantKind kind;
  std::string description;
  double natural_scale;  // S_I when |I_0| is near zero (docs/metrics.md, Invariants)
  /// A component of a vector invariant (pi_x...): judged against its own size |I_0| like any
  /// invariant, but its round-off is relative to the vector's norm, the natural scale (|pi_0|), so
  /// the verdicts' round-off allowances are ulps of that (docs/metrics.md, Invariants).
  bool component = false;
  /// Conserved from this time on (the loads vanish there, e.g. paper 000 cases 2 and 3 from t = 1);
  /// drift is measured against the value at the first step at or after it. -inf: from t0.
  double from_time = -std::numeric_limits<double>::infinity();
};

/// A body's momenta conjugate to its attitude and position (docs/metrics.md, "Structure"): the body
/// angular momentum Pi = dL/dW and the spatial linear momentum P = dL/dv (zero for a family that
/// does not translate).
struct BodyMomenta {
  Vec3 Pi = Vec3::Zero();
  Vec3 P = Vec3::Zero();
};

/// Invariants defined together with the one function that evaluates them from the canonical state
/// (the three components of a momentum share their evaluation). `evaluate` writes defs.size() values.
/// It may capture values derived at validation (a field direction...), never a pointer to the
/// problem: problems are copied.
struct InvariantGroup {
  using Along = std::function<void(const State&, double* out)>;
  using Evaluate = std::function<void(const Problem&, const State&, double* out)>;
  InvariantGroup() = default;
  InvariantGroup(std::vector<InvariantDef> d, Evaluate e, std::function<Along(const Problem&)> a = {})
      : defs(std::move(d)), evaluate(std::move(e)), along(std::move(a)) {}
  std::vector<InvariantDef> defs;
  Evaluate evaluate;
  /// Optional: an evaluator for one run observed at consecutive, nearby states (a long-time run
  /// observes every step) that keeps work between its calls - a body system keeps its contact pairs'
  /// Verlet list - and writes what `evaluate` writes, bit for bit. Made per run, for the problem it
  /// is given (which must outlive it). Empty: `evaluate` at each call.
  std::function<Along(const Problem&)> along;
};

/// A catalogue problem a family declares (docs/problems.md): made on demand, named `name`.
struct CatalogueEntry {
  std::string name;
  std::function<Problem()> make;
  bool quick = true;  // part of the quick suite
};

class Family {
 public:
  virtual ~Family() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view title() const = 0;
  /// Schemes that integrate these equations (Applicability::families) and handle every required
  /// feature apply to the family.
  virtual std::string_view equations() const { return name(); }
  virtual bool translating() const { return false; }
  virtual bool many_bodies() const { return false; }
  virtual NameList required_features() const { return {}; }

  /// The family's own checks, after the common ones of Problem::finalize (names, SPD inertia, rotations,
  /// finite numbers, span, ladder); may set derived data. Throws InputError naming the value.
  virtual void validate(Problem& p) const = 0;
  /// Forces of the family's own act on p beyond its external loads (a body system's bonds, contact
  /// and walls): Problem::torque_free() is false then. Asked once, after validate().
  virtual bool internal_loads(const Problem& /*p*/) const { return false; }
  /// A length on which the bodies' positions vary, scaling the position perturbations of the
  /// symplecticity check (verification/structure.cpp); 1 by default.
  virtual double length_scale(const Problem& /*p*/) const { return 1.0; }
  /// The invariants of the exact flow of a validated problem.
  virtual std::vector<InvariantGroup> invariants(const Problem& p) const = 0;
  virtual double energy(const Problem& p, const State& s) const = 0;
  /// Names of the reference formulations that solve p (reference/reference.hpp), the default first.
  virtual std::vector<std::string> formulations(const Problem& p) const = 0;

  /// The Legendre transform of a problem whose flow is Hamiltonian on T*SE(3)^n (T*SO(3) per body
  /// when it does not translate), with the canonical symplectic form: the momenta of s, one per body,
  /// into m. False, m untouched, where the family declares no such structure for p (a nonholonomic
  /// constraint, a non-conservative load): the symplecticity check is not made there
  /// (verification/structure.hpp). Not declared by default.
  virtual bool momenta(const Problem& /*p*/, const State& /*s*/, std::vector<BodyMomenta>& /*m*/) const { return false; }
  /// Its inverse: the velocities W (and v) of s from its attitudes (and positions) and the momenta m.
  virtual void velocities(const Problem& /*p*/, const std::vector<BodyMomenta>& /*m*/, State& /*s*/) const {}
  /// Whether body b's position is one of the canonical coordinates of momenta() (its conjugate: P): every
  /// body's of a translating family by default; a chain's positions follow from its attitudes, and only a
  /// free chain's body 0 has one of its own.
  virtual bool canonical_position(const Problem& /*p*/, std::size_t /*b*/) const { return translating(); }

  /// Catalogue problems of this family that the catalogue lists after the built-in ones (catalogue.hpp).
  virtual std::vector<CatalogueEntry> catalogue() const { return {}; }

  /// Problem-file section: the top-level keys and per-body keys the family reads beyond the common
  /// ones (name, title, source, family, bodies[inertia, mass], loads, initial, time, verification).
  virtual std::vector<const char*> file_keys() const { return {}; }
  virtual std::vector<const char*> body_file_keys() const { return {}; }
  /// Reads the family's keys of a problem file `j` into p (called before validation).
  virtual void read(const nlohmann::json& /*j*/, Problem& /*p*/, const ProblemFileReader& /*r*/) const {}
  /// Writes the family's keys into the problem file `j` (the common keys are written already);
  /// `body` is called per body with that body's object.
  virtual void write(const Problem& /*p*/, nlohmann::ordered_json& /*j*/) const {}
  virtual void write_body(const Problem& /*p*/, std::size_t /*b*/, nlohmann::ordered_json& /*body*/) const {}
};

/// The family registered under `name`; throws InputError listing the known ones.
const Family& find_family(std::string_view name);
/// Every registered family: the built-in ones (problems/families/builtin.cpp), then the program's.
std::vector<const Family*> all_families();
/// Adds a family; throws InputError for a taken or malformed name ([a-z0-9_]{1,64}). Register before
/// running a command; the family lives as long as the program.
const Family& register_family(std::unique_ptr<Family> f);

}  // namespace rigidbench
