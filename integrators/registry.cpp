#include "registry.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <mutex>

#include "../core/names.hpp"
#include "../core/suggest.hpp"

namespace rigidbench {

std::deque<SchemeEntry> builtin_scheme_entries();  // builtin.cpp

namespace {
std::deque<SchemeEntry>& entries() {
  static std::deque<SchemeEntry> e = builtin_scheme_entries();
  return e;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

const std::deque<SchemeEntry>& registry() { return entries(); }

const char* to_string(SchemeOrigin o) {
  switch (o) {
    case SchemeOrigin::builtin: return "builtin";
    case SchemeOrigin::registered: return "registered";
    case SchemeOrigin::python: return "python";
    case SchemeOrigin::trajectories: return "trajectories";
    case SchemeOrigin::program: return "program";
  }
  return "?";
}

const SchemeEntry& register_scheme(SchemeEntry e) {
  if (e.info == nullptr || e.factory == nullptr) throw std::logic_error("register_scheme: entry without info or factory");
  const std::string name(e.info->name);
  if (!is_name(name))
    throw InputError(cat("cannot register scheme '", name, "': a name is ", kNameRule, " (it is used "
                         "on the command line, in globs and in report keys)"));
  // 0 is an adaptive scheme's "variable order" (integrator.hpp, "Adaptive schemes"): a step ladder
  // needs an order to expect, a tolerance ladder does not.
  if (e.info->order < 1 && !(e.info->adaptive && e.info->order == 0))
    throw InputError(cat("cannot register scheme '", name, "': order must be >= 1 (0: variable, for an adaptive scheme)"));
  check_adaptive_declaration(*e.info);
  std::lock_guard lock(registry_mutex());
  for (const SchemeEntry& x : entries())
    if (x.info->name == name)
      throw InputError(cat("cannot register scheme '", name, "': the name is taken by ",
                           x.builtin ? "a built-in scheme" : "another registered scheme"));
  e.settings = {};
  e.builtin = false;
  if (e.origin == SchemeOrigin::builtin) e.origin = SchemeOrigin::registered;
  entries().push_back(std::move(e));
  return entries().back();
}

void check_adaptive_declaration(const SchemeInfo& i) {
  const std::string who = cat("scheme '", std::string(i.name), "'");
  if (!i.adaptive && (i.error_estimate_order != -1 || i.dense_output))
    throw InputError(cat(who, ": ", i.dense_output ? "dense_output" : "error_estimate_order",
                         " describes an adaptive scheme's controller (docs/adaptive.md, \"What is judged\"); a fixed-step "
                         "scheme steps onto its output times with the step it is given"));
  if (i.error_estimate_order != -1 && (i.order < 1 || i.error_estimate_order < 0 || i.error_estimate_order >= i.order))
    throw InputError(cat(who, ": error_estimate_order ", std::to_string(i.error_estimate_order),
                         " is the order of its error estimate, in [0, order - 1] for a scheme of a fixed order (order ",
                         std::to_string(i.order), "; docs/adaptive.md, \"What is judged\")"));
  if (i.adaptive && (i.claims.symmetric || i.claims.symplectic))
    throw InputError(cat(who, ": claims ", i.claims.symmetric ? "symmetric" : "symplectic",
                         ", a property of a fixed step's one-step map (docs/metrics.md, \"Structure of the one-step map\"); an adaptive "
                         "scheme's step is its controller's, and its tolerance ladder does not measure the property - "
                         "the claim would be accepted and never judged"));
}

namespace {
std::string known_names() {
  std::string s;
  for (const auto& e : registry()) s += (s.empty() ? "" : ", ") + std::string(e.info->name);
  return s;
}
std::string suggestion(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& e : registry()) names.emplace_back(e.info->name);
  return did_you_mean(name, names);
}
}  // namespace

bool matches_any(const std::vector<std::string>& globs, const std::string& name) {
  if (globs.empty()) return true;
  for (const auto& g : globs)
    if (g == "all" || glob_match(g, name)) return true;
  return false;
}

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

namespace {
std::vector<AbsentSchemes>& absent() {
  static std::vector<AbsentSchemes> a;
  return a;
}
/// Why a name or glob that matched nothing would have matched in another build, or "".
std::string absent_reason(const std::string& pattern) {
  const std::string literal = pattern.substr(0, pattern.find_first_of("*?"));
  for (const AbsentSchemes& a : absent())
    if (!literal.empty() && (literal.rfind(a.prefix, 0) == 0 || (literal.size() < pattern.size() && a.prefix.rfind(literal, 0) == 0)))
      return "; " + a.prefix + "* schemes are not in this build: " + a.why;
  return "";
}
}  // namespace

void register_absent(AbsentSchemes a) { absent().push_back(std::move(a)); }
const std::vector<AbsentSchemes>& absent_schemes() { return absent(); }

const SchemeEntry& find_scheme(const std::string& name) {
  for (const auto& e : registry())
    if (e.info->name == name) return e;
  if (std::string why = absent_reason(name); !why.empty()) throw InputError("unknown integrator '" + name + "'" + why);
  throw InputError("unknown integrator '" + name + "'" + suggestion(name) + " (registered: " + known_names() + ")");
}

bool is_registered(std::string_view name) {
  for (const auto& e : registry())
    if (e.info->name == name) return true;
  return false;
}

std::vector<const SchemeEntry*> select_schemes(const std::vector<std::string>& patterns) {
  std::vector<const SchemeEntry*> out;
  for (const std::string& pat : patterns) {
    bool any = false;
    for (const auto& e : registry())
      if (pat == "all" ? e.in_all : glob_match(pat, std::string(e.info->name))) {
        any = true;
        if (std::find(out.begin(), out.end(), &e) == out.end()) out.push_back(&e);
      }
    if (!any && !absent_reason(pat).empty())
      throw InputError("no registered integrator matches '" + pat + "'" + absent_reason(pat));
    if (!any)
      throw InputError("no registered integrator matches '" + pat + "'" + suggestion(pat) + " (registered: " + known_names() + ")");
  }
  return out;
}

std::vector<SchemeEntry> configure_schemes(const std::vector<const SchemeEntry*>& schemes,
                                           const std::vector<std::string>& assignments) {
  std::vector<SchemeEntry> out;
  for (const SchemeEntry* s : schemes) out.push_back(*s);
  for (const std::string& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos) throw InputError("--set '" + a + "': expected name=value or scheme.name=value");
    std::string name = a.substr(0, eq), scheme;
    const std::string text = a.substr(eq + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos) {
      scheme = name.substr(0, dot), name = name.substr(dot + 1);
      if (scheme.empty()) throw InputError("--set '" + a + "': no scheme named before '.' (scheme.name=value)");
    }
    if (name.empty())
      throw InputError("--set '" + a + "': no setting named before '=' (name=value or scheme.name=value)");
    if (text.empty())
      throw InputError("--set '" + a + "': no value after '=' (a number: --set " + a + "1e-10)");
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && errno == ERANGE)
      throw InputError("--set '" + a + "': '" + text + "' is beyond what a double holds (too large or too small)");
    if (end != text.c_str() + text.size() || !std::isfinite(v))
      throw InputError("--set '" + a + "': '" + text + "' is not a finite number");
    if (!scheme.empty()) {
      find_scheme(scheme);  // unknown: the registry's message
      if (std::none_of(out.begin(), out.end(), [&](const SchemeEntry& e) { return e.info->name == scheme; }))
        throw InputError("--set '" + a + "': integrator '" + scheme + "' is not selected");
    }
    bool applied = false;
    std::string known;
    for (SchemeEntry& e : out) {
      if (!scheme.empty() && e.info->name != scheme) continue;
      for (const SettingInfo& si : e.info->settings) {
        known += cat(known.empty() ? "" : ", ", std::string(e.info->name), ".", std::string(si.name));
        if (si.name != name) continue;
        if (v < si.min || v > si.max || (si.integer && v != std::floor(v)))
          throw InputError(cat("--set '", a, "': ", std::string(e.info->name), ".", name, " takes ",
                               si.integer ? "a whole number" : "a value", " in [", format_number(si.min, 6), ", ",
                               format_number(si.max, 6), "]"));
        e.settings.values[name] = v;
        applied = true;
      }
    }
    if (!applied)
      throw InputError(cat("--set '", a, "': ",
                           scheme.empty() ? "no selected integrator declares a setting '" : "'" + scheme + "' declares no setting '",
                           name, "' (settings of the selection: ", known.empty() ? "none" : known, ")"));
  }
  return out;
}

const std::vector<std::string_view>& engine_name_prefixes() {
  // Debian's engines, then the npm ones (engines/npm/programs.json): an outside scheme named jolt_mine
  // would be taken by --integrator 'jolt*' for one of Jolt's.
  static const std::vector<std::string_view> prefixes{"mujoco_", "ode_",  "bullet_", "simbody_", "dart_",
                                                      "sundials_", "mujoco3_", "cannon_", "rapier", "jolt",
                                                      "oimo", "ammo", "havok", "physx"};
  return prefixes;
}

namespace {
class RefusedIntegrator final : public AnyIntegrator {
 public:
  RefusedIntegrator(const SchemeInfo& info, std::string why) : info_(&info), why_(std::move(why)) {}
  const SchemeInfo& info() const override { return *info_; }
  void reset(const State& x0, double) override { x_ = x0; }
  StepStatus step(double, double) override { return StepStatus::breakdown(why_); }
  void read(State& x) const override { x = x_; }
  Counters counters() const override { return {}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  const SchemeInfo* info_;
  std::string why_;
  State x_;
};
}  // namespace

std::unique_ptr<AnyIntegrator> refused_integrator(const SchemeInfo& info, std::string why) {
  return std::make_unique<RefusedIntegrator>(info, std::move(why));
}

std::unique_ptr<AnyIntegrator> SchemeEntry::make(const Problem& p, const SchemeSettings& set) const {
  // A Python class reports its own construction errors at its first step (python/); a recorded
  // trajectory that cannot be read is the user's input (exit 2).
  if (origin != SchemeOrigin::registered) return factory(p, set);
  try {
    return factory(p, set);
  } catch (const std::exception& e) {
    return refused_integrator(*info, cat("the scheme could not be made for problem '", p.name, "': ", e.what()));
  }
}

}  // namespace rigidbench
