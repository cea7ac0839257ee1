#include "rigidbench/verification/scoring.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "rigidbench/core/json_input.hpp"
#include "rigidbench/core/so3.hpp"
#include "rigidbench/problems/problem_file.hpp"

namespace rigidbench {
namespace {

namespace fs = std::filesystem;

/// At most this many characters of a field from the file in a message (untrusted input).
std::string quoted(std::string_view s) {
  constexpr std::size_t kMax = 40;
  return cat("'", std::string(s.substr(0, kMax)), s.size() > kMax ? "...'" : "'");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// std::getline with a bound on the line's length: InputError naming the line beyond it.
bool bounded_getline(std::istream& in, std::string& line, std::size_t max_line, const std::string& file,
                     std::size_t lineno) {
  line.clear();
  std::streambuf* sb = in.rdbuf();
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n') return true;
    if (line.size() == max_line)
      throw InputError(cat(file, ": line ", std::to_string(lineno), " is longer than ", std::to_string(max_line),
                           " characters (64 per column of the header)"));
    line.push_back(char(c));
  }
}

/// One CSV number (docs/trajectory-files.md): a decimal with an optional sign (+ or -), point and
/// exponent; no hex floats, no nan or inf. A magnitude above the largest double is refused; one
/// below the smallest reads as the nearest double (0 or a subnormal), as JSON numbers do. Returns
/// what is wrong, empty when v holds the value.
std::string parse_decimal(std::string_view s, double& v) {
  std::string_view d = s;
  if (d.size() > 1 && d.front() == '+' && d[1] != '-' && d[1] != '+') d.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
  if (ec == std::errc::result_out_of_range && ptr == d.data() + d.size()) {
    const double x = std::strtod(std::string(d).c_str(), nullptr);  // the same text, with its range
    if (std::isinf(x)) return "overflows a double";
    v = x;  // underflow: 0 or a subnormal, the nearest double
    return {};
  }
  if (ec != std::errc() || ptr != d.data() + d.size() || !std::isfinite(v)) return "is not a finite decimal number";
  return {};
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> f;
  std::size_t from = 0;
  for (;;) {
    const std::size_t c = line.find(',', from);
    f.push_back(trim(line.substr(from, c == std::string_view::npos ? std::string_view::npos : c - from)));
    if (c == std::string_view::npos) return f;
    from = c + 1;
  }
}

/// The column index of every state component, in trajectory_columns order (after t).
std::vector<std::size_t> locate(const std::vector<std::string>& header, const Problem& p, const std::string& file) {
  const auto want = trajectory_columns(p);
  std::vector<std::size_t> idx;
  for (const std::string& c : want) {
    const auto it = std::find(header.begin(), header.end(), c);
    if (it == header.end())
      throw InputError(cat(file, ": no column '", c, "' (a trajectory of '", p.name, "' has the columns ",
                           want.front(), ", ", want[1], " ... ", want.back(), "; `rigidbench ladder` lists them)"));
    // A column given twice would be read from one copy and the other ignored (the first in CSV,
    // the last in JSON before duplicate keys were refused): which one holds the state is unknown.
    if (const auto again = std::find(it + 1, header.end(), c); again != header.end())
      throw InputError(cat(file, ": the column '", c, "' appears twice in the header (fields ",
                           std::to_string(it - header.begin() + 1), " and ", std::to_string(again - header.begin() + 1),
                           "): remove one"));
    idx.push_back(std::size_t(it - header.begin()));
  }
  return idx;
}

/// Fills one state from the row values in trajectory_columns order (after t).
void unflatten(const double* v, const Problem& p, State& s) {
  const bool tr = p.translating();
  s.bodies.resize(p.bodies.size());
  for (BodyState& b : s.bodies) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) b.R(i, j) = *v++;
    for (int i = 0; i < 3; ++i) b.W[i] = *v++;
    if (tr) {
      for (int i = 0; i < 3; ++i) b.x[i] = *v++;
      for (int i = 0; i < 3; ++i) b.v[i] = *v++;
    }
  }
}

void check_rotations(const RecordedTrajectory& r, std::size_t n, const Problem& p) {
  const State& s = r.states[n];
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    const Mat3& R = s.bodies[b].R;
    const double off = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
    const double det = R.determinant();
    if (!(off <= kRotationTolerance) || !(det > 0))
      throw InputError(cat(r.file, ": ", r.where(n), p.bodies.size() > 1 ? cat(" body ", std::to_string(b)) : std::string(),
                           ": R is not a rotation (max |R^T R - I| = ", format_number(off, 3), ", det R = ",
                           format_number(det, 6), "; at most ", format_number(kRotationTolerance, 1),
                           " and det R > 0 are accepted: rigidbench measures attitudes on SO(3))"));
  }
}

}  // namespace

RecordedTrajectory read_trajectory_csv(std::istream& in, const std::string& file, const Problem& p, std::size_t max_rows) {
  RecordedTrajectory r;
  r.file = file;
  r.csv = true;
  std::string line;
  if (!bounded_getline(in, line, std::size_t(16) << 20, file, 1))
    throw InputError(cat(file, ": empty file (expected a header line of column names)"));
  // A UTF-8 byte-order mark (spreadsheets write one) is not part of the first column's name: it
  // made the header's 't' unrecognisable ("no column 't'").
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
  std::vector<std::string> header;
  for (std::string_view f : split(line)) header.emplace_back(f);
  const auto idx = locate(header, p, file);
  Eigen::VectorXd vals(Eigen::Index(idx.size()));  // (a std::vector here trips GCC 12's -Wstringop-overflow)
  std::size_t lineno = 1;
  // A row's length is bounded (64 characters per column of the header, and 4096 more): rows are
  // counted (max_rows) and each is read into bounded memory, so no file - a single endless line
  // included - makes the reader hold more than the level's states.
  const std::size_t max_line = 64 * header.size() + 4096;
  while (bounded_getline(in, line, max_line, file, lineno + 1)) {
    ++lineno;
    if (trim(line).empty()) continue;
    if (r.t.size() == max_rows)
      throw InputError(cat(file, ": line ", std::to_string(lineno), ": more rows than the level's ", std::to_string(max_rows),
                           " states (t0 + n h, n = 0..N; `rigidbench ladder` gives N)"));
    const auto f = split(line);
    if (f.size() != header.size())
      throw InputError(cat(file, ": line ", std::to_string(lineno), " has ", std::to_string(f.size()), " fields, the header ",
                           std::to_string(header.size()), in.eof() ? " (a truncated file?)" : ""));
    for (std::size_t c = 0; c < idx.size(); ++c) {
      const std::string_view s = f[idx[c]];
      double v = 0;
      if (const std::string bad = parse_decimal(s, v); !bad.empty())
        throw InputError(cat(file, ": line ", std::to_string(lineno), ", column ", header[idx[c]], ": ", quoted(s), " ", bad));
      vals[Eigen::Index(c)] = v;
    }
    r.t.push_back(vals[0]);
    State s;
    unflatten(vals.data() + 1, p, s);
    r.states.push_back(std::move(s));
    check_rotations(r, r.states.size() - 1, p);
  }
  return r;
}

RecordedTrajectory trajectory_from_json(const nlohmann::json& j, const std::string& file, const Problem& p,
                                        std::size_t max_rows) {
  if (!j.is_object() || !j.contains("data") || !j["data"].is_object())
    throw InputError(cat(file, ": a JSON trajectory is an object with \"data\": {column: [values...]} (the `simulate` format)"));
  const auto& data = j["data"];
  std::vector<std::string> header;
  for (const auto& [k, v] : data.items()) header.push_back(k);
  const auto idx = locate(header, p, file);
  RecordedTrajectory r;
  r.file = file;
  r.csv = false;
  std::size_t n = 0;
  for (std::size_t c = 0; c < idx.size(); ++c) {
    const auto& col = data[header[idx[c]]];
    if (!col.is_array()) throw InputError(cat(file, ": data.", header[idx[c]], " is not an array of numbers"));
    if (c == 0) n = col.size();
    if (col.size() != n)
      throw InputError(cat(file, ": data.", header[idx[c]], " has ", std::to_string(col.size()), " values, data.t ",
                           std::to_string(n), " (a truncated file?)"));
  }
  if (n > max_rows)
    throw InputError(cat(file, ": ", std::to_string(n), " samples, more than the level's ", std::to_string(max_rows),
                         " states (t0 + n h, n = 0..N; `rigidbench ladder` gives N)"));
  Eigen::VectorXd vals(Eigen::Index(idx.size()));  // (a std::vector here trips GCC 12's -Wstringop-overflow)
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < idx.size(); ++c) {
      const auto& v = data[header[idx[c]]][i];
      if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw InputError(cat(file, ": sample ", std::to_string(i), ", column ", header[idx[c]], ": not a finite number",
                             v.is_null() ? " (null: NaN or infinity when written)" : ""));
      vals[Eigen::Index(c)] = v.get<double>();
    }
    r.t.push_back(vals[0]);
    State s;
    unflatten(vals.data() + 1, p, s);
    r.states.push_back(std::move(s));
    check_rotations(r, i, p);
  }
  return r;
}

namespace {

/// Replays one level's recorded trajectory through the integrator contract: the level is told by
/// the first step's h, every step advances one recorded row.
class Replay final : public AnyIntegrator {
 public:
  Replay(const SchemeInfo& info, std::shared_ptr<const std::vector<RecordedTrajectory>> levels, Ladder L)
      : info_(&info), levels_(std::move(levels)), L_(L) {}
  const SchemeInfo& info() const override { return *info_; }
  void reset(const State&, double) override {
    k_ = -1;
    n_ = 0;
  }
  StepStatus step(double t, double h) override {
    if (k_ < 0) {
      for (int k = 0; k < L_.levels; ++k)
        if (std::abs(h - L_.h(k)) <= 1e-12 * h) k_ = k;
      if (k_ < 0) return StepStatus::breakdown(cat("no recorded trajectory with h = ", message_number(h)));
    }
    const RecordedTrajectory& r = (*levels_)[std::size_t(k_)];
    if (n_ + 1 >= r.states.size()) return StepStatus::breakdown(cat(r.file, " ends at t = ", message_number(r.t.back())));
    if (std::abs(r.t[n_] - t) > 1e-9 * std::max(1.0, std::abs(t)))
      return StepStatus::breakdown(cat(r.file, ": ", r.where(n_), " is at t = ", message_number(r.t[n_]), ", not ", message_number(t)));
    ++n_;
    return StepStatus::success();
  }
  void read(State& x) const override { x = (*levels_)[std::size_t(std::max(k_, 0))].states[n_]; }
  Counters counters() const override { return {}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  const SchemeInfo* info_;
  std::shared_ptr<const std::vector<RecordedTrajectory>> levels_;
  Ladder L_;
  int k_ = -1;
  std::size_t n_ = 0;
};

}  // namespace

std::string RecordedTrajectory::where(std::size_t n) const {
  return csv ? cat("line ", std::to_string(n + 2)) : cat("sample ", std::to_string(n));
}

std::vector<std::string> trajectory_columns(const Problem& p) {
  std::vector<std::string> cols{"t"};
  const bool tr = p.translating();
  for (std::size_t b = 0; b < p.bodies.size(); ++b) {
    const std::string sfx = p.bodies.size() > 1 ? cat("_", std::to_string(b)) : std::string();
    for (int i = 1; i <= 3; ++i)
      for (int k = 1; k <= 3; ++k) cols.push_back(cat("R", std::to_string(i), std::to_string(k), sfx));
    for (int i = 1; i <= 3; ++i) cols.push_back(cat("W", std::to_string(i), sfx));
    if (tr) {
      for (int i = 1; i <= 3; ++i) cols.push_back(cat("x", std::to_string(i), sfx));
      for (int i = 1; i <= 3; ++i) cols.push_back(cat("v", std::to_string(i), sfx));
    }
  }
  return cols;
}

RecordedTrajectory read_trajectory(const std::string& file, const Problem& p, std::size_t max_rows) {
  const std::string ext = fs::path(file).extension().string();
  if (ext == ".csv") {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(cat("cannot read trajectory file '", file, "'"));
    return read_trajectory_csv(in, file, p, max_rows);
  }
  if (ext == ".json")
    return trajectory_from_json(read_json_input(file, "trajectory file", JsonLimits{kTrajectoryJsonDepth}), file, p, max_rows);
  throw InputError(cat("trajectory file '", file, "': the format is told by the extension, .csv or .json"));
}

std::vector<std::string> trajectory_files(const std::string& dir, const Ladder& L) {
  if (!fs::is_directory(dir)) throw InputError(cat("--trajectories '", dir, "' is not a folder"));
  std::vector<std::string> files(std::size_t(L.levels));
  const fs::path manifest = fs::path(dir) / "manifest.json";
  if (fs::exists(manifest)) {
    const nlohmann::json j = read_json_input(manifest.string(), "the trajectory manifest", JsonLimits{kTrajectoryJsonDepth});
    if (!j.is_object() || !j.contains("levels") || !j["levels"].is_array())
      throw InputError(cat(manifest.string(), ": expected {\"levels\": [{\"h\": <step>, \"file\": <name>}, ...]}"));
    std::size_t i = 0;
    for (const auto& e : j["levels"]) {
      const std::string at = cat(manifest.string(), ": levels[", std::to_string(i++), "]");
      if (!e.is_object() || !e.contains("h") || !e["h"].is_number() || !e.contains("file") || !e["file"].is_string())
        throw InputError(cat(at, ": expected {\"h\": <step>, \"file\": <name>}"));
      const double h = e["h"].get<double>();
      int k = -1;
      for (int q = 0; q < L.levels; ++q)
        if (std::abs(h - L.h(q)) <= 1e-9 * L.h(q)) k = q;
      if (k < 0) throw InputError(cat(at, ": h = ", message_number(h), " is not a step of the ladder (h0 = ", message_number(L.h0), " 2^-k, k = 0..",
                                      std::to_string(L.levels - 1), "; `rigidbench ladder` prints it)"));
      if (!files[std::size_t(k)].empty()) throw InputError(cat(at, ": level ", std::to_string(k), " (h = ", message_number(h), ") given twice"));
      const fs::path f = fs::path(e["file"].get<std::string>());
      files[std::size_t(k)] = (f.is_absolute() ? f : fs::path(dir) / f).string();
    }
  }
  for (int k = 0; k < L.levels; ++k) {
    std::string& f = files[std::size_t(k)];
    if (f.empty()) {
      for (const char* ext : {".csv", ".json"}) {
        const fs::path c = fs::path(dir) / cat("level", std::to_string(k), ext);
        if (!fs::exists(c)) continue;
        if (!f.empty())  // one would silently shadow the other
          throw InputError(cat("both '", f, "' and '", c.string(), "' are given for level ", std::to_string(k),
                               ": remove one (or name the one to use in manifest.json)"));
        f = c.string();
      }
    }
    if (f.empty())
      throw InputError(cat("no trajectory for level ", std::to_string(k), " (h = ", message_number(L.h(k)), ", ",
                           std::to_string(L.steps(k)), " steps) in '", dir, "': expected level", std::to_string(k),
                           ".csv or .json, or an entry in manifest.json"));
    // Every file, named by the manifest or found by its name: a FIFO would block the read forever and
    // a link to /dev/zero would read until memory runs out.
    std::error_code ec;
    if (!fs::is_regular_file(f, ec)) throw InputError(cat("trajectory file '", f, "' is not a regular file"));
  }
  return files;
}

nlohmann::ordered_json ladder_description(const Problem& p, const Ladder& L, int order) {
  using oj = nlohmann::ordered_json;
  oj j;
  j["problem"] = p.name;
  j["family"] = p.family->equations();
  j["bodies"] = p.bodies.size();
  j["translating"] = p.translating();
  j["torque_free"] = p.torque_free();
  j["order"] = order;
  j["t0"] = L.t0;
  j["t_end"] = L.t_end();
  j["output_grid"] = "every step: t_n = t0 + n h_k, n = 0..steps_k, one row each (the first row is the initial state)";
  j["columns"] = trajectory_columns(p);
  j["formats"] = "CSV (a header line of column names, then one row per state) or JSON ({\"data\": {column: [values]}}), "
                 "as `rigidbench simulate` writes them; extra columns are ignored";
  oj levels = oj::array();
  for (int k = 0; k < L.levels; ++k)
    levels.push_back({{"level", k}, {"h", L.h(k)}, {"steps", L.steps(k)}, {"file", cat("level", std::to_string(k), ".csv")}});
  j["levels"] = levels;
  oj init = oj::array();
  for (std::size_t b = 0; b < p.bodies.size(); ++b) {
    const BodyState& s = p.initial.bodies[b];
    const auto rows = [](const Mat3& M) {
      return oj::array({{M(0, 0), M(0, 1), M(0, 2)}, {M(1, 0), M(1, 1), M(1, 2)}, {M(2, 0), M(2, 1), M(2, 2)}});
    };
    oj e{{"inertia", rows(p.bodies[b].inertia)}, {"mass", p.bodies[b].mass}, {"R", rows(s.R)}, {"W", {s.W[0], s.W[1], s.W[2]}}};
    if (p.translating()) {
      e["x"] = {s.x[0], s.x[1], s.x[2]};
      e["v"] = {s.v[0], s.v[1], s.v[2]};
    }
    init.push_back(e);
  }
  j["initial"] = init;
  j["problem_file"] = problem_to_json(p);
  return j;
}

SuiteResult score_trajectories(const ScoreRequest& req) {
  const Problem& p = req.problem;
  SchemeDeclaration d = req.scheme;
  d.families = {std::string(p.family->equations())};
  if (d.source.empty()) d.source = cat("trajectories scored from files (", req.trajectories, ")");
  if (d.representation.empty()) d.representation = "unknown (an outside program's trajectories)";
  check_claims_apply(d.claims, p, d.name);
  const SchemeInfo& info = declare_scheme(std::move(d));
  const Ladder L = make_ladder(p, info.order, req.ladder);
  const auto files = trajectory_files(req.trajectories, L);

  auto levels = std::make_shared<std::vector<RecordedTrajectory>>();
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < L.levels; ++k) {
    const std::size_t need = std::size_t(L.steps(k)) + 1;
    RecordedTrajectory r = read_trajectory(files[std::size_t(k)], p, need);
    // Reading and checking a level of millions of rows takes seconds: once the reading has taken
    // more than one, a line per level read (the levels' runs then report like verify's).
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (req.progress && t > 1)
      std::fprintf(stderr, "score: level %d of %d read (%zu rows of %s) after %.0f s\n", k + 1, L.levels, r.t.size(),
                   r.file.c_str(), t);
    if (r.t.size() < need)
      throw InputError(cat(r.file, ": ", std::to_string(r.t.size()), " states, but level ", std::to_string(k), " (h = ",
                           message_number(L.h(k)), ") needs ", std::to_string(need), " (t = t0 + n h, n = 0..",
                           std::to_string(L.steps(k)), ", every step): a truncated file or a missing row?"));
    for (std::size_t n = 0; n < need; ++n) {
      const double expect = L.t0 + double(n) * L.h(k);
      if (std::abs(r.t[n] - expect) > 1e-9 * std::max(1.0, std::abs(expect)))
        throw InputError(cat(r.file, ": ", r.where(n), ": t = ", message_number(r.t[n]), ", but level ", std::to_string(k),
                             "'s grid has t0 + ", std::to_string(n), " h = ", message_number(expect), " (h = ", message_number(L.h(k)),
                             "; the grid does not match the ladder)"));
    }
    for (std::size_t b = 0; b < p.bodies.size(); ++b) {
      const BodyState &a = r.states[0].bodies[b], &e = p.initial.bodies[b];
      const double dev = std::max({so3::angle_between(a.R, e.R), (a.W - e.W).norm() / std::max(1.0, e.W.norm()),
                                   (a.x - e.x).norm() / std::max(1.0, e.x.norm()),
                                   p.translating() ? (a.v - e.v).norm() / std::max(1.0, e.v.norm()) : 0.0});
      if (!(dev <= 1e-9))
        throw InputError(cat(r.file, ": ", r.where(0), " (t = t0) is not the problem's initial state (deviation ",
                             format_number(dev, 3), "; `rigidbench ladder` prints it)"));
    }
    levels->push_back(std::move(r));
  }

  SchemeEntry e{&info,
                [&info, levels, L](const Problem&, const SchemeSettings&) -> std::unique_ptr<AnyIntegrator> {
                  return std::make_unique<Replay>(info, levels, L);
                },
                {},
                false,
                SchemeOrigin::trajectories};
  SuiteRequest sr;
  sr.problem_models = {p};
  sr.schemes = {e};
  sr.ladder = req.ladder;
  sr.reference = req.reference;
  sr.progress = req.progress;
  sr.measure_cost = false;
  sr.no_cost_reason = "not measured: trajectories scored from files (the program that wrote them was not timed)";
  SuiteResult out = run_suite(sr);
  out.suite = "score";
  return out;
}

}  // namespace rigidbench
