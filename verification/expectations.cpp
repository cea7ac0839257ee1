#include "expectations.hpp"

#include <algorithm>
#include <fstream>
#include <set>

#include "../core/json_input.hpp"
#include "../core/json_schema.hpp"
#include "../core/types.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"

namespace rigidbench {

const ExpectedFailure* Expectations::find(const std::string& integrator, const std::string& problem,
                                          const std::string& check) const {
  for (const ExpectedFailure& x : items)
    if (x.integrator == integrator && x.problem == problem && x.check == check) return &x;
  return nullptr;
}

Expectations load_expectations(const std::string& path) {
  const nlohmann::json j = read_json_input(path, "the expectations file");
  validate_document(j, DocumentSchema::expectations, path);
  Expectations out;
  out.origin = path;
  std::set<std::string> seen;
  for (const auto& x : j.at("expected_failures"))
    for (const auto& c : x.at("checks")) {
      ExpectedFailure f{x.at("integrator"), x.at("problem"), c, x.at("reason"), x.value("strict", true)};
      if (!seen.insert(cat(f.integrator, "/", f.problem, "/", f.check)).second)
        throw InputError(cat(path, ": ", f.integrator, " x ", f.problem, " check '", f.check, "' is listed twice"));
      out.items.push_back(std::move(f));
    }
  return out;
}

ExpectationReport tally(std::vector<ExpectationOutcome> outcomes) {
  ExpectationReport R;
  R.outcomes = std::move(outcomes);
  for (const ExpectationOutcome& x : R.outcomes) {
    const std::string& o = x.outcome;
    R.expected_failures += o == "expected_failure";
    R.unexpected_passes += o == "unexpected_pass";
    R.unexpected_failures += o == "unexpected_failure";
    R.unknown_checks += o == "unknown_check" || o == "unknown_scheme" || o == "unknown_problem";
  }
  return R;
}

ExpectationReport apply_expectations(const SuiteResult& s, const Expectations& e) {
  std::vector<ExpectationOutcome> outcomes;
  auto add = [&](const std::string& i, const std::string& p, const std::string& c, const char* outcome,
                 const std::string& reason) { outcomes.push_back({i, p, c, outcome, reason}); };
  std::set<const ExpectedFailure*> used;
  for (const PairResult& r : s.results) {
    for (const PairResult::Check& c : r.checks()) {
      const ExpectedFailure* x = e.find(r.integrator, r.problem, c.name);
      if (x) used.insert(x);
      if (c.failed && x) add(r.integrator, r.problem, c.name, "expected_failure", x->reason);
      else if (c.failed) add(r.integrator, r.problem, c.name, "unexpected_failure", "");
      else if (x) add(r.integrator, r.problem, c.name, x->strict ? "unexpected_pass" : "nonstrict_pass", x->reason);
    }
  }
  for (const ExpectedFailure& x : e.items) {
    if (used.count(&x)) continue;
    bool ran = false;  // a pair that ran (not skipped) yet has no such check: the list names it wrongly
    bool in_run = false, problem_in_run = false;
    for (const PairResult& r : s.results) {
      ran |= r.integrator == x.integrator && r.problem == x.problem && r.status != "skipped";
      in_run |= r.integrator == x.integrator;
    }
    for (const Problem& p : s.problems) problem_in_run |= p.name == x.problem;
    // An entry for a pair the filters left out is not run; one naming a scheme or a problem that
    // neither this run nor the registry or the catalogue knows is a typo or a removed name, and would
    // silently never apply.
    const bool known_scheme = in_run || is_registered(x.integrator);
    const bool known_problem = problem_in_run || catalogue_has(x.problem);
    add(x.integrator, x.problem, x.check,
        ran             ? "unknown_check"
        : !known_scheme  ? "unknown_scheme"
        : !known_problem ? "unknown_problem"
                         : "not_run",
        x.reason);
  }
  return tally(std::move(outcomes));
}

}  // namespace rigidbench
