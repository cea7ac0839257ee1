#include "engines.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

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

void register_engines() {
  static bool done = false;
  if (done) return;
  done = true;
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
