#include "rrp_schemes.hpp"
#include "any_integrator.hpp"

namespace rigidbench {

namespace {
const Applicability kSpherical{.families = {"rigid_body"}, .spherical_only = true};
// The explicit maps also take the spherical particles of a body_system (paper 001 section 4), with
// the translation of (21a/c) ... (27a/c); momentum claims there are total linear and angular momentum.
const Applicability kSphericalSystems{.families = {"rigid_body", "body_system"}, .spherical_only = true};
constexpr std::string_view kRep = "rescaled Rodrigues vector alpha (paper 001 eqs. 3-5) and angular velocity";

// docs/flops.md, "Paper 001's maps". One body (a body system is not derived). rrp::compose: the
// denominator (6), its chart test (15), the composed vector (22); advance: compose and the Cayley
// matrix. Every map evaluates one spatial moment per field and step (first same as last) and t + h.
constexpr double kAdvance = 43 + flops::cayley;
std::optional<FlopModel> rrp_flops(const Problem& p, double own) {
  const auto fields = uniform_fields(p);
  if (!fields) return std::nullopt;
  const double F = *fields;
  return FlopModel{.base = own + kAdvance + 1 + F * flops::spatial_moment};
}
/// Eq. (21): u = R w + h/(2J) M (23), the exact increment (16), w = R^T (u + h/(2J) M1) (23).
std::optional<FlopModel> bg_body_flops(const Problem& p) { return rrp_flops(p, 23 + 16 + 23); }
/// Eq. (23): v (8), the exact increment (16), the Verlet velocity (11).
std::optional<FlopModel> bg_spatial_flops(const Problem& p) { return rrp_flops(p, 8 + 16 + 11); }
/// Eq. (25): h Omega + h^2/(2J) t (12), the Verlet velocity (11).
std::optional<FlopModel> bg_newmark_flops(const Problem& p) { return rrp_flops(p, 12 + 11); }
/// Eq. (27): Omega + h/J t (7), h Omega (3).
std::optional<FlopModel> campello_se_flops(const Problem& p) { return rrp_flops(p, 7 + 3); }
/// Eq. (26): eq. (27)'s work as the guess and the update; per iteration (campello_system's
/// residual): h w, cay(h w) R_k (85), the spatial moment, r (20), the substitutions, Newton's
/// update; per Jacobian: dcay (34), the tangent (75) and the moment's, the LU. No load: no Newton.
std::optional<FlopModel> campello_implicit_flops(const Problem& p) {
  using namespace flops;
  auto m = rrp_flops(p, 7 + 3);
  if (m) {
    const double F = *uniform_fields(p);
    m->per_iteration = 3 + cayley + mat_mat + 20 + F * spatial_moment + lu_substitute(3) + newton_update(3, 3);
    m->per_jacobian = dcayley + 75 + F * spatial_moment_jacobian + lu_factor(3);
  }
  return m;
}
}  // namespace

const SchemeInfo& BakerGonzalezBody::info() {
  static const SchemeInfo i{
      .name = "bg_body",
      .title = "Baker-Gonzalez explicit variational integrator, body form",
      .source = "paper 001 eq. (21)",
      .representation = kRep,
      .order = 2,
      .kind = SchemeKind::explicit_,
      .applies = kSphericalSystems,
      .claims = {.momentum = Claim::exact, .axial = Claim::exact, .constraint = Claim::exact, .symplectic = true},
      .notes = "Breakdown when h |omega + h M/(2J)| >= 1 (domain of (21b)) or at the chart's half-turn.",
      .flops = &bg_body_flops};
  return i;
}

const SchemeInfo& BakerGonzalezSpatial::info() {
  static const SchemeInfo i{
      .name = "bg_spatial",
      .title = "Baker-Gonzalez explicit variational integrator, spatial form",
      .source = "paper 001 eq. (23)",
      .representation = kRep,
      .order = 2,
      .kind = SchemeKind::explicit_,
      .applies = kSphericalSystems,
      .claims = {.momentum = Claim::exact, .axial = Claim::exact, .constraint = Claim::exact, .symplectic = true},
      .notes = "Omega_{k+1} = Omega_k + h/(2J)(t_k + t_{k+1}): momentum along the field exact. Breakdown when "
               "h |Omega + h t/(2J)| >= 1 (domain of (23b); eq. 16 prints h^2) or at the chart's half-turn.",
      .flops = &bg_spatial_flops};
  return i;
}

const SchemeInfo& BakerGonzalezNewmark::info() {
  static const SchemeInfo i{.name = "bg_newmark",
                            .title = "Baker-Gonzalez integrator a la explicit Newmark",
                            .source = "paper 001 eq. (25)",
                            .representation = kRep,
                            .order = 2,
                            .kind = SchemeKind::explicit_,
                            .applies = kSphericalSystems,
                            .claims = {.momentum = Claim::exact, .axial = Claim::exact, .constraint = Claim::exact, .symplectic = true},
                            .notes = "dalpha = h Omega_k + h^2/(2J) t_k: no domain limit; breakdown only at the half-turn.",
                            .flops = &bg_newmark_flops};
  return i;
}

const SchemeInfo& CampelloImplicit::info() {
  static const SchemeInfo i{
      .name = "campello_implicit",
      .title = "Campello implicit phi-family on rescaled Rodrigues parameters (phi = 1/2)",
      .source = "paper 001 eq. (26) (Campello et al., ref. [5])",
      .representation = kRep,
      .order = 1,
      .kind = SchemeKind::implicit,
      .applies = kSpherical,
      // e . t = 0 for a uniform field, so e . pi is exact; R rho . Omega is not for phi != 1 (the
      // (1 - phi) t_{k+1} term is not orthogonal to R_k rho).
      .claims = {.momentum = Claim::exact, .constraint = Claim::exact},
      .notes = "phi = 1/2 by default, a setting (phi = 1 is eq. (27), tested); Newton on Omega_{k+1} with the "
               "analytic tangent, relative increment tolerance 1e-14.",
      .settings = {CampelloImplicit::kPhi, kNewtonTolerance, kNewtonMaxIterations},
      .flops = &campello_implicit_flops};
  return i;
}

const SchemeInfo& CampelloSymplecticEuler::info() {
  static const SchemeInfo i{.name = "campello_symplectic_euler",
                            .title = "Campello symplectic Euler on rescaled Rodrigues parameters",
                            .source = "paper 001 eq. (27)",
                            .representation = kRep,
                            .order = 1,
                            .kind = SchemeKind::explicit_,
                            .applies = kSphericalSystems,
                            .claims = {.momentum = Claim::exact, .axial = Claim::exact, .constraint = Claim::exact, .symplectic = true},
                            .notes = "Variational (discrete Lagrangian (28)); first order.",
                            .flops = &campello_se_flops};
  return i;
}

// The one instantiation of each type-erased wrapper, compiled beside the schemes (builtin.hpp).
template class Erased<BakerGonzalezBody>;
template class Erased<BakerGonzalezSpatial>;
template class Erased<BakerGonzalezNewmark>;
template class Erased<CampelloImplicit>;
template class Erased<CampelloSymplecticEuler>;

}  // namespace rigidbench
