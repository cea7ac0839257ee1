#pragma once
// The registry is a type list (compile time: benchmarks and typed tests iterate over it); the
// runtime registry used by the command line is generated from it. Adding a scheme is one file
// plus one line in `Schemes` below.
#include <memory>
#include <string>
#include <vector>

#include "integrators/akw_midpoint.hpp"
#include "integrators/any_integrator.hpp"
#include "integrators/dlm_splitting.hpp"
#include "integrators/gebhardt_romero.hpp"
#include "integrators/lgvi.hpp"
#include "integrators/lie_euler.hpp"
#include "integrators/odeint_rk4_quaternion.hpp"
#include "integrators/rig_koziara_bicanic.hpp"
#include "integrators/rkmk4.hpp"
#include "integrators/rrp_schemes.hpp"
#include "integrators/simo_wong.hpp"
#include "integrators/terze_muller_zlatar.hpp"

namespace rigidbench {

template <Integrator... S>
struct SchemeList {
  /// Calls f.template operator()<S>() for every scheme, in order.
  template <class F>
  static void for_each(F&& f) { (f.template operator()<S>(), ...); }
};

using Schemes = SchemeList<OdeintRk4Quaternion, LieEuler, TerzeMullerZlatar, RigPos, RigNeg, RigImp,
                           BakerGonzalezBody, BakerGonzalezSpatial, BakerGonzalezNewmark, CampelloSymplecticEuler,
                           CampelloImplicit, DlmSplitting, Rkmk4, GebhardtRomeroStandard, GebhardtRomeroNonholonomic,
                           SimoWong, AkwMidpoint, Lgvi>;

/// The in-run baseline every cost ratio refers to (METRICS.md, Cost).
using BaselineScheme = OdeintRk4Quaternion;

struct SchemeEntry {
  const SchemeInfo* info;
  std::unique_ptr<AnyIntegrator> (*factory)(const Problem&, const SchemeSettings&);
  SchemeSettings settings;  // empty in the registry: every default
  std::unique_ptr<AnyIntegrator> make(const Problem& p) const { return factory(p, settings); }
};

const std::vector<SchemeEntry>& registry();
/// Exact name; throws InputError listing the registered names.
const SchemeEntry& find_scheme(const std::string& name);
/// Names, shell-style globs (*, ?) or "all"; an entry matching nothing is an InputError.
std::vector<const SchemeEntry*> select_schemes(const std::vector<std::string>& patterns);
/// Copies of `schemes` with user settings applied. Each assignment is "name=value" (every selected
/// scheme that declares `name`; at least one must) or "scheme.name=value" (that scheme, which must be
/// selected and declare it). Values must be finite, within the SettingInfo range, whole numbers where
/// declared integer. Throws InputError naming the assignment otherwise.
std::vector<SchemeEntry> configure_schemes(const std::vector<const SchemeEntry*>& schemes,
                                           const std::vector<std::string>& assignments);
bool glob_match(const std::string& pattern, const std::string& text);

}  // namespace rigidbench
