#include "verify_report.hpp"

#include "../core/json_schema.hpp"
#include "field_json.hpp"
#include "report.hpp"
#include "styles.hpp"

namespace rigidbench {

using nlohmann::ordered_json;

namespace {

/// Every scheme the report names, in its order (the styles the renderer draws them with).
std::vector<std::string> scheme_names(const VerifyReport& r) {
  std::vector<std::string> names;
  for (const PairReport& p : r.results) names.push_back(p.integrator);
  if (r.paper_reproductions)
    for (const auto& i : *r.paper_reproductions)
      if (i.is_object() && i.contains("integrator") && i["integrator"].is_string()) names.push_back(i["integrator"]);
  return names;
}

/// What the run was given (settings.jobs).
struct RunSettings {
  int jobs = 1;
};

}  // namespace

template <>
struct Fields<RunSettings> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(jobs)}; }
};

template <>
struct Fields<ReportShard> {
  static constexpr auto list() {
    return std::tuple{field("index", RIGIDBENCH_AT(shard.index)), field("count", RIGIDBENCH_AT(shard.count)),
                      RIGIDBENCH_FIELD(pairs_total), RIGIDBENCH_FIELD(ordinals)};
  }
};

template <>
struct Fields<ReportSummary> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(pairs), RIGIDBENCH_FIELD(ok), RIGIDBENCH_FIELD(skipped), RIGIDBENCH_FIELD(breakdown),
                      RIGIDBENCH_FIELD(failed_verdicts), RIGIDBENCH_FIELD(expected_failures, Written::if_set),
                      RIGIDBENCH_FIELD(unexpected_failures, Written::if_set),
                      RIGIDBENCH_FIELD(unexpected_passes, Written::if_set), RIGIDBENCH_FIELD(unknown_checks, Written::if_set)};
  }
};

template <>
struct Fields<ExpectationOutcome> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(integrator), RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(check),
                      RIGIDBENCH_FIELD(outcome), RIGIDBENCH_FIELD(reason)};
  }
};

template <>
struct Fields<ExpectationsRecord> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(file), RIGIDBENCH_FIELD(outcomes)}; }
};

/// The report's fields, in its order.
template <>
struct Fields<VerifyReport> {
  static constexpr auto list() {
    return std::tuple{
        field("schema_version", RIGIDBENCH_WRITES(kSchemaVersion)),
        RIGIDBENCH_FIELD(tool), RIGIDBENCH_FIELD(machine), RIGIDBENCH_FIELD(started), RIGIDBENCH_FIELD(duration_s),
        RIGIDBENCH_FIELD(command), RIGIDBENCH_FIELD(metrics), RIGIDBENCH_FIELD(suite),
        computed("settings", [](const VerifyReport& r) { return r.jobs ? std::optional(RunSettings{*r.jobs}) : std::nullopt; },
                 [](VerifyReport& r, std::optional<RunSettings> s) {
                   if (s) r.jobs = s->jobs;
                 },
                 Written::if_set),
        RIGIDBENCH_FIELD(shard, Written::if_set), RIGIDBENCH_FIELD(results),
        RIGIDBENCH_FIELD(paper_reproductions, Written::if_set), RIGIDBENCH_FIELD(summary),
        field("styles", [](const VerifyReport& r) { return styles_json(scheme_names(r)); }),
        RIGIDBENCH_FIELD(random, Written::if_set), RIGIDBENCH_FIELD(expectations, Written::if_set),
        RIGIDBENCH_FIELD(merged_from, Written::if_set)};
  }
};

namespace {

template <class J>
VerifyReport read_report(const J& j) {
  return field_json::read_as<VerifyReport>(j);
}


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

ordered_json VerifyReport::to_json() const { return field_json::write(*this); }
ordered_json VerifyReport::declared_shape() { return field_json::declared_shape<VerifyReport>(); }

}  // namespace rigidbench
