#include "verify_report.hpp"

#include "../core/json_fields.hpp"
#include "../core/json_schema.hpp"
#include "report.hpp"
#include "styles.hpp"

namespace rigidbench {

using nlohmann::ordered_json;

namespace {

ordered_json summary_json(const ReportSummary& s) {
  ordered_json j = {{"pairs", s.pairs}, {"ok", s.ok}, {"skipped", s.skipped}, {"breakdown", s.breakdown},
                    {"failed_verdicts", s.failed_verdicts}};
  for (const auto& [k, v] : {std::pair<const char*, const std::optional<std::int64_t>*>{"expected_failures", &s.expected_failures},
                             {"unexpected_failures", &s.unexpected_failures},
                             {"unexpected_passes", &s.unexpected_passes},
                             {"unknown_checks", &s.unknown_checks}})
    if (*v) j[k] = **v;
  return j;
}

ordered_json expectations_json(const ExpectationsRecord& e) {
  ordered_json out = ordered_json::array();
  for (const auto& o : e.outcomes)
    out.push_back({{"integrator", o.integrator}, {"problem", o.problem}, {"check", o.check}, {"outcome", o.outcome},
                   {"reason", o.reason}});
  return {{"file", e.file}, {"outcomes", out}};
}

using json_fields::integer_at;
using json_fields::s_at;

template <class J>
VerifyReport read_report(const J& j) {
  VerifyReport r;
  r.tool = ToolInfo::read(nlohmann::json::parse(j.at("tool").dump()));
  r.machine = MachineInfo::read(nlohmann::json::parse(j.at("machine").dump()));
  r.started = s_at(j, "started");
  r.duration_s = j.contains("duration_s") && j.at("duration_s").is_number() ? j.at("duration_s").template get<double>() : 0.0;
  if (j.contains("command") && j.at("command").is_array())
    for (const auto& w : j.at("command")) r.command.push_back(w.is_string() ? w.template get<std::string>() : w.dump());
  if (j.contains("metrics")) r.metrics = ordered_json::parse(j.at("metrics").dump());
  r.suite = s_at(j, "suite");
  if (j.contains("settings") && j.at("settings").is_object()) r.jobs = int(integer_at(j.at("settings"), "jobs").value_or(1));
  if (j.contains("shard") && j.at("shard").is_object()) {
    const auto& s = j.at("shard");
    ReportShard sh{Shard{int(integer_at(s, "index").value_or(1)), int(integer_at(s, "count").value_or(1))},
                   integer_at(s, "pairs_total").value_or(0), {}};
    if (s.contains("ordinals") && s.at("ordinals").is_array())
      for (const auto& o : s.at("ordinals")) sh.ordinals.push_back(o.is_number_integer() ? o.template get<std::int64_t>() : -1);
    r.shard = sh;
  }
  for (const auto& p : j.at("results")) r.results.push_back(PairReport::read(p));
  if (j.contains("paper_reproductions")) r.paper_reproductions = ordered_json::parse(j.at("paper_reproductions").dump());
  if (j.contains("summary")) {
    const auto& s = j.at("summary");
    r.summary = {integer_at(s, "pairs").value_or(0),           integer_at(s, "ok").value_or(0),
                 integer_at(s, "skipped").value_or(0),         integer_at(s, "breakdown").value_or(0),
                 integer_at(s, "failed_verdicts").value_or(0), integer_at(s, "expected_failures"),
                 integer_at(s, "unexpected_failures"),         integer_at(s, "unexpected_passes"),
                 integer_at(s, "unknown_checks")};
  }
  if (j.contains("random")) r.random = ordered_json::parse(j.at("random").dump());
  if (j.contains("expectations") && j.at("expectations").is_object()) {
    const auto& e = j.at("expectations");
    ExpectationsRecord x{s_at(e, "file"), {}};
    if (e.contains("outcomes") && e.at("outcomes").is_array())
      for (const auto& o : e.at("outcomes"))
        x.outcomes.push_back({s_at(o, "integrator"), s_at(o, "problem"), s_at(o, "check"), s_at(o, "outcome"),
                              s_at(o, "reason")});
    r.expectations = x;
  }
  if (j.contains("merged_from") && j.at("merged_from").is_array())
    for (const auto& n : j.at("merged_from"))
      if (n.is_string()) r.merged_from.push_back(n.template get<std::string>());
  return r;
}

}  // namespace

namespace {

/// A report of this build and machine: its provenance and the metric table it is judged by.
VerifyReport made_here(double seconds, const std::vector<std::string>& command, const std::string& started) {
  VerifyReport r;
  r.tool = ToolInfo::current();
  r.machine = MachineInfo::current();
  r.started = started;
  r.duration_s = seconds;
  r.command = command;
  r.metrics = metrics_json();
  return r;
}

}  // namespace

VerifyReport VerifyReport::of(const SuiteResult& s, const std::vector<std::string>& command, const std::string& started) {
  VerifyReport r = made_here(s.seconds, command, started);
  r.suite = s.suite;
  r.jobs = s.jobs;
  if (!s.shard.all())
    r.shard = ReportShard{s.shard, std::int64_t(s.pairs_total), std::vector<std::int64_t>(s.ordinals.begin(), s.ordinals.end())};
  for (const PairResult& p : s.results) {
    const Problem* problem = nullptr;
    for (const Problem& q : s.problems)
      if (q.name == p.problem) problem = &q;
    r.results.push_back(PairReport::of(p, problem));
    r.summary.ok += p.status == "ok";
    r.summary.skipped += p.status == "skipped";
    r.summary.breakdown += p.status == "breakdown";
    r.summary.failed_verdicts += p.failed();
  }
  r.summary.pairs = std::int64_t(s.results.size());
  return r;
}

VerifyReport VerifyReport::of(const PaperSuiteResult& s, const std::vector<std::string>& command, const std::string& started) {
  VerifyReport r = made_here(s.seconds, command, started);
  r.suite = "paper";
  r.paper_reproductions = ordered_json::array();
  for (const PaperItem& i : s.items) {
    r.paper_reproductions->push_back({{"paper", i.paper},
                                      {"item", i.item},
                                      {"integrator", i.integrator},
                                      {"problem", i.problem},
                                      {"claim", i.claim},
                                      {"verdict", to_string(i.verdict)},
                                      {"finding", i.finding},
                                      {"data", i.data}});
    r.summary.failed_verdicts += i.verdict == Verdict::fail;
  }
  return r;
}

VerifyReport VerifyReport::read(const nlohmann::json& j, const std::string& origin) {
  validate_document(j, DocumentSchema::report, origin);
  return read_report(j);
}

VerifyReport VerifyReport::read(const ordered_json& j, const std::string& origin) {
  validate_document(nlohmann::json::parse(j.dump()), DocumentSchema::report, origin);
  return read_report(j);
}

void VerifyReport::add(const ExpectationReport& e, const std::string& origin) {
  expectations = ExpectationsRecord{origin, e.outcomes};
  summary.expected_failures = e.expected_failures;
  summary.unexpected_failures = e.unexpected_failures;
  summary.unexpected_passes = e.unexpected_passes;
  summary.unknown_checks = e.unknown_checks;
}

ordered_json VerifyReport::to_json() const {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["tool"] = tool.to_json();
  j["machine"] = machine.to_json();
  j["started"] = started;
  j["duration_s"] = duration_s;
  j["command"] = command;
  j["metrics"] = metrics;
  j["suite"] = suite;
  if (jobs) j["settings"] = {{"jobs", *jobs}};
  if (shard)
    j["shard"] = {{"index", shard->shard.index}, {"count", shard->shard.count}, {"pairs_total", shard->pairs_total},
                  {"ordinals", shard->ordinals}};
  j["results"] = ordered_json::array();
  for (const PairReport& p : results) j["results"].push_back(p.to_json());
  if (paper_reproductions) j["paper_reproductions"] = *paper_reproductions;
  j["summary"] = summary_json(summary);
  add_styles(j);
  if (random) j["random"] = *random;
  if (expectations) j["expectations"] = expectations_json(*expectations);
  if (!merged_from.empty()) j["merged_from"] = merged_from;
  return j;
}

}  // namespace rigidbench
