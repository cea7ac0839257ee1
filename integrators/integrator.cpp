#include "integrator.hpp"

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

const Claims& claims_on(const SchemeInfo& info, const Problem& p) {
  const std::string_view family = p.family->equations();
  for (const auto& [name, claims] : info.family_claims)
    if (name == family) return claims;
  return info.claims;
}

std::string not_applicable(const SchemeInfo& info, const Problem& p) {
  const Applicability& a = info.applies;
  const std::string_view family = p.family->equations();
  if (!a.families.contains(family))
    return cat("the scheme does not integrate the ", std::string(family), " family (it integrates: ",
               join(a.families), ")");
  for (std::string_view f : p.family->required_features())
    if (!a.features.contains(f))
      return cat("the ", std::string(p.family->name()), " family needs a scheme that handles ", std::string(f),
                 " (the scheme handles: ", join(a.features), ")");
  if (a.spherical_only)
    for (std::size_t b = 0; b < p.bodies.size(); ++b)
      if (!p.spherical(b)) return "the scheme applies to spherical bodies (scalar inertia) only";
  if (a.torque_free_only && !p.torque_free()) return "the scheme applies to torque-free bodies only";
  if (a.refuses) return a.refuses(p);
  return {};
}

std::string join(const NameList& names, std::string_view sep) {
  std::string s;
  for (std::string_view n : names) s += cat(s.empty() ? "" : std::string(sep), std::string(n));
  return s.empty() ? "none" : s;
}

}  // namespace rigidbench
