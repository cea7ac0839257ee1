// `rigidbench card`: the conformance card of every selected scheme (docs/card.md) as JSON, Markdown
// and one HTML page. The determinism across processes is this program run again on the same probe
// (the hidden --fingerprint-of), its fingerprint compared with this process's.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "ranks.hpp"
#include "../core/data_files.hpp"
#include "../core/json_schema.hpp"
#include "../core/process.hpp"
#include "../problems/catalogue.hpp"
#include "../reports/card_report.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

namespace {

struct CardOptions {
  SchemeOptions schemes;
  std::string out = "cards", fingerprint_of, expect;
  int jobs = 0;
  bool quiet = false;
  std::vector<std::string> argv;
};

// The determinism probe's fingerprint from a second process of this program, or why there is none.
// Its output goes to a file of the temporary folder (never to our stdout, nor into --out).
struct ChildFingerprint {
  std::string fingerprint, why_not;
};
ChildFingerprint fingerprint_in_child(const std::string& scheme) {
  if (!is_registered(scheme)) return {"", "a scheme this program does not register"};
  std::error_code ec;
  const std::string self = std::filesystem::canonical("/proc/self/exe", ec).string();
  if (ec) return {"", "this program's path is not known (/proc/self/exe)"};
  const std::filesystem::path log =
      std::filesystem::temp_directory_path(ec) / cat("rigidbench-card-", std::to_string(::getpid()), "-", scheme, ".log");
  const int rc = run_process({self, "card", "--fingerprint-of", scheme}, log.string());
  std::string line, last;
  {
    std::ifstream in(log);
    while (std::getline(in, line))
      if (!line.empty()) last = line;
  }
  std::filesystem::remove(log, ec);
  if (rc != 0 || last.size() != 16) return {"", cat("the second process failed (exit ", std::to_string(rc), ")")};
  return {last, ""};
}

// Refuses an --out that cannot take the cards before any work: empty, a file, a missing parent, a
// folder this process cannot write.
void check_out_folder(const std::string& out) {
  namespace fs = std::filesystem;
  if (out.empty()) throw InputError("card: --out is empty: it names the folder that gets cards.json, cards.md and index.html");
  if (fs::exists(out) && !fs::is_directory(out))
    throw InputError(cat("card: --out '", out, "' is a file: it names the folder that gets cards.json, cards.md and index.html"));
  require_out_folder(out);  // its parent exists, as for every --out
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || ::access(out.c_str(), W_OK) != 0)
    throw InputError(cat("card: --out '", out, "' cannot be written (", ec ? ec.message() : std::string(std::strerror(errno)), ")"));
}

// Under MPI ranks (docs/card.md, "Determinism"): every rank runs the determinism probe of every entry
// and the fingerprints are gathered: [rank][entry], empty where the probes do not apply or the run
// threw (no rank may leave the collective early).
std::vector<std::vector<std::string>> fingerprints_of_ranks(const std::vector<SchemeEntry>& entries) {
  const Problem p = catalogue_problem("free_body");
  std::string mine;
  for (const SchemeEntry& e : entries) {
    std::string fp;
    if (not_applicable(*e.info, p).empty() && !e.info->adaptive) try {
        fp = run_fingerprint(p, e, 0.01, CardRequest{}.determinism_steps);
      } catch (const std::exception&) {
        fp.clear();
      }
    mine += fp + "\n";  // one line per entry (a fingerprint is 16 hex digits)
  }
  std::vector<std::vector<std::string>> out;
  for (const std::string& bytes : all_gather_bytes(mine)) {
    std::vector<std::string>& lines = out.emplace_back();
    for (std::size_t a = 0, b; (b = bytes.find('\n', a)) != std::string::npos; a = b + 1) lines.push_back(bytes.substr(a, b - a));
  }
  return out;
}

// Whether entry i's fingerprint is the same on every rank.
std::string across_ranks(const std::vector<std::vector<std::string>>& by_rank, std::size_t i, const std::string& mine) {
  for (const std::vector<std::string>& lines : by_rank) {
    if (i >= lines.size() || lines[i].empty()) return "not_measured";
    if (lines[i] != mine) return "differs";
  }
  return "identical";
}

int run_cards(const CardOptions& o) {
  const std::vector<const SchemeEntry*> picked = select_schemes(o.schemes.integrators.empty() ? std::vector<std::string>{"all"} : o.schemes.integrators);
  const std::vector<SchemeEntry> entries = configure_schemes(picked, o.schemes.sets);
  check_out_folder(o.out);
  CardRequest req;
  req.jobs = o.jobs;
  Expectations known;
  if (!o.expect.empty()) {
    known = load_expectations(o.expect);
    req.known = &known;
  }
  // Every rank has read and checked the same input (an error is every rank's, before the collective).
  const bool mpi = ranks().distributed();
  const std::vector<std::vector<std::string>> by_rank = mpi ? fingerprints_of_ranks(entries) : std::vector<std::vector<std::string>>{};
  if (mpi && !ranks().root()) return kOk;  // rank 0 makes the cards and writes them
  std::vector<ConformanceCard> cards;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const SchemeEntry& e = entries[i];
    ConformanceCard c = make_card(e, req);
    if (mpi && c.status == "ok" && !c.determinism.fingerprint.empty()) {
      c.determinism.across_ranks = across_ranks(by_rank, i, c.determinism.fingerprint);
      c.determinism.note += cat("; ", std::to_string(ranks().size), " MPI ranks");
    }
    // Across processes: the same probe in a second process of this program, with the registry's entry
    // (settings given with --set are this process's alone: not compared).
    if (c.status == "ok" && !c.determinism.fingerprint.empty()) {
      const ChildFingerprint fp =
          mpi ? ChildFingerprint{"", "under MPI, the ranks are the processes compared (across_ranks)"}
          : c.settings.empty() ? fingerprint_in_child(c.scheme)
                               : ChildFingerprint{"", "settings given with --set"};
      if (!fp.fingerprint.empty()) c.determinism.across_processes = fp.fingerprint == c.determinism.fingerprint ? "identical" : "differs";
      else c.determinism.note += cat("; across processes not measured: ", fp.why_not);
    }
    if (!o.quiet)
      std::fprintf(stderr, "card %s: gyroscopic %s, energy %s, %.1f s\n", c.scheme.c_str(), c.gyroscopic.verdict.c_str(),
                   c.energy.summary.c_str(), c.seconds);
    cards.push_back(std::move(c));
  }
  const CardReport report = CardReport::of(std::move(cards), o.argv, iso8601_now());
  const nlohmann::ordered_json j = report.to_json();
  validate_document(nlohmann::json::parse(j.dump()), DocumentSchema::card, "the card report being written");
  write_report(o.out + "/cards.json", j.dump(1) + "\n");
  // The Markdown and the page from the JSON alone (reports/render/render_cards.py).
  const int rc = run_process({python_executable(), data_file("render/render_cards.py"), o.out + "/cards.json", o.out});
  if (rc != 0) {
    std::fprintf(stderr, "rigidbench card: the renderer failed (exit %d); cards.json is written\n", rc);
    return kInternal;
  }
  if (!o.quiet) std::printf("wrote %s/cards.json, cards.md and index.html\n", o.out.c_str());
  return kOk;
}

}  // namespace

Command add_card(CLI::App& app, const std::vector<std::string>& argv) {
  auto o = std::make_shared<CardOptions>();
  o->argv = argv;
  auto* sc = app.add_subcommand("card", "Conformance card of each scheme: gyroscopic term, energy and momentum against "
                                        "h|omega|, the Dzhanibekov flip, the largest safe step, determinism, cost (docs/card.md)");
  o->schemes.add_to(sc, Use::run, "'*': every registered scheme, the engines' slow variants and the adaptive schemes included");
  sc->add_option("--out", o->out, "Output folder: cards.json, cards.md and index.html (created; its parent must exist)")
      ->capture_default_str();
  sc->add_option("--jobs", o->jobs, "Threads of the verification part (0: one per core)")->check(CLI::Range(0, 4096));
  sc->add_option("--expect", o->expect, "Expected findings (baselines/expected-findings.json): a failed check listed "
                                       "there carries its reason on the card (docs/findings.md)")
      ->check(CLI::ExistingFile);
  sc->add_flag("--quiet", o->quiet, "No progress on stderr");
  sc->add_option("--fingerprint-of", o->fingerprint_of, "Print the determinism probe's fingerprint of one scheme and exit")
      ->group("");
  return {sc, [o] {
            if (!o->fingerprint_of.empty()) {
              const Problem p = catalogue_problem("free_body");
              std::cout << run_fingerprint(p, find_scheme(o->fingerprint_of), 0.01, CardRequest{}.determinism_steps) << "\n";
              return kOk;
            }
            return run_cards(*o);
          }};
}

}  // namespace rigidbench::cli
