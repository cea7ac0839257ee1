// `rigidbench history`: reports recorded after the fact (--import), and the trends of a run
// history - change points on stdout, the trend document and its HTML page with --out
// (docs/history.md).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "../core/json_input.hpp"
#include "../tracking/compare.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {
namespace {

/// What a report file is, for recording: verify, bench or gate (a snapshot).
HistoryRun run_of_file(const std::string& path) {
  const nlohmann::json j = read_json_input(path, "the report");
  HistoryRun run;
  const std::string kind = j.is_object() ? j.value("kind", "") : "";
  if (kind == "rigidbench-gate-snapshot") {
    run.command = "gate";
    run.snapshot = j;
  } else if (kind == "bench") {
    run.command = "bench";
    run.bench = j;
  } else if (j.is_object() && j.contains("results") && kind.empty()) {
    run.command = "verify";
    run.verify = j;
  } else {
    throw InputError(cat("history: '", path, "' is not a verify report, a bench report or a gate snapshot"));
  }
  return run;
}

std::string num_text(const nlohmann::ordered_json& v, const char* f = "%.4g") {
  return v.is_number() ? fmt(v.get<double>(), f) : std::string("-");
}

/// ", after REV" where a change's point before it is of another revision or identity (an outside
/// scheme's good build, docs/history.md): both ends of the change are named.
std::string after_revision(const nlohmann::ordered_json& c) {
  const auto it = c.find("previous_revision");
  return it != c.end() && it->is_string() && !it->get<std::string>().empty() ? cat(", after ", it->get<std::string>()) : "";
}

/// The change points and verdict changes of the trend document, on stdout.
void print_trends(const nlohmann::ordered_json& doc) {
  const auto& sum = doc.at("summary");
  std::printf("history: %d revision(s), %d run(s), %d pair(s) in %s\n", sum.at("revisions").get<int>(),
              sum.at("runs").get<int>(), sum.at("pairs").get<int>(), doc.at("database").get<std::string>().c_str());
  for (const auto& p : doc.at("pairs")) {
    const std::string pair = cat(p.at("integrator").get<std::string>(), " x ", p.at("problem").get<std::string>());
    auto line = [&](const nlohmann::ordered_json& c, const std::string& what) {
      std::printf("  %-7s %-40s %-44s at %-18s %s -> %s (x%s)%s\n", c.at("direction").get<std::string>().c_str(), pair.c_str(),
                  what.c_str(), c.at("revision").get<std::string>().c_str(), num_text(c.at("before")).c_str(),
                  num_text(c.at("after")).c_str(), num_text(c.at("ratio"), "%.3f").c_str(), after_revision(c).c_str());
    };
    if (p.at("error").is_object())
      for (const auto& c : p.at("error").at("change_points"))
        line(c, cat(p.at("error").at("metric").get<std::string>(), " at h=", num_text(p.at("error").at("h"))));
    for (const auto& s : p.at("instructions"))
      for (const auto& c : s.at("change_points")) line(c, cat("instructions/step [", s.at("environment").get<std::string>(), "]"));
    if (p.contains("work") && p.at("work").is_object())  // an adaptive pair: per unit simulated time at one tolerance
      for (const auto& s : p.at("work").at("series"))
        for (const auto& c : s.at("change_points"))
          line(c, cat(s.at("measure").get<std::string>(), "/time at tol=", num_text(p.at("work").at("tol")),
                      s.at("environment").is_string() ? cat(" [", s.at("environment").get<std::string>(), "]") : ""));
    for (const auto& v : p.at("verdict_changes"))
      std::printf("  %-7s %-40s %-44s at %-18s %s -> %s%s\n", "verdict", pair.c_str(), v.at("check").get<std::string>().c_str(),
                  v.at("revision").get<std::string>().c_str(), v.at("from").get<std::string>().c_str(),
                  v.at("to").get<std::string>().c_str(), after_revision(v).c_str());
  }
  const auto& revs = doc.at("revisions");
  std::printf("history: %d change point(s), %d verdict change(s); %d at their pair's newest run%s\n",
              sum.at("change_points").get<int>(), sum.at("verdict_changes").get<int>(),
              sum.at("at_newest_revision").get<int>(),
              revs.empty() ? "" : cat(" (", revs.back().at("revision").get<std::string>(), ")").c_str());
}

/// True when the newest revision made something worse: a change point for the worse or a verdict
/// that turned to fail.
bool newest_got_worse(const nlohmann::ordered_json& doc) {
  const auto& revs = doc.at("revisions");
  if (revs.empty()) return false;
  // At the newest point of its own series (at_newest: the pair's most recent run that measured it),
  // not the last revision: a revert or a later run of other pairs does not hide it (docs/history.md).
  const auto at_newest = [&](const nlohmann::ordered_json& c) { return c.value("at_newest", false); };
  auto worse_at_newest = [&](const nlohmann::ordered_json& cps) {
    for (const auto& c : cps)
      if (at_newest(c) && c.at("direction") == "worse") return true;
    return false;
  };
  for (const auto& p : doc.at("pairs")) {
    if (p.at("error").is_object() && worse_at_newest(p.at("error").at("change_points"))) return true;
    for (const auto& s : p.at("instructions"))
      if (worse_at_newest(s.at("change_points"))) return true;
    if (p.contains("work") && p.at("work").is_object())
      for (const auto& s : p.at("work").at("series"))
        if (worse_at_newest(s.at("change_points"))) return true;
    for (const auto& v : p.at("verdict_changes"))
      if (at_newest(v) && v.at("to") == "fail") return true;
  }
  return false;
}

}  // namespace

Command add_history(CLI::App& app) {
  struct Options {
    std::string path, out, format = "png";
    std::vector<std::string> import;
    HistoryQuery query;
    SchemeOptions schemes;  // filled into query.integrators, query.problems
    ProblemOptions problems;
    bool no_render = false, quiet = false, fail_on_worse = false, check = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("history", "Trends across revisions from the run history (SQLite): change points, plots");
  sc->add_option("--history", o->path, "The history file (default $RIGIDBENCH_HISTORY or ./rigidbench-history.sqlite)");
  sc->add_option("--import", o->import,
                 "Record these reports first (verify or bench reports, gate snapshots; each one run)");
  sc->add_option("--out", o->out, "Folder for history.json (the trends) and its HTML page (index.html, figures/)");
  sc->add_flag("--no-render", o->no_render, "With --out: write history.json only");
  o->schemes.add_to(sc, Use::filter);
  o->problems.add_to(sc, Use::filter, false, false);
  sc->add_option("--metric", o->query.metric, "The error shown (a convergence metric; default attitude_error_final)");
  sc->add_option("--h", o->query.h, "Read the error at this step (default: per pair, the finest level clear of round-off)");
  sc->add_option("--last", o->query.last, "The newest N revisions (default 100)");
  sc->add_option("--format", o->format, "Figure formats, comma-separated: png (default), svg, pdf");
  sc->add_flag("--fail-on-worse", o->fail_on_worse,
               "Exit 1 when the newest revision has a change point for the worse or a verdict turned to fail");
  sc->add_flag("--check", o->check, "Run SQLite's integrity check on the file (exit 1 unless it is sound)");
  sc->add_flag("--quiet", o->quiet, "No progress from the renderer");
  return {sc, [o] {
            o->query.integrators = o->schemes.integrators;
            o->query.problems = o->problems.problems;
            const std::string path = o->path.empty() ? default_history_path() : o->path;
            if (!o->out.empty() && std::filesystem::path(o->out).extension() == ".json")
              throw InputError("history: --out names a folder (history.json and index.html go inside)");
            if (!std::isfinite(o->query.h) || o->query.h < 0) throw InputError("history: --h must be a positive step");
            if (o->query.last < 1) throw InputError("history: --last must be >= 1");
            if (!o->import.empty()) {
              // Every file read and validated before the first is recorded: all or none.
              std::vector<HistoryRun> runs;
              for (const auto& f : o->import) runs.push_back(run_of_file(f));
              HistoryDb db(path, HistoryDb::Mode::record);
              const std::vector<std::int64_t> ids = db.record(runs);
              for (std::size_t i = 0; i < runs.size(); ++i)
                std::printf("history: recorded %s (%s) as run %lld\n", o->import[i].c_str(), runs[i].command.c_str(),
                            static_cast<long long>(ids[i]));
            }
            const HistoryDb db(path, HistoryDb::Mode::read);
            if (o->check) {
              const std::string r = db.integrity_check();
              std::printf("history: integrity check of %s: %s (%lld runs)\n", path.c_str(), r.c_str(),
                          static_cast<long long>(db.runs()));
              if (r != "ok") return kVerdictFailed;
            }
            const nlohmann::ordered_json doc = db.trends(o->query);
            print_trends(doc);
            if (!o->out.empty()) {
              std::filesystem::create_directories(o->out);
              const std::string json_path = (std::filesystem::path(o->out) / "history.json").string();
              write_atomic(json_path, doc.dump(1) + "\n");
              std::printf("history: %s\n", json_path.c_str());
              if (!o->no_render) {
                // The history itself is this command's input too: the renderer never writes over it.
                const int rc = render_reports({json_path}, o->out, o->format, o->quiet, {"--protect", db.path()});
                if (rc != kOk) return rc;
              }
            }
            return o->fail_on_worse && newest_got_worse(doc) ? kVerdictFailed : kOk;
          }};
}

}  // namespace rigidbench::cli
