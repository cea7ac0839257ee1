#include "integrators/registry.hpp"

#include <algorithm>

namespace rigidbench {

const std::vector<SchemeEntry>& registry() {
  static const std::vector<SchemeEntry> entries = [] {
    std::vector<SchemeEntry> e;
    Schemes::for_each([&]<class S>() {
      e.push_back({&S::info(), [](const Problem& p) -> std::unique_ptr<AnyIntegrator> {
                     return std::make_unique<Erased<S>>(p);
                   }});
    });
    return e;
  }();
  return entries;
}

namespace {
std::string known_names() {
  std::string s;
  for (const auto& e : registry()) s += (s.empty() ? "" : ", ") + std::string(e.info->name);
  return s;
}
}  // namespace

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative wildcard match with backtracking to the last '*'.
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

const SchemeEntry& find_scheme(const std::string& name) {
  for (const auto& e : registry())
    if (e.info->name == name) return e;
  throw InputError("unknown integrator '" + name + "' (registered: " + known_names() + ")");
}

std::vector<const SchemeEntry*> select_schemes(const std::vector<std::string>& patterns) {
  std::vector<const SchemeEntry*> out;
  for (const std::string& pat : patterns) {
    bool any = false;
    for (const auto& e : registry())
      if (pat == "all" || glob_match(pat, std::string(e.info->name))) {
        any = true;
        if (std::find(out.begin(), out.end(), &e) == out.end()) out.push_back(&e);
      }
    if (!any) throw InputError("no registered integrator matches '" + pat + "' (registered: " + known_names() + ")");
  }
  return out;
}

}  // namespace rigidbench
