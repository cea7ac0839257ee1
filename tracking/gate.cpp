#include "gate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <tuple>

#include "../core/text_escape.hpp"
#include "../core/types.hpp"
#include "../problems/catalogue.hpp"
#include "../verification/metrics.hpp"
#include "../integrators/registry.hpp"
#include "../verification/expectations.hpp"
#include "mann_whitney.hpp"

namespace rigidbench {

namespace {

std::string fmt4(double x) { return format_or_dash(x, 4); }
std::string or_dash(const std::optional<std::string>& s) { return s ? *s : "-"; }

/// "n levels from h = ..." of a ladder, for the message of ladders that cannot be compared.
std::string ladder_text(const LadderSnapshot& l) {
  return l.h.empty() ? std::string("no levels") : cat(std::to_string(l.h.size()), " levels from h = ", fmt4(l.h.front()));
}

/// The levels both sides ran (docs/gate.md, "Ladders"): the common first levels of two ladders with the
/// same steps there, every array as long as its ladder; 0 when they cannot be compared. A sequential
/// ladder stops where its claims are decided, so two runs may end at different levels.
std::size_t common_levels(const LadderSnapshot& b, const LadderSnapshot& c) {
  const std::size_t n = std::min(b.h.size(), c.h.size());
  bool same = n > 0 && b.error.size() == b.h.size() && c.error.size() == c.h.size() && b.floor.size() == b.h.size() &&
              c.floor.size() == c.h.size();
  for (std::size_t k = 0; same && k < n; ++k) same = std::abs(b.h[k] - c.h[k]) <= 1e-12 * std::abs(b.h[k]);
  return same ? n : 0;
}

/// What a row of a pair whose runs ran another number of levels says (docs/gate.md).
std::string levels_note(std::size_t baseline, std::size_t current) {
  return cat("compared on the first ", std::to_string(std::min(baseline, current)), " levels (the baseline ran ",
             std::to_string(baseline), ", this run ", std::to_string(current), ")");
}

/// How a failing metric's error moved at every level, and whether its order held: the fitted slopes
/// (least squares of log error on log h over the levels where both are finite) and the verdicts.
std::string ladder_story(const LadderSnapshot& b, const LadderSnapshot& c) {
  std::string levels;
  std::vector<double> lh, lb, lc;
  for (std::size_t k = 0; k < std::min(b.h.size(), c.h.size()); ++k) {
    levels += cat(levels.empty() ? "" : ", ", "h = ", fmt4(b.h[k]), ": ", fmt4(b.error[k]), " -> ", fmt4(c.error[k]));
    if (std::isfinite(b.error[k]) && std::isfinite(c.error[k]) && b.error[k] > 0 && c.error[k] > 0)
      lh.push_back(std::log(b.h[k])), lb.push_back(std::log(b.error[k])), lc.push_back(std::log(c.error[k]));
  }
  return cat(". Every level (baseline -> current): ", levels, ". Fitted order ", fmt4(fit_line(lh, lb).slope), " -> ",
             fmt4(fit_line(lh, lc).slope), ", order verdict ", b.verdict, " -> ", c.verdict);
}

/// One comparison of the gate: collects rows and counts them.
struct Gate {
  const GateOptions& opt;
  GateResult g;
  const std::vector<GateTolerance>* tolerances = nullptr;  // the baseline's own (GateTolerance)
  /// The pair being compared ran another number of levels than the baseline's (sequential ladders
  /// settle where they settle): what its rows say; and every such pair, for the run's note.
  std::string ladder_note;
  std::vector<std::string> other_ladders;

  /// The rules of one row: the run's, with the baseline's tolerances that match it applied in order;
  /// `why` gets the reason of the last that widened something ("" when none applied).
  GateRules rules_for(const std::string& integ, const std::string& prob, const std::string& check, std::string* why = nullptr) const {
    GateRules r = opt.rules;
    if (tolerances != nullptr)
      for (const GateTolerance& t : *tolerances) {
        if (!glob_match(t.integrator, integ) || !glob_match(t.problem, prob) || !glob_match(t.check, check)) continue;
        if (t.error_band) r.log10_rise = *t.error_band;
        if (t.instruction_tolerance) r.instruction_rise = *t.instruction_tolerance;
        if (why != nullptr) *why = t.reason.empty() ? std::string("the baseline's tolerance") : t.reason;
      }
    return r;
  }

  bool in_selection(const std::string& integ, const std::string& prob) const {
    return matches_any(opt.integrators, integ) && matches_any(opt.problems, prob) && opt.shard.contains(shard_key(integ, prob));
  }

  void add(GateRow r) {
    if (r.status == "stale" && opt.allow_stale) r.message += " (allowed: --allow-stale)";
    if (r.status == "improved") r.message += opt.require_rebless ? " (--require-rebless: re-bless to keep it)" : "";
    r.failing = r.status == "fail" || r.status == "missing" || r.status == "unexpected_pass" ||
                (r.status == "stale" && !opt.allow_stale) || (r.status == "improved" && opt.require_rebless);
    g.failures += r.failing && r.status != "stale" && r.status != "improved";
    g.stale += r.status == "stale";
    g.improved += r.status == "improved";
    g.warnings += r.status == "warn";  // an allowed stale row is counted once, as stale (it said "(allowed)")
    g.expected += r.status == "expected_failure";
    g.rows.push_back(std::move(r));
  }
  /// A verdict row: pass -> fail is a regression; with expectations, the current verdict must be
  /// a listed failure or a pass that is not listed.
  void verdict_row(const std::string& integ, const std::string& prob, const std::string& check, const std::string& bv,
                   const std::string& cv, GateRow row, const std::string& improvement = "") {
    row.baseline = bv;
    row.current = cv;
    if (row.status == "pass" && bv == "fail" && cv == "pass" && !ladder_note.empty()) {
      // Not an improvement: the levels this run did not run may be where the baseline failed.
      row.status = "fail";
      row.message = cat("verdict turned from fail to pass (", check, ") on another ladder: not comparable, the levels "
                        "one run lacks may be where the baseline failed (bless again, or run both with --fixed-ladder)");
    } else if (row.status == "pass" && bv == "fail" && cv == "pass" &&
               (opt.expect == nullptr || opt.expect->find(integ, prob, check) == nullptr)) {
      row.status = "improved";  // a listed failure that passes is an unexpected pass, below
      row.message = cat("verdict turned from fail to pass (", check, ")");
    } else if (row.status == "pass" && bv == "pass" && cv == "fail") {
      row.status = "fail";
      row.message = cat("verdict turned from pass to fail (", check, ")");
    } else if (row.status == "pass" && bv == "pass" && cv != "pass") {
      // Fail closed: a guarantee the baseline held that the current run no longer decides (pass to
      // undefined) is lost, not kept.
      row.status = "fail";
      row.message = cat("verdict turned from pass to ", cv.empty() ? std::string("nothing") : cv, " (", check,
                        "): what the baseline held is no longer decided");
    }
    if (opt.expect != nullptr) {
      const ExpectedFailure* x = opt.expect->find(integ, prob, check);
      if (x && cv == "pass" && row.status == "pass" && !x->strict) {
        row.status = "warn";
        row.message = cat("listed (non-strict) in ", opt.expect->origin, " and passed with this build: ", x->reason);
      } else if (x && cv == "pass" && row.status == "pass") {
        row.status = "unexpected_pass";
        row.message = cat("listed as an expected failure in ", opt.expect->origin, " but passed: remove it from the list (",
                          x->reason, ")");
      } else if (x && cv == "fail" && (row.status == "pass" || row.status == "fail")) {
        row.status = "expected_failure";
        row.message = cat("expected: ", x->reason);
      } else if (!x && cv == "fail" && row.status == "pass") {
        row.status = "fail";
        row.message = cat("verdict fails and is not listed in ", opt.expect->origin);
      }
    }
    if (row.status == "pass" && !improvement.empty()) row.status = "improved", row.message = improvement;
    if (!ladder_note.empty() && row.message.find(ladder_note) == std::string::npos)
      row.message += cat(row.message.empty() ? "" : "; ", ladder_note);
    add(std::move(row));
  }

  /// The largest rise of the error past its allowance, and the largest improvement, over the levels
  /// of one ladder (in decades; -1e300: none).
  struct LevelMoves {
    double worst = -1e300, best = -1e300;
    std::string worst_text, best_text;
  };

  /// Level k of two ladders with the same levels: ce <= be 10^rise + (floor_b + floor_c) + both
  /// runs' rounding. False (and `row` failed) when the level cannot be compared or broke down.
  bool compare_level(const LadderSnapshot& b, const LadderSnapshot& c, std::size_t k, GateRow& row, LevelMoves& m,
                     const GateRules& rules) const {
    const double be = b.error[k], ce = c.error[k], h = b.h[k];
    if (std::isfinite(be) && !std::isfinite(ce)) {
      row.status = "fail";
      row.message = cat("level h = ", fmt4(h), " broke down (was ", fmt4(be), ")");
      return false;
    }
    if (!std::isfinite(be) && std::isfinite(ce)) {
      m.best = 1e300;
      m.best_text = cat("level h = ", fmt4(h), " now runs (was a breakdown)");
      return true;
    }
    if (!std::isfinite(be)) return true;  // both broke down at this level: the same behaviour
    // The reference of each run is accurate only to its floor, and each run carries its own
    // accumulated rounding: a difference within their sum is not a change of the scheme
    // (docs/gate.md, "Tolerances").
    const double fb = (std::isfinite(b.floor[k]) ? b.floor[k] : 0.0) + b.rounding_at(k);
    const double fc = (std::isfinite(c.floor[k]) ? c.floor[k] : 0.0) + c.rounding_at(k);
    // The current run's allowance follows from its reference's error estimate and its ladder (the
    // same problem, tolerance and steps as the baseline's), not from the scheme, and so from one
    // build to another it moves by far less than a decade. One beyond that is not believed: a
    // report could otherwise declare floors of 1e300 and pass any error (docs/gate.md).
    if (fc > rules.allowance_trust * fb) {
      row.status = "fail";
      row.message = cat("at h = ", fmt4(h), " the current run's allowance (floor + rounding) is ", fmt4(fc), ", more than ",
                        fmt4(rules.allowance_trust), "x the baseline's ", fmt4(fb),
                        ": it does not follow from the same reference and ladder - not compared (re-bless if the "
                        "reference or its tolerance changed)");
      return false;
    }
    const double allowed = be * std::pow(10.0, rules.log10_rise) + fb + fc;
    if (!std::isfinite(allowed)) {  // a comparison that cannot be made fails, it never passes
      row.status = "fail";
      row.message = cat("at h = ", fmt4(h), " the allowed error is not a finite number (baseline ", fmt4(be),
                        "): nothing comparable");
      return false;
    }
    if (ce > allowed && std::log10(ce / be) > m.worst) {
      m.worst = std::log10(ce / be);
      m.worst_text = cat("error at h = ", fmt4(h), " rose from ", fmt4(be), " to ", fmt4(ce), " (", fmt4(m.worst),
                         " decades; allowed ", fmt4(rules.log10_rise), " decades plus the floors ", fmt4(fb + fc), ")");
    }
    const double gained_floor = be * std::pow(10.0, -rules.log10_improvement_stale) - fb - fc;
    const double gain = std::log10(be / std::max(ce, 1e-300));
    if (ce < gained_floor && gain > m.best) {
      m.best = gain;
      m.best_text = cat("error at h = ", fmt4(h), " improved from ", fmt4(be), " to ", fmt4(ce), " (", fmt4(gain),
                        " decades; more than ", fmt4(rules.log10_improvement_stale), ")");
    }
    return true;
  }

  /// Error ladders: the same levels, then each level compared; then the order verdict.
  void ladder_row(const PairSnapshot& p, const std::string& metric, const LadderSnapshot& b, const LadderSnapshot& c,
                  double seconds) {
    GateRow row{p.integrator, p.problem, metric, "pass", "", "", "", seconds};
    const std::size_t n = common_levels(b, c);
    if (n == 0) {
      row.status = "missing";
      row.baseline = ladder_text(b);
      row.current = ladder_text(c);
      row.message = b.h.empty() ? "the baseline has no levels for this metric: nothing to compare"
                                : cat("the ladders differ (baseline ", ladder_text(b), ", current ", ladder_text(c),
                                      ", or arrays of unequal length): nothing comparable");
      add(row);
      return;
    }
    LevelMoves m;
    std::string widened;
    const GateRules rules = rules_for(p.integrator, p.problem, metric, &widened);
    for (std::size_t k = 0; k < n; ++k)
      if (!compare_level(b, c, k, row, m, rules)) break;
    if (row.status != "fail" && m.worst > -1e300) row.status = "fail", row.message = m.worst_text + ladder_story(b, c);
    if (!widened.empty() && rules.log10_rise != opt.rules.log10_rise)
      row.message += cat(row.message.empty() ? "" : "; ", "band ", fmt4(rules.log10_rise), " decades: ", widened);
    // An improved error is said only once the verdicts had their say: a verdict that turned to fail,
    // a failure not listed or a listed one that passed outranks it (an error smaller at the coarse
    // levels can come with a lost order).
    const std::string pair_note = ladder_note;  // this metric alone may differ in length
    if (b.h.size() != c.h.size() && ladder_note.empty()) ladder_note = levels_note(b.h.size(), c.h.size());
    verdict_row(p.integrator, p.problem, metric, b.verdict, c.verdict, std::move(row),
                m.best > -1e300 ? m.best_text : std::string());
    ladder_note = pair_note;
  }

  /// An adaptive pair's work per unit time at each tolerance (accepted steps, right-hand sides):
  /// beyond +work_rise at any level fails; at or under work_fall_stale of the baseline's at every
  /// level is stale (a cheaper controller: re-bless). The error at each tolerance is its ladder's row.
  void work_row(const PairSnapshot& p, const WorkSnapshot& b, const WorkSnapshot& c, double secs) {
    GateRow row{p.integrator, p.problem, "tolerance_work", "pass", "", "", "", secs};
    const std::size_t n = b.tol.size();
    bool same = n > 0 && c.tol.size() == n;
    for (std::size_t k = 0; same && k < n; ++k) same = std::abs(b.tol[k] - c.tol[k]) <= 1e-12 * b.tol[k];
    if (!same) {
      row.status = "missing";
      row.message = "the tolerance ladders differ (tol0 or levels): nothing comparable";
      add(row);
      return;
    }
    double worst = 0;
    bool all_fell = true, any = false;
    std::string gap;  // fail closed: a baseline figure the current run does not give back
    for (std::size_t k = 0; k < n; ++k)
      for (const auto& [what, bv, cv] : {std::tuple{"accepted steps", b.accepted_steps, c.accepted_steps},
                                          std::tuple{"right-hand sides", b.rhs_evaluations, c.rhs_evaluations}}) {
        const bool in_base = k < bv.size() && std::isfinite(bv[k]) && bv[k] > 0;
        const bool in_current = k < cv.size() && std::isfinite(cv[k]) && cv[k] > 0;
        if (in_base && !in_current && gap.empty())
          gap = cat(what, " per unit time at tol = ", fmt4(b.tol[k]), ": ", fmt4(bv[k]), " in the baseline, ",
                    k < cv.size() && !std::isnan(cv[k]) ? fmt4(cv[k]) : std::string("none"), " in the current run");
        if (!in_base || !in_current) continue;
        any = true;
        const double r = cv[k] / bv[k];
        all_fell = all_fell && r <= opt.rules.work_fall_stale;
        if (r > 1 + opt.rules.work_rise && r - 1 > worst) {
          worst = r - 1;
          row.baseline = fmt4(bv[k]);
          row.current = fmt4(cv[k]);
          row.message = cat(what, " per unit time at tol = ", fmt4(b.tol[k]), " rose by ", fmt4(100 * (r - 1)), " % (",
                            fmt4(bv[k]), " -> ", fmt4(cv[k]), "; allowed +", fmt4(100 * opt.rules.work_rise), " %)");
        }
      }
    if (worst > 0) row.status = "fail";
    else if (!gap.empty()) row.status = "missing", row.message = gap;
    else if (!any) row.status = "missing", row.message = "no work per tolerance on either side to compare";
    else if (any && all_fell)
      row.status = "improved", row.message = cat("the work per unit time fell to ", fmt4(100 * opt.rules.work_fall_stale),
                                                 " % of the baseline's or less at every tolerance");
    add(row);
  }

  /// Every gating metric and check of a pair both runs judged; their rows share the pair's time
  /// (JUnit's time per testcase).
  void judged_pair(const PairSnapshot& b, const PairSnapshot& c, double secs) {
    const std::size_t first_row = g.rows.size();
    const std::string &integ = b.integrator, &prob = b.problem;
    std::size_t nb = 0, nc = 0;
    for (const auto& [name, l] : b.convergence) nb = std::max(nb, l.h.size());
    for (const auto& [name, l] : c.convergence) nc = std::max(nc, l.h.size());
    ladder_note.clear();
    if (nb != nc && nb > 0 && nc > 0) {
      ladder_note = levels_note(nb, nc);
      other_ladders.push_back(cat(integ, "/", prob, " ", std::to_string(nb), " -> ", std::to_string(nc)));
    }
    for (const auto& [name, bl] : b.convergence) {
      if (const LadderSnapshot* cl = c.ladder(name)) ladder_row(b, name, bl, *cl, secs);
      else add({integ, prob, name, "missing", bl.verdict, "", "metric missing from the current run"});
    }
    for (const auto& [name, cl] : c.convergence)
      if (!b.ladder(name)) add({integ, prob, name, "missing", "", cl.verdict, "metric not in the baseline: bless to gate it"});
    for (const auto& [name, bv] : b.checks) {
      if (const std::string* cv = c.check(name))
        verdict_row(integ, prob, name, bv, *cv, {integ, prob, name, "pass", "", "", "", secs});
      else
        add({integ, prob, name, "missing", bv, "", "check missing from the current run"});
    }
    for (const auto& [name, cv] : c.checks)
      if (!b.check(name)) add({integ, prob, name, "missing", "", cv, "check not in the baseline: bless to gate it"});
    if (b.work && c.work) work_row(b, *b.work, *c.work, secs);
    else if (b.work) add({integ, prob, "tolerance_work", "missing", "", "", "work per tolerance missing from the current run"});
    else if (c.work) add({integ, prob, "tolerance_work", "missing", "", "", "work per tolerance not in the baseline: bless to gate it"});
    const std::size_t rows = g.rows.size() - first_row;
    for (std::size_t i = first_row; i < g.rows.size(); ++i) g.rows[i].seconds = secs / double(rows);
    ladder_note.clear();
  }

  /// A pair of the baseline against the same pair of the current run.
  void pair(const PairSnapshot& b, const PairSnapshot& c) {
    const std::string &integ = b.integrator, &prob = b.problem;
    const double secs = c.seconds.value_or(0.0);
    // The scheme's own version (an engine's library): results of another version are not
    // comparable, neither better nor worse - the pair is stale until blessed with this one.
    if (b.version != c.version) {
      add({integ, prob, "version", "stale", or_dash(b.version), or_dash(c.version),
           cat("the scheme's version changed (baseline ", b.version.value_or("none"), ", now ", c.version.value_or("none"),
               "): not compared; bless to gate this version"),
           secs});
      return;
    }
    if (b.status == "skipped" || c.status == "skipped") {
      GateRow row{integ, prob, "applicability", "pass", b.status, c.status, "", secs};
      if (b.status != c.status)
        row.status = "missing",
        row.message = b.status == "skipped" ? "the pair now runs: bless to gate it" : "the pair is now skipped: nothing to compare";
      add(row);
      return;
    }
    judged_pair(b, c, secs);
  }

  void accuracy(const GateSnapshot& base, const GateSnapshot& cur) {
    std::size_t compared = 0;
    for (const PairSnapshot& b : base.accuracy) {
      if (!in_selection(b.integrator, b.problem)) continue;
      ++compared;
      if (const PairSnapshot* c = cur.pair(b.integrator, b.problem)) pair(b, *c);
      else add({b.integrator, b.problem, "*", "missing", b.status, "", "pair missing from the current run"});
    }
    for (const PairSnapshot& c : cur.accuracy)
      if (in_selection(c.integrator, c.problem) && !base.pair(c.integrator, c.problem))
        add({c.integrator, c.problem, "*", "missing", "", c.status, "pair not in the baseline: bless to gate it"});
    if (!other_ladders.empty()) {
      std::string some;
      for (std::size_t i = 0; i < other_ladders.size() && i < 5; ++i) some += cat(i ? ", " : "", other_ladders[i]);
      g.notes.push_back(cat(std::to_string(other_ladders.size()), " pair(s) ran another number of levels than the baseline (",
                            some, other_ladders.size() > 5 ? ", ..." : "",
                            "): compared on the levels both ran; a verdict that differs between them fails (docs/gate.md)"));
    }
    if (compared == 0)
      add({"*", "*", "accuracy", "missing", "", "",
           base.accuracy.empty() ? "the baseline has no accuracy entries: nothing to compare"
                                 : "no baseline entry matches the --integrator/--problem/--shard selection: nothing to compare"});
  }

  /// An expectation naming a scheme that neither snapshot has and this build does not register, a
  /// problem that neither has and the catalogue does not, or a check that the pair of the current run
  /// does not have, would silently never apply (a typo, a removed name): a failing row, as verify's
  /// unknown_scheme, unknown_problem and unknown_check.
  void unknown_expectations(const GateSnapshot& base, const GateSnapshot& cur) {
    for (const ExpectedFailure& x : opt.expect->items) {
      if (const PairSnapshot* c = cur.pair(x.integrator, x.problem);
          c && c->status != "skipped" && in_selection(x.integrator, x.problem) && !c->ladder(x.check) && !c->check(x.check)) {
        add({x.integrator, x.problem, x.check, "missing", "", "",
             cat("listed in ", opt.expect->origin, ", but the pair ran without a check of that name (a typo or a ",
                 "removed check: the entry would never apply)")});
        continue;
      }
      bool scheme = is_registered(x.integrator), problem = catalogue_has(x.problem);
      for (const GateSnapshot* side : {&base, &cur})
        for (const PairSnapshot& p : side->accuracy) {
          scheme = scheme || p.integrator == x.integrator;
          problem = problem || p.problem == x.problem;
        }
      if (scheme && problem) continue;
      const char* what = scheme ? "problem" : "scheme";
      add({x.integrator, x.problem, x.check, "missing", "", "",
           cat("listed in ", opt.expect->origin, ", but no ", what, " of that name ran or is ",
               scheme ? "in the catalogue" : "registered", " (a typo or a removed ", what, ": the entry would never apply)")});
    }
  }

  /// Whether the speed data can be compared at all; a failing row when not.
  bool speed_comparable(const GateSnapshot& base, const GateSnapshot& cur) {
    if (opt.accuracy_only) {
      g.notes.push_back("speed not compared (--accuracy-only)");
      return false;
    }
    if (base.speed.empty()) {
      add({"*", "*", "speed", "missing", "", "", "the baseline has no speed data: bless it from `gate --run`, or pass --accuracy-only"});
      return false;
    }
    if (cur.environment.valgrind.empty()) {
      add({"*", "*", "speed", "missing", base.environment.valgrind, "",
           "the current run has no instruction counts (valgrind missing?): install valgrind, or pass --accuracy-only"});
      return false;
    }
    return true;
  }

  /// Instruction counts are bound to the toolchain that produced them: what differs ("" if nothing).
  static std::string toolchain_difference(const SnapshotEnvironment& b, const SnapshotEnvironment& c) {
    std::string differs;
    for (const auto& [k, bv, cv] : {std::tuple<const char*, const std::string&, const std::string&>{"compiler", b.compiler, c.compiler},
                                    {"flags", b.flags, c.flags},
                                    {"build_type", b.build_type, c.build_type},
                                    {"valgrind", b.valgrind, c.valgrind}})
      if (bv != cv) differs += cat(differs.empty() ? "" : "; ", k, ": baseline '", bv, "', current '", cv, "'");
    return differs;
  }

  /// One pair's instructions per step (+2 % fails) and wall-clock ratio (+10 % warns).
  void speed_row(const SpeedSnapshot& b, const SpeedSnapshot& c, const std::string& differs) {
    const double bi = b.instructions_per_step, ci = c.instructions_per_step;
    const double rise = rules_for(b.integrator, b.problem, "instructions_per_step").instruction_rise;
    GateRow row{b.integrator, b.problem, "instructions_per_step", "pass", fmt4(bi), fmt4(ci), ""};
    if (!differs.empty()) {
      row.status = "stale";
      row.message = cat("counted by another toolchain (", differs, "): re-bless, or compare on this runner with --against REV");
    } else if (!std::isfinite(bi) || !std::isfinite(ci)) {
      row.status = "missing";
      row.message = "no instruction count on one side";
    } else if (ci > bi * (1 + rise)) {
      row.status = "fail";
      row.message = cat("instructions per step rose by ", fmt4(100 * (ci / bi - 1)), " % (", fmt4(bi), " -> ", fmt4(ci),
                        "; allowed +", fmt4(100 * rise), " %)");
    } else if (ci < bi * (1 - rise)) {
      row.status = "improved";
      row.message = cat("instructions per step fell by ", fmt4(100 * (1 - ci / bi)), " % (", fmt4(bi), " -> ", fmt4(ci), ")");
    }
    add(row);
    wallclock_row(b, c);
  }

  /// The time per step over the in-run baseline scheme's: a warning when its median rose by more than
  /// wallclock_rise_warn and the Mann-Whitney test of the two runs' repetitions finds the current ones
  /// slower (p < time_significance), with both spreads; without repetitions on one side (a baseline
  /// blessed before 0.5), the fastest repetitions' ratio, said untested. Times depend on the machine
  /// and its load: the instructions decide the speed gate (docs/gate.md, "Times").
  void wallclock_row(const SpeedSnapshot& b, const SpeedSnapshot& c) {
    const auto spread = [](const std::vector<double>& v) {
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      return cat("median of ", std::to_string(v.size()), " ", fmt4(median(v)), " [", fmt4(*lo), ", ", fmt4(*hi), "]");
    };
    GateRow row{b.integrator, b.problem, "wallclock_ratio", "warn", fmt4(b.ratio_to_baseline), fmt4(c.ratio_to_baseline), ""};
    if (b.ratio_samples.size() >= 2 && c.ratio_samples.size() >= 2) {
      const double mb = median(b.ratio_samples), mc = median(c.ratio_samples);
      if (!(mc > mb * (1 + opt.rules.wallclock_rise_warn))) return;
      const RankTest t = mann_whitney_greater(c.ratio_samples, b.ratio_samples);
      if (!(t.p < opt.rules.time_significance)) return;  // within the repetitions' spread: not a regression
      row.baseline = fmt4(mb), row.current = fmt4(mc);
      row.message = cat("time per step over the baseline scheme's rose by ", fmt4(100 * (mc / mb - 1)), " % (",
                        spread(b.ratio_samples), " -> ", spread(c.ratio_samples), "; Mann-Whitney U = ", fmt4(t.u),
                        ", one-sided p = ", fmt4(t.p), t.exact ? ", exact" : "", "; warning only: instructions decide)");
      add(row);
      return;
    }
    const double br = b.ratio_to_baseline, cr = c.ratio_to_baseline;
    if (!(std::isfinite(br) && std::isfinite(cr) && cr > br * (1 + opt.rules.wallclock_rise_warn))) return;
    row.message = cat("wall-clock ratio to the baseline scheme rose by ", fmt4(100 * (cr / br - 1)),
                      " % (fastest repetitions; no repetitions on one side to test: warning only)");
    add(row);
  }

  /// An adaptive pair's instructions of a whole run per unit time at each tolerance (+2 % at any
  /// tolerance fails, as per step; docs/adaptive.md).
  void adaptive_speed_row(const SpeedSnapshot& b, const SpeedSnapshot& c, const std::string& differs) {
    GateRow row{b.integrator, b.problem, "instructions_per_time", "pass", "", "", ""};
    const double rise = rules_for(b.integrator, b.problem, "instructions_per_time").instruction_rise;
    bool same = !b.tol.empty() && b.tol.size() == c.tol.size() && b.instructions_per_time.size() == b.tol.size() &&
                c.instructions_per_time.size() == c.tol.size();
    for (std::size_t k = 0; same && k < b.tol.size(); ++k) same = std::abs(b.tol[k] - c.tol[k]) <= 1e-12 * b.tol[k];
    double worst = 0;
    if (!differs.empty()) {
      row.status = "stale";
      row.message = cat("counted by another toolchain (", differs, "): re-bless");
    } else if (!same) {
      row.status = "missing";
      row.message = "the tolerance ladders differ (tol0 or levels): nothing comparable";
    } else {
      for (std::size_t k = 0; k < b.tol.size(); ++k) {
        const double bi = b.instructions_per_time[k], ci = c.instructions_per_time[k];
        if (!std::isfinite(bi) || !std::isfinite(ci)) {
          row.status = "missing";
          row.message = cat("no instruction count at tol = ", fmt4(b.tol[k]), " on one side");
          break;
        }
        if (ci > bi * (1 + rise) && ci / bi - 1 > worst) {
          worst = ci / bi - 1;
          row.status = "fail";
          row.baseline = fmt4(bi);
          row.current = fmt4(ci);
          row.message = cat("instructions per unit time at tol = ", fmt4(b.tol[k]), " rose by ", fmt4(100 * worst), " % (",
                            fmt4(bi), " -> ", fmt4(ci), "; allowed +", fmt4(100 * rise), " %)");
        }
      }
    }
    add(row);
  }

  /// A pair the current bench run has and the baseline does not. Two builds compared (gate
  /// --against): a scheme or a problem the other build does not have at all is new in this one -
  /// there is nothing to regress from, so it warns; a new pair of a scheme and a problem both builds
  /// have still fails closed.
  void new_speed_pair(const GateSnapshot& base, const SpeedSnapshot& c) {
    bool known_scheme = false, known_problem = false;
    for (const SpeedSnapshot& b : base.speed) {
      known_scheme = known_scheme || b.integrator == c.integrator;
      known_problem = known_problem || b.problem == c.problem;
    }
    if (opt.speed_only && !(known_scheme && known_problem))
      add({c.integrator, c.problem, "instructions_per_step", "warn", "", fmt4(c.instructions_per_step),
           cat("a ", known_scheme ? "problem" : "scheme", " the other build does not have (new in this one): no speed to compare with")});
    else
      add({c.integrator, c.problem, "instructions_per_step", "missing", "", "", "pair not in the baseline's speed data: bless to gate it"});
  }

  void speed(const GateSnapshot& base, const GateSnapshot& cur) {
    if (!speed_comparable(base, cur)) return;
    const std::string differs = toolchain_difference(base.environment, cur.environment);
    for (const SpeedSnapshot& b : base.speed) {
      if (!in_selection(b.integrator, b.problem)) continue;
      const SpeedSnapshot* c = cur.speed_of(b.integrator, b.problem);
      if (c && b.adaptive() != c->adaptive()) c = nullptr;  // a pair that changed kind is not comparable
      if (c && b.adaptive()) adaptive_speed_row(b, *c, differs);
      else if (c) speed_row(b, *c, differs);
      else add({b.integrator, b.problem, b.adaptive() ? "instructions_per_time" : "instructions_per_step", "missing", "", "",
                "pair missing from the current bench run"});
    }
    for (const SpeedSnapshot& c : cur.speed)
      if (in_selection(c.integrator, c.problem) && !base.speed_of(c.integrator, c.problem)) new_speed_pair(base, c);
  }
};

}  // namespace

GateResult gate_compare(const GateSnapshot& base, const GateSnapshot& cur, const GateOptions& options) {
  Gate gate{options, {}, &base.tolerances, {}, {}};
  gate.g.allow_stale = options.allow_stale;
  gate.g.require_rebless = options.require_rebless;
  if (options.speed_only)
    gate.g.notes.push_back("accuracy not compared (speed only: two builds' benchmarks)");
  else
    gate.accuracy(base, cur);
  gate.speed(base, cur);
  if (options.expect != nullptr) gate.unknown_expectations(base, cur);
  return gate.g;
}

GateResult gate_compare(const nlohmann::json& base, const nlohmann::json& cur, const GateOptions& options) {
  return gate_compare(GateSnapshot::read(base, "the baseline"), GateSnapshot::read(cur, "the current snapshot"), options);
}

namespace {
std::size_t passed_rows(const GateResult& g) {
  return std::size_t(std::count_if(g.rows.begin(), g.rows.end(), [](const GateRow& r) { return r.status == "pass"; }));
}
}  // namespace

std::string gate_table(const GateResult& g) {
  std::ostringstream os;
  char line[1024];
  std::snprintf(line, sizeof line, "%-16s %-26s %-22s %-24s %-12s %-12s %s\n", "status", "integrator", "problem",
                "metric", "baseline", "current", "message");
  os << line;
  for (const auto& r : g.rows) {
    if (r.status == "pass") continue;  // the table shows what moved
    std::snprintf(line, sizeof line, "%-16s %-26s %-22s %-24s %-12s %-12s %s\n", r.status.c_str(), r.integrator.c_str(),
                  r.problem.c_str(), r.metric.c_str(), r.baseline.c_str(), r.current.c_str(), r.message.c_str());
    os << line;
  }
  for (const auto& n : g.notes) os << "gate: " << n << "\n";
  const std::size_t passed = passed_rows(g);
  os << "gate: " << g.warnings << " warning(s), " << g.stale << " stale, " << g.improved << " improved, " << g.expected
     << " expected failure(s)\n";
  os << "gate: " << passed << " passed, " << g.failures << " failed\n";
  if (g.improved > 0 && !g.require_rebless)
    os << "gate: " << g.improved << " check(s) improved on the baseline - re-bless to keep the gain (gate --bless; "
       << "--require-rebless makes this exit 4)\n";
  if (g.exit_code() == 4)
    os << "gate: the baseline is stale - re-bless it ("
       << (g.stale > 0 ? "stale rows: or pass --allow-stale" : "")
       << (g.stale > 0 && g.improved > 0 && g.require_rebless ? "; " : "")
       << (g.improved > 0 && g.require_rebless ? "improved rows: --require-rebless asks for it" : "") << ")\n";
  return os.str();
}

namespace {
/// The rows that did not pass: those that fail the gate, then stale rows, warnings and expected
/// failures (each in the gate's order).
std::vector<const GateRow*> rows_to_show(const GateResult& g) {
  const auto rank = [](const GateRow* r) {
    return r->failing                       ? 0
           : r->status == "stale"            ? 1
           : r->status == "warn"             ? 2
           : r->status == "improved"         ? 3
           : r->status == "expected_failure" ? 5
                                             : 4;
  };
  std::vector<const GateRow*> out;
  for (const auto& r : g.rows)
    if (r.status != "pass") out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [&](const GateRow* a, const GateRow* b) { return rank(a) < rank(b); });
  return out;
}

const char* outcome_of(const GateResult& g) {
  const int code = g.exit_code();
  return code == 0 ? "pass" : code == 4 ? "stale" : "fail";
}
}  // namespace

std::string gate_markdown(const GateResult& g) {
  const std::size_t passed = passed_rows(g);
  const int code = g.exit_code();
  std::ostringstream os;
  os << "### rigidbench gate: " << (code == 0 ? "passed" : code == 4 ? "stale baseline (re-bless)" : "FAILED") << "\n\n"
     << passed << " passed, " << g.failures << " failed, " << g.warnings << " warning(s), " << g.stale << " stale, "
     << g.improved << " improved, " << g.expected << " expected failure(s)\n";
  // Expected failures are counted, not listed: they are the known findings (the JUnit file and
  // --summary-json list them).
  std::vector<const GateRow*> shown = rows_to_show(g);
  std::erase_if(shown, [](const GateRow* r) { return r->status == "expected_failure"; });
  if (!shown.empty()) {
    os << "\n| status | scheme | problem | check | baseline | current | why |\n|---|---|---|---|---|---|---|\n";
    for (const GateRow* r : shown)
      os << "| " << (r->failing ? "**" + r->status + "**" : r->status) << " | " << markdown_text(r->integrator) << " | "
         << markdown_text(r->problem) << " | " << markdown_text(r->metric) << " | " << markdown_text(r->baseline) << " | "
         << markdown_text(r->current) << " | " << markdown_text(r->message) << " |\n";
  }
  for (const auto& n : g.notes) os << "\n" << markdown_text(n) << "\n";
  return os.str();
}

nlohmann::ordered_json gate_summary_json(const GateResult& g) {
  const std::size_t passed = passed_rows(g);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const GateRow* r : rows_to_show(g))
    rows.push_back({{"status", r->status}, {"failing", r->failing}, {"integrator", r->integrator}, {"problem", r->problem},
                    {"check", r->metric}, {"baseline", r->baseline}, {"current", r->current}, {"message", r->message}});
  return {{"kind", "rigidbench-gate-summary"},
          {"schema_version", "1.0"},
          {"outcome", outcome_of(g)},
          {"exit_code", g.exit_code()},
          {"counts",
           {{"checks", g.rows.size()}, {"passed", passed}, {"failed", g.failures}, {"warnings", g.warnings},
            {"stale", g.stale}, {"improved", g.improved}, {"expected_failures", g.expected}}},
          {"rows", rows},
          {"notes", g.notes}};
}

std::string gate_junit(const GateResult& g, const std::string& timestamp, const std::string& hostname,
                       double wall_seconds) {
  // Failures are regressions of a scheme (type "regression"); errors are what the gate could not
  // compare or an expectation that broke (type "missing", "stale", "unexpected_pass"): never a
  // skip, never green. The strict Ant format has no warning state: warnings, allowed stale rows and
  // expected failures are listed in the suite's system-err and counted in its properties.
  std::size_t failures = 0, errors = 0;
  double total = 0;
  for (const auto& r : g.rows) {
    failures += r.failing && r.status == "fail";
    errors += r.failing && r.status != "fail";
    total += r.seconds;
  }
  // The Ant timestamp has no time zone: ours is UTC (docs/gate.md).
  const std::string stamp =
      !timestamp.empty() && timestamp.back() == 'Z' ? timestamp.substr(0, timestamp.size() - 1) : timestamp;
  auto seconds = [](double t) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6f", std::isfinite(t) && t > 0 ? t : 0.0);
    return std::string(b);
  };
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  os << "  <testsuite name=\"rigidbench-gate\" package=\"rigidbench\" id=\"0\" tests=\"" << g.rows.size()
     << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" time=\""
     << seconds(wall_seconds > 0 ? wall_seconds : total) << "\" timestamp=\""
     << xml_text(stamp) << "\" hostname=\"" << xml_text(hostname.empty() ? "unknown" : hostname) << "\">\n";
  os << "    <properties>\n";
  for (const auto& [k, v] : {std::pair<const char*, int>{"gate.failures", g.failures},
                            {"gate.stale", g.stale},
                            {"gate.improved", g.improved},
                            {"gate.warnings", g.warnings},
                            {"gate.expected_failures", g.expected}})
    os << "      <property name=\"" << k << "\" value=\"" << v << "\"/>\n";
  for (std::size_t i = 0; i < g.notes.size(); ++i)
    os << "      <property name=\"gate.note." << i << "\" value=\"" << xml_text(g.notes[i]) << "\"/>\n";
  os << "    </properties>\n";
  std::string warnings;
  for (const auto& r : g.rows) {
    os << "    <testcase classname=\"" << xml_text(r.integrator + "." + r.problem) << "\" name=\"" << xml_text(r.metric)
       << "\" time=\"" << seconds(r.seconds) << "\"";
    const std::string detail = cat(r.message, " [baseline ", r.baseline.empty() ? "-" : r.baseline, ", current ",
                                   r.current.empty() ? "-" : r.current, "]");
    if (r.failing) {
      const char* tag = r.status == "fail" ? "failure" : "error";
      os << "><" << tag << " type=\"" << (r.status == "fail" ? "regression" : r.status) << "\" message=\""
         << xml_text(detail) << "\">" << xml_text(detail) << "</" << tag << "></testcase>\n";
    } else {
      os << "/>\n";
      if (r.status != "pass") warnings += cat(r.status, ": ", r.integrator, ".", r.problem, " ", r.metric, ": ", detail, "\n");
    }
  }
  os << "    <system-out>" << xml_text(gate_table(g)) << "</system-out>\n";
  os << "    <system-err>" << xml_text(warnings) << "</system-err>\n";
  os << "  </testsuite>\n</testsuites>\n";
  return os.str();
}

}  // namespace rigidbench
