#include "rigidbench/tracking/merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "rigidbench/core/json_schema.hpp"
#include "rigidbench/core/shard.hpp"
#include "rigidbench/core/types.hpp"
#include "rigidbench/reports/bench_report.hpp"
#include "rigidbench/reports/styles.hpp"

namespace rigidbench {

using json = nlohmann::ordered_json;  // the shards' key order is kept in the merged report

namespace {

std::string key_of(const json& r) { return shard_key(r.at("integrator").get<std::string>(), r.at("problem").get<std::string>()); }

/// Every report is a valid shard of one sweep by one build, each shard exactly once, holding only
/// its own pairs (and the baselines, for bench). Returns whether the reports are bench reports.
bool check_shards(const std::vector<json>& reports, const std::vector<std::string>& names) {
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
      if (!shard.contains(key_of(res)) && !is_baseline(res))
        throw InputError(cat("merge: ", names[i], " holds ", key_of(res), ", which belongs to shard ",
                             std::to_string(Shard::of(key_of(res), count)), "/", std::to_string(count)));
  }
  return bench;
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
  return out.to_json();
}

/// verify: every position of the sweep exactly once, in the order of the unsharded run.
json merged_results(const std::vector<json>& reports, const std::vector<std::string>& names) {
  const std::size_t total = reports.front().at("shard").at("pairs_total");
  std::vector<const json*> slot(total, nullptr);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const json& ord = reports[i].at("shard").at("ordinals");
    const json& res = reports[i].at("results");
    if (ord.size() != res.size()) throw InputError(cat("merge: ", names[i], ": shard.ordinals and results differ in length"));
    for (std::size_t j = 0; j < res.size(); ++j) {
      const std::size_t o = ord[j];
      if (o >= total || slot[o]) throw InputError(cat("merge: position ", std::to_string(o), " of the sweep filled twice or out of range (", names[i], ")"));
      slot[o] = &res[j];
    }
  }
  json results = json::array();
  for (std::size_t o = 0; o < total; ++o) {
    if (!slot[o]) throw InputError(cat("merge: position ", std::to_string(o), " of the sweep is missing from every shard"));
    results.push_back(*slot[o]);
  }
  return results;
}

/// An expectation is "not_run" in every shard but the one holding its pair: it is not_run in the
/// sweep only when no shard ran it.
json merged_outcomes(const std::vector<json>& reports) {
  json outcomes = json::array();
  std::map<std::string, int> not_run;
  std::set<std::string> ran;
  for (const json& r : reports)
    if (r.contains("expectations"))
      for (const json& o : r.at("expectations").at("outcomes")) {
        const std::string id = cat(key_of(o), "/", o.at("check").get<std::string>());
        if (o.at("outcome") == "not_run") {
          if (not_run[id]++ == 0) outcomes.push_back(o);
        } else {
          ran.insert(id);
          outcomes.push_back(o);
        }
      }
  json kept = json::array();
  for (const json& o : outcomes)
    if (o.at("outcome") != "not_run" || !ran.count(cat(key_of(o), "/", o.at("check").get<std::string>()))) kept.push_back(o);
  return kept;
}

}  // namespace

json merge_shard_reports(const std::vector<json>& reports, const std::vector<std::string>& names) {
  if (check_shards(reports, names)) return merged_bench(reports, names);
  const json& first = reports.front();
  json out = first;
  out.erase("shard");
  out["merged_from"] = names;
  std::string started = first.at("started");
  double duration = 0;
  for (const json& r : reports) {
    started = std::min(started, r.at("started").get<std::string>());
    duration = std::max(duration, r.at("duration_s").get<double>());  // the shards ran side by side
  }
  out["started"] = started;
  out["duration_s"] = duration;

  out["results"] = merged_results(reports, names);
  // Summaries add up (every count is over disjoint sets of pairs).
  json summary = json::object();
  for (const json& r : reports)
    for (auto it = r.at("summary").begin(); it != r.at("summary").end(); ++it)
      summary[it.key()] = summary.value(it.key(), 0) + it.value().get<int>();
  out["summary"] = summary;
  if (first.contains("expectations")) out["expectations"]["outcomes"] = merged_outcomes(reports);
  add_styles(out);
  return out;
}

}  // namespace rigidbench
