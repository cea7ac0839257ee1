#pragma once
// Structure of a scheme's one-step map Phi_h (docs/metrics.md, "Structure"): is it symmetric
// (Phi_-h o Phi_h = identity) and is it symplectic (its Jacobian in canonical coordinates of
// T*SE(3)^n preserves the symplectic form)? Both are measured for every (scheme, problem) pair, at
// the ladder's coarsest step and three doublings of it, and judged against the scheme's claim
// (Claims::symmetric, Claims::symplectic): a claimed property is a gating check
// ("structure:symmetric", "structure:symplectic"), an unclaimed one is reported as observed.
#include <string>
#include <vector>

#include "../integrators/registry.hpp"
#include "../problems/problem.hpp"
#include "metrics.hpp"

namespace rigidbench {

/// What the measurements show: preserved (every defect within its allowance, and every allowance
/// small enough to mean something: <= 1e-6), broken (some defect above ten times its allowance),
/// undecided (neither), not_checked (reason says why).
enum class Observed { preserved, broken, undecided, not_checked };
const char* to_string(Observed o);

struct StructureCheck {
  std::string property;  // "symmetric" | "symplectic"
  bool claimed = false;
  std::vector<double> h;          // steps measured (h0 2^j; NaN defect where the step broke down)
  std::vector<double> defect;     // the normalised defect at each h
  std::vector<double> allowance;  // what round-off / differencing allows at each h
  /// Fitted slope of log defect against log h over the steps where the property is broken; NaN if
  /// fewer than 2 such steps. Symmetry of a method of order p: p + 1 for odd p, p + 2 for even p (the
  /// h^(p+1) terms of the forward and the backward step cancel); symplecticity: p + 1.
  double slope = kNaN;
  Observed observed = Observed::not_checked;
  Verdict verdict = Verdict::undefined;  // claimed only: pass (preserved), fail (broken), undefined
  std::string note;
};

struct StructureResult {
  StructureCheck symmetric, symplectic;
  /// The order parity a symmetric map implies (an even order): "even", or what contradicts it.
  std::string order_parity;
};

/// Symplecticity is differenced in at most this many canonical coordinates (12 per translating body).
/// Not the 80-particle torus (960): its neighbours touch at t0, where the Hertz force is only C^1, so
/// the Jacobian is not defined there (the two increments disagree by 1e-2), and forming it costs ~1 s.
constexpr int kMaxSymplecticDimension = 96;
/// Steps h0 2^j, j = 0 .. kStructureSteps-1.
constexpr int kStructureSteps = 4;

/// Measures and judges both properties of `s` on `p` from its initial state; h0 is the ladder's
/// coarsest step. Never throws for a scheme's breakdown (recorded per step).
StructureResult assess_structure(const Problem& p, const SchemeEntry& s, double h0);

}  // namespace rigidbench
