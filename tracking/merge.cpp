#include "merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "../core/json_schema.hpp"
#include "../core/shard.hpp"
#include "../core/types.hpp"
#include "../reports/bench_report.hpp"
#include "../reports/verify_report.hpp"
#include "../reports/styles.hpp"

namespace rigidbench {

using json = nlohmann::ordered_json;  // the shards' key order is kept in the merged report

namespace {

std::string key_of(const json& r) { return shard_key(r.at("integrator").get<std::string>(), r.at("problem").get<std::string>()); }

/// Every report is a valid shard of one sweep by one build, each shard exactly once, holding only
/// its own pairs (and the baselines, for bench) - those its key hashes to, unless `hashed` is false
/// (MPI ranks' shares, planned longest first: the positions alone say where each pair belongs). Returns whether the reports are bench reports.
bool check_shards(const std::vector<json>& reports, const std::vector<std::string>& names, bool hashed) {
  if (reports.empty()) throw InputError("merge: no reports given");
  const bool bench = reports.front().is_object() && reports.front().value("kind", "") == "bench";
  for (std::size_t i = 0; i < reports.size(); ++i) {
    validate_document(nlohmann::json::parse(reports[i].dump()), bench ? DocumentSchema::bench : DocumentSchema::report,
                      names[i]);
    if (!reports[i].contains("shard"))
      throw InputError(cat("merge: ", names[i], " is not a shard report (no `shard`: run with --shard k/N)"));
  }
  const int count = reports.front().at("shard").at("count");
  if (int(reports.size()) != count)
    throw InputError(cat("merge: ", std::to_string(reports.size()), " report(s) given for a sweep of ", std::to_string(count),
                         " shards: every shard is needed exactly once"));
  std::vector<int> seen(std::size_t(count) + 1, 0);
  const json& first = reports.front();
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const json& r = reports[i];
    const json& sh = r.at("shard");
    if (sh.at("count") != count) throw InputError(cat("merge: ", names[i], " belongs to a sweep of another shard count"));
    const int k = sh.at("index");
    if (k < 1 || k > count || seen[std::size_t(k)]++)
      throw InputError(cat("merge: shard ", std::to_string(k), "/", std::to_string(count), " given twice or out of range (",
                           names[i], ")"));
    for (const char* t : {"git_revision", "compiler", "flags", "build_type", "version"})
      if (r.at("tool").at(t) != first.at("tool").at(t))
        throw InputError(cat("merge: ", names[i], " was made by another build (tool.", t, " differs from ", names[0], ")"));
    if (!bench && (r.at("suite") != first.at("suite") || sh.at("pairs_total") != first.at("shard").at("pairs_total")))
      throw InputError(cat("merge: ", names[i], " belongs to another sweep (suite or pair count differs)"));
    if (bench && (r.at("baseline") != first.at("baseline") || r.value("baselines", json()) != first.value("baselines", json())))
      throw InputError(cat("merge: ", names[i], " has another baseline scheme"));
    const Shard shard{k, count};
    // Every shard runs the baselines (bench): the first name is "baseline"; "baselines" lists all.
    const json baselines = bench ? r.value("baselines", json::array({r.at("baseline")})) : json::array();
    auto is_baseline = [&](const json& res) {
      return std::find(baselines.begin(), baselines.end(), res.at("integrator")) != baselines.end();
    };
    for (const json& res : r.at("results"))
      if (hashed && !shard.contains(key_of(res)) && !is_baseline(res))
        throw InputError(cat("merge: ", names[i], " holds ", key_of(res), ", which belongs to shard ",
                             std::to_string(Shard::of(key_of(res), count)), "/", std::to_string(count)));
  }
  return bench;
}

/// The merged report, valid against its schema. The shards' readers take what an earlier version
/// left out as defaults (docs/decisions.md, "The report model"); where such a default is not a value
/// the schema admits, the merge is refused rather than written half-valid.
json checked_output(json merged, DocumentSchema schema) {
  validate_document(nlohmann::json::parse(merged.dump()), schema,
                    "merge: the merged report (shards lacking fields this version writes: merge them with the version "
                    "that wrote them)");
  return merged;
}

/// bench: each pair from its owning shard (a baseline's entry only once), every work-precision
/// series; the first shard's header (the shards come from one build: check_shards), the earliest
/// start and the longest duration (the shards ran side by side).
json merged_bench(const std::vector<json>& reports, const std::vector<std::string>& names) {
  std::vector<BenchReport> shards;
  for (std::size_t i = 0; i < reports.size(); ++i)
    shards.push_back(BenchReport::read(nlohmann::json::parse(reports[i].dump()), names[i]));
  BenchReport out = shards.front();
  out.shard.reset();
  out.merged_from = names;
  out.entries.clear();
  out.work.clear();
  for (const BenchReport& s : shards) {
    out.started = std::min(out.started, s.started);
    out.duration_s = std::max(out.duration_s, s.duration_s);
    for (const BenchEntry& e : s.entries)
      if (s.shard->contains(shard_key(e.integrator, e.problem))) out.entries.push_back(e);
    out.work.insert(out.work.end(), s.work.begin(), s.work.end());
  }
  return checked_output(out.to_json(), DocumentSchema::bench);
}

/// verify: every position of the sweep exactly once, in the order of the unsharded run.
std::vector<PairReport> merged_results(const std::vector<VerifyReport>& shards, const std::vector<std::string>& names) {
  const std::int64_t total = shards.front().shard->pairs_total;
  std::vector<const PairReport*> slot(std::size_t(std::max<std::int64_t>(total, 0)), nullptr);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const std::vector<std::int64_t>& ord = shards[i].shard->ordinals;
    const std::vector<PairReport>& res = shards[i].results;
    if (ord.size() != res.size()) throw InputError(cat("merge: ", names[i], ": shard.ordinals and results differ in length"));
    for (std::size_t j = 0; j < res.size(); ++j) {
      const std::int64_t o = ord[j];
      if (o < 0 || o >= total || slot[std::size_t(o)])
        throw InputError(cat("merge: position ", std::to_string(o), " of the sweep filled twice or out of range (", names[i], ")"));
      slot[std::size_t(o)] = &res[j];
    }
  }
  std::vector<PairReport> results;
  for (std::size_t o = 0; o < slot.size(); ++o) {
    if (!slot[o]) throw InputError(cat("merge: position ", std::to_string(o), " of the sweep is missing from every shard"));
    results.push_back(*slot[o]);
  }
  return results;
}

/// An expectation is "not_run" in every shard but the one holding its pair: it is not_run in the
/// sweep only when no shard ran it. One naming an unknown scheme or problem is that in every shard:
/// it is kept once, as one run of the sweep has it.
std::vector<ExpectationOutcome> merged_outcomes(const std::vector<VerifyReport>& shards) {
  std::vector<ExpectationOutcome> outcomes;
  std::map<std::string, int> not_run;
  std::set<std::string> ran, seen;
  auto id_of = [](const ExpectationOutcome& o) { return cat(shard_key(o.integrator, o.problem), "/", o.check); };
  for (const VerifyReport& r : shards)
    if (r.expectations)
      for (const ExpectationOutcome& o : r.expectations->outcomes) {
        if (o.outcome == "not_run") {
          if (not_run[id_of(o)]++ == 0) outcomes.push_back(o);
        } else {
          ran.insert(id_of(o));
          if (seen.insert(cat(id_of(o), "/", o.outcome)).second) outcomes.push_back(o);
        }
      }
  std::vector<ExpectationOutcome> kept;
  for (const ExpectationOutcome& o : outcomes)
    if (o.outcome != "not_run" || !ran.count(id_of(o))) kept.push_back(o);
  return kept;
}

/// The pairs' counts add up (every count is over disjoint sets of pairs); the expectations' counts
/// are those of the merged outcomes (merged_verify).
ReportSummary summed(const std::vector<VerifyReport>& shards) {
  ReportSummary s;
  for (const VerifyReport& r : shards) {
    s.pairs += r.summary.pairs;
    s.ok += r.summary.ok;
    s.skipped += r.summary.skipped;
    s.breakdown += r.summary.breakdown;
    s.failed_verdicts += r.summary.failed_verdicts;
  }
  return s;
}

/// verify: the first shard's header (the shards come from one build: check_shards), the earliest
/// start and the longest duration (the shards ran side by side), every pair in its place.
json merged_verify(const std::vector<json>& reports, const std::vector<std::string>& names) {
  std::vector<VerifyReport> shards;
  for (std::size_t i = 0; i < reports.size(); ++i) shards.push_back(VerifyReport::read(reports[i], names[i]));
  VerifyReport out = shards.front();
  out.results = merged_results(shards, names);
  // A whole sweep in which no pair applied verified nothing, as one run of it would have said (a
  // shard alone may be empty: verify lets it through).
  if (std::all_of(out.results.begin(), out.results.end(), [](const PairReport& r) { return r.skipped(); }))
    throw InputError(cat("merge: nothing verified: none of the sweep's ", std::to_string(out.results.size()),
                         " pair(s) applies", out.results.empty() ? "" : cat(" (", out.results.front().reason, ", ...)")));
  out.summary = summed(shards);
  if (out.expectations) {
    // The counts of the merged outcomes, not the shards' sums (which count an unknown name per shard).
    const ExpectationReport t = tally(merged_outcomes(shards));
    out.expectations->outcomes = t.outcomes;
    out.summary.expected_failures = t.expected_failures;
    out.summary.unexpected_failures = t.unexpected_failures;
    out.summary.unexpected_passes = t.unexpected_passes;
    out.summary.unknown_checks = t.unknown_checks;
  }
  for (const VerifyReport& s : shards) {
    out.started = std::min(out.started, s.started);
    out.duration_s = std::max(out.duration_s, s.duration_s);
  }
  out.shard.reset();
  out.merged_from = names;
  return checked_output(out.to_json(), DocumentSchema::report);
}

}  // namespace

json merge_shard_reports(const std::vector<json>& reports, const std::vector<std::string>& names, ShardKeys keys) {
  return check_shards(reports, names, keys == ShardKeys::hashed) ? merged_bench(reports, names)
                                                                 : merged_verify(reports, names);
}

}  // namespace rigidbench
