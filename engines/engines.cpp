#include "engines.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <stdexcept>


#include "engine_body.hpp"
#include "../core/process.hpp"
#include "../verification/program_scheme.hpp"

namespace rigidbench::engines {

std::string_view keep(std::string s) {
  static std::deque<std::string> texts;  // a deque: kept strings never move
  return texts.emplace_back(std::move(s));
}

void register_variant(SchemeInfo info, EngineFactory make, bool in_all) {
  // The engines' names are reserved by their prefixes (engine_name_prefixes): a variant outside them
  // would be a name an outside scheme could take where the engines are not registered.
  const auto& prefixes = engine_name_prefixes();
  if (std::none_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return info.name.substr(0, p.size()) == p; }))
    throw std::logic_error(cat("engine variant '", std::string(info.name), "' is outside the reserved prefixes"));
  static std::deque<SchemeInfo> infos;
  const SchemeInfo* ip = &infos.emplace_back(std::move(info));
  register_scheme(SchemeEntry{
      .info = ip,
      .factory = [ip, make = std::move(make)](const Problem& p, const SchemeSettings& set) { return make(p, set, *ip); },
      .settings = {},
      .builtin = false,
      .origin = SchemeOrigin::registered,
      .in_all = in_all});
}

namespace {

/// What a request to an npm engine carries (verification/program_scheme.hpp, PhysicalBody): the body or
/// the chain every native engine is built from, in its conventions (engine_body.hpp).
nlohmann::json body_json(const Problem& p) {
  const auto v = [](const Vec3& x) { return nlohmann::json::array({x.x(), x.y(), x.z()}); };
  const auto m = [&](const Mat3& J) {
    nlohmann::json rows = nlohmann::json::array();
    for (int i = 0; i < 3; ++i) rows.push_back(v(J.row(i).transpose()));
    return rows;
  };
  if (p.of_family("spherical_chain")) {
    const EngineChain c = chain_of(p);
    nlohmann::json links = nlohmann::json::array();
    for (const EngineLink& l : c.links)
      links.push_back({{"mass", l.mass}, {"central_inertia", m(l.central_inertia)}, {"centre", v(l.centre)}, {"child", v(l.child)}});
    return {{"chain", {{"links", links}, {"pivot", c.pivot ? v(*c.pivot) : nlohmann::json()}, {"gravity", v(c.gravity)}}}};
  }
  const EngineBody b = body_of(p);
  return {{"body", {{"mass", b.mass}, {"centre", v(b.centre)}, {"central_inertia", m(b.central_inertia)}, {"gravity", v(b.gravity)},
                    {"pivot", b.pivot}}}};
}

/// The engines that exist here as npm packages, their official WebAssembly builds, run by Node.js as
/// programs (engines/npm/, docs/engines.md "Engines of today"): registered when `npm ci` has installed
/// them (scripts/install-deps.sh) and Node.js is on PATH, named absent otherwise.
void register_npm_engines() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("RIGIDBENCH_NPM_ENGINES");
  const fs::path dir = env != nullptr && *env != '\0' ? fs::path(env) : fs::path(RIGIDBENCH_NPM_ENGINES_DIR);
  std::error_code ec;
  const bool installed = fs::exists(dir / "node_modules" / ".package-lock.json", ec);
  const bool node = !find_on_path("node").empty();
  if (installed && node) {
    register_programs((dir / "programs.json").string(), /*engines=*/true);
    return;
  }
  const std::string why = cat("is not installed: ", !node ? "Node.js is not on PATH" : cat("no ", (dir / "node_modules").string()),
                              " - scripts/install-deps.sh installs Node.js and the packages (npm ci in engines/npm; docs/engines.md, "
                              "\"Engines of today\")");
  register_absent({"mujoco3_", cat("MuJoCo 3 (npm @mujoco/mujoco, run by Node.js) ", why)});
  register_absent({"cannon_", cat("cannon-es (npm cannon-es, run by Node.js) ", why)});
  register_absent({"rapier", cat("Rapier (npm @dimforge/rapier3d-compat, run by Node.js) ", why)});
  register_absent({"jolt", cat("Jolt (npm jolt-physics, run by Node.js) ", why)});
  register_absent({"oimo", cat("Oimo.js (npm oimo, run by Node.js) ", why)});
  register_absent({"ammo", cat("Bullet by ammo.js (npm ammojs-typed, run by Node.js) ", why)});
  register_absent({"havok", cat("Havok (npm @babylonjs/havok, run by Node.js) ", why)});
  register_absent({"physx", cat("PhysX (npm physx-js-webidl, run in headless Chromium by Node.js) ", why)});
}

}  // namespace

void register_engines() {
  static bool done = false;
  if (done) return;
  done = true;
  set_physical_body({&refusal, &body_json});
  register_npm_engines();
  for (const detail::EngineListing& e : detail::engine_list()) {
    if (e.add) {
      e.add();
    } else {
      // `list` and a selection of its names say which package it needs.
      register_absent({cat(e.name, "_"), cat(e.title, " (Debian ", e.package,
                                             ") was not found when this build was configured; install it and "
                                             "configure again (docs/engines.md, \"Building\")")});
    }
  }
}

}  // namespace rigidbench::engines
