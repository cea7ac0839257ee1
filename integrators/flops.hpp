#pragma once
// Floating-point work of one step, derived from each scheme's code (docs/flops.md): the arithmetic
// floor under the instruction counts of `bench`. A scheme declares the derivation beside its
// SchemeInfo (SchemeInfo::flops); the benchmark divides the measured instructions by it.
//
// Conventions (docs/flops.md, "How the counts are made"): +, -, *, / and sqrt count 1 each, as the
// code writes them at the level of its Eigen expressions (a 3x3 product is 27 multiplications and
// 18 additions even where an operand has zeros; a negation or a copy is free); the scalar factors
// that depend on h only (0.5 h, h^2/2) count where the code computes them. Calls of sin, cos and
// tan are counted apart: each costs tens of instructions of its own.
#include <optional>

#include "../problems/problem.hpp"

namespace rigidbench {

/// flops(k, j) = base + per_iteration k + per_jacobian j with k the step's Newton iterations and j
/// its Jacobians (measured; j <= k, both 0 for explicit schemes): an iteration evaluates the
/// residual, solves with the factorised Jacobian and updates; an iteration that does not reuse the
/// Jacobian also evaluates and factorises it. calls(k) likewise. All hold the problem's loads.
struct FlopModel {
  double base = 0, per_iteration = 0, per_jacobian = 0;
  double calls = 0, calls_per_iteration = 0;
  double flops_at(double iterations, double jacobians) const {
    return base + per_iteration * iterations + per_jacobian * jacobians;
  }
  double calls_at(double iterations) const { return calls + calls_per_iteration * iterations; }
};

/// A scheme's derivation: the model on problem p, or nothing where it was not derived.
using FlopModelFn = std::optional<FlopModel> (*)(const Problem& p);

/// The loads a derivation covers: one rigid body (family rigid_body or non_twisting, no internal
/// momentum), `fields` uniform fields and `followers` follower moments. Anything else is outside
/// every derivation (the answer is then "not derived", never a guess).
struct LoadShape {
  int fields = 0, followers = 0;
  bool loaded() const { return fields + followers > 0; }
};
std::optional<LoadShape> load_shape(const Problem& p);
/// The number of uniform fields where those are the only loads (0 for none); nothing where a
/// follower moment or a shape outside load_shape leaves the derivation to the schemes that model it.
std::optional<double> uniform_fields(const Problem& p);

/// Counts of the building blocks every derivation uses (docs/flops.md, "Building blocks").
namespace flops {
inline constexpr double dot = 5;        // a . b
inline constexpr double norm = 6;       // |a| (dot and sqrt)
inline constexpr double cross = 9;      // a x b
inline constexpr double mat_vec = 15;   // M a (3x3)
inline constexpr double mat_mat = 45;   // M N (3x3)
inline constexpr double mat_add = 9;    // M + N, s M
/// Per uniform field, Problem::body_moment: m a (3), R^T (m a) (15), p x (9), accumulated (3).
inline constexpr double body_moment = 30;
/// Per uniform field, Problem::spatial_moment: R p (15), m a (3), x (9), accumulated (3).
inline constexpr double spatial_moment = 30;
/// Per uniform field, Problem::spatial_moment_jacobian: R p (15), m a (3), r F^T (9), F . r (5),
/// (F . r) I (9), difference (9), accumulated (9).
inline constexpr double spatial_moment_jacobian = 59;
/// so3::rodrigues_coefficients on its main branch (1e-4 <= t < pi/2): 10 and one sin.
inline constexpr double rodrigues = 10;
/// so3::Rotation(w): |w| and the coefficients (one sin).
inline constexpr double rotation = norm + rodrigues;
/// Rotation::matrix(): b w w^T (18), the diagonal (10), the skew part (9).
inline constexpr double rotation_matrix = 37;
/// so3::exp(w) = Rotation(w).matrix() (one sin).
inline constexpr double exp = rotation + rotation_matrix;
/// Rotation::apply / apply_inverse: two cross products, two scalings, two sums.
inline constexpr double rotation_apply = 30;
/// Rotation::dexp_right(): |w|^2 (5), its coefficient (2), b S and c S (18), (c S) S (45), two sums (18).
inline constexpr double rotation_dexp = 88;
/// Rotation::doubled(): 2 w (3), a (1 - b |w|^2) (8), a^2/2 (2).
inline constexpr double rotation_doubled = 13;
/// so3::cayley(w): |w|^2 (5), k (2), k/2 w w^T (19), the diagonal (5), the skew part (9).
inline constexpr double cayley = 40;
/// (I +- hat(a)/2) / (1 + |a|^2/4), the Cayley map's trivialised derivative: 9 + 9 + 5 + 2 + 9.
inline constexpr double dcayley = 34;
/// SmallLu (core/small_lu.hpp, every Newton step's LU) of an n x n matrix and one solve:
/// n(n-1)/2 divisions and (n-1)n(2n-1)/3 multiply-subtract pairs to factor, 2n^2 - n for the two
/// triangular solves. Counted from its code in tests/test_flops.cpp.
constexpr double lu_factor(int n) { return n * (n - 1) / 2.0 + (n - 1) * n * (2.0 * n - 1) / 3.0; }
constexpr double lu_substitute(int n) { return 2.0 * n * n - n; }
constexpr double lu_solve(int n) { return lu_factor(n) + lu_substitute(n); }
/// newton_solve's own work per iteration besides the solve, on n unknowns of which m are judged:
/// x += dx (n), the two squared norms (4m), the square roots, the tolerance, the rate and the test (8).
constexpr double newton_update(int n, int m) { return n + 4.0 * m + 8; }
}  // namespace flops

}  // namespace rigidbench
