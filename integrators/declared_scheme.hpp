#pragma once
// Schemes declared at run time rather than compiled: a Python class (python/) or trajectories scored
// from files (verification/scoring.hpp). Their declaration is data read from the user, so it is
// validated here, once, with the messages a user needs; the SchemeInfo it yields lives as long as the
// process (like a compiled scheme's static one) so reports may point at it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "integrator.hpp"

namespace rigidbench {

/// A setting an outside scheme declares (SettingInfo with its own strings): `--set` and the gate's
/// settings reach it as for a compiled scheme.
struct SettingDeclaration {
  std::string name, description;
  double default_value = 0, min = 0, max = 0;
  bool integer = false;
};

struct SchemeDeclaration {
  std::string name;                // [a-z0-9_]{1,64} (core/names.hpp), the report key
  std::string title, source, representation, notes;
  int order = 0;                   // >= 1: the order the ladder and the verdicts test (adaptive: 0 = variable)
  SchemeKind kind = SchemeKind::explicit_;
  std::vector<std::string> families{"rigid_body"};  // model families it integrates (docs/extending.md)
  std::vector<std::string> features;
  bool spherical_only = false, torque_free_only = false;
  Claims claims;
  /// SchemeInfo::family_claims: the claims on a family of `families` where they differ from `claims`
  /// (an engine whose joints are constraints in maximal coordinates keeps no constraint on a chain).
  std::vector<std::pair<std::string, Claims>> family_claims;
  /// Chooses its own steps (SchemeInfo::adaptive; docs/adaptive.md): judged on the tolerance ladder,
  /// and declares the settings abs_tolerance and rel_tolerance.
  bool adaptive = false;
  /// SchemeInfo::error_estimate_order: -1 (order - 1), else in [0, order - 1]; an adaptive scheme of a
  /// fixed order only.
  int error_estimate_order = -1;
  bool dense_output = false;  ///< SchemeInfo::dense_output; an adaptive scheme only
  std::string identity;       ///< SchemeInfo::identity (a Python class: its `version`, else its source's hash)
  std::string version;        ///< SchemeInfo::version (a program's declaration file)
  std::string precision;      ///< SchemeInfo::precision: "float32", or empty for double
  /// Settings beyond an adaptive scheme's tolerances (a program's declaration file): names
  /// [a-z0-9_]{1,64}, min <= default <= max, all finite, a whole default where integer.
  std::vector<SettingDeclaration> settings;
  /// Applicability::refuses: a condition of the scheme's own on a problem (a program that builds one
  /// physical body: engines/engine_body.hpp, refusal).
  std::string (*refuses)(const Problem& p) = nullptr;
  /// One of rigidbench's own engines (engines/npm/programs.json): it may take a name under the
  /// engines' reserved prefixes (engine_name_prefixes), which an outside scheme may not.
  bool engine = false;
};

/// Validates `d` (name, order in [1, 12] or, adaptive, [0, 12], at most NameList::kCapacity families and features, names
/// of known families) and stores it for the life of the process. Throws InputError naming the field.
const SchemeInfo& declare_scheme(SchemeDeclaration d);

/// "explicit" | "implicit" | "semi-implicit" (also "semi_implicit"); throws InputError otherwise.
SchemeKind scheme_kind_from_string(std::string_view s);
/// "none" | "bounded" | "exact"; throws InputError otherwise.
Claim claim_from_string(std::string_view s);
/// Sets the claim on one invariant kind ("energy", "momentum", "casimir", "axial", "constraint",
/// "nonholonomic", or "energy_with_potential"); throws InputError for an unknown kind.
void set_claim(Claims& c, std::string_view kind, Claim value);
/// Claims from "kind=claim" assignments (also comma-separated in one string); throws InputError.
Claims parse_claims(const std::vector<std::string>& assignments);
/// The invariant kinds a claim may name, for messages and `--help`.
std::string claim_kind_names();
/// For a scheme judged on one problem only (a scored file set): every invariant kind it claims must be
/// one the problem has; InputError naming the kinds the problem has otherwise (`casimir` on heavy_top).
void check_claims_apply(const Claims& c, const Problem& p, std::string_view scheme);

}  // namespace rigidbench
