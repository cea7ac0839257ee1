#pragma once
// What every engine is given: the physical rigid body a rigid_body problem describes, with the
// conventions of the problem model turned once into the conventions engines share (docs/engines.md,
// "Conventions"). Engines are built from this, never from Problem's fields directly.
//
// The problem model (docs/problems.md) gives J about the body origin - the pivot of a top, the
// centre of mass of a free body - and uniform fields m a acting at body points p. An engine builds
// a body of mass M with its centre of mass c and its central inertia J_c, under one gravity g, and
// either free (a torque-free body, rotating about its centre of mass) or on a ball joint at the
// body origin (a top). The two describe the same rotational motion when
//   M = sum m_f (the fields are gravity on this body: their masses add up to the body's),
//   c = sum m_f p_f / M,   g = the fields' common acceleration,
//   J_c = J - M (|c|^2 I - c c^T)   (parallel-axis theorem),
// and a body with that J_c exists only if J_c's principal moments are positive and each is at most
// the sum of the other two (they are sums of m (y^2 + z^2) over the body's mass).
#include <optional>
#include <string>
#include <vector>

#include "../core/types.hpp"
#include "../problems/problem.hpp"

namespace rigidbench::engines {

struct EngineBody {
  double mass = 1.0;
  Vec3 centre = Vec3::Zero();           // c: centre of mass, body components, from the body origin
  Mat3 central_inertia = Mat3::Identity();  // J_c about c, body components
  Vec3 gravity = Vec3::Zero();          // g, spatial components
  bool pivot = false;                   // true: a ball joint at the body origin (a top); false: a free body
};

/// Why no engine can build `p` as one physical rigid body (or a chain of them: a link whose central
/// inertia no body has), or empty: not one body of the rigid_body family; follower moments or internal angular momentum; fields that are not one gravity acting
/// on the body's own mass; a central inertia no body has (with its arithmetic).
std::string refusal(const Problem& p);
/// The body of `p`; precondition: refusal(p) is empty (throws InputError with that reason otherwise).
EngineBody body_of(const Problem& p);

/// A link of a chain as engines build it (families/spherical_chain.hpp): its frame has the problem's
/// body axes and its origin at the link's inboard joint (body 0 of a free chain: at its centre of mass),
/// so that a joint is the child's frame origin.
struct EngineLink {
  double mass = 1.0;
  Mat3 central_inertia = Mat3::Identity();  // about the centre of mass, link axes
  Vec3 centre = Vec3::Zero();               // the centre of mass from the frame origin: -a_i
  Vec3 child = Vec3::Zero();                // the next link's frame origin (its joint): b_i - a_i
};
struct EngineChain {
  std::vector<EngineLink> links;
  std::optional<Vec3> pivot;  // joint 0's fixed point; none: a free chain
  Vec3 gravity = Vec3::Zero();
};
/// The chain of a spherical_chain problem; precondition: refusal(p) is empty.
EngineChain chain_of(const Problem& p);

/// The attitudes of s row-major (R + 9 i, body i's rotation body -> world) and its angular velocities in
/// world components (omega + 3 i: R_i W_i), as the plugin engines (Simbody, DART) take them.
void pack_attitudes(const State& s, std::vector<double>& R, std::vector<double>& omega);
/// Their inverse: every body's R and W in s, resized to R.size() / 9 bodies.
void unpack_attitudes(const std::vector<double>& R, const std::vector<double>& omega, State& s);

/// Principal moments of a symmetric inertia, ascending.
Vec3 principal_moments(const Mat3& J);

}  // namespace rigidbench::engines
