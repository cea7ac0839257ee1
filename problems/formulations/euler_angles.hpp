#pragma once
// Lagrange / jet coordinates (paper 003): the attitude as three Euler angles alpha = (a, b, c),
// R = R_i(a) R_j(b) R_k(c) about the body axes e_i, e_j, e_k, and the state (alpha, alpha').
// The body angular velocity is W = B(alpha) alpha' with the columns
//   B = [ R_k(c)^T R_j(b)^T e_i,  R_k(c)^T e_j,  e_k ],
// and Euler's equations J W' = J W x W + T give alpha'' = B^-1 (W' - B'(alpha, alpha') alpha').
// Every angle sequence is singular somewhere (det B = 0): ZYX (Tait-Bryan) at cos b = 0, ZYZ
// (proper Euler) at sin b = 0. The two singular sets are disjoint (body x along the vertical vs body
// z along the vertical), so a driver switches chart whenever |det B| falls below 1/2 and the other
// chart then has |det B| >= sqrt(3)/2 (reference.cpp, run_euler_angles).
#include <array>

#include "../../core/types.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

enum class EulerSequence { zyx, zyz };
const char* to_string(EulerSequence s);

struct EulerAngles {
  using state_type = std::array<double, 6>;  // a, b, c, a', b', c'
  static constexpr const char* name = "euler_angles_zyx_zyz";

  const Problem* problem;
  EulerSequence seq;

  void operator()(const state_type& y, state_type& dy, double t) const;

  /// R(alpha) for the sequence.
  static Mat3 rotation(EulerSequence s, double a, double b, double c);
  /// The angles of R in the sequence (b in [-pi/2, pi/2] for ZYX, [0, pi] for ZYZ).
  static Vec3 angles(EulerSequence s, const Mat3& R);
  /// B(alpha): W = B alpha'.
  static Mat3 rate_matrix(EulerSequence s, double b, double c);
  /// |det B|: 1 far from the sequence's singularity, 0 on it.
  static double chart_quality(EulerSequence s, double b);

  static state_type from_body(EulerSequence s, const Mat3& R, const Vec3& W);
  static void to_body(EulerSequence s, const state_type& y, Mat3& R, Vec3& W);
};

}  // namespace rigidbench::formulations
