#include <cmath>
#include <cstdio>
#include <filesystem>

#include "rigidbench/cli/commands.hpp"

namespace rigidbench::cli {

void require_out_folder(const std::string& out) {
  const std::filesystem::path p(out);
  const auto dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir)) throw InputError(cat("--out '", out, "': folder '", dir.string(), "' does not exist"));
}

std::string fmt(double x, const char* f) {
  if (!std::isfinite(x)) return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

void print_summary(const SuiteResult& s) {
  std::printf("%-18s %-14s %-9s %-14s %-16s %-22s %-9s %s\n", "integrator", "problem", "status", "slope(att)/p",
              "Q_II(h)/2^p", "exact invariants", "ns/step", "x RK4");
  for (const auto& r : s.results) {
    if (r.status == "skipped") {
      std::printf("%-18s %-14s %-9s %s\n", r.integrator.c_str(), r.problem.c_str(), "skipped", r.reason.c_str());
      continue;
    }
    const auto it = r.convergence.find("attitude_error_final");
    std::string slope = "-";
    if (it != r.convergence.end())
      slope = cat(fmt(it->second.fit.slope, "%.2f"), "/", fmt(it->second.expected, "%.0f"), " ", to_string(it->second.verdict));
    std::string q = "-";
    if (r.q_ii.primary >= 0) {
      const auto& l = r.q_ii.levels[std::size_t(r.q_ii.primary)];
      q = cat(fmt(l.median, "%.3f"), "(", fmt(l.h, "%.2g"), ") ", to_string(l.verdict));
    }
    int ex = 0, ex_pass = 0;
    for (const auto& i : r.invariants)
      if (i.claim == Claim::exact) ex++, ex_pass += i.verdict == Verdict::pass;
    std::printf("%-18s %-14s %-9s %-14s %-16s %-22s %-9s %s%s\n", r.integrator.c_str(), r.problem.c_str(), r.status.c_str(),
                slope.c_str(), q.c_str(), cat(std::to_string(ex_pass), "/", std::to_string(ex), " pass").c_str(),
                fmt(r.cost.ns_per_step, "%.0f").c_str(), fmt(r.cost.ratio_to_baseline, "%.2f").c_str(),
                r.failed() ? "  <- FAILED" : "");
  }
}

void print_expectations(const ExpectationReport& e, const std::string& origin) {
  std::printf("expected findings (%s): %d failed as expected, %d unexpected failure(s), %d unexpected pass(es), "
              "%d unknown check(s)\n",
              origin.c_str(), e.expected_failures, e.unexpected_failures, e.unexpected_passes, e.unknown_checks);
  for (const auto& o : e.outcomes) {
    if (o.outcome == "expected_failure" || o.outcome == "not_run") continue;
    const char* what = o.outcome == "unexpected_failure" ? "UNEXPECTED FAILURE"
                       : o.outcome == "unexpected_pass"  ? "UNEXPECTED PASS (remove it from the list)"
                       : o.outcome == "nonstrict_pass"   ? "passed (listed non-strict: at round-off)"
                                                         : "UNKNOWN CHECK (the pair ran without it)";
    std::printf("  %-40s %s x %s: %s%s%s\n", what, o.integrator.c_str(), o.problem.c_str(), o.check.c_str(),
                o.reason.empty() ? "" : " - listed because: ", o.reason.c_str());
  }
}

}  // namespace rigidbench::cli
