// The built-in entries of the runtime registry, generated from the type list (builtin.hpp).
#include "builtin.hpp"

#include "registry.hpp"

namespace rigidbench {

std::deque<SchemeEntry> builtin_scheme_entries() {
  std::deque<SchemeEntry> e;
  Schemes::for_each([&]<class S>() { e.push_back(scheme_entry<S>(true)); });
  AdaptiveSchemes::for_each([&]<class S>() {
    e.push_back(scheme_entry<S>(true));
    e.back().in_all = false;
  });
  return e;
}

const SchemeEntry& baseline_scheme() { return find_scheme(std::string(BaselineScheme::info().name)); }

const SchemeEntry& rk4_baseline_scheme() { return find_scheme(std::string(Rk4BaselineScheme::info().name)); }

}  // namespace rigidbench
