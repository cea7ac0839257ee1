#include "family.hpp"

#include <algorithm>
#include <deque>
#include <mutex>

#include "../core/names.hpp"
#include "../core/types.hpp"

namespace rigidbench {

std::vector<std::unique_ptr<Family>> builtin_families();  // problems/families/builtin.cpp

namespace {
std::deque<std::unique_ptr<Family>>& entries() {
  static std::deque<std::unique_ptr<Family>> e = [] {
    std::deque<std::unique_ptr<Family>> d;
    for (auto& f : builtin_families()) d.push_back(std::move(f));
    return d;
  }();
  return e;
}
std::mutex& entries_mutex() {
  static std::mutex m;
  return m;
}
std::string known_names() {
  std::string s;
  for (const auto& f : entries()) s += cat(s.empty() ? "" : ", ", std::string(f->name()));
  return s;
}
}  // namespace

const char* to_string(InvariantKind k) {
  switch (k) {
    case InvariantKind::energy: return "energy";
    case InvariantKind::momentum: return "momentum";
    case InvariantKind::casimir: return "casimir";
    case InvariantKind::axial: return "axial";
    case InvariantKind::constraint: return "constraint";
    case InvariantKind::nonholonomic: return "nonholonomic";
  }
  return "?";
}

const Family& find_family(std::string_view name) {
  for (const auto& f : entries())
    if (f->name() == name) return *f;
  throw InputError(cat("unknown model family '", std::string(name), "' (known: ", known_names(), ")"));
}

std::vector<const Family*> all_families() {
  std::vector<const Family*> v;
  for (const auto& f : entries()) v.push_back(f.get());
  return v;
}

const Family& register_family(std::unique_ptr<Family> f) {
  if (!f) throw std::logic_error("register_family: no family");
  const std::string name(f->name());
  if (!is_name(name)) throw InputError(cat("cannot register family '", name, "': a name is ", kNameRule));
  std::lock_guard lock(entries_mutex());
  for (const auto& x : entries())
    if (x->name() == name) throw InputError(cat("cannot register family '", name, "': the name is taken"));
  entries().push_back(std::move(f));
  return *entries().back();
}

}  // namespace rigidbench
