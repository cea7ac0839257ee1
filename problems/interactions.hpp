#pragma once
// Interaction potentials of the body_system family (paper 001 section 4, docs/problems.md P5): binder
// bonds between two particles (bending/torsion eq. 44, axial eq. 51, shear eq. 53 in a
// frame-consistent form), particle-particle contact (eq. 56) and particle-wall contact (eq. 56 with
// the wall as a particle of zero diameter). Each term returns its energy and, when given, adds its
// spatial forces F = -dU/dx and spatial moments m = -dU/d(delta), R -> exp(hat(delta)) R, to the
// bodies it acts on. Every term is invariant under translations, so sum F = 0; every term except
// the wall is invariant under rotations, so sum (x x F + m) = 0: the free system conserves linear
// and angular momentum (tests/test_interactions.cpp checks both, and every load against finite
// differences of the energy).
//
// Decisions (docs/decisions.md, "P5 torus"):
//  - eq. 53 as printed applies R_j to the spatial bond vector and is not invariant under a global
//    rotation; the shear energy used is U^s = K^s/2 [1 - c]^2, c = (R_i + R_j)/2 d0^ . d^, with d0^
//    the unit reference bond vector (body components, R0 = I) and d^ the current one: the reference
//    direction carried by the mean of the two attitudes. It equals the printed form when R_i = R_j.
//  - eq. 56 prints the prefactor 5/2; the force it states (eq. 57) is the gradient of
//    (2/5) K [1 - |d|/D]_+^{5/2} (Hertz), which is the energy used, so that energy and force agree.
#include "rigidbench/core/types.hpp"

namespace rigidbench::interactions {

/// eq. 44: U = K/2 |theta|^2, hat(theta) = log(R_i R_j^T); m_i = -K theta, m_j = +K theta (eq. 47).
double bending(double K, const Mat3& Ri, const Mat3& Rj, Vec3* mi = nullptr, Vec3* mj = nullptr);

/// eq. 51: U = K/2 (|d|/L0 - 1)^2, d = x_i - x_j; the forces of eq. 52.
double axial(double K, double L0, const Vec3& xi, const Vec3& xj, Vec3* Fi = nullptr, Vec3* Fj = nullptr);

/// Frame-consistent eq. 53 (see above); rest = x_i0 - x_j0 in the reference configuration.
double shear(double K, const Vec3& rest, const Mat3& Ri, const Mat3& Rj, const Vec3& xi, const Vec3& xj,
             Vec3* Fi = nullptr, Vec3* Fj = nullptr, Vec3* mi = nullptr, Vec3* mj = nullptr);

/// eq. 56 (with 2/5, see above): U = 2K/5 [1 - |d|/D]_+^{5/2}, D = (D_i + D_j)/2; the force of eq. 57.
double contact(double K, double D, const Vec3& xi, const Vec3& xj, Vec3* Fi = nullptr, Vec3* Fj = nullptr);

/// A wall n . x = c acting on a particle of diameter D_i as eq. 56 with the wall a particle of zero
/// diameter: gap n . x - c against D_i / 2. Not invariant under translations along n (it is a wall).
double wall(double K, double Di, const Vec3& normal, double offset, const Vec3& x, Vec3* F = nullptr);

}  // namespace rigidbench::interactions
