#include "history.hpp"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include "../core/json_numbers.hpp"
#include "../core/atomic_file.hpp"
#include "../core/json_schema.hpp"
#include "../core/types.hpp"
#include "../integrators/registry.hpp"
#include "gate.hpp"
#include "snapshot.hpp"
#include "../reports/bench_report.hpp"
#include "../reports/pair_report.hpp"
#include "../reports/verify_report.hpp"
#include "../reports/report.hpp"
#include "../verification/metric_table.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;
using json_numbers::as_num;
using json_numbers::num;

namespace {

// SQLite's header fields that say whose file this is: application_id 'RBH1', user_version = the
// layout below (docs/history.md, "The file"). A newer layout is refused rather than misread.
constexpr int kApplicationId = 0x52424831;
// 2: the table work (an adaptive pair's work per tolerance); a layout-1 file gains it when recorded into.
// 3: the table identities (the code an outside scheme ran); a file of an older layout gains it when
// recorded into.
constexpr int kLayoutVersion = 3;
// Long enough for another process's whole recording transaction (milliseconds to a second) many
// times over; a writer that waits longer reports "database is locked" rather than hanging.
constexpr int kBusyTimeoutMs = 120000;

constexpr const char* kLayout = R"sql(
CREATE TABLE runs(
  id          INTEGER PRIMARY KEY,
  command     TEXT NOT NULL,   -- verify | bench | gate
  revision    TEXT NOT NULL,   -- git revision built (-dirty: uncommitted changes)
  recorded_at TEXT NOT NULL,   -- ISO 8601 UTC, the run's start
  outcome     TEXT NOT NULL,   -- pass | fail | '' (not judged)
  version     TEXT NOT NULL,
  compiler    TEXT NOT NULL,
  flags       TEXT NOT NULL,
  build_type  TEXT NOT NULL,
  valgrind    TEXT NOT NULL,   -- '' without instruction counts
  cpu         TEXT NOT NULL,
  hostname    TEXT NOT NULL,
  suite       TEXT NOT NULL,
  shard       TEXT NOT NULL    -- 'k/N' or ''
);
CREATE INDEX runs_by_time ON runs(recorded_at, id);
CREATE TABLE errors(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  integrator TEXT NOT NULL, problem TEXT NOT NULL, metric TEXT NOT NULL, level INTEGER NOT NULL,
  h REAL NOT NULL, error REAL, floor REAL, rounding REAL,
  PRIMARY KEY(run_id, integrator, problem, metric, level)) WITHOUT ROWID;
CREATE TABLE verdicts(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  integrator TEXT NOT NULL, problem TEXT NOT NULL, check_name TEXT NOT NULL, verdict TEXT NOT NULL,
  PRIMARY KEY(run_id, integrator, problem, check_name)) WITHOUT ROWID;
CREATE TABLE costs(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  integrator TEXT NOT NULL, problem TEXT NOT NULL, h REAL,
  instructions_per_step REAL, ns_per_step REAL, ratio_to_baseline REAL, instruction_ratio_to_baseline REAL,
  newton_iterations_per_step REAL, load_evaluations_per_step REAL,
  PRIMARY KEY(run_id, integrator, problem)) WITHOUT ROWID;
)sql";
/// Layout 3: the identity of each outside scheme a run judged (SchemeInfo::identity: a Python class's
/// source hash, an outside program's build): a run's results are those of its revision *and* of these
/// identities, so that a good and a broken build of the user's scheme under one revision of rigidbench
/// are two points of its history, not one (docs/history.md, "Outside schemes").
constexpr const char* kLayoutIdentities = R"sql(
CREATE TABLE identities(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  integrator TEXT NOT NULL, identity TEXT NOT NULL,
  PRIMARY KEY(run_id, integrator)) WITHOUT ROWID;
)sql";
/// Layout 2: an adaptive pair's work at each tolerance of its ladder, per unit of simulated time
/// (docs/adaptive.md): accepted steps, right-hand sides, load evaluations (the verify report) and
/// the instructions of a whole run (bench, counted under callgrind).
constexpr const char* kLayoutWork = R"sql(
CREATE TABLE work(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  integrator TEXT NOT NULL, problem TEXT NOT NULL, level INTEGER NOT NULL, tol REAL NOT NULL,
  accepted_steps REAL, rhs_evaluations REAL, load_evaluations REAL, instructions REAL,
  PRIMARY KEY(run_id, integrator, problem, level)) WITHOUT ROWID;
)sql";

// ---- a minimal RAII layer over the SQLite C API ----------------------------------------------------

/// The system refused a write (no space, a read-only file or file system, permission, an I/O error):
/// IoError, exit 5 - the same as for a report that cannot be written; anything else SQLite
/// reports (not a database, a malformed file) is the user's input, InputError (exit 2).
[[noreturn]] void throw_sqlite_error(sqlite3* db, const std::string& message) {
  // A killed recording left a hot journal, which a read-only connection cannot roll back.
  if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK)
    throw InputError(cat(message, " (the file holds an unfinished transaction, left by a recording that was killed: "
                                  "record a run into it with --history, which rolls it back, before reading it)"));
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN: throw IoError(message);
    default: throw InputError(message);
  }
}

class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& where) : db_(db), where_(where) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) fail();
  }
  ~Statement() { sqlite3_finalize(s_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(s_, i, v.c_str(), int(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, std::int64_t v) {
    check(sqlite3_bind_int64(s_, i, v));
    return *this;
  }
  /// NaN and infinities are stored as NULL, as the reports write them.
  Statement& bind_num(int i, double v) {
    check(std::isfinite(v) ? sqlite3_bind_double(s_, i, v) : sqlite3_bind_null(s_, i));
    return *this;
  }
  /// One step: true while rows come.
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail();
    return false;
  }
  void run() {
    step();
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  std::int64_t i64(int c) const { return sqlite3_column_int64(s_, c); }
  double real(int c) const {
    return sqlite3_column_type(s_, c) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(s_, c);
  }
  std::string text(int c) const {
    const auto* p = sqlite3_column_text(s_, c);
    return p ? std::string(reinterpret_cast<const char*>(p)) : std::string();
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail();
  }
  [[noreturn]] void fail() const { throw_sqlite_error(db_, cat(where_, ": ", sqlite3_errmsg(db_))); }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  std::string where_;
};

double median_finite(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool same_h(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

std::string default_history_path() {
  const char* env = std::getenv("RIGIDBENCH_HISTORY");
  return env && *env ? env : "rigidbench-history.sqlite";
}

std::vector<ChangePoint> change_points(const std::vector<double>& values, double factor,
                                       const std::vector<double>& allowance) {
  auto allow = [&](std::size_t i) {
    return i < allowance.size() && std::isfinite(allowance[i]) ? allowance[i] : 0.0;
  };
  std::vector<ChangePoint> out;
  std::size_t ref = values.size();  // the current segment's first finite point
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (!std::isfinite(v)) continue;
    if (ref == values.size()) {
      ref = i;
      continue;
    }
    const double r = values[ref], slack = allow(ref) + allow(i);
    const bool worse = v > factor * r + slack, better = r > factor * v + slack;
    if (worse || better) {
      out.push_back({i, r, v, worse});
      ref = i;
    }
  }
  return out;
}

// ---- the database --------------------------------------------------------------------------------

struct HistoryDb::Impl {
  std::string path;
  sqlite3* db = nullptr;

  std::string where(const char* what) const { return cat("history '", path, "': ", what); }

  void exec(const char* sql, const char* what) {
    char* msg = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
      const std::string m = msg ? msg : sqlite3_errmsg(db);
      sqlite3_free(msg);
      throw_sqlite_error(db, cat(where(what), ": ", m));
    }
  }
  int pragma_int(const char* sql) {
    Statement s(db, sql, where("reading its header"));
    return s.step() ? int(s.i64(0)) : 0;
  }

  /// A transaction that rolls back unless committed (an exception leaves the file as it was).
  struct Transaction {
    Impl& impl;
    bool done = false;
    explicit Transaction(Impl& i) : impl(i) { impl.exec("BEGIN IMMEDIATE", "starting a transaction (other writers are waited for)"); }
    void commit() {
      impl.exec("COMMIT", "committing");
      done = true;
    }
    ~Transaction() {
      if (!done) sqlite3_exec(impl.db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
  };

  /// The file's schema - every table, index, trigger and view, with its SQL - must be the one this
  /// rigidbench lays out for `layout`, found by laying it out in memory: a trigger or a view someone
  /// added (a trigger rewrote every later run's errors) or a table changed is refused, not run
  /// (docs/security.md). Triggers and views are also switched off on the connection (open).
  void check_schema(int layout) {
    const auto schema_of = [](sqlite3* d, const std::string& at) {
      std::set<std::array<std::string, 4>> rows;
      Statement q(d, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema", at);
      while (q.step()) rows.insert({q.text(0), q.text(1), q.text(2), q.text(3)});
      return rows;
    };
    sqlite3* mem = nullptr;
    if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      sqlite3_close(mem);
      throw std::runtime_error("history: cannot open an in-memory database");
    }
    std::set<std::array<std::string, 4>> want;
    {
      const std::unique_ptr<sqlite3, int (*)(sqlite3*)> guard(mem, &sqlite3_close);
      for (const char* sql : {kLayout, layout >= 2 ? kLayoutWork : "", layout >= 3 ? kLayoutIdentities : ""})
        if (sqlite3_exec(mem, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
          throw std::runtime_error(cat("history: laying out the expected schema: ", sqlite3_errmsg(mem)));
      want = schema_of(mem, "history: the expected schema");
    }
    const auto have = schema_of(db, where("reading its schema"));
    if (have == want) return;
    std::string extra;
    for (const auto& r : have)
      if (!want.count(r)) {
        extra = cat(r[0], " '", r[1], "'");
        break;
      }
    if (extra.empty())
      for (const auto& r : want)
        if (!have.count(r)) {
          extra = cat("no ", r[0], " '", r[1], "' as rigidbench lays it out");
          break;
        }
    throw InputError(cat(where("is not a history as rigidbench writes it"), ": its schema differs from layout ",
                         std::to_string(layout), " (", extra,
                         "); it is not used - a trigger or view added to it would run with every command"));
  }

  /// Checks whose file this is and creates the layout in an empty one, under the write lock so that
  /// two processes creating the same new file do not both lay it out.
  void open_layout(bool create) {
    if (create) {
      // SQLite opens a file read-only when the system will not let it write (IoError below, exit 5)
      // but also when the file's own header says so (a write format beyond its own): that is the
      // file, not the system - the user's input, exit 2.
      if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) == 0) {
        try {
          Transaction probe(*this);
        } catch (const IoError& e) {
          if ((sqlite3_errcode(db) & 0xff) != SQLITE_READONLY) throw;
          throw InputError(where("is marked read-only by its own header (a file format this SQLite cannot write)"));
        }
      }
      Transaction t(*this);
      check_header(true);
      t.commit();
      probe_write();
    } else {
      check_header(false);
    }
  }
  /// A file the run could not be recorded into is found now, not after the run (minutes or hours
  /// of it): a read-only file or file system, or no space for the journal. The probe dirties a page
  /// (SQLite copies its original into the rollback journal at once) and rolls back: the file is left
  /// as it was.
  void probe_write() {
    if (sqlite3_db_readonly(db, "main") == 1)
      throw IoError(where("is read-only (file or file system): the run could not be recorded"));
    Transaction t(*this);
    exec("CREATE TABLE rigidbench_write_probe(x)", "writing to it (checked before the run)");
  }  // rolled back

  void check_header(bool create) {
    const int app = pragma_int("PRAGMA application_id"), layout = pragma_int("PRAGMA user_version");
    if (app == kApplicationId) {
      if (layout > kLayoutVersion)
        throw InputError(cat(where("written by a newer rigidbench"), " (layout ", std::to_string(layout), "; this one reads ",
                             std::to_string(kLayoutVersion), ")"));
      check_schema(layout);
      if (layout < 2 && create)  // recorded into: gains the work table (read alone, it is read without one)
        exec(kLayoutWork, "adding the table work (layout 2)");
      if (layout < 3 && create) {
        exec(kLayoutIdentities, "adding the table identities (layout 3)");
        exec("PRAGMA user_version = 3", "writing its header");
      }
      return;
    }
    if (app != 0 || pragma_int("SELECT count(*) FROM sqlite_master") != 0)
      throw InputError(where("is an SQLite database but not a rigidbench history"));
    if (!create) throw InputError(where("holds no history yet (record one with verify/bench/gate --history)"));
    exec(kLayout, "creating the tables");
    exec(kLayoutWork, "creating the tables");
    exec(kLayoutIdentities, "creating the tables");
    exec(cat("PRAGMA application_id = ", std::to_string(kApplicationId), "; PRAGMA user_version = ",
             std::to_string(kLayoutVersion))
             .c_str(),
         "writing its header");
  }
};

HistoryDb::HistoryDb(const std::string& path, Mode mode) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  if (path.empty()) throw InputError("history: the file name is empty");
  // A regular file or nothing: SQLite opening a FIFO waits for a writer forever, and a device or a
  // folder is no history (docs/security.md).
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists) {
    if (!S_ISREG(st.st_mode)) throw InputError(impl_->where("is not a regular file (a FIFO, a device or a folder)"));
    if (st.st_size > 0 && st.st_size < 512) throw InputError(impl_->where("is not an SQLite database (too short)"));
  }
  // SQLite replays a "hot" journal left beside the file into it when it opens it: one planted there
  // by someone else rewrote a history's errors and verdicts (docs/security.md, "Histories").
  if (struct stat j {}; ::lstat((path + "-journal").c_str(), &j) == 0) {
    if (!S_ISREG(j.st_mode))
      throw InputError(impl_->where("has a '-journal' beside it that is not a regular file: remove it"));
    // (A journal of this user's is a recording in progress, or one that was killed: SQLite rolls
    // that back itself.)
    if (exists && j.st_uid != st.st_uid && j.st_uid != ::geteuid())
      throw InputError(cat(impl_->where("has a journal beside it ('-journal') written by another user (uid "),
                           std::to_string(j.st_uid), ") than the history's: SQLite would replay it into the history; "
                           "it is not used - remove the journal if it is yours"));
  }
  const int flags = mode == Mode::record ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path.c_str(), &impl_->db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    const std::string m = impl_->db ? sqlite3_errmsg(impl_->db) : "out of memory";
    sqlite3_close(impl_->db);
    impl_->db = nullptr;
    throw InputError(cat(impl_->where(mode == Mode::record ? "cannot be opened or created" : "cannot be opened"), ": ", m,
                         mode == Mode::read ? " (record a run first with verify/bench/gate --history)" : ""));
  }
  try {
    // Nothing a file carries runs here: no triggers, no views, no functions from its schema, no
    // writes to SQLite's own tables (SQLite's "defense against dark arts").
    for (const int option : {SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_ENABLE_VIEW, SQLITE_DBCONFIG_TRUSTED_SCHEMA})
      sqlite3_db_config(impl_->db, option, 0, nullptr);
    sqlite3_db_config(impl_->db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_busy_timeout(impl_->db, kBusyTimeoutMs);
    // The rollback journal (not WAL) keeps the history one file between runs; foreign keys make
    // a run's rows go with it.
    impl_->exec("PRAGMA foreign_keys = ON", "configuring");
    impl_->open_layout(mode == Mode::record);
    note_input(path, cat("the history '", path, "'"));  // never replaced by an output of the same command
  } catch (...) {
    sqlite3_close(impl_->db);
    impl_->db = nullptr;
    throw;
  }
}

HistoryDb::~HistoryDb() {
  if (impl_ && impl_->db) sqlite3_close(impl_->db);
}

const std::string& HistoryDb::path() const { return impl_->path; }

std::int64_t HistoryDb::runs() const {
  Statement s(impl_->db, "SELECT count(*) FROM runs", impl_->where("counting runs"));
  return s.step() ? s.i64(0) : 0;
}

std::string HistoryDb::integrity_check() const {
  Statement s(impl_->db, "PRAGMA integrity_check", impl_->where("checking"));
  std::string out;
  while (s.step()) out += (out.empty() ? "" : "; ") + s.text(0);
  return out;
}

namespace {

/// What a run's documents hold, read into their types (each validated against its schema on the way).
struct Recorded {
  /// The verdicts by the gate's check names (PairResult::checks): the snapshot of the verify report,
  /// or the snapshot recorded itself (none for bench alone).
  std::optional<GateSnapshot> snapshot;
  std::optional<VerifyReport> verify;
  std::optional<BenchReport> bench;
};

Recorded recorded(const HistoryRun& run) {
  if (run.command != "verify" && run.command != "bench" && run.command != "gate")
    throw std::logic_error("HistoryDb::record: command must be verify, bench or gate");
  const bool has_verify = run.verify.is_object(), has_bench = run.bench.is_object();
  const bool has_snapshot = !has_verify && run.snapshot.is_object();
  if (!has_verify && !has_bench && !has_snapshot) throw InputError("history: nothing to record (no report)");
  Recorded rec;
  if (has_bench) rec.bench = BenchReport::read(run.bench, "the bench report to record");
  if (has_verify) {
    rec.verify = VerifyReport::read(run.verify, "the verify report to record");
    if (rec.verify->suite == "paper" || rec.verify->paper_reproductions)
      throw InputError("history records the quick suite or a selection of pairs; the paper suite's items are not ladders");
    // With the bench of the same run (gate --run): an adaptive pair's instructions per unit time too.
    rec.snapshot = GateSnapshot::of_reports(*rec.verify, rec.bench ? &*rec.bench : nullptr);
  } else if (has_snapshot) {
    rec.snapshot = GateSnapshot::read(run.snapshot, "the gate snapshot to record");
  }
  return rec;
}

/// A run's row of the runs table, less its command and outcome.
struct Provenance {
  std::string revision, version, compiler, flags, build_type, cpu, hostname, suite, shard, started, valgrind;
};

/// From the verify report (tool, machine), the bench report, or the snapshot (environment).
Provenance provenance_of(const HistoryRun& run, const Recorded& rec) {
  const bool has_verify = run.verify.is_object();
  const std::optional<GateSnapshot>& snapshot = rec.snapshot;
  Provenance v;
  auto from_tool = [&](const ToolInfo& tool, const MachineInfo& machine) {
    v.revision = tool.git_revision;
    v.version = tool.version;
    v.compiler = tool.compiler;
    v.flags = tool.flags;
    v.build_type = tool.build_type;
    v.cpu = machine.cpu;
    v.hostname = machine.hostname;
  };
  if (rec.verify) {
    from_tool(rec.verify->tool, rec.verify->machine);
    v.started = rec.verify->started;
    v.suite = rec.verify->suite;
    v.shard = rec.verify->shard ? rec.verify->shard->shard.to_string() : "";
  } else if (rec.bench) {
    from_tool(rec.bench->tool, rec.bench->machine);
    v.started = rec.bench->started;
    v.shard = rec.bench->shard ? rec.bench->shard->to_string() : "";
  } else {
    const SnapshotEnvironment& env = snapshot->environment;
    v.revision = snapshot->git_revision;
    v.compiler = env.compiler;
    v.flags = env.flags;
    v.build_type = env.build_type;
    v.cpu = env.machine.value_or("");
    v.shard = snapshot->selection ? snapshot->selection->shard : "";
    v.suite = "quick";
  }
  if (has_verify && rec.bench && rec.bench->tool.git_revision != v.revision)
    throw std::logic_error("HistoryDb::record: the verify and bench reports come from two builds");
  if (rec.bench) v.valgrind = rec.bench->icount_tool;
  else if (!has_verify && snapshot) v.valgrind = snapshot->environment.valgrind;
  return v;
}

/// The errors table: every ladder of the verify report (the convergence metrics, the papers' own
/// measures, an adaptive pair's errors at its tolerances), or the convergence series of the snapshot.
void insert_errors(sqlite3* db, const std::string& w, std::int64_t id, const Recorded& rec) {
  Statement ins_err(db, "INSERT INTO errors VALUES(?,?,?,?,?,?,?,?,?)", w);
  auto errors_of = [&](const std::string& integ, const std::string& prob, const std::string& metric, const LadderSnapshot& m) {
    auto at = [](const std::vector<double>& v, std::size_t k) { return k < v.size() ? v[k] : std::nan(""); };
    for (std::size_t k = 0; k < m.h.size(); ++k) {
      ins_err.bind(1, id).bind(2, integ).bind(3, prob).bind(4, metric).bind(5, std::int64_t(k)).bind_num(6, m.h[k]);
      ins_err.bind_num(7, at(m.error, k)).bind_num(8, at(m.floor, k)).bind_num(9, m.rounding ? at(*m.rounding, k) : std::nan(""));
      ins_err.run();
    }
  };
  if (rec.verify) {
    for (const PairReport& r : rec.verify->results)
      for (const auto* section : {&r.convergence, &r.paper_measures})
        for (const auto& [metric, c] : *section) errors_of(r.integrator, r.problem, metric, LadderSnapshot::of(c));
    for (const PairReport& r : rec.verify->results)  // an adaptive pair: its error at each tolerance (h = tol)
      if (r.tolerance)
        for (const auto& [name, ladder] : tolerance_snapshot(*r.tolerance).ladders) errors_of(r.integrator, r.problem, name, ladder);
  } else if (rec.snapshot) {
    for (const PairSnapshot& p : rec.snapshot->accuracy)
      for (const auto& [metric, l] : p.convergence) errors_of(p.integrator, p.problem, metric, l);
  }
}

/// The identities table: each outside scheme of the verify report with the code it ran, and each
/// engine with its library's version ("MuJoCo 2.2.2": a rebuild against another library under one
/// revision is other code); a snapshot or a bench report alone records none.
void insert_identities(sqlite3* db, const std::string& w, std::int64_t id, const Recorded& rec) {
  if (!rec.verify) return;
  std::map<std::string, std::string> of;
  for (const PairReport& r : rec.verify->results) {
    if (!r.scheme) continue;
    if (!r.scheme->builtin && r.scheme->identity) of.emplace(r.integrator, *r.scheme->identity);
    else if (r.scheme->builtin && r.scheme->version) of.emplace(r.integrator, *r.scheme->version);
  }
  Statement ins(db, "INSERT INTO identities VALUES(?,?,?)", w);
  for (const auto& [integ, identity] : of) {
    ins.bind(1, id).bind(2, integ).bind(3, identity);
    ins.run();
  }
}

/// The verdicts table: each pair's checks and convergence verdicts, from the snapshot.
void insert_verdicts(sqlite3* db, const std::string& w, std::int64_t id, const std::optional<GateSnapshot>& snapshot) {
  if (!snapshot) return;
  Statement ins_v(db, "INSERT INTO verdicts VALUES(?,?,?,?,?)", w);
  for (const PairSnapshot& p : snapshot->accuracy) {
    auto put = [&](const std::string& check, const std::string& v) {
      ins_v.bind(1, id).bind(2, p.integrator).bind(3, p.problem).bind(4, check).bind(5, v);
      ins_v.run();
    };
    if (p.status == "skipped") continue;
    for (const auto& [check, v] : p.checks) put(check, v);
    for (const auto& [metric, l] : p.convergence) put(metric, l.verdict);
  }
}

/// The costs table: the bench report's results, or the snapshot's instruction counts.
void insert_costs(sqlite3* db, const std::string& w, std::int64_t id, const HistoryRun& run, const Recorded& rec) {
  Statement ins_c(db, "INSERT INTO costs VALUES(?,?,?,?,?,?,?,?,?,?)", w);
  const std::optional<GateSnapshot>& snapshot = rec.snapshot;
  if (rec.bench) {
    for (const BenchEntry& e : rec.bench->entries) {
      ins_c.bind(1, id).bind(2, e.integrator).bind(3, e.problem);
      ins_c.bind_num(4, e.h).bind_num(5, e.instructions_per_step).bind_num(6, e.ns_per_step);
      ins_c.bind_num(7, e.ratio_to_baseline).bind_num(8, e.instruction_ratio_to_baseline);
      ins_c.bind_num(9, e.newton_per_step).bind_num(10, e.loads_per_step);
      ins_c.run();
    }
  } else if (snapshot && !run.verify.is_object()) {
    for (const SpeedSnapshot& q : snapshot->speed) {
      if (q.adaptive()) continue;  // no instructions per step: its instructions per unit time are in work
      ins_c.bind(1, id).bind(2, q.integrator).bind(3, q.problem).bind_num(4, std::nan(""));
      ins_c.bind_num(5, q.instructions_per_step).bind_num(6, std::nan(""));
      ins_c.bind_num(7, q.ratio_to_baseline).bind_num(8, std::nan(""));
      ins_c.bind_num(9, std::nan("")).bind_num(10, std::nan(""));
      ins_c.run();
    }
  }
}

/// The work table: an adaptive pair's work per unit simulated time at each tolerance, from the
/// snapshot (its accuracy part: steps, right-hand sides, loads; its speed part: instructions).
void insert_work(sqlite3* db, const std::string& w, std::int64_t id, const std::optional<GateSnapshot>& snapshot) {
  if (!snapshot) return;
  struct Level {
    double accepted = std::nan(""), rhs = std::nan(""), loads = std::nan(""), instructions = std::nan("");
  };
  std::map<std::pair<std::string, std::string>, std::map<double, Level>> pairs;  // by tolerance
  for (const PairSnapshot& p : snapshot->accuracy)
    if (p.work)
      for (std::size_t k = 0; k < p.work->tol.size(); ++k) {
        Level& l = pairs[{p.integrator, p.problem}][p.work->tol[k]];
        l.accepted = p.work->accepted_steps[k], l.rhs = p.work->rhs_evaluations[k], l.loads = p.work->load_evaluations[k];
      }
  for (const SpeedSnapshot& q : snapshot->speed)
    for (std::size_t k = 0; k < q.tol.size(); ++k) pairs[{q.integrator, q.problem}][q.tol[k]].instructions = q.instructions_per_time[k];
  Statement ins(db, "INSERT INTO work VALUES(?,?,?,?,?,?,?,?,?)", w);
  for (const auto& [key, levels] : pairs) {
    std::int64_t k = 0;
    for (auto it = levels.rbegin(); it != levels.rend(); ++it, ++k) {  // loosest first, as the ladder
      const Level& l = it->second;
      ins.bind(1, id).bind(2, key.first).bind(3, key.second).bind(4, k).bind_num(5, it->first);
      ins.bind_num(6, l.accepted).bind_num(7, l.rhs).bind_num(8, l.loads).bind_num(9, l.instructions);
      ins.run();
    }
  }
}

}  // namespace

std::vector<std::int64_t> HistoryDb::record(const std::vector<HistoryRun>& runs) {
  // Everything each run needs is computed (and validated) before the transaction starts; the rows
  // of all runs then go in one transaction: all of them or none (history --import a b with b bad
  // recorded a).
  std::vector<Recorded> recs;
  for (const HistoryRun& run : runs) recs.push_back(recorded(run));
  Impl& d = *impl_;
  Impl::Transaction t(d);
  const std::string w = d.where("recording");
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const HistoryRun& run = runs[i];
    const Recorded& rec = recs[i];
    const Provenance v = provenance_of(run, rec);
    const std::string when = !run.recorded_at.empty() ? run.recorded_at : !v.started.empty() ? v.started : iso8601_now();
    Statement ins_run(d.db,
                      "INSERT INTO runs(command, revision, recorded_at, outcome, version, compiler, flags, build_type, "
                      "valgrind, cpu, hostname, suite, shard) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      w);
    ins_run.bind(1, run.command).bind(2, v.revision).bind(3, when).bind(4, run.outcome).bind(5, v.version).bind(6, v.compiler);
    ins_run.bind(7, v.flags).bind(8, v.build_type).bind(9, v.valgrind).bind(10, v.cpu).bind(11, v.hostname).bind(12, v.suite);
    ins_run.bind(13, v.shard);
    ins_run.run();
    const std::int64_t id = sqlite3_last_insert_rowid(d.db);
    insert_errors(d.db, w, id, rec);
    insert_verdicts(d.db, w, id, rec.snapshot);
    insert_identities(d.db, w, id, rec);
    insert_costs(d.db, w, id, run, rec);
    insert_work(d.db, w, id, rec.snapshot);
    ids.push_back(id);
  }
  t.commit();
  return ids;
}

std::int64_t HistoryDb::record(const HistoryRun& run) { return record(std::vector<HistoryRun>{run}).front(); }

// ---- trends -------------------------------------------------------------------------------------

namespace {

struct ErrRow {
  std::size_t rev;
  std::int64_t run;
  double h, error, allowance;
};
struct CostRow {
  std::size_t rev;
  double instructions, ns;
};
/// One tolerance of an adaptive pair in one run: its work per unit simulated time (NaN: not measured).
struct WorkRow {
  std::size_t rev;
  double tol;
  std::array<double, 4> values;  // kWorkMeasures, in order
  std::string environment;       // the toolchain (instructions)
};
/// The measures of the table work, and the change a trend flags in each: the gate's rules
/// (docs/gate.md: tolerance_work +25 %, instructions_per_time +2 %).
constexpr std::array<std::pair<const char*, double>, 4> kWorkMeasures{
    {{"accepted_steps", 1.25}, {"rhs_evaluations", 1.25}, {"load_evaluations", 1.25}, {"instructions", 1.02}}};
using PairKey = std::pair<std::string, std::string>;

struct PairData {
  // The revision of the pair's most recent run (recorded_at, id) that measured its accuracy (errors,
  // verdicts) and its speed (costs, work): what "newest" means for its series. Not the last revision
  // in order - a run of an outside scheme's earlier identity (a revert) or a later run that did not
  // measure it (a bench of other pairs) does not hide where it got worse (docs/history.md).
  std::size_t newest_accuracy = 0, newest_speed = 0;
  std::int64_t newest_accuracy_pos = -1, newest_speed_pos = -1;
  std::map<std::string, std::vector<ErrRow>> errors;                     // by metric
  std::map<std::string, std::vector<CostRow>> costs;                     // by environment
  std::map<std::string, std::map<std::size_t, std::set<std::string>>> verdicts;  // check -> revision -> verdicts
  std::vector<WorkRow> work;                                                     // an adaptive pair's
};

ordered_json change_points_json(const std::vector<ChangePoint>& cps, const std::vector<std::size_t>& revs,
                                const std::vector<std::string>& names, std::size_t newest) {
  ordered_json a = ordered_json::array();
  for (const ChangePoint& c : cps)
    a.push_back({{"index", revs[c.index]},
                 {"revision", names[revs[c.index]]},
                 {"at_newest", revs[c.index] == newest},
                 {"previous_revision", c.index > 0 ? names[revs[c.index - 1]] : std::string()},
                 {"before", num(c.before)},
                 {"after", num(c.after)},
                 {"ratio", num(c.before > 0 ? c.after / c.before : std::nan(""))},
                 {"direction", c.worse ? "worse" : "better"}});
  return a;
}

/// The revisions of the history in the order they were first recorded (the newest `last` of them),
/// their runs, and which run belongs to which.
struct Revisions {
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::string, std::string>> span;  // first and last recorded_at
  std::map<std::string, int> run_count;
  std::map<std::string, std::set<std::string>> commands;
  std::map<std::int64_t, std::string> run_revision;
  std::map<std::int64_t, std::int64_t> run_position;  // in time (recorded_at, id)
  std::map<std::string, std::size_t> index;
  /// The index in `order` of a run's revision; false outside the window.
  bool index_of(std::int64_t run, std::size_t& idx) const {
    const auto r = run_revision.find(run);
    if (r == run_revision.end()) return false;
    const auto i = index.find(r->second);
    if (i == index.end()) return false;
    idx = i->second;
    return true;
  }
};

/// A run's revision as the trends read it: rigidbench's, with the identities that tell its runs apart
/// ("r1 with mine source 3f2a..."): those of the schemes that ran under another identity in another run
/// of the same revision - a good and a broken build of a user's scheme, an engine rebuilt against
/// another library - so that each is a point of its own, while a revision whose runs all ran the same
/// code is named by the revision alone (layout 3; an older file read alone has none).
const char* revision_column(sqlite3* db, const std::string& w) {
  Statement t(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'identities'", w);
  if (!(t.step() && t.i64(0))) return "revision";
  return "revision || coalesce(' with ' || (SELECT group_concat(integrator || ' ' || identity, ', ') FROM "
         "(SELECT i.integrator, i.identity FROM identities i WHERE i.run_id = runs.id AND EXISTS ("
         "SELECT 1 FROM identities j JOIN runs r2 ON r2.id = j.run_id WHERE r2.revision = runs.revision "
         "AND j.integrator = i.integrator AND j.identity <> i.identity) ORDER BY i.integrator)), '')";
}

Revisions read_revisions(sqlite3* db, const std::string& w, int last) {
  Revisions R;
  auto& [order, span, run_count, commands, run_revision, run_position, index] = R;
  {
    const std::string sql = cat("SELECT id, ", revision_column(db, w), ", recorded_at, command FROM runs ORDER BY recorded_at, id");
    Statement s(db, sql.c_str(), w);
    while (s.step()) {
      const std::string rev = s.text(1), at = s.text(2);
      if (!span.count(rev)) {
        order.push_back(rev);
        span[rev] = {at, at};
      }
      span[rev].second = at;
      run_count[rev]++;
      commands[rev].insert(s.text(3));
      run_revision[s.i64(0)] = rev;
      run_position[s.i64(0)] = std::int64_t(run_position.size());
    }
  }
  if (order.size() > std::size_t(last)) order.erase(order.begin(), order.end() - last);
  for (std::size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  return R;
}

/// The selected pairs' errors, costs and verdicts in the window, by revision index.
std::map<PairKey, PairData> read_pairs(sqlite3* db, const std::string& w, const Revisions& R, const HistoryQuery& q) {
  std::map<PairKey, PairData> pairs;
  // A row of run `run` (revision index idx) of the pair: its accuracy's or speed's newest so far?
  const auto seen = [&R](std::size_t& newest, std::int64_t& newest_pos, std::int64_t run, std::size_t idx) {
    const std::int64_t pos = R.run_position.at(run);
    if (pos > newest_pos) newest_pos = pos, newest = idx;
  };
  auto selected = [&](const std::string& integ, const std::string& prob) {
    return matches_any(q.integrators, integ) && matches_any(q.problems, prob);
  };
  {
    Statement s(db, "SELECT run_id, integrator, problem, metric, h, error, floor, rounding FROM errors", w);
    std::size_t idx;
    while (s.step()) {
      if (!R.index_of(s.i64(0), idx) || !selected(s.text(1), s.text(2))) continue;
      const double fl = s.real(6), ro = s.real(7);
      PairData& pd = pairs[{s.text(1), s.text(2)}];
      seen(pd.newest_accuracy, pd.newest_accuracy_pos, s.i64(0), idx);
      pd.errors[s.text(3)].push_back(
          {idx, s.i64(0), s.real(4), s.real(5), (std::isfinite(fl) ? fl : 0.0) + (std::isfinite(ro) ? ro : 0.0)});
    }
  }
  {
    Statement s(db,
                "SELECT c.run_id, c.integrator, c.problem, c.instructions_per_step, c.ns_per_step, r.compiler, r.flags, "
                "r.valgrind FROM costs c JOIN runs r ON r.id = c.run_id",
                w);
    std::size_t idx;
    while (s.step()) {
      if (!R.index_of(s.i64(0), idx) || !selected(s.text(1), s.text(2))) continue;
      // Instruction counts belong to a toolchain (docs/gate.md): one series per compiler, flags and valgrind.
      const std::string env = cat(s.text(5), " |", s.text(6), " | ", s.text(7).empty() ? "no valgrind" : s.text(7));
      PairData& pd = pairs[{s.text(1), s.text(2)}];
      seen(pd.newest_speed, pd.newest_speed_pos, s.i64(0), idx);
      pd.costs[env].push_back({idx, s.real(3), s.real(4)});
    }
  }
  if (Statement t(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'work'", w); t.step() && t.i64(0)) {
    Statement s(db,
                "SELECT k.run_id, k.integrator, k.problem, k.tol, k.accepted_steps, k.rhs_evaluations, k.load_evaluations, "
                "k.instructions, r.compiler, r.flags, r.valgrind FROM work k JOIN runs r ON r.id = k.run_id",
                w);  // a layout-1 file read alone has no table work
    std::size_t idx;
    while (s.step()) {
      if (!R.index_of(s.i64(0), idx) || !selected(s.text(1), s.text(2))) continue;
      PairData& pd = pairs[{s.text(1), s.text(2)}];
      seen(pd.newest_speed, pd.newest_speed_pos, s.i64(0), idx);
      pd.work.push_back(
          {idx, s.real(3), {s.real(4), s.real(5), s.real(6), s.real(7)},
           cat(s.text(8), " |", s.text(9), " | ", s.text(10).empty() ? "no valgrind" : s.text(10))});
    }
  }
  {
    Statement s(db, "SELECT run_id, integrator, problem, check_name, verdict FROM verdicts", w);
    std::size_t idx;
    while (s.step()) {
      if (!R.index_of(s.i64(0), idx) || !selected(s.text(1), s.text(2))) continue;
      PairData& pd = pairs[{s.text(1), s.text(2)}];
      seen(pd.newest_accuracy, pd.newest_accuracy_pos, s.i64(0), idx);
      pd.verdicts[s.text(3)][idx].insert(s.text(4));
    }
  }
  return pairs;
}

/// The step a pair's error trend is read at: as asked, else the finest level whose error in the newest
/// revision is clear of the round-off and reference allowance (10x), so that rounding does not pose
/// as a change; else the coarsest. Only levels every run has are candidates where there are any: a
/// sequential ladder runs as many levels as its claims need, and a level one revision alone ran
/// would leave every other revision out of the trend (docs/history.md).
double trend_step(const std::vector<ErrRow>& rows, double asked) {
  double h = asked;
  if (h > 0) return h;
  std::size_t newest = 0;
  for (const ErrRow& r : rows) newest = std::max(newest, r.rev);
  std::map<double, std::set<std::int64_t>> runs_at;  // the runs that have each level (h to 1e-9)
  const auto level = [&](double lh) {
    return std::find_if(runs_at.begin(), runs_at.end(), [&](const auto& e) { return same_h(e.first, lh); });
  };
  std::set<std::int64_t> all_runs;
  for (const ErrRow& r : rows) {
    all_runs.insert(r.run);
    if (!std::isfinite(r.h)) continue;
    const auto it = level(r.h);
    (it == runs_at.end() ? runs_at[r.h] : it->second).insert(r.run);
  }
  const auto in_every_run = [&](double lh) {
    const auto it = level(lh);
    return it != runs_at.end() && it->second.size() == all_runs.size();
  };
  const bool common = std::any_of(runs_at.begin(), runs_at.end(), [&](const auto& e) { return e.second.size() == all_runs.size(); });
  std::map<double, std::pair<std::vector<double>, double>, std::greater<>> levels;  // coarse first
  for (const ErrRow& r : rows)
    if (r.rev == newest && std::isfinite(r.h) && (!common || in_every_run(r.h))) {
      auto& l = levels[r.h];
      l.first.push_back(r.error);
      l.second = std::max(l.second, r.allowance);
    }
  for (const auto& [lh, l] : levels) {
    if (h == 0) h = lh;  // the coarsest, unless a finer level qualifies
    const double e = median_finite(l.first);
    if (std::isfinite(e) && e > 10 * l.second) h = lh;
  }
  return h;
}

/// Counts of what a pair's trends found: change points, and how many of them (and of its verdict
/// changes) are at their series' newest point (PairData::newest_accuracy, newest_speed).
struct TrendCounts {
  int changes = 0, latest = 0;
};

/// Whether change point or verdict change `at` is at its series' newest point (PairData::newest_*).
bool counts_as_newest(std::size_t at, std::size_t newest, TrendCounts& n) {
  n.latest += at == newest;
  return at == newest;
}

/// The error of `metric` at one h per revision (median of its runs) and its change points.
ordered_json error_trend(const PairData& pd, const std::string& metric, const HistoryQuery& q,
                         const std::vector<std::string>& order, TrendCounts& n) {
  const double err_factor = std::pow(10.0, 0.1);
  const auto& rows = pd.errors.at(metric);
  const double h = trend_step(rows, q.h);
  std::vector<std::vector<double>> per_rev(order.size());
  std::vector<double> allowance(order.size(), 0.0);
  std::vector<int> runs(order.size(), 0);
  for (const ErrRow& r : rows)
    if (same_h(r.h, h)) {
      per_rev[r.rev].push_back(r.error);
      allowance[r.rev] = std::max(allowance[r.rev], r.allowance);
      runs[r.rev]++;
    }
  std::vector<double> values;
  std::vector<std::size_t> idx;
  std::vector<double> allow;
  ordered_json points = ordered_json::array();
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (runs[i] == 0) continue;
    const double v = median_finite(per_rev[i]);
    values.push_back(v);
    idx.push_back(i);
    allow.push_back(allowance[i]);
    points.push_back({{"index", i}, {"revision", order[i]}, {"value", num(v)}, {"allowance", num(allowance[i])}, {"runs", runs[i]}});
  }
  const auto cps = change_points(values, err_factor, allow);
  n.changes += int(cps.size());
  for (const auto& c : cps) counts_as_newest(idx[c.index], pd.newest_accuracy, n);
  return {{"metric", metric}, {"h", h > 0 ? ordered_json(h) : ordered_json(nullptr)}, {"points", points},
                {"change_points", change_points_json(cps, idx, order, pd.newest_accuracy)}};
}

/// A series of per-revision values (the median of each revision's runs; revisions without one are
/// left out) and its change points at `factor`.
ordered_json median_series(const std::vector<std::vector<double>>& per_rev, const std::vector<std::string>& order,
                           double factor, std::size_t newest, TrendCounts& n) {
  std::vector<double> values;
  std::vector<std::size_t> idx;
  ordered_json points = ordered_json::array();
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (per_rev[i].empty()) continue;
    const double v = median_finite(per_rev[i]);
    points.push_back({{"index", i}, {"revision", order[i]}, {"value", num(v)}, {"runs", int(per_rev[i].size())}});
    values.push_back(v);
    idx.push_back(i);
  }
  const auto cps = change_points(values, factor);
  n.changes += int(cps.size());
  for (const auto& c : cps) counts_as_newest(idx[c.index], newest, n);
  return {{"points", points}, {"change_points", change_points_json(cps, idx, order, newest)}};
}

/// Instructions per step per revision, one series per toolchain, and their change points (at +2 %),
/// each point with the median wall clock per step of its runs beside.
ordered_json instruction_trends(const PairData& pd, const std::vector<std::string>& order, TrendCounts& n) {
  ordered_json instr = ordered_json::array();
  for (const auto& [env, rows] : pd.costs) {
    std::vector<std::vector<double>> ins(order.size()), ns(order.size());
    for (const CostRow& r : rows) {
      ins[r.rev].push_back(r.instructions);
      ns[r.rev].push_back(r.ns);
    }
    ordered_json s = median_series(ins, order, 1.02, pd.newest_speed, n);
    for (ordered_json& point : s["points"]) point["ns_per_step"] = num(median_finite(ns[point["index"].get<std::size_t>()]));
    instr.push_back({{"environment", env}, {"points", s["points"]}, {"change_points", s["change_points"]}});
  }
  return instr;
}

/// An adaptive pair's work per unit simulated time at one tolerance (as asked by --h, else the
/// tightest of the newest revision): accepted steps, right-hand sides, loads, and instructions (one
/// series per toolchain), each with the gate's change rule (kWorkMeasures). Null for a fixed-step pair.
ordered_json work_trend(const PairData& pd, const HistoryQuery& q, const std::vector<std::string>& order, TrendCounts& n) {
  if (pd.work.empty()) return nullptr;
  std::size_t newest = 0;
  for (const WorkRow& r : pd.work) newest = std::max(newest, r.rev);
  double tol = 0;
  for (const WorkRow& r : pd.work)
    if (q.h > 0 ? same_h(r.tol, q.h) : r.rev == newest && (tol == 0 || r.tol < tol)) tol = r.tol;
  if (tol == 0) return nullptr;  // --h names no tolerance of this pair
  ordered_json series = ordered_json::array();
  for (std::size_t m = 0; m < kWorkMeasures.size(); ++m) {
    std::map<std::string, std::vector<std::vector<double>>> per_env;  // counts: one series; instructions: per toolchain
    for (const WorkRow& r : pd.work)
      if (same_h(r.tol, tol) && std::isfinite(r.values[m])) {
        auto& v = per_env[m + 1 == kWorkMeasures.size() ? r.environment : ""];
        v.resize(order.size());
        v[r.rev].push_back(r.values[m]);
      }
    for (const auto& [env, per_rev] : per_env) {
      ordered_json s = median_series(per_rev, order, kWorkMeasures[m].second, pd.newest_speed, n);
      series.push_back({{"measure", kWorkMeasures[m].first},
                        {"environment", env.empty() ? ordered_json(nullptr) : ordered_json(env)},
                        {"points", s["points"]},
                        {"change_points", s["change_points"]}});
    }
  }
  return {{"tol", tol}, {"per", "unit of simulated time"}, {"series", series}};
}

/// Verdict changes between consecutive revisions that have the check ("mixed": the runs of one
/// revision disagree, e.g. two compilers at round-off).
ordered_json verdict_changes(const PairData& pd, const std::vector<std::string>& order, TrendCounts& n) {
  ordered_json vc = ordered_json::array();
  for (const auto& [check, by_rev] : pd.verdicts) {
    std::string prev;
    std::size_t prev_i = 0;
    for (const auto& [i, vs] : by_rev) {
      const std::string v = vs.size() == 1 ? *vs.begin() : "mixed";
      if (!prev.empty() && v != prev) {
        vc.push_back({{"check", check}, {"index", i}, {"revision", order[i]}, {"previous_revision", order[prev_i]},
                      {"at_newest", counts_as_newest(i, pd.newest_accuracy, n)}, {"from", prev}, {"to", v}});
      }
      prev = v;
      prev_i = i;
    }
  }
  return vc;
}

}  // namespace

ordered_json HistoryDb::trends(const HistoryQuery& q) const {
  if (q.last < 1) throw InputError("history: --last must be >= 1");
  if (!(q.h >= 0) || !std::isfinite(q.h)) throw InputError("history: --h must be a positive step (or 0: chosen per pair)");
  Impl& d = *impl_;
  const std::string w = d.where("reading");
  const Revisions R = read_revisions(d.db, w, q.last);
  const std::vector<std::string>& order = R.order;
  const std::map<PairKey, PairData> pairs = read_pairs(d.db, w, R, q);

  ordered_json doc;
  doc["kind"] = "rigidbench-history";
  doc["schema_version"] = "1.0";
  doc["database"] = d.path;
  doc["generated"] = iso8601_now();
  doc["tool"] = tool_info();
  doc["selection"] = {{"integrators", q.integrators}, {"problems", q.problems}, {"metric", q.metric},
                      {"h", q.h > 0 ? ordered_json(q.h) : ordered_json(nullptr)}, {"last", q.last}};
  doc["tolerances"] = {{"instructions_factor", 1.02}, {"error_factor", std::pow(10.0, 0.1)}, {"work_factor", 1.25}};
  ordered_json revs = ordered_json::array();
  for (const auto& r : order)
    revs.push_back({{"revision", r},
                    {"first_recorded", R.span.at(r).first},
                    {"last_recorded", R.span.at(r).second},
                    {"runs", R.run_count.at(r)},
                    {"commands", std::vector<std::string>(R.commands.at(r).begin(), R.commands.at(r).end())}});
  doc["revisions"] = revs;

  int n_cp = 0, n_vc = 0, n_latest = 0;
  ordered_json out_pairs = ordered_json::array();
  for (const auto& [key, pd] : pairs) {
    ordered_json p;
    p["integrator"] = key.first;
    p["problem"] = key.second;
    TrendCounts n;
    // The error at one h: the requested metric, else the first the metric table lists that the pair has.
    std::string metric;
    if (pd.errors.count(q.metric)) {
      metric = q.metric;
    } else {
      for (const MetricDef& m : metric_table())
        if (pd.errors.count(std::string(m.name))) {
          metric = m.name;
          break;
        }
      // An adaptive pair: its error at each tolerance (a body system's positions first).
      for (const char* name : {kTolerancePositionLadder, kToleranceErrorLadder})
        if (metric.empty() && pd.errors.count(name)) metric = name;
    }
    p["error"] = metric.empty() ? ordered_json(nullptr) : error_trend(pd, metric, q, order, n);
    p["instructions"] = instruction_trends(pd, order, n);
    p["work"] = work_trend(pd, q, order, n);
    const ordered_json vc = verdict_changes(pd, order, n);
    n_vc += int(vc.size());
    p["verdict_changes"] = vc;
    n_cp += n.changes;
    n_latest += n.latest;
    out_pairs.push_back(p);
  }
  doc["pairs"] = out_pairs;
  doc["summary"] = {{"revisions", order.size()},
                    {"runs", [&] {
                       int n = 0;
                       for (const auto& r : order) n += R.run_count.at(r);
                       return n;
                     }()},
                    {"pairs", out_pairs.size()},
                    {"change_points", n_cp},
                    {"verdict_changes", n_vc},
                    {"at_newest_revision", n_latest}};
  return doc;
}

}  // namespace rigidbench
