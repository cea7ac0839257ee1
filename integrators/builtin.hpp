#pragma once
// The built-in schemes as a type list: typed tests iterate over it, and the runtime registry
// (registry.hpp) and the benchmarks follow from it (the figures' styles are keyed by name,
// reports/styles.cpp). Adding a built-in scheme is its header and source (integrators/CMakeLists.txt
// finds the source) plus its include and its entry in the list below (docs/architecture.md).
//
// Each scheme's type-erased wrapper (what verify, simulate and bench step) is instantiated once, in
// the scheme's own .cpp, and declared `extern template` in its header: the compiler inlines the update
// into it there, in a translation unit of its own size, rather than in one unit holding all of them
// (whose inlining budget would then decide the instruction counts).
#include "akw_midpoint.hpp"
#include "any_integrator.hpp"
#include "dlm_splitting.hpp"
#include "gebhardt_romero.hpp"
#include "lgvi.hpp"
#include "lie_euler.hpp"
#include "odeint_adaptive.hpp"
#include "odeint_rk4_quaternion.hpp"
#include "rig_koziara_bicanic.hpp"
#include "rk4_quaternion.hpp"
#include "rkmk4.hpp"
#include "rkmk_dopri5.hpp"
#include "rrp_schemes.hpp"
#include "simo_wong.hpp"
#include "terze_muller_zlatar.hpp"

namespace rigidbench {

template <Integrator... S>
struct SchemeList {
  /// Calls f.template operator()<S>() for every scheme, in order.
  template <class F>
  static void for_each(F&& f) { (f.template operator()<S>(), ...); }
};

using Schemes = SchemeList<OdeintRk4Quaternion, Rk4Quaternion, LieEuler, TerzeMullerZlatar, RigPos, RigNeg, RigImp,
                           BakerGonzalezBody, BakerGonzalezSpatial, BakerGonzalezNewmark, CampelloSymplecticEuler,
                           CampelloImplicit, DlmSplitting, Rkmk4, GebhardtRomeroStandard, GebhardtRomeroNonholonomic,
                           SimoWong, AkwMidpoint, Lgvi>;

/// The built-in adaptive schemes (SchemeInfo::adaptive; docs/adaptive.md): judged on the tolerance
/// ladder, so not in the typed tests of the step ladder. Registered after Schemes, selected by name or
/// glob (e.g. 'odeint_*'), not by "all": the gate and the benchmarks do not take them yet.
using AdaptiveSchemes =
    SchemeList<OdeintDopri5, OdeintCashKarp54, OdeintFehlberg78, OdeintBulirschStoer, RkmkDopri5>;

/// The in-run baseline every cost ratio refers to (registry.hpp, baseline_scheme()).
using BaselineScheme = OdeintRk4Quaternion;
/// The second in-run baseline: the same RK4 at the arithmetic limit (registry.hpp, rk4_baseline_scheme()).
using Rk4BaselineScheme = Rk4Quaternion;

}  // namespace rigidbench
