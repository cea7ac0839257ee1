#pragma once
// The spherical_chain family: n rigid bodies joined in a chain by spherical (ball) joints, hanging from a
// fixed pivot or floating free, under uniform gravity (docs/problems.md, "Chains"). Configuration on
// SO(3)^n (each body's attitude R_i; a free chain adds body 0's position): the centres of mass follow
// from the joints. Body i (i >= 1) is joined to body i-1 at joint i; joint 0 joins body 0 to the pivot.
// In body i's frame, from its centre of mass, a_i is the point of its inboard joint (toward the pivot)
// and b_i that of its outboard joint (toward body i+1), so that the joints hold
//   x_0 + R_0 a_0 = p  (pivoted),     x_i + R_i a_i = x_{i-1} + R_{i-1} b_{i-1}  (i >= 1),
// the global formulation of connected rigid bodies on SO(3)^n of [LLM] (T. Lee, M. Leok, N. H.
// McClamroch, Global Formulations of Lagrangian and Hamiltonian Dynamics on Manifolds, Springer 2018,
// ch. 7; docs/bibliography.md). The canonical state holds every body's (R, W, x, v), x the centre of
// mass: minimal-coordinate schemes fill x and v from the joints, maximal-coordinate engines carry them,
// and the joints' separation is then an invariant the problem measures (a constraint).
#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <vector>

#include "../../core/state.hpp"
#include "../../core/types.hpp"
#include "../family_data.hpp"
#include "../problem.hpp"

namespace rigidbench {

/// What a spherical_chain problem holds beyond the common model (Problem::family_data). The bodies'
/// inertia (Problem::bodies) is about each body's centre of mass.
struct ChainData : FamilyDataOf<ChainData> {
  std::optional<Vec3> pivot;          // the fixed point joint 0 holds body 0 to; none: a free chain
  Vec3 gravity = Vec3::Zero();        // g: the potential is U = -sum m_i g . x_i
  std::vector<Vec3> inboard, outboard;  // a_i, b_i per body (body frame, from the centre of mass)
  bool operator==(const ChainData& o) const {
    return pivot == o.pivot && gravity == o.gravity && inboard == o.inboard && outboard == o.outboard;
  }
};

/// The chain's data of p (none: an empty chain).
inline const ChainData& chain_data(const Problem& p) { return p.family_data.get<ChainData>(); }

/// The centres of mass and their velocities of s from its attitudes and angular velocities (and, for a
/// free chain, body 0's position and velocity), through the joints: x_i = x_{i-1} + R_{i-1} b_{i-1} -
/// R_i a_i, v_i = v_{i-1} + R_{i-1} (W_{i-1} x b_{i-1}) - R_i (W_i x a_i).
void place_chain(const ChainData& d, State& s);

/// c_ij of the chain's kinematics x_i = base + sum_{j <= i} R_j c_ij (base: the pivot, or body 0's centre
/// of mass when free): b_j - a_j for j < i and -a_i for j = i, where body 0 of a free chain has no
/// inboard term (c_i0 = b_0, c_00 = 0); zero for j > i. The chain's Lagrangian on SO(3)^n is built on
/// it: x_i' = -sum_j R_j hat(c_ij) W_j (integrators/lgvi_chain.hpp).
Vec3 chain_offset(const ChainData& d, std::size_t i, std::size_t j);

/// The chain's Legendre transform, the one place it is written (the family's momenta and velocities, the
/// LGVI's start and output use it). With v_i = v_base - sum_{j <= i} R_j hat(c_ij) W_j (chain_offset;
/// v_base the free chain's body 0 velocity, zero on a pivot), L = sum (W_j . J_j W_j + m_i |v_i|^2) / 2 - U
/// gives the left-trivialised momenta Pi_j = dL/dW_j = J_j W_j + sum_{i >= j} m_i hat(c_ij) R_j^T v_i and,
/// free, P = dL/dv_base = sum m_i v_i ([LLM] ch. 7). s's positions and velocities must be the joints'
/// (place_chain); P is zero on a pivot.
void chain_momenta(const Problem& p, const State& s, std::vector<Vec3>& Pi, Vec3& P);

/// The mass matrix K of the kinetic energy u.K u / 2 in u = (W_0, ..., W_{n-1} [, v_base]) at the
/// attitudes R: K_jl = J_j delta_jl - sum_{i >= max(j,l)} m_i hat(c_ij) R_j^T R_l hat(c_il) and, free,
/// K_j,base = hat(mc_j) R_j^T (mc_j = sum_{i >= j} m_i c_ij), K_base,j = its transpose, K_base,base = m I
/// (m the chain's mass). Symmetric positive definite: (Pi, P) = K u, solved by LDL^T for u.
Eigen::MatrixXd chain_mass_matrix(const Problem& p, const std::vector<Mat3>& R);

/// The largest distance between the two anchor points of a joint (the pivot's included) in s: zero for
/// a state on the chain's configuration manifold.
double joint_separation(const ChainData& d, const State& s);

/// E = sum (m |v|^2 + W.J W)/2 - m g . x.
double chain_energy(const Problem& p, const State& s);

}  // namespace rigidbench
