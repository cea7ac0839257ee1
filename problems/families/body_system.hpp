#pragma once
// The body_system family's data and loads (paper 001 section 4, docs/problems.md P5 and P7): n bodies
// in SE(3)^n coupled by binder bonds (eqs. 44, 51, 53), Hertz contact between particles (eq. 56)
// and walls. The potentials themselves are problems/interactions.hpp; this header is what a scheme,
// a reference or a check reads of a body system: its data (Problem::family_data) and the one walk
// over it that gives the loads and the energy.
#include <cstddef>
#include <vector>

#include "../../core/state.hpp"
#include "../../core/types.hpp"
#include "../family_data.hpp"
#include "../interactions.hpp"
#include "../problem.hpp"

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
/// The loads of one body system evaluated again and again on nearby configurations - a scheme's
/// steps, a reference's stages - as system_loads gives them, bit for bit, on any number of threads
/// (docs/decisions.md, "Parallel loads"; tests/test_interactions.cpp). The contact pairs come from a
/// Verlet list kept between evaluations (interactions::NeighbourList) instead of a grid built at
/// each; the bonds are summed first, in their order, as the walk does; then each body gathers its
/// contact forces from its neighbours in ascending order - the order in which the walk's pair loop
/// adds them to it, each pair's force computed from the same operands - and its walls', in theirs.
/// A body's sum is its own, so the bodies are split over threads (parallel::for_each_chunk) from
/// kParallelBodies bodies up. One object per integration: it holds the list and is not shared
/// between threads.
class SystemLoads {
 public:
  /// From this many bodies up the gather is split over parallel::spare_threads(): below it a fork
  /// and join cost more than they save (a 2 000-sphere gas gains, a torus of 80 does not).
  static constexpr std::size_t kParallelBodies = 512;
  explicit SystemLoads(const Problem& p);
  /// As system_loads(p, R, x, force, moment), on parallel::spare_threads() threads.
  void operator()(const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment);
  /// The same on `threads` threads exactly (the tests compare thread counts).
  void evaluate(const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment, int threads);
  /// The Verlet list's builds so far (0 without contact).
  std::size_t list_builds() const { return near_.builds(); }

 private:
  const Problem* p_;
  double reach_;
  bool contact_;
  interactions::NeighbourList near_;
};

/// The energy of s by kind: kinetic, and each interaction potential.
SystemEnergy system_energy(const Problem& p, const State& s);

/// The energy of one body system evaluated again and again on nearby states - a run observed at every
/// step - as system_energy gives it, bit for bit: the contact pairs come from a Verlet list kept
/// between calls, as SystemLoads keeps it, instead of a grid built at each (on the 2 000-sphere gas
/// the grid made the energy check of a long-time run cost four times the step it checked). The sum is
/// the walk's: bonds in their order, then every listed pair (i, j), i < j, with i ascending and each
/// body's neighbours ascending - the all-pairs order, and a pair off the list is apart and adds
/// nothing - then the walls. One object per run; not shared between threads.
class SystemEnergyAlong {
 public:
  explicit SystemEnergyAlong(const Problem& p);
  SystemEnergy operator()(const State& s);

 private:
  const Problem* p_;
  double reach_;
  bool contact_;
  interactions::NeighbourList near_;
  std::vector<Vec3> x_;
};

}  // namespace rigidbench
