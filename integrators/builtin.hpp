#pragma once
// The built-in schemes as a type list: typed tests iterate over it, and the runtime registry
// (registry.hpp) is generated from it. Adding a built-in scheme is one file plus one line here.
#include "rigidbench/integrators/akw_midpoint.hpp"
#include "rigidbench/integrators/any_integrator.hpp"
#include "rigidbench/integrators/dlm_splitting.hpp"
#include "rigidbench/integrators/gebhardt_romero.hpp"
#include "rigidbench/integrators/lgvi.hpp"
#include "rigidbench/integrators/lie_euler.hpp"
#include "rigidbench/integrators/odeint_rk4_quaternion.hpp"
#include "rigidbench/integrators/rig_koziara_bicanic.hpp"
#include "rigidbench/integrators/rk4_quaternion.hpp"
#include "rigidbench/integrators/rkmk4.hpp"
#include "rigidbench/integrators/rrp_schemes.hpp"
#include "rigidbench/integrators/simo_wong.hpp"
#include "rigidbench/integrators/terze_muller_zlatar.hpp"

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

// Each scheme's type-erased wrapper (what verify, simulate and bench step) is instantiated once, in
// the scheme's own .cpp: the compiler inlines the update into it there, in a translation unit of its
// own size, rather than in one unit holding all nineteen (whose inlining budget would then decide
// the instruction counts).
extern template class Erased<OdeintRk4Quaternion>;
extern template class Erased<Rk4Quaternion>;
extern template class Erased<LieEuler>;
extern template class Erased<TerzeMullerZlatar>;
extern template class Erased<RigPos>;
extern template class Erased<RigNeg>;
extern template class Erased<RigImp>;
extern template class Erased<BakerGonzalezBody>;
extern template class Erased<BakerGonzalezSpatial>;
extern template class Erased<BakerGonzalezNewmark>;
extern template class Erased<CampelloSymplecticEuler>;
extern template class Erased<CampelloImplicit>;
extern template class Erased<DlmSplitting>;
extern template class Erased<Rkmk4>;
extern template class Erased<GebhardtRomeroStandard>;
extern template class Erased<GebhardtRomeroNonholonomic>;
extern template class Erased<SimoWong>;
extern template class Erased<AkwMidpoint>;
extern template class Erased<Lgvi>;

/// The in-run baseline every cost ratio refers to (registry.hpp, baseline_scheme()).
using BaselineScheme = OdeintRk4Quaternion;
/// The second in-run baseline: the same RK4 at the arithmetic limit (registry.hpp, rk4_baseline_scheme()).
using Rk4BaselineScheme = Rk4Quaternion;

}  // namespace rigidbench
