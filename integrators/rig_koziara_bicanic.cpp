#include "rig_koziara_bicanic.hpp"
#include "any_integrator.hpp"

namespace rigidbench {

namespace {
constexpr std::string_view kSource =
    "Koziara & Bicanic, IJNME 81(9) 2010 (NEW1/NEW2/NEW3), as in Solfec; paper 002 (heavy top), after Krysl 2005";
constexpr std::string_view kNotes =
    "The configuration-dependent moment is evaluated once per step, at Lambda_{n+1/2} and t_n + h/2.";

// docs/flops.md, "RIG_POS, RIG_NEG, RIG_IMP". Shared: the half step (h/2 W, Rotation (one sin), its
// matrix, R E, J W, E^T (.): 147; loaded: t + h/2 and the body moment) and the explicit velocity
// (J^-1 (b + h/2 T), J W_half x W_half, T - (.), J^-1, W + h (.): 69).
constexpr double kHalfStep = 4 + flops::rotation + flops::rotation_matrix + flops::mat_mat + flops::mat_vec +
                             flops::rotation_apply;
constexpr double kExplicitVelocity = 6 + 3 * flops::mat_vec + flops::cross + 9;
/// The exponential of h/2 W1 and L_half exp(.) (RIG_POS, RIG_IMP): 3 + 53 + 45, one sin.
constexpr double kEndRotation = 3 + flops::exp + flops::mat_mat;

std::optional<FlopModel> rig_flops(const Problem& p, RigVariant v) {
  using namespace flops;
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  const double loaded = F > 0 ? 1 + F * body_moment : 0;
  switch (v) {
    case RigVariant::pos: return FlopModel{.base = kHalfStep + kExplicitVelocity + kEndRotation + loaded, .calls = 2};
    case RigVariant::neg:  // Rotation(h/2 W1), its matrix, L_half E1, b + h T, E1^T (.), J^-1 (.)
      return FlopModel{.base = kHalfStep + kExplicitVelocity + 3 + rotation + rotation_matrix + mat_mat + 6 +
                               rotation_apply + mat_vec + loaded,
                       .calls = 2};
    case RigVariant::imp:  // c = b + h T; per iteration rig_imp_system's residual (90: Rotation (one
                           // sin), its matrix, E J w - c), the substitutions, Newton's update; per
                           // Jacobian its tangent (197: h/2 hat(Jw) dexp_r, J - (.), E (.)) and the LU
      return FlopModel{.base = kHalfStep + 6 + kExplicitVelocity + kEndRotation + loaded,
                       .per_iteration = 4 + rotation + rotation_matrix + 2 * mat_vec + 3 + lu_substitute(3) + newton_update(3, 3),
                       .per_jacobian = 1 + mat_add + rotation_dexp + 2 * mat_mat + mat_add + lu_factor(3),
                       .calls = 2,
                       .calls_per_iteration = 1};
  }
  return std::nullopt;
}
std::optional<FlopModel> rig_pos_flops(const Problem& p) { return rig_flops(p, RigVariant::pos); }
std::optional<FlopModel> rig_neg_flops(const Problem& p) { return rig_flops(p, RigVariant::neg); }
std::optional<FlopModel> rig_imp_flops(const Problem& p) { return rig_flops(p, RigVariant::imp); }
}  // namespace

template <>
const SchemeInfo& RigPos::info() {
  static const SchemeInfo i{.name = "rig_pos",
                            .title = "RIG_POS (Koziara-Bicanic NEW1): explicit Lie midpoint, positive variant",
                            .source = kSource,
                            .representation = "rotation matrix and body angular velocity",
                            .order = 2,
                            .kind = SchemeKind::explicit_,
                            .applies = {.families = {"rigid_body"}},
                            .claims = {.constraint = Claim::exact},
                            .notes = kNotes,
                            .flops = &rig_pos_flops};
  return i;
}

template <>
const SchemeInfo& RigNeg::info() {
  static const SchemeInfo i{
      .name = "rig_neg",
      .title = "RIG_NEG (Koziara-Bicanic NEW2): explicit, midpoint spatial momentum balance",
      .source = kSource,
      .representation = "rotation matrix and body angular velocity",
      .order = 2,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body"}},
      .claims = {.momentum = Claim::exact, .casimir = Claim::exact, .constraint = Claim::exact},
      .notes = "Lambda_{n+1} J Omega_{n+1} = Lambda_n J Omega_n + h Lambda_{n+1/2} T_{n+1/2}: spatial momentum exact "
               "torque-free and along a uniform field. Moment at Lambda_{n+1/2}.",
      .flops = &rig_neg_flops};
  return i;
}

template <>
const SchemeInfo& RigImp::info() {
  static const SchemeInfo i{
      .name = "rig_imp",
      .title = "RIG_IMP (Koziara-Bicanic NEW3): semi-implicit, midpoint spatial momentum balance",
      .source = kSource,
      .representation = "rotation matrix and body angular velocity; Newton on Omega_{n+1} (3 unknowns)",
      .order = 2,
      .kind = SchemeKind::semi_implicit,
      .applies = {.families = {"rigid_body"}},
      .claims = {.momentum = Claim::exact, .casimir = Claim::exact, .constraint = Claim::exact, .symmetric = true},
      .notes = "Newton on exp(h/2 Omega) J Omega = c with the dexp tangent, relative increment tolerance 1e-14, "
               "at most 50 iterations (non-convergence is a breakdown). Moment at Lambda_{n+1/2}.",
      .settings = {kNewtonTolerance, kNewtonMaxIterations},
      .flops = &rig_imp_flops};
  return i;
}

// The one instantiation of each type-erased wrapper, compiled beside the schemes (builtin.hpp).
template class Erased<RigPos>;
template class Erased<RigNeg>;
template class Erased<RigImp>;

}  // namespace rigidbench
