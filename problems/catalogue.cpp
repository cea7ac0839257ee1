#include "catalogue.hpp"

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>

#include "../core/names.hpp"
#include "../core/suggest.hpp"
#include "family.hpp"

namespace rigidbench {
namespace {

struct Entry {
  std::string name;
  std::function<Problem()> make;
  bool quick;
  bool builtin;
};

/// The problems the program registered (register_problem), in order. Registration happens before
/// any command runs; the mutex only guards registrations against each other.
std::vector<Entry>& registered() {
  static std::vector<Entry> e;
  return e;
}
/// The catalogue: the problems each family declares (Family::catalogue, in the order of the
/// families: problems/families/builtin.cpp, then the program's own), then the registered ones.
std::vector<Entry> entries() {
  std::vector<Entry> e;
  for (const Family* f : all_families())
    for (CatalogueEntry& c : f->catalogue()) e.push_back({std::move(c.name), std::move(c.make), c.quick, true});
  e.insert(e.end(), registered().begin(), registered().end());
  return e;
}
std::mutex& entries_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

std::vector<std::string> catalogue_names() {
  std::vector<std::string> n;
  for (const Entry& e : entries()) n.push_back(e.name);
  return n;
}

std::vector<std::string> quick_problem_names() {
  std::vector<std::string> n;
  for (const Entry& e : entries())
    if (e.quick) n.push_back(e.name);
  return n;
}

bool builtin_problem(const std::string& name) {
  if (std::string base; sized_problem(name, base)) return true;
  for (const Entry& e : entries())
    if (e.name == name) return e.builtin;
  return false;
}

void register_problem(const std::string& name, std::function<Problem()> make, bool quick) {
  if (!is_name(name)) throw InputError(cat("cannot register problem '", name, "': a name is ", kNameRule));
  if (!make) throw InputError(cat("cannot register problem '", name, "': no function makes it"));
  std::lock_guard lock(entries_mutex());
  for (const Entry& e : entries())
    if (e.name == name)
      throw InputError(cat("cannot register problem '", name, "': the name is taken by ",
                           e.builtin ? "a built-in problem" : "another registered problem"));
  // Made and validated once now, so that a bad problem is refused where it is registered.
  Problem p = make();
  if (p.name != name)
    throw InputError(cat("cannot register problem '", name, "': it is made with the name '", p.name, "' (they must agree)"));
  p.finalize();
  registered().push_back({name, std::move(make), quick, false});
}

namespace {
/// The catalogue problems that have a size: NAME_N is make(N).
struct Scalable {
  const char* name;
  Problem (*make)(std::size_t n);
  std::size_t min, max;  // the sizes make(n) accepts
};
const std::vector<Scalable>& scalable_problems() {
  static const std::vector<Scalable> table{{"particle_gas", particle_gas, 2, 1000000}};
  return table;
}
}  // namespace

std::vector<std::string> scalable_problem_names() {
  std::vector<std::string> out;
  for (const Scalable& s : scalable_problems()) out.emplace_back(s.name);
  return out;
}

std::optional<std::size_t> sized_problem(const std::string& name, std::string& base) {
  for (const Scalable& s : scalable_problems()) {
    const std::string prefix = cat(s.name, "_");
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    // Digits as std::to_string writes them: particle_gas_0640 would be a second name of particle_gas_640.
    if (digits.size() > 7 || digits[0] == '0' || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    base = s.name;
    return std::size_t(std::stoul(digits));
  }
  return std::nullopt;
}

bool catalogue_has(const std::string& name) {
  std::string base;
  if (const auto n = sized_problem(name, base))
    for (const Scalable& s : scalable_problems())
      if (base == s.name) return *n >= s.min && *n <= s.max;
  const auto names = catalogue_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

Problem catalogue_problem(const std::string& name) {
  std::string base;
  if (const auto n = sized_problem(name, base))
    for (const Scalable& s : scalable_problems())
      if (base == s.name) {
        Problem p = s.make(*n);
        p.name = name;  // particle_gas_2000 names the default size too
        p.finalize();
        return p;
      }
  for (const Entry& e : entries())
    if (e.name == name) {
      Problem p = e.make();
      if (p.name != name)
        throw InputError(cat("catalogue problem '", name, "' is made with the name '", p.name, "' (they must agree)"));
      p.finalize();
      return p;
    }
  std::string known;
  for (const auto& n : catalogue_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown problem '" + name + "'" + did_you_mean(name, catalogue_names()) + " (known: " + known +
                   "; particle_gas_N for N spheres)");
}

}  // namespace rigidbench
