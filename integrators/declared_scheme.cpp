#include "declared_scheme.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <mutex>

#include "../core/names.hpp"
#include "registry.hpp"
#include "../problems/family.hpp"

namespace rigidbench {
namespace {

struct Stored {
  SchemeDeclaration d;
  SchemeInfo info;
};

void check_setting(const SchemeDeclaration& d, const SettingDeclaration& s) {
  const std::string at = cat("scheme '", d.name, "': setting '", s.name, "'");
  if (!is_name(s.name)) throw InputError(cat(at, ": the name is not ", kNameRule));
  if (s.name == kAbsTolerance.name || s.name == kRelTolerance.name)
    throw InputError(cat(at, ": the tolerances are declared by `adaptive`, not as settings"));
  if (!std::isfinite(s.min) || !std::isfinite(s.max) || !std::isfinite(s.default_value) || !(s.min <= s.default_value) ||
      !(s.default_value <= s.max))
    throw InputError(cat(at, ": needs finite min <= default <= max (got ", format_number(s.min, 6), ", ",
                         format_number(s.default_value, 6), ", ", format_number(s.max, 6), ")"));
  if (s.integer && s.default_value != std::floor(s.default_value))
    throw InputError(cat(at, ": an integer setting needs a whole default"));
  for (const SettingDeclaration& o : d.settings)
    if (&o != &s && o.name == s.name) throw InputError(cat(at, ": declared twice"));
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

constexpr InvariantKind kKinds[] = {InvariantKind::energy,   InvariantKind::momentum,   InvariantKind::casimir,
                                    InvariantKind::axial,    InvariantKind::constraint, InvariantKind::nonholonomic};

}  // namespace

std::string claim_kind_names() {
  std::string s;
  for (InvariantKind k : kKinds) s += cat(s.empty() ? "" : ", ", to_string(k));
  return s + ", energy_with_potential, symmetric, symplectic";
}

SchemeKind scheme_kind_from_string(std::string_view s) {
  if (s == "explicit") return SchemeKind::explicit_;
  if (s == "implicit") return SchemeKind::implicit;
  if (s == "semi-implicit" || s == "semi_implicit") return SchemeKind::semi_implicit;
  throw InputError(cat("unknown scheme kind '", std::string(s), "' (explicit, implicit or semi-implicit)"));
}

Claim claim_from_string(std::string_view s) {
  if (s == "none") return Claim::none;
  if (s == "bounded") return Claim::bounded;
  if (s == "exact") return Claim::exact;
  throw InputError(cat("unknown claim '", std::string(s), "' (none, bounded or exact)"));
}

void set_claim(Claims& c, std::string_view kind, Claim value) {
  if (kind == "energy_with_potential") {
    c.energy_with_potential = value;
    return;
  }
  // Structure of the map (verification/structure.hpp): a property holds or is not claimed.
  if (kind == "symmetric" || kind == "symplectic") {
    if (value == Claim::bounded)
      throw InputError(cat("claim '", std::string(kind), "=bounded': a structure claim is exact or none"));
    (kind == "symmetric" ? c.symmetric : c.symplectic) = value == Claim::exact;
    return;
  }
  for (InvariantKind k : kKinds) {
    if (kind != to_string(k)) continue;
    switch (k) {
      case InvariantKind::energy: c.energy = value; break;
      case InvariantKind::momentum: c.momentum = value; break;
      case InvariantKind::casimir: c.casimir = value; break;
      case InvariantKind::axial: c.axial = value; break;
      case InvariantKind::constraint: c.constraint = value; break;
      case InvariantKind::nonholonomic: c.nonholonomic = value; break;
    }
    return;
  }
  throw InputError(cat("unknown invariant kind '", std::string(kind), "' in a claim (known: ", claim_kind_names(), ")"));
}

Claims parse_claims(const std::vector<std::string>& assignments) {
  Claims c;
  std::vector<std::pair<std::string, std::string>> given;  // kind, the item that set it
  for (const std::string& a : assignments) {
    std::size_t from = 0;
    while (from <= a.size()) {
      const std::size_t comma = std::min(a.find(',', from), a.size());
      const std::string item = trim(std::string_view(a).substr(from, comma - from));
      from = comma + 1;
      if (item.empty()) continue;
      const auto eq = item.find('=');
      if (eq == std::string::npos)
        throw InputError(cat("claim '", item, "' is not kind=claim (e.g. energy=exact; kinds: ", claim_kind_names(), ")"));
      const std::string kind = trim(std::string_view(item).substr(0, eq));
      // energy=exact,energy=none: which one was meant is not for the reader to guess.
      for (const auto& [k, first] : given)
        if (k == kind) throw InputError(cat("claim kind '", kind, "' given twice ('", first, "' and '", item, "')"));
      set_claim(c, kind, claim_from_string(trim(std::string_view(item).substr(eq + 1))));
      given.emplace_back(kind, item);
    }
  }
  return c;
}

void check_claims_apply(const Claims& c, const Problem& p, std::string_view scheme) {
  std::string has;
  for (InvariantKind k : kKinds) {
    bool found = false;
    for (const InvariantDef& inv : p.invariants()) found = found || inv.kind == k;
    if (found) has += cat(has.empty() ? "" : ", ", to_string(k));
  }
  for (InvariantKind k : kKinds) {
    const bool claimed = c.of(k) != Claim::none || (k == InvariantKind::energy && c.energy_with_potential &&
                                                    *c.energy_with_potential != Claim::none);
    if (!claimed) continue;
    bool found = false;
    for (const InvariantDef& inv : p.invariants()) found = found || inv.kind == k;
    if (!found)
      throw InputError(cat("scheme '", std::string(scheme), "' claims ", to_string(k), ", which '", p.name,
                           "' does not have (its invariant kinds: ", has.empty() ? "none" : has, ")"));
  }
}

const SchemeInfo& declare_scheme(SchemeDeclaration d) {
  if (!is_name(d.name))
    throw InputError(cat("scheme name '", d.name, "' is not ", kNameRule, " (it is a report key)"));
  // A name is a scheme's identity in reports, figure styles, the gate and the history: an outside
  // scheme named like a registered one (a Python class `terze`) was drawn in terze's colours and
  // recorded in the history as terze.
  if (is_registered(d.name))
    throw InputError(cat("scheme name '", d.name, "' is a registered scheme's (", find_scheme(d.name).builtin ? "built in" : "registered by this program",
                         "): an outside scheme needs a name of its own, or its results would be taken for that scheme's"));
  for (const std::string_view prefix : engine_name_prefixes())
    if (!d.engine && d.name.compare(0, prefix.size(), prefix) == 0)
      throw InputError(cat("scheme name '", d.name, "' begins with '", std::string(prefix),
                           "', which names the schemes of one of rigidbench's engines (docs/engines.md): an outside scheme "
                           "needs a name of its own"));
  const int lowest = d.adaptive ? 0 : 1;  // an adaptive scheme's 0: variable order (integrator.hpp)
  if (d.order < lowest || d.order > 12)
    throw InputError(cat("scheme '", d.name, "': order must be an integer in [", std::to_string(lowest), ", 12] (got ",
                         std::to_string(d.order), ")"));
  if (d.families.empty()) throw InputError(cat("scheme '", d.name, "': no model family given (e.g. rigid_body)"));
  if (d.families.size() > NameList::kCapacity || d.features.size() > NameList::kCapacity)
    throw InputError(cat("scheme '", d.name, "': at most 8 families and 8 features"));
  for (const std::string& f : d.families) {
    // Applicability matches a problem's equations (Family::equations(), docs/extending.md).
    std::string known;
    bool found = false;
    for (const Family* fam : all_families()) {
      found |= fam->equations() == f;
      if (known.find(cat(std::string(fam->equations()), ",")) == std::string::npos)
        known += cat(std::string(fam->equations()), ", ");
    }
    if (!found)
      throw InputError(cat("scheme '", d.name, "': unknown model family '", f, "' (known: ",
                           known.substr(0, known.size() - 2), ")"));
  }
  for (const auto& [family, claims] : d.family_claims)
    if (std::find(d.families.begin(), d.families.end(), family) == d.families.end())
      throw InputError(cat("scheme '", d.name, "': claims on the family '", family, "', which it does not integrate"));
  if (d.title.empty()) d.title = d.name;
  for (const SettingDeclaration& s : d.settings) check_setting(d, s);

  static std::mutex m;
  static std::deque<std::unique_ptr<Stored>> store;  // entries never move: the views below stay valid
  std::lock_guard lock(m);
  auto s = std::make_unique<Stored>();
  s->d = std::move(d);
  const SchemeDeclaration& x = s->d;
  SchemeInfo& i = s->info;
  i.name = x.name;
  i.title = x.title;
  i.source = x.source;
  i.representation = x.representation;
  i.order = x.order;
  i.kind = x.kind;
  for (const std::string& f : x.families) i.applies.families.push_back(f);
  for (const std::string& f : x.features) i.applies.features.push_back(f);
  i.applies.spherical_only = x.spherical_only;
  i.applies.torque_free_only = x.torque_free_only;
  i.applies.refuses = x.refuses;
  i.claims = x.claims;
  for (const auto& [family, claims] : x.family_claims) i.family_claims.emplace_back(family, claims);
  i.notes = x.notes;
  i.adaptive = x.adaptive;
  i.error_estimate_order = x.error_estimate_order;
  i.dense_output = x.dense_output;
  i.identity = x.identity;
  i.version = x.version;
  i.precision = x.precision;
  if (x.adaptive) i.settings = {kAbsTolerance, kRelTolerance};
  for (const SettingDeclaration& sd : x.settings)
    i.settings.push_back({sd.name, sd.description, sd.default_value, sd.min, sd.max, sd.integer});
  check_adaptive_declaration(i);
  store.push_back(std::move(s));
  return store.back()->info;
}

}  // namespace rigidbench
