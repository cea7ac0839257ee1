#include "random_study.hpp"

#include <cmath>
#include <limits>

#include "../core/json_numbers.hpp"

namespace rigidbench {

RandomStudy summarize_random_study(const SuiteResult& s, const RandomFamilyRequest& req) {
  RandomStudy out;
  out.request = req;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::size_t> problem_index;
  for (std::size_t i = 0; i < s.problems.size(); ++i) problem_index[s.problems[i].name] = i;
  std::vector<double> worst_key_order;  // per scheme: the worst problem's order (the tie-break)
  for (const PairResult& r : s.results) {
    auto [it, inserted] = index.emplace(r.integrator, out.schemes.size());
    if (inserted) {
      out.schemes.emplace_back();
      out.schemes.back().integrator = r.integrator;
      worst_key_order.push_back(0.0);
    }
    RandomStudy::Scheme& sc = out.schemes[it->second];
    if (r.status == "skipped") {
      ++sc.skipped;
      continue;
    }
    ++sc.problems;
    std::size_t failed = 0;
    for (const PairResult::Check& c : r.checks()) {
      RandomStudy::Outcomes& o = sc.checks[c.name];
      (c.verdict == Verdict::pass ? o.pass : c.verdict == Verdict::fail ? o.fail : o.undefined)++;
      failed += c.failed;
    }
    sc.failed += failed > 0;
    double order = kNaN;
    if (const auto c = r.convergence.find("attitude_error_final"); c != r.convergence.end()) {
      order = c->second.fit.slope;
      sc.expected_order = c->second.expected;
    }
    if (!std::isfinite(order)) {
      ++sc.order_undefined;
    } else if (!(order >= sc.worst_order)) {  // also when worst_order is still NaN
      sc.worst_order = order;
      sc.worst_order_problem = r.problem;
    }
    if (r.q_ii.primary >= 0) {
      const double dev = r.q_ii.levels[std::size_t(r.q_ii.primary)].max_deviation;
      if (std::isfinite(dev) && !(dev <= sc.worst_q_ii_deviation)) {
        sc.worst_q_ii_deviation = dev;
        sc.worst_q_ii_problem = r.problem;
      }
    }
    // Worst: most failed checks, then the lowest order (an undefined order counts as the lowest).
    const double key_order = std::isfinite(order) ? order : -std::numeric_limits<double>::infinity();
    const bool first = sc.worst_problem.empty();
    double& worst = worst_key_order[it->second];
    if (first || failed > sc.worst_failed_checks || (failed == sc.worst_failed_checks && key_order < worst)) {
      sc.worst_problem = r.problem;
      sc.worst_problem_index = problem_index.at(r.problem);
      sc.worst_failed_checks = failed;
      worst = key_order;
    }
  }
  return out;
}

nlohmann::ordered_json random_study_json(const RandomStudy& study, const std::map<std::string, std::string>& worst_files) {
  const RandomFamilyRequest& q = study.request;
  nlohmann::ordered_json j;
  j["family"] = q.family;
  j["count"] = q.count;
  j["seed"] = q.seed;
  j["energy"] = q.energy;
  j["load_fraction"] = q.load_fraction;
  j["reproduce"] = cat("rigidbench verify --random ", std::to_string(q.count), " --seed ", std::to_string(q.seed),
                       " --family ", q.family, " --energy ", format_number(q.energy), " --load-fraction ",
                       format_number(q.load_fraction));
  nlohmann::ordered_json schemes = nlohmann::ordered_json::array();
  for (const RandomStudy::Scheme& sc : study.schemes) {
    nlohmann::ordered_json e;
    e["integrator"] = sc.integrator;
    e["problems"] = sc.problems;
    e["skipped"] = sc.skipped;
    e["failed"] = sc.failed;
    e["fraction_all_passed"] = sc.problems ? json_numbers::num(double(sc.problems - sc.failed) / double(sc.problems)) : nullptr;
    nlohmann::ordered_json checks = nlohmann::ordered_json::object();
    for (const auto& [name, o] : sc.checks) {
      const double n = double(o.pass + o.fail + o.undefined);
      checks[name] = {{"pass", o.pass}, {"fail", o.fail}, {"undefined", o.undefined},
                      {"fraction_pass", json_numbers::num(double(o.pass) / n)}};
    }
    e["checks"] = checks;
    e["expected_order"] = json_numbers::num(sc.expected_order);
    e["worst_order"] = json_numbers::num(sc.worst_order);
    e["worst_order_problem"] = sc.worst_order_problem;
    e["order_undefined"] = sc.order_undefined;
    e["worst_q_ii_deviation"] = json_numbers::num(sc.worst_q_ii_deviation);
    e["worst_q_ii_problem"] = sc.worst_q_ii_problem;
    e["worst_problem"] = sc.worst_problem;
    e["worst_failed_checks"] = sc.worst_failed_checks;
    if (const auto f = worst_files.find(sc.integrator); f != worst_files.end()) e["worst_problem_file"] = f->second;
    schemes.push_back(std::move(e));
  }
  j["schemes"] = std::move(schemes);
  return j;
}

}  // namespace rigidbench
