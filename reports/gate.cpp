#include "rigidbench/reports/gate.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "rigidbench/core/json_numbers.hpp"
#include "rigidbench/core/types.hpp"
#include "rigidbench/verification/metric_table.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr const char* kKind = "rigidbench-gate-snapshot";

using json_numbers::as_num;
std::string fmt(double x) { return std::isfinite(x) ? format_number(x, 4) : std::string("-"); }

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

}  // namespace

ordered_json gate_snapshot(const json& verify, const json& bench) {
  ordered_json s;
  s["kind"] = kKind;
  s["schema_version"] = "1.0";
  const json& tool = verify.at("tool");
  s["environment"] = {{"compiler", tool.at("compiler")},
                      {"flags", tool.at("flags")},
                      {"build_type", tool.at("build_type")},
                      {"valgrind", bench.is_object() ? bench.at("instruction_counts").at("tool") : json("")}};
  s["git_revision"] = tool.at("git_revision");
  ordered_json acc = ordered_json::object();
  for (const json& r : verify.at("results")) {
    const std::string key = cat(r.at("integrator").get<std::string>(), "/", r.at("problem").get<std::string>());
    ordered_json e = {{"status", r.at("status")}};
    if (r.at("status") != "skipped") {
      // What the gate holds a run to: the gating metrics of the metric table.
      ordered_json conv = ordered_json::object();
      for (const MetricDef& m : metric_table()) {
        if (!m.gating) continue;
        const std::string name(m.name);
        if (m.section == MetricSection::convergence) {
          const json& c = r.at("convergence").at(name);
          conv[name] = {{"h", c.at("h")}, {"error", c.at("error")}, {"floor", c.at("floor")}, {"verdict", c.at("verdict")}};
        } else if (m.section == MetricSection::q_ii) {
          e[name] = r.at(name).at("verdict");
        }
      }
      e["convergence"] = conv;
      ordered_json inv = ordered_json::object();
      for (auto it = r.at("invariants").begin(); it != r.at("invariants").end(); ++it)
        if (it.value().at("claim") == "exact") inv[it.key()] = it.value().at("verdict");
      e["exact_invariants"] = inv;
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

GateResult gate_compare(const json& base, const json& cur, const GateRules& rules) {
  for (const json* j : {&base, &cur})
    if (!j->is_object() || j->value("kind", "") != kKind)
      throw InputError("gate: expected a gate snapshot (kind '" + std::string(kKind) + "'), e.g. one written by `gate --bless`");
  GateResult g;
  // ---- environment: a different toolchain makes every comparison meaningless ----
  for (const char* k : {"compiler", "flags", "build_type", "valgrind"}) {
    const auto b = base.at("environment").value(k, ""), c = cur.at("environment").value(k, "");
    // A missing valgrind on the current machine only skips the speed gate (not stale).
    if (std::string(k) == "valgrind" && c.empty()) continue;
    if (b != c) {
      g.environment_stale = true;
      g.environment_message += cat(g.environment_message.empty() ? "" : "; ", k, ": baseline '", b, "', current '", c, "'");
    }
  }
  if (g.environment_stale) return g;
  auto add = [&](GateRow r) {
    g.failures += r.status == "fail" || r.status == "missing";
    g.warnings += r.status == "warn";
    g.stale += r.status == "stale";
    g.rows.push_back(std::move(r));
  };
  auto split = [](const std::string& key, std::string& a, std::string& b) {
    const auto p = key.find('/');
    a = key.substr(0, p);
    b = key.substr(p + 1);
  };
  // ---- accuracy ----
  const json& BA = base.at("accuracy");
  const json& CA = cur.at("accuracy");
  for (auto it = BA.begin(); it != BA.end(); ++it) {
    std::string integ, prob;
    split(it.key(), integ, prob);
    if (!CA.contains(it.key())) {
      add({integ, prob, "*", "missing", it.value().value("status", ""), "", "entry missing from the current run"});
      continue;
    }
    const json& b = it.value();
    const json& c = CA.at(it.key());
    if (b.at("status") == "skipped") {
      add({integ, prob, "status", c.at("status") == "skipped" ? "pass" : "new", "skipped", c.at("status"), ""});
      continue;
    }
    if (c.at("status") == "skipped") {
      add({integ, prob, "status", "missing", b.at("status"), "skipped", "the pair is now skipped"});
      continue;
    }
    for (auto m = b.at("convergence").begin(); m != b.at("convergence").end(); ++m) {
      const std::string metric = m.key();
      if (!c.at("convergence").contains(metric)) {
        add({integ, prob, metric, "missing", "", "", "metric missing from the current run"});
        continue;
      }
      const json& bm = m.value();
      const json& cm = c.at("convergence").at(metric);
      GateRow row{integ, prob, metric, "pass", "", "", ""};
      double worst_rise = -1e300, best_gain = -1e300;
      std::string where;
      for (std::size_t k = 0; k < bm.at("error").size() && k < cm.at("error").size(); ++k) {
        const double be = as_num(bm["error"][k]), ce = as_num(cm["error"][k]);
        const double bf = as_num(bm["floor"][k]), cf = as_num(cm["floor"][k]);
        const double h = as_num(bm["h"][k]);
        if (std::isfinite(be) && !std::isfinite(ce)) {
          row.status = "fail";
          row.message = cat("level h = ", fmt(h), " broke down (was ", fmt(be), ")");
          break;
        }
        if (!std::isfinite(be) || !std::isfinite(ce)) continue;
        if (be <= bf && ce <= cf) continue;  // both at the round-off / reference floor: noise
        const double d = std::log10(ce) - std::log10(be);
        if (d > worst_rise) worst_rise = d, where = fmt(h);
        best_gain = std::max(best_gain, -d);
      }
      if (row.status != "fail") {
        if (worst_rise > rules.log10_rise) {
          row.status = "fail";
          row.message = cat("error rose by ", fmt(worst_rise), " decades at h = ", where);
        } else if (best_gain > rules.log10_improvement_stale) {
          row.status = "stale";
          row.message = cat("error improved by ", fmt(best_gain), " decades: baseline stale - re-bless");
        }
      }
      if (bm.at("verdict") == "pass" && cm.at("verdict") != "pass" && row.status != "fail") {
        row.status = "fail";
        row.message = cat("fitted order verdict turned from pass to ", cm.at("verdict").get<std::string>());
      }
      row.baseline = bm.at("verdict");
      row.current = cm.at("verdict");
      add(row);
    }
    const std::string bq = b.at("q_ii"), cq = c.at("q_ii");
    add({integ, prob, "q_ii", bq == "pass" && cq != "pass" ? "fail" : "pass", bq, cq,
         bq == "pass" && cq != "pass" ? "Q_II verdict turned from pass to " + cq : ""});
    for (auto inv = b.at("exact_invariants").begin(); inv != b.at("exact_invariants").end(); ++inv) {
      const std::string bv = inv.value();
      const std::string cv = c.at("exact_invariants").value(inv.key(), "missing");
      add({integ, prob, "invariant:" + inv.key(), bv == "pass" && cv != "pass" ? "fail" : "pass", bv, cv,
           bv == "pass" && cv != "pass" ? "exact invariant verdict turned from pass to " + cv : ""});
    }
  }
  for (auto it = CA.begin(); it != CA.end(); ++it)
    if (!BA.contains(it.key())) {
      std::string integ, prob;
      split(it.key(), integ, prob);
      add({integ, prob, "*", "new", "", it.value().value("status", ""), "not in the baseline (bless to include)"});
    }
  // ---- speed ----
  const json& BS = base.at("speed");
  const json& CS = cur.at("speed");
  const bool have_icount = !cur.at("environment").value("valgrind", "").empty();
  for (auto it = BS.begin(); it != BS.end(); ++it) {
    std::string integ, prob;
    split(it.key(), integ, prob);
    if (!CS.contains(it.key())) {
      add({integ, prob, "speed", CS.empty() ? "skipped" : "missing", "", "",
           CS.empty() ? "no benchmark data in the current run" : "entry missing from the current bench run"});
      continue;
    }
    const double bi = as_num(it.value()["instructions_per_step"]), ci = as_num(CS.at(it.key())["instructions_per_step"]);
    if (have_icount && std::isfinite(bi)) {
      GateRow row{integ, prob, "instructions_per_step", "pass", fmt(bi), fmt(ci), ""};
      if (!std::isfinite(ci)) row.status = "missing", row.message = "no instruction count";
      else if (ci > bi * (1 + rules.instruction_rise))
        row.status = "fail", row.message = cat("instructions per step rose by ", fmt(100 * (ci / bi - 1)), " %");
      add(row);
    } else {
      add({integ, prob, "instructions_per_step", "skipped", fmt(bi), fmt(ci), "valgrind not available: speed gate skipped"});
    }
    const double br = as_num(it.value()["ratio_to_baseline"]), cr = as_num(CS.at(it.key())["ratio_to_baseline"]);
    if (std::isfinite(br) && std::isfinite(cr))
      add({integ, prob, "wallclock_ratio", cr > br * (1 + rules.wallclock_rise_warn) ? "warn" : "pass", fmt(br), fmt(cr),
           cr > br * (1 + rules.wallclock_rise_warn) ? "wall-clock ratio to the baseline rose (warning only)" : ""});
  }
  return g;
}

std::string gate_table(const GateResult& g) {
  std::ostringstream os;
  if (g.environment_stale) {
    os << "gate: baseline stale - re-bless (" << g.environment_message << "); no verdicts\n";
    return os.str();
  }
  char line[512];
  std::snprintf(line, sizeof line, "%-8s %-26s %-16s %-24s %-12s %-12s %s\n", "status", "integrator", "problem",
                "metric", "baseline", "current", "message");
  os << line;
  for (const auto& r : g.rows) {
    if (r.status == "pass") continue;  // the table shows what moved
    std::snprintf(line, sizeof line, "%-8s %-26s %-16s %-24s %-12s %-12s %s\n", r.status.c_str(), r.integrator.c_str(),
                  r.problem.c_str(), r.metric.c_str(), r.baseline.c_str(), r.current.c_str(), r.message.c_str());
    os << line;
  }
  std::size_t passed = 0;
  for (const auto& r : g.rows) passed += r.status == "pass";
  os << "gate: " << g.warnings << " warning(s), " << g.stale << " stale\n";
  os << "gate: " << passed << " passed, " << g.failures << " failed\n";
  return os.str();
}

std::string gate_junit(const GateResult& g) {
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::size_t skipped = 0;
  for (const auto& r : g.rows) skipped += r.status == "skipped" || r.status == "new" || r.status == "stale";
  os << "<testsuites><testsuite name=\"rigidbench-gate\" tests=\"" << (g.environment_stale ? 1 : g.rows.size())
     << "\" failures=\"" << g.failures << "\" skipped=\"" << (g.environment_stale ? 1 : skipped) << "\">\n";
  if (g.environment_stale) {
    os << "  <testcase classname=\"gate\" name=\"environment\"><skipped message=\"baseline stale: "
       << xml_escape(g.environment_message) << "\"/></testcase>\n";
  }
  for (const auto& r : g.rows) {
    os << "  <testcase classname=\"" << xml_escape(r.integrator + "." + r.problem) << "\" name=\"" << xml_escape(r.metric)
       << "\">";
    if (r.status == "fail" || r.status == "missing")
      os << "<failure message=\"" << xml_escape(r.message) << "\">baseline " << xml_escape(r.baseline) << ", current "
         << xml_escape(r.current) << "</failure>";
    else if (r.status == "skipped" || r.status == "new" || r.status == "stale")
      os << "<skipped message=\"" << xml_escape(r.status + ": " + r.message) << "\"/>";
    else if (r.status == "warn")
      os << "<system-out>" << xml_escape(r.message) << "</system-out>";
    os << "</testcase>\n";
  }
  os << "</testsuite></testsuites>\n";
  return os.str();
}

}  // namespace rigidbench
