// `rigidbench list`: the registered schemes (built-in and the program's own), catalogue problems, suites.
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"

namespace rigidbench::cli {
namespace {

std::string claims_text(const Claims& c) {
  std::string s;
  for (InvariantKind k : {InvariantKind::energy, InvariantKind::momentum, InvariantKind::casimir, InvariantKind::axial,
                          InvariantKind::constraint, InvariantKind::nonholonomic})
    if (c.of(k) != Claim::none) s += cat(s.empty() ? "" : ", ", to_string(k), ": ", to_string(c.of(k)));
  if (c.energy_with_potential && *c.energy_with_potential != c.energy)
    s += cat(s.empty() ? "" : ", ", "energy with a potential: ", to_string(*c.energy_with_potential));
  // The structure of the map (verification/structure.hpp), judged as the invariants are.
  if (c.symmetric) s += cat(s.empty() ? "" : ", ", "symmetric: exact");
  if (c.symplectic) s += cat(s.empty() ? "" : ", ", "symplectic: exact");
  return s.empty() ? "none" : s;
}

std::string applies_text(const Applicability& a) {
  std::string s = join(a.families, " ");
  if (!a.features.empty()) s += cat(" (with ", join(a.features), ")");
  if (a.spherical_only) s += " (spherical only)";
  if (a.torque_free_only) s += " (torque-free only)";
  return s;
}

nlohmann::ordered_json settings_json(const SchemeInfo& i) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const SettingInfo& si : i.settings)
    a.push_back({{"name", si.name}, {"description", si.description}, {"default", si.default_value}, {"min", si.min},
                 {"max", si.max}, {"integer", si.integer}});
  return a;
}

int run_list(bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["integrators"] = nlohmann::ordered_json::array();
    for (const auto& e : registry()) {
      const SchemeInfo& i = *e.info;
      j["integrators"].push_back({{"name", i.name}, {"title", i.title}, {"source", i.source}, {"order", i.order},
                                  {"kind", to_string(i.kind)}, {"applies", applies_text(i.applies)},
                                  {"claims", claims_text(i.claims)}, {"representation", i.representation},
                                  {"settings", settings_json(i)}, {"builtin", e.builtin}, {"in_all", e.in_all},
                                  {"adaptive", i.adaptive}, {"origin", to_string(e.origin)}});
      if (i.adaptive)
        j["integrators"].back().update({{"error_estimate_order", i.error_estimate_order}, {"dense_output", i.dense_output}});
      if (!i.version.empty()) j["integrators"].back()["version"] = i.version;
      j["integrators"].back()["precision"] = i.precision.empty() ? std::string_view("float64") : i.precision;
    }
    j["absent"] = nlohmann::ordered_json::array();
    for (const AbsentSchemes& a : absent_schemes()) j["absent"].push_back({{"prefix", a.prefix}, {"why", a.why}});
    j["problems"] = nlohmann::ordered_json::array();
    for (const auto& n : catalogue_names()) {
      const Problem p = catalogue_problem(n);
      nlohmann::ordered_json inv = nlohmann::ordered_json::array();
      for (const auto& d : p.invariants()) inv.push_back(d.name);
      j["problems"].push_back({{"name", p.name}, {"title", p.title}, {"source", p.source},
                               {"family", p.family->name()}, {"invariants", inv}});
    }
    j["suites"] = suite_names();
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  std::printf("Integrators (%zu):\n", registry().size());
  for (const auto& e : registry()) {
    const SchemeInfo& i = *e.info;
    std::printf("  %-18s order %d  %-13s %-28s claims: %s\n      %s%s\n%s", std::string(i.name).c_str(),
                i.order, to_string(i.kind), applies_text(i.applies).c_str(), claims_text(i.claims).c_str(),
                std::string(i.title).c_str(),
                cat(i.adaptive ? "  [adaptive: judged on a tolerance ladder]" : "",
                    e.builtin                            ? ""
                    : e.origin == SchemeOrigin::program ? "  [a program: docs/programs.md]"
                                                        : "  [registered by this program]", e.in_all ? "" : "  [on request: by name or glob, not in 'all']",
                    i.precision.empty() ? "" : cat("  [", std::string(i.precision), "]")).c_str(),
                i.source.empty() ? "" : cat("      source: ", std::string(i.source), "\n").c_str());
    if (!i.version.empty()) std::printf("      version: %s\n", std::string(i.version).c_str());
    for (const SettingInfo& si : i.settings)
      std::printf("      --set %s.%s=%s  (in [%s, %s]%s) %s\n", std::string(i.name).c_str(), std::string(si.name).c_str(),
                  format_number(si.default_value, 6).c_str(), format_number(si.min, 6).c_str(),
                  format_number(si.max, 6).c_str(), si.integer ? ", whole" : "", std::string(si.description).c_str());
  }
  for (const AbsentSchemes& a : absent_schemes())
    std::printf("  %-18s not in this build: %s\n", (a.prefix + "*").c_str(), a.why.c_str());
  std::printf("\nProblems:\n");
  for (const auto& n : catalogue_names()) {
    const Problem p = catalogue_problem(n);
    std::string inv;
    for (const auto& d : p.invariants()) inv += cat(inv.empty() ? "" : ", ", d.name);
    std::printf("  %-14s %s\n      family %s; t in [%g, %g]; invariants: %s\n", p.name.c_str(), p.title.c_str(),
                std::string(p.family->name()).c_str(), p.t0, p.t_end, inv.c_str());
  }
  std::string suites;
  for (const auto& s : suite_names()) suites += cat(suites.empty() ? "" : ", ", s);
  std::printf("\nSuites: %s\n", suites.c_str());
  return kOk;
}

}  // namespace

Command add_list(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* sc = app.add_subcommand("list", "List registered integrators, catalogue problems and suites");
  sc->add_flag("--json", *json, "Machine-readable output");
  return {sc, [json] { return run_list(*json); }};
}

}  // namespace rigidbench::cli
