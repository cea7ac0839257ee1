#pragma once
// The body_system family's data and loads (paper 001 section 4, docs/problems.md P5 and P7): n bodies
// in SE(3)^n coupled by binder bonds (eqs. 44, 51, 53), Hertz contact between particles (eq. 56)
// and walls. The potentials themselves are problems/interactions.hpp; this header is what a scheme,
// a reference or a check reads of a body system: its data (Problem::family_data) and the one walk
// over it that gives the loads and the energy.
#include <cstddef>
#include <vector>

#include "rigidbench/core/state.hpp"
#include "rigidbench/core/types.hpp"
#include "rigidbench/problems/family_data.hpp"
#include "rigidbench/problems/problem.hpp"

namespace rigidbench {

/// A binder bond between bodies i and j of a body_system (paper 001 section 4): bending/torsion
/// (eq. 44), axial (eq. 51) and shear (eq. 53, frame-consistent form) stiffnesses about the reference
/// configuration: bond vector rest = x_i0 - x_j0 and relative attitude R_i0 R_j0^T = I (the paper's R0 = I).
struct Bond {
  std::size_t i = 0, j = 0;
  double bending = 0.0, axial = 0.0, shear = 0.0;  // K^m, K^a, K^s
  Vec3 rest = Vec3::Zero();
  bool operator==(const Bond&) const = default;
};

/// A rigid wall n . x = offset (n unit, pointing into the free side), acting on every particle as
/// eq. 56 with the wall a particle of zero diameter.
struct Wall {
  Vec3 normal = Vec3::UnitX();
  double offset = 0.0;
  double stiffness = 0.0;
  bool operator==(const Wall&) const = default;
};

/// The interaction potentials of a body_system (problems/interactions.hpp). Data, like the loads.
struct Interactions {
  std::vector<Bond> bonds;
  double contact_stiffness = 0.0;  // K^pp of eq. 56 for every overlapping pair of particles
  std::vector<Wall> walls;
  bool empty() const { return bonds.empty() && contact_stiffness == 0.0 && walls.empty(); }
  bool operator==(const Interactions&) const = default;
};

/// What a body_system problem holds beyond the common model (Problem::family_data).
struct BodySystemData : FamilyDataOf<BodySystemData> {
  /// Contact diameter D_b of each body (eq. 56); empty or 0: a point particle. validate() makes it
  /// one entry per body.
  std::vector<double> diameters;
  Interactions interactions;
  bool operator==(const BodySystemData&) const = default;
};

/// The body system's data of p (none: no interactions, point particles).
inline const BodySystemData& body_system_data(const Problem& p) { return p.family_data.get<BodySystemData>(); }

/// The contact diameter of body b (0 where none is set).
inline double diameter(const BodySystemData& d, std::size_t b) { return b < d.diameters.size() ? d.diameters[b] : 0.0; }

/// The energy of a body_system by kind (paper 001 Fig. 4).
struct SystemEnergy {
  double translational = 0, rotational = 0;             // sum m|v|^2/2, sum W.JW/2
  double bending = 0, axial = 0, shear = 0;             // U^m, U^a, U^s
  double contact = 0, wall = 0;                         // U^pp, U^pw
  double total() const { return translational + rotational + bending + axial + shear + contact + wall; }
};

/// Spatial forces F_b = -dU/dx_b and spatial moments m_b = -dU/d(delta_b) of p's interactions at the
/// configuration (R_b, x_b), b = 0..n-1 (every output array has n entries; overwritten).
void system_loads(const Problem& p, const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment);
/// The energy of s by kind: kinetic, and each interaction potential.
SystemEnergy system_energy(const Problem& p, const State& s);

}  // namespace rigidbench
