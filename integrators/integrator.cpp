#include "integrators/integrator.hpp"

namespace rigidbench {

const char* to_string(SchemeKind k) {
  switch (k) {
    case SchemeKind::explicit_: return "explicit";
    case SchemeKind::implicit: return "implicit";
    case SchemeKind::semi_implicit: return "semi-implicit";
  }
  return "?";
}

const char* to_string(Claim c) {
  switch (c) {
    case Claim::none: return "none";
    case Claim::bounded: return "bounded";
    case Claim::exact: return "exact";
  }
  return "?";
}

std::string not_applicable(const SchemeInfo& info, const Problem& p) {
  const Applicability& a = info.applies;
  switch (p.family) {
    case ModelFamily::rigid_body:
      if (!a.rigid_body) return "the scheme does not integrate the single rigid-body model";
      break;
    case ModelFamily::body_system:
      if (!a.body_system) return "the scheme does not integrate SE(3)^n body systems";
      break;
    case ModelFamily::kirchhoff_body:
      return "no registered scheme integrates a body in an ideal fluid (coupled SE(3) kinetic energy); P6 "
             "serves the reference formulations";
    case ModelFamily::non_twisting:
      if (!a.non_twisting) return "the scheme does not integrate the non-twisting (nonholonomic) model";
      break;
  }
  if (a.spherical_only)
    for (std::size_t b = 0; b < p.bodies.size(); ++b)
      if (!p.spherical(b)) return "the scheme applies to spherical bodies (scalar inertia) only";
  if (a.torque_free_only && !p.torque_free()) return "the scheme applies to torque-free bodies only";
  return {};
}

}  // namespace rigidbench
