#include "rigidbench/tracking/gate.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "rigidbench/core/json_numbers.hpp"
#include "rigidbench/core/json_schema.hpp"
#include "rigidbench/core/text_escape.hpp"
#include "rigidbench/core/types.hpp"
#include "rigidbench/verification/metrics.hpp"
#include "rigidbench/integrators/registry.hpp"
#include "rigidbench/verification/expectations.hpp"
#include "rigidbench/verification/metric_table.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

using json_numbers::as_num;
std::string fmt4(double x) { return format_or_dash(x, 4); }

void split_key(const std::string& key, std::string& a, std::string& b) {
  const auto p = key.find('/');
  a = key.substr(0, p);
  b = p == std::string::npos ? std::string() : key.substr(p + 1);
}

/// The accumulated-rounding allowance of level k (0 where the snapshot has none).
double rounding_of(const json& m, std::size_t k) {
  if (!m.contains("rounding") || k >= m.at("rounding").size()) return 0.0;
  const double r = as_num(m.at("rounding")[k]);
  return std::isfinite(r) ? r : 0.0;
}

/// A snapshot's kind, version, environment and revision, from a report's tool and machine and the
/// valgrind that counted its instructions ("" without counts).
ordered_json snapshot_head(const json& report, const json& valgrind) {
  const json& tool = report.at("tool");
  ordered_json s;
  s["kind"] = "rigidbench-gate-snapshot";
  s["schema_version"] = "1.0";
  s["environment"] = {{"compiler", tool.at("compiler")},
                      {"flags", tool.at("flags")},
                      {"build_type", tool.at("build_type")},
                      {"valgrind", valgrind},
                      {"machine", report.at("machine").value("cpu", "")}};
  s["git_revision"] = tool.at("git_revision");
  return s;
}

/// Verdict strings of a report's convergence/q_ii objects, "undefined" where absent.
std::string verdict_of(const json& j) { return j.is_object() ? j.value("verdict", "undefined") : "undefined"; }

}  // namespace

ordered_json gate_snapshot(const json& verify, const json& bench) {
  validate_document(verify, DocumentSchema::report, "the verify report");
  if (!bench.is_null()) validate_document(bench, DocumentSchema::bench, "the bench report");
  ordered_json s = snapshot_head(verify, bench.is_object() ? bench.at("instruction_counts").at("tool") : json(""));
  ordered_json acc = ordered_json::object();
  for (const json& r : verify.at("results")) {
    const std::string key = cat(r.at("integrator").get<std::string>(), "/", r.at("problem").get<std::string>());
    const std::string status = r.at("status");
    ordered_json e = {{"status", status}};
    if (r.contains("seconds") && r.at("seconds").is_number()) e["seconds"] = r.at("seconds");
    if (r.contains("scheme") && r.at("scheme").contains("version")) e["version"] = r.at("scheme").at("version");
    if (status != "skipped") {
      // What the gate holds a run to: the gating metrics of the metric table, by the check names of
      // PairResult::checks (runner.hpp), which expectation files use too.
      ordered_json conv = ordered_json::object(), checks = ordered_json::object();
      checks["status"] = status == "ok" ? "pass" : "fail";
      for (const MetricDef& m : metric_table()) {
        if (!m.gating) continue;
        const std::string name(m.name);
        if (m.section == MetricSection::convergence) {
          if (!r.at("convergence").contains(name)) continue;  // not applicable to this pair
          const json& c = r.at("convergence").at(name);
          conv[name] = {{"h", c.at("h")}, {"error", c.at("error")}, {"floor", c.at("floor")}, {"verdict", c.at("verdict")}};
          if (c.contains("rounding")) conv[name]["rounding"] = c.at("rounding");
        } else if (m.section == MetricSection::q_ii && r.contains(name)) {
          checks[name] = verdict_of(r.at(name));
        }
      }
      ordered_json roundoff = ordered_json::array();
      for (auto it = r.at("invariants").begin(); it != r.at("invariants").end(); ++it) {
        if (it.value().at("claim") == "none") continue;
        checks["invariant:" + it.key()] = it.value().at("verdict");
        if (it.value().value("failed_at_roundoff", false)) roundoff.push_back("invariant:" + it.key());
      }
      if (r.contains("structure"))
        for (const char* prop : {"symmetric", "symplectic"})
          if (r.at("structure").contains(prop) && !r.at("structure").at(prop).at("verdict").is_null())
            checks[cat("structure:", prop)] = r.at("structure").at(prop).at("verdict");
      e["convergence"] = conv;
      e["checks"] = checks;
      if (!roundoff.empty()) e["roundoff_failures"] = roundoff;
    }
    acc[key] = e;
  }
  s["accuracy"] = acc;
  ordered_json speed = ordered_json::object();
  if (bench.is_object())
    for (const json& r : bench.at("results"))
      speed[cat(r.at("integrator").get<std::string>(), "/", r.at("problem").get<std::string>())] = {
          {"instructions_per_step", r.at("instructions_per_step")}, {"ratio_to_baseline", r.at("ratio_to_baseline")}};
  s["speed"] = speed;
  return s;
}

ordered_json gate_speed_snapshot(const std::vector<json>& benches) {
  if (benches.empty()) throw std::logic_error("gate_speed_snapshot: no bench report");
  for (const json& b : benches) validate_document(b, DocumentSchema::bench, "a bench report");
  const json& first = benches.front();
  ordered_json s = snapshot_head(first, first.at("instruction_counts").at("tool"));
  s["accuracy"] = ordered_json::object();
  ordered_json speed = ordered_json::object();
  for (const json& r : first.at("results")) {
    const std::string key = cat(r.at("integrator").get<std::string>(), "/", r.at("problem").get<std::string>());
    double ratio = as_num(r.at("ratio_to_baseline"));
    for (const json& b : benches)
      for (const json& q : b.at("results"))
        if (q.at("integrator") == r.at("integrator") && q.at("problem") == r.at("problem") &&
            std::isfinite(as_num(q.at("ratio_to_baseline"))))
          ratio = std::isfinite(ratio) ? std::min(ratio, as_num(q.at("ratio_to_baseline"))) : as_num(q.at("ratio_to_baseline"));
    speed[key] = {{"instructions_per_step", r.at("instructions_per_step")},
                  {"ratio_to_baseline", std::isfinite(ratio) ? json(ratio) : json(nullptr)}};
  }
  s["speed"] = speed;
  return s;
}

namespace {

/// One comparison of the gate: collects rows and counts them.
struct Gate {
  const GateOptions& opt;
  GateResult g;

  bool in_selection(const std::string& integ, const std::string& prob) const {
    return matches_any(opt.integrators, integ) && matches_any(opt.problems, prob) && opt.shard.contains(shard_key(integ, prob));
  }

  void add(GateRow r) {
    if (r.status == "stale" && opt.allow_stale) r.message += " (allowed: --allow-stale)";
    r.failing = r.status == "fail" || r.status == "missing" || r.status == "unexpected_pass" ||
                (r.status == "stale" && !opt.allow_stale);
    g.failures += r.failing && r.status != "stale";
    g.stale += r.status == "stale";
    g.warnings += r.status == "warn" || (r.status == "stale" && opt.allow_stale);
    g.expected += r.status == "expected_failure";
    g.rows.push_back(std::move(r));
  }

  /// A verdict row: pass -> fail is a regression; with expectations, the current verdict must be
  /// a listed failure or a pass that is not listed.
  void verdict_row(const std::string& integ, const std::string& prob, const std::string& check, const std::string& bv,
                   const std::string& cv, GateRow row, bool roundoff = false) {
    row.baseline = bv;
    row.current = cv;
    if (row.status == "pass" && cv == "fail" && roundoff && (bv == "pass" || opt.expect != nullptr) &&
        (opt.expect == nullptr || opt.expect->find(integ, prob, check) == nullptr)) {
      // The report itself attributes the failure to accumulated rounding (a few ulps per step at
      // every level), which differs between builds: said, not failed (docs/gate.md).
      row.status = "warn";
      row.message = cat("verdict fails at round-off in the current run (", check,
                        "): accumulated rounding, not a regression of the scheme");
      add(std::move(row));
      return;
    }
    if (row.status == "pass" && bv == "pass" && cv == "fail") {
      row.status = "fail";
      row.message = cat("verdict turned from pass to fail (", check, ")");
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
    add(std::move(row));
  }

  /// Error ladders: same levels, then per level ce <= be 10^rise + (floor_b + floor_c).
  /// How a failing metric's error moved at every level, and whether its order held: the fitted slopes
  /// (least squares of log error on log h over the levels where both are finite) and the verdicts.
  static std::string ladder_story(const json& bm, const json& cm) {
    const json &h = bm.at("h"), &be = bm.at("error"), &ce = cm.at("error");
    std::string levels;
    std::vector<double> lh, lb, lc;
    for (std::size_t k = 0; k < h.size(); ++k) {
      const double hk = as_num(h[k]), b = as_num(be[k]), c = as_num(ce[k]);
      levels += cat(levels.empty() ? "" : ", ", "h = ", fmt4(hk), ": ", fmt4(b), " -> ", fmt4(c));
      if (std::isfinite(b) && std::isfinite(c) && b > 0 && c > 0)
        lh.push_back(std::log(hk)), lb.push_back(std::log(b)), lc.push_back(std::log(c));
    }
    return cat(". Every level (baseline -> current): ", levels, ". Fitted order ", fmt4(fit_line(lh, lb).slope), " -> ",
               fmt4(fit_line(lh, lc).slope), ", order verdict ", bm.value("verdict", "undefined"), " -> ",
               cm.value("verdict", "undefined"));
  }

  void ladder_row(const std::string& integ, const std::string& prob, const std::string& metric, const json& bm,
                  const json& cm, double seconds) {
    GateRow row{integ, prob, metric, "pass", "", "", "", seconds};
    const json &bh = bm.at("h"), &ch = cm.at("h");
    const json &be_ = bm.at("error"), &ce_ = cm.at("error");
    const json &bf_ = bm.at("floor"), &cf_ = cm.at("floor");
    const std::size_t n = bh.size();
    auto ladder_text = [](const json& h) {
      return h.empty() ? std::string("no levels") : cat(std::to_string(h.size()), " levels from h = ", fmt4(as_num(h.front())));
    };
    bool same = n > 0 && ch.size() == n && be_.size() == n && ce_.size() == n && bf_.size() == n && cf_.size() == n;
    for (std::size_t k = 0; same && k < n; ++k)
      same = std::abs(as_num(bh[k]) - as_num(ch[k])) <= 1e-12 * std::abs(as_num(bh[k]));
    if (!same) {
      row.status = "missing";
      row.baseline = ladder_text(bh);
      row.current = ladder_text(ch);
      row.message = n == 0 ? "the baseline has no levels for this metric: nothing to compare"
                           : cat("the ladders differ (baseline ", ladder_text(bh), ", current ", ladder_text(ch),
                                 ", or arrays of unequal length): nothing comparable");
      add(row);
      return;
    }
    double worst = -1e300, best = -1e300;  // excess over the allowed rise, in decades; improvement
    std::string worst_text, best_text;
    for (std::size_t k = 0; k < n; ++k) {
      const double be = as_num(be_[k]), ce = as_num(ce_[k]), h = as_num(bh[k]);
      double fb = std::isfinite(as_num(bf_[k])) ? as_num(bf_[k]) : 0.0;
      double fc = std::isfinite(as_num(cf_[k])) ? as_num(cf_[k]) : 0.0;
      if (std::isfinite(be) && !std::isfinite(ce)) {
        row.status = "fail";
        row.message = cat("level h = ", fmt4(h), " broke down (was ", fmt4(be), ")");
        break;
      }
      if (!std::isfinite(be) && std::isfinite(ce)) {
        best = 1e300;
        best_text = cat("level h = ", fmt4(h), " now runs (was a breakdown)");
        continue;
      }
      if (!std::isfinite(be)) continue;  // both broke down at this level: the same behaviour
      // The reference of each run is accurate only to its floor, and each run carries its own
      // accumulated rounding: a difference within their sum is not a change of the scheme
      // (docs/gate.md, "Tolerances").
      fb += rounding_of(bm, k);
      fc += rounding_of(cm, k);
      // The current run's allowance follows from its reference's error estimate and its ladder (the
      // same problem, tolerance and steps as the baseline's), not from the scheme, and so from one
      // build to another it moves by far less than a decade. One beyond that is not believed: a
      // report could otherwise declare floors of 1e300 and pass any error (docs/gate.md).
      if (fc > opt.rules.allowance_trust * fb) {
        row.status = "fail";
        row.message = cat("at h = ", fmt4(h), " the current run's allowance (floor + rounding) is ", fmt4(fc),
                          ", more than ", fmt4(opt.rules.allowance_trust), "x the baseline's ", fmt4(fb),
                          ": it does not follow from the same reference and ladder - not compared (re-bless if the "
                          "reference or its tolerance changed)");
        break;
      }
      const double allowed = be * std::pow(10.0, opt.rules.log10_rise) + fb + fc;
      if (!std::isfinite(allowed)) {  // a comparison that cannot be made fails, it never passes
        row.status = "fail";
        row.message = cat("at h = ", fmt4(h), " the allowed error is not a finite number (baseline ", fmt4(be),
                          "): nothing comparable");
        break;
      }
      if (ce > allowed) {
        const double rise = std::log10(ce / be);
        if (rise > worst)
          worst = rise, worst_text = cat("error at h = ", fmt4(h), " rose from ", fmt4(be), " to ", fmt4(ce), " (",
                                          fmt4(rise), " decades; allowed ", fmt4(opt.rules.log10_rise),
                                          " decades plus the floors ", fmt4(fb + fc), ")");
      }
      const double gained_floor = be * std::pow(10.0, -opt.rules.log10_improvement_stale) - fb - fc;
      if (ce < gained_floor) {
        const double gain = std::log10(be / std::max(ce, 1e-300));
        if (gain > best)
          best = gain, best_text = cat("error at h = ", fmt4(h), " improved from ", fmt4(be), " to ", fmt4(ce), " (",
                                        fmt4(gain), " decades; more than ", fmt4(opt.rules.log10_improvement_stale),
                                        "): baseline stale - re-bless");
      }
    }
    if (row.status != "fail" && worst > -1e300) row.status = "fail", row.message = worst_text + ladder_story(bm, cm);
    if (row.status == "pass" && best > -1e300) row.status = "stale", row.message = best_text;
    verdict_row(integ, prob, metric, bm.at("verdict"), cm.at("verdict"), std::move(row));
  }

  void accuracy(const json& BA, const json& CA) {
    std::size_t compared = 0;
    for (auto it = BA.begin(); it != BA.end(); ++it) {
      std::string integ, prob;
      split_key(it.key(), integ, prob);
      if (!in_selection(integ, prob)) continue;
      ++compared;
      const json& b = it.value();
      if (!CA.contains(it.key())) {
        add({integ, prob, "*", "missing", b.at("status"), "", "pair missing from the current run"});
        continue;
      }
      const json& c = CA.at(it.key());
      const double secs = c.contains("seconds") ? as_num(c.at("seconds")) : 0.0;
      // The scheme's own version (an engine's library): results of another version are not
      // comparable, neither better nor worse - the pair is stale until blessed with this one.
      const std::string bv = b.value("version", ""), cv = c.value("version", "");
      if (bv != cv) {
        add({integ, prob, "version", "stale", bv.empty() ? "-" : bv, cv.empty() ? "-" : cv,
             cat("the scheme's version changed (baseline ", bv.empty() ? "none" : bv, ", now ", cv.empty() ? "none" : cv,
                 "): not compared; bless to gate this version"),
             secs});
        continue;
      }
      const std::string bs = b.at("status"), cs = c.at("status");
      if (bs == "skipped" || cs == "skipped") {
        GateRow row{integ, prob, "applicability", "pass", bs, cs, "", secs};
        if (bs != cs)
          row.status = "missing", row.message = bs == "skipped" ? "the pair now runs: bless to gate it"
                                                                 : "the pair is now skipped: " + std::string("nothing to compare");
        add(row);
        continue;
      }
      // Rows of this pair share its time (JUnit's time per testcase).
      const std::size_t first_row = g.rows.size();
      const json &bconv = b.at("convergence"), &cconv = c.at("convergence");
      for (auto m = bconv.begin(); m != bconv.end(); ++m) {
        if (!cconv.contains(m.key())) {
          add({integ, prob, m.key(), "missing", m.value().at("verdict"), "", "metric missing from the current run"});
          continue;
        }
        ladder_row(integ, prob, m.key(), m.value(), cconv.at(m.key()), secs);
      }
      for (auto m = cconv.begin(); m != cconv.end(); ++m)
        if (!bconv.contains(m.key()))
          add({integ, prob, m.key(), "missing", "", m.value().at("verdict"), "metric not in the baseline: bless to gate it"});
      const json &bch = b.at("checks"), &cch = c.at("checks");
      for (auto k = bch.begin(); k != bch.end(); ++k) {
        if (!cch.contains(k.key())) {
          add({integ, prob, k.key(), "missing", k.value(), "", "check missing from the current run"});
          continue;
        }
        bool roundoff = false;
        if (c.contains("roundoff_failures"))
          for (const auto& x : c.at("roundoff_failures")) roundoff |= x == k.key();
        verdict_row(integ, prob, k.key(), k.value(), cch.at(k.key()), {integ, prob, k.key(), "pass", "", "", "", secs},
                    roundoff);
      }
      for (auto k = cch.begin(); k != cch.end(); ++k)
        if (!bch.contains(k.key()))
          add({integ, prob, k.key(), "missing", "", k.value(), "check not in the baseline: bless to gate it"});
      const std::size_t rows = g.rows.size() - first_row;
      for (std::size_t i = first_row; i < g.rows.size(); ++i) g.rows[i].seconds = secs / double(rows);
    }
    for (auto it = CA.begin(); it != CA.end(); ++it) {
      std::string integ, prob;
      split_key(it.key(), integ, prob);
      if (!in_selection(integ, prob) || BA.contains(it.key())) continue;
      add({integ, prob, "*", "missing", "", it.value().at("status"), "pair not in the baseline: bless to gate it"});
    }
    if (compared == 0)
      add({"*", "*", "accuracy", "missing", "", "",
           BA.empty() ? "the baseline has no accuracy entries: nothing to compare"
                      : "no baseline entry matches the --integrator/--problem/--shard selection: nothing to compare"});
  }

  /// An expectation naming a scheme that neither snapshot has and this build does not register would
  /// silently never apply (a typo, a removed scheme): a failing row.
  void unknown_expectations(const json& BA, const json& CA) {
    for (const ExpectedFailure& x : opt.expect->items) {
      const std::string prefix = x.integrator + "/";
      bool seen = is_registered(x.integrator);
      for (const json* side : {&BA, &CA})
        for (auto it = side->begin(); it != side->end() && !seen; ++it) seen = it.key().rfind(prefix, 0) == 0;
      if (!seen)
        add({x.integrator, x.problem, x.check, "missing", "", "",
             cat("listed in ", opt.expect->origin, ", but no scheme of that name ran or is registered (a typo or a "
                 "removed scheme: the entry would never apply)")});
    }
  }

  void speed(const json& base, const json& cur) {
    if (opt.accuracy_only) {
      g.notes.push_back("speed not compared (--accuracy-only)");
      return;
    }
    const json &BS = base.at("speed"), &CS = cur.at("speed");
    const json &be = base.at("environment"), &ce = cur.at("environment");
    if (BS.empty()) {
      add({"*", "*", "speed", "missing", "", "", "the baseline has no speed data: bless it from `gate --run`, or pass --accuracy-only"});
      return;
    }
    if (ce.at("valgrind").get<std::string>().empty()) {
      add({"*", "*", "speed", "missing", be.at("valgrind"), "",
           "the current run has no instruction counts (valgrind missing?): install valgrind, or pass --accuracy-only"});
      return;
    }
    // Instruction counts are bound to the toolchain that produced them.
    std::string differs;
    for (const char* k : {"compiler", "flags", "build_type", "valgrind"})
      if (be.at(k) != ce.at(k))
        differs += cat(differs.empty() ? "" : "; ", k, ": baseline '", be.at(k).get<std::string>(), "', current '",
                       ce.at(k).get<std::string>(), "'");
    for (auto it = BS.begin(); it != BS.end(); ++it) {
      std::string integ, prob;
      split_key(it.key(), integ, prob);
      if (!in_selection(integ, prob)) continue;
      if (!CS.contains(it.key())) {
        add({integ, prob, "instructions_per_step", "missing", "", "", "pair missing from the current bench run"});
        continue;
      }
      const double bi = as_num(it.value().at("instructions_per_step")), ci = as_num(CS.at(it.key()).at("instructions_per_step"));
      GateRow row{integ, prob, "instructions_per_step", "pass", fmt4(bi), fmt4(ci), ""};
      if (!differs.empty()) {
        row.status = "stale";
        row.message = cat("counted by another toolchain (", differs, "): re-bless, or compare on this runner with --against REV");
      } else if (!std::isfinite(bi) || !std::isfinite(ci)) {
        row.status = "missing";
        row.message = "no instruction count on one side";
      } else if (ci > bi * (1 + opt.rules.instruction_rise)) {
        row.status = "fail";
        row.message = cat("instructions per step rose by ", fmt4(100 * (ci / bi - 1)), " % (", fmt4(bi), " -> ", fmt4(ci),
                          "; allowed +", fmt4(100 * opt.rules.instruction_rise), " %)");
      }
      add(row);
      const double br = as_num(it.value().at("ratio_to_baseline")), cr = as_num(CS.at(it.key()).at("ratio_to_baseline"));
      if (std::isfinite(br) && std::isfinite(cr) && cr > br * (1 + opt.rules.wallclock_rise_warn))
        add({integ, prob, "wallclock_ratio", "warn", fmt4(br), fmt4(cr),
             cat("wall-clock ratio to the baseline scheme rose by ", fmt4(100 * (cr / br - 1)), " % (warning only)")});
    }
    for (auto it = CS.begin(); it != CS.end(); ++it) {
      std::string integ, prob;
      split_key(it.key(), integ, prob);
      if (!in_selection(integ, prob) || BS.contains(it.key())) continue;
      // Two builds compared (gate --against): a scheme or a problem the other build does not have at
      // all is new in this one - there is nothing to regress from, so it warns; a new pair of a scheme
      // and a problem both builds have still fails closed.
      const std::string prefix = integ + "/", suffix = "/" + prob;
      bool known_scheme = false, known_problem = false;
      for (auto b = BS.begin(); b != BS.end(); ++b) {
        known_scheme = known_scheme || b.key().rfind(prefix, 0) == 0;
        known_problem = known_problem || (b.key().size() > suffix.size() &&
                                          b.key().compare(b.key().size() - suffix.size(), suffix.size(), suffix) == 0);
      }
      if (opt.speed_only && !(known_scheme && known_problem))
        add({integ, prob, "instructions_per_step", "warn", "", fmt4(as_num(it.value().at("instructions_per_step"))),
             cat("a ", known_scheme ? "problem" : "scheme",
                 " the other build does not have (new in this one): no speed to compare with")});
      else
        add({integ, prob, "instructions_per_step", "missing", "", "", "pair not in the baseline's speed data: bless to gate it"});
    }
  }
};

}  // namespace

GateResult gate_compare(const json& base, const json& cur, const GateOptions& options) {
  validate_document(base, DocumentSchema::gate_snapshot, "the baseline");
  validate_document(cur, DocumentSchema::gate_snapshot, "the current snapshot");
  Gate gate{options, {}};
  gate.g.allow_stale = options.allow_stale;
  if (options.speed_only)
    gate.g.notes.push_back("accuracy not compared (speed only: two builds' benchmarks)");
  else
    gate.accuracy(base.at("accuracy"), cur.at("accuracy"));
  gate.speed(base, cur);
  if (options.expect != nullptr) gate.unknown_expectations(base.at("accuracy"), cur.at("accuracy"));
  return gate.g;
}

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
  std::size_t passed = 0;
  for (const auto& r : g.rows) passed += r.status == "pass";
  os << "gate: " << g.warnings << " warning(s), " << g.stale << " stale, " << g.expected << " expected failure(s)\n";
  os << "gate: " << passed << " passed, " << g.failures << " failed\n";
  if (g.exit_code() == 4) os << "gate: the baseline is stale - re-bless it (or pass --allow-stale)\n";
  return os.str();
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
