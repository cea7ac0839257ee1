#pragma once
// The heavy symmetric (Lagrange) top in closed form (docs/problems.md P2; [Byrd] for the elliptic
// functions): a body with J1 = J2 under one uniform field acting at a point of its symmetry axis. With
// u = cos(theta) the cosine of the angle between the axis d3 and the "up" direction -a/|a|, the spin
// W3, the vertical momentum and the energy are constant and
//   u'^2 = f(u) = (1 - u^2)(alpha - beta u) - (b - a u)^2 = beta (u - u1)(u - u2)(u - u3),
//   u(t) = u1 + (u2 - u1) sn^2(lambda t + tau0, k),  k^2 = (u2 - u1)/(u3 - u1),  lambda^2 = beta (u3 - u1)/4,
// with phi' = (b - a u)/(1 - u^2) and psi' = W3 - u phi' integrated by Gauss-Kronrod quadrature
// (ZXZ Euler angles about the up direction). Used by the paper suite (paper 003) as the exact
// solution under gravity; not a reference formulation of the catalogue (the heavy top's references stay
// odeint ones, so no report changes with it).
#include <string>
#include <vector>

#include "../problems/problem.hpp"
#include "reference.hpp"

namespace rigidbench {

/// Empty when the closed form applies to p, else why not: one body of the rigid_body family, inertia
/// diag(A, A, C) in the body frame, exactly one uniform field acting at l E3 with l > 0 (the centre of
/// mass above the pivot along the axis), and an axis that never reaches the up direction or its
/// opposite (sin(theta) > 0 throughout).
std::string lagrange_top_not_applicable(const Problem& p);

/// The closed form on `times` (increasing from p.t0), evaluated in double; its error estimate is the
/// difference from the same evaluation in x87 extended precision (kind "analytic", formulation
/// "lagrange_top_quadrature"). Throws InputError when it does not apply.
ReferenceSolution lagrange_top_reference(const Problem& p, const std::vector<double>& times);

}  // namespace rigidbench
