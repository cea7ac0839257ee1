#include "scoring.hpp"

#include <charconv>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../core/atomic_file.hpp"
#include "../core/json_input.hpp"
#include "../core/quaternion.hpp"
#include "../core/so3.hpp"
#include "../problems/problem_file.hpp"

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
std::vector<std::size_t> locate(const std::vector<std::string>& header, const Problem& p, const FileConventions& conv,
                                const std::string& file) {
  const auto want = trajectory_columns(p, conv);
  std::vector<std::size_t> idx;
  for (const std::string& c : want) {
    const auto it = std::find(header.begin(), header.end(), c);
    if (it == header.end())
      throw InputError(cat(file, ": no column '", c, "' (a trajectory of '", p.name, "' has the columns ",
                           want.front(), ", ", want[1], " ... ", want.back(), " with attitude ", to_string(conv.attitude), " and ",
                           to_string(conv.omega), " angular velocity; `rigidbench ladder` lists them)"));
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

bool quaternion(const FileConventions& c) {
  return c.attitude == AttitudeForm::quaternion_wxyz || c.attitude == AttitudeForm::quaternion_xyzw;
}

/// Fills one state from the row values in trajectory_columns order (after t), converting the file's
/// conventions to the canonical R and body W (docs/trajectory-files.md, "Conventions"). The attitude
/// is checked in the form the file declares; n is the row's index, for messages.
void unflatten(const double* v, const Problem& p, const FileConventions& c, const RecordedTrajectory& r, std::size_t n,
               State& s) {
  const bool tr = p.translating();
  s.bodies.resize(p.bodies.size());
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    BodyState& x = s.bodies[b];
    const auto refuse = [&](const std::string& what) {
      throw InputError(cat(r.file, ": ", r.where(n), p.bodies.size() > 1 ? cat(" body ", std::to_string(b)) : std::string(), ": ",
                           what, "; rigidbench measures attitudes on SO(3))"));
    };
    if (quaternion(c)) {
      // q and -q are the same rotation, and R(q) is computed from q/|q| as the built-in quaternion
      // schemes read theirs (problems/formulations/rigid_body_t.hpp): the tolerance applies to |q|.
      const Vec4 q = c.attitude == AttitudeForm::quaternion_wxyz ? Vec4(v[0], v[1], v[2], v[3]) : Vec4(v[3], v[0], v[1], v[2]);
      v += 4;
      const double dev = std::abs(q.norm() - 1);
      if (!(dev <= kRotationTolerance))
        refuse(cat("q is not a unit quaternion (| |q| - 1 | = ", format_number(dev, 3), "; at most ",
                   format_number(kRotationTolerance, 1), " is accepted"));
      x.R = quat::to_matrix(q);
    } else {
      // Column-major: the column named Rij holds R_ji (R^T row-major, a column-major array in order).
      const bool rows = c.attitude == AttitudeForm::matrix_row_major;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) (rows ? x.R(i, j) : x.R(j, i)) = *v++;
      if (const std::string why = rotation_problem(x.R); !why.empty()) refuse(why);
    }
    const Vec3 w(v[0], v[1], v[2]);
    v += 3;
    // w = R W: the inverse of a rotation is its transpose (a matrix within the tolerance of SO(3)
    // carries its defect into W, as it carries it into every director).
    x.W = c.omega == OmegaFrame::world ? Vec3(x.R.transpose() * w) : w;
    if (tr) {
      for (int i = 0; i < 3; ++i) x.x[i] = *v++;
      for (int i = 0; i < 3; ++i) x.v[i] = *v++;
    }
  }
}

/// nan, inf, infinity (any case, signed; nan(...)): a value the program computed and could not
/// represent - a breakdown, not a malformed file.
bool non_finite_text(std::string_view s) {
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  std::string l(s.substr(0, 16));
  for (char& ch : l) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return l == "nan" || l == "inf" || l == "infinity" || (l.rfind("nan(", 0) == 0 && s.size() < 64 && s.back() == ')');
}

std::string breakdown_reason(const RecordedTrajectory& r, std::size_t n, std::string_view column, std::string_view value,
                             double t) {
  return cat("the program's state is not finite at t = ", message_number(t), " (", r.file, " ", r.where(n), ", column ",
             std::string(column), ": ", std::string(value), ")");
}

}  // namespace

RecordedTrajectory read_trajectory_csv(std::istream& in, const std::string& file, const Problem& p, std::size_t max_rows,
                                       const FileConventions& conv) {
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
  const auto idx = locate(header, p, conv, file);
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
                           " states (`rigidbench ladder` gives the grids)"));
    const auto f = split(line);
    if (f.size() != header.size())
      throw InputError(cat(file, ": line ", std::to_string(lineno), " has ", std::to_string(f.size()), " fields, the header ",
                           std::to_string(header.size()), in.eof() ? " (a truncated file?)" : ""));
    // Every field is a number; the first non-finite one (nan, inf) makes the row the level's
    // breakdown once the whole row is known to be numbers and its time finite.
    std::size_t non_finite = idx.size();
    for (std::size_t c = 0; c < idx.size(); ++c) {
      const std::string_view s = f[idx[c]];
      double v = 0;
      if (c > 0 && non_finite_text(s)) {
        non_finite = std::min(non_finite, c);
        vals[Eigen::Index(c)] = kNaN;
        continue;
      }
      if (const std::string bad = parse_decimal(s, v); !bad.empty())
        throw InputError(cat(file, ": line ", std::to_string(lineno), ", column ", header[idx[c]], ": ", quoted(s), " ", bad));
      vals[Eigen::Index(c)] = v;
    }
    if (non_finite < idx.size()) {
      r.breakdown = LevelBreakdown{vals[0], breakdown_reason(r, r.t.size(), header[idx[non_finite]], quoted(f[idx[non_finite]]), vals[0])};
      break;
    }
    State s;
    unflatten(vals.data() + 1, p, conv, r, r.t.size(), s);
    r.t.push_back(vals[0]);
    r.states.push_back(std::move(s));
  }
  return r;
}

RecordedTrajectory trajectory_from_json(const nlohmann::json& j, const std::string& file, const Problem& p,
                                        std::size_t max_rows, const FileConventions& conv) {
  if (!j.is_object() || !j.contains("data") || !j["data"].is_object())
    throw InputError(cat(file, ": a JSON trajectory is an object with \"data\": {column: [values...]} (the `simulate` format)"));
  const auto& data = j["data"];
  std::vector<std::string> header;
  for (const auto& [k, v] : data.items()) header.push_back(k);
  const auto idx = locate(header, p, conv, file);
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
                         " states (`rigidbench ladder` gives the grids)"));
  Eigen::VectorXd vals(Eigen::Index(idx.size()));  // (a std::vector here trips GCC 12's -Wstringop-overflow)
  for (std::size_t i = 0; i < n; ++i) {
    // A null (how a NaN or an infinity is written to JSON) ends the trajectory as a breakdown, as a
    // nan in CSV does; anything else that is not a number is a malformed file.
    std::size_t non_finite = idx.size();
    for (std::size_t c = 0; c < idx.size(); ++c) {
      const auto& v = data[header[idx[c]]][i];
      if (c > 0 && (v.is_null() || (v.is_number() && !std::isfinite(v.get<double>())))) {
        non_finite = std::min(non_finite, c);
        vals[Eigen::Index(c)] = kNaN;
        continue;
      }
      if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw InputError(cat(file, ": sample ", std::to_string(i), ", column ", header[idx[c]], ": not a finite number",
                             v.is_null() ? " (null: NaN or infinity when written)" : ""));
      vals[Eigen::Index(c)] = v.get<double>();
    }
    if (non_finite < idx.size()) {
      r.breakdown = LevelBreakdown{vals[0], breakdown_reason(r, i, header[idx[non_finite]], "null", vals[0])};
      break;
    }
    State s;
    unflatten(vals.data() + 1, p, conv, r, i, s);
    r.t.push_back(vals[0]);
    r.states.push_back(std::move(s));
  }
  return r;
}

namespace {

/// One level as the replay sees it: the rows read, which grid they are on, and where the level ends
/// early (a non-finite row or a declared breakdown).
struct ReplayLevel {
  RecordedTrajectory rows;
  std::int64_t row_steps = 1;            // steps of h between rows: 1, or the observation stride
  std::int64_t fail_step = -1;           // the step that cannot be taken (it would end at the breakdown), or -1
  std::string fail_reason;
};

/// Replays one level's recorded trajectory through the integrator contract: the level is told by
/// the first step's h, every step advances one step of the level's grid. The runner reads the state
/// at every row a file holds (read_every): every step, or the observation grid alone.
class Replay final : public AnyIntegrator {
 public:
  Replay(const SchemeInfo& info, std::shared_ptr<const std::vector<ReplayLevel>> levels, Ladder L)
      : info_(&info), levels_(std::move(levels)), L_(L) {}
  const SchemeInfo& info() const override { return *info_; }
  void reset(const State&, double) override {
    k_ = -1;
    n_ = 0;
  }
  StepStatus step(double, double h) override {
    if (k_ < 0) {
      k_ = level_of(h);
      if (k_ < 0) return StepStatus::breakdown(cat("no recorded trajectory with h = ", message_number(h)));
    }
    const ReplayLevel& lv = (*levels_)[std::size_t(k_)];
    if (n_ == lv.fail_step) return StepStatus::breakdown(lv.fail_reason);
    // The times of every row were checked against the grid when the files were read.
    ++n_;
    return StepStatus::success();
  }
  void read(State& x) const override {
    const ReplayLevel& lv = (*levels_)[std::size_t(std::max(k_, 0))];
    x = lv.rows.states[std::min(std::size_t(n_ / lv.row_steps), lv.rows.states.size() - 1)];
  }
  std::int64_t read_every(double h, std::int64_t stride) const override {
    const int k = level_of(h);
    return k < 0 ? stride : (*levels_)[std::size_t(k)].row_steps;
  }
  Counters counters() const override { return {}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  int level_of(double h) const { return L_.level_of(h, 1e-12); }
  const SchemeInfo* info_;
  std::shared_ptr<const std::vector<ReplayLevel>> levels_;
  Ladder L_;
  int k_ = -1;
  std::int64_t n_ = 0;
};

template <class E>
E from_names(std::string_view s, std::initializer_list<std::pair<std::string_view, E>> names, std::string_view what) {
  std::string known;
  for (const auto& [n, e] : names) {
    if (s == n) return e;
    known += cat(known.empty() ? "" : ", ", std::string(n));
  }
  throw InputError(cat("unknown ", std::string(what), " '", std::string(s.substr(0, 40)), "' (known: ", known, ")"));
}

}  // namespace

std::string_view to_string(AttitudeForm a) {
  switch (a) {
    case AttitudeForm::matrix_row_major: return "R";
    case AttitudeForm::matrix_column_major: return "R_column_major";
    case AttitudeForm::quaternion_wxyz: return "quaternion_wxyz";
    case AttitudeForm::quaternion_xyzw: return "quaternion_xyzw";
  }
  return "?";
}
std::string_view to_string(OmegaFrame f) { return f == OmegaFrame::body ? "body" : "world"; }
std::string_view to_string(RowGrid g) { return g == RowGrid::every_step ? "every_step" : "observation"; }

AttitudeForm attitude_form_from_string(std::string_view s) {
  return from_names<AttitudeForm>(s,
                                  {{"R", AttitudeForm::matrix_row_major},
                                   {"R_row_major", AttitudeForm::matrix_row_major},
                                   {"R_column_major", AttitudeForm::matrix_column_major},
                                   {"quaternion_wxyz", AttitudeForm::quaternion_wxyz},
                                   {"quaternion_xyzw", AttitudeForm::quaternion_xyzw}},
                                  "attitude form");
}
OmegaFrame omega_frame_from_string(std::string_view s) {
  return from_names<OmegaFrame>(s, {{"body", OmegaFrame::body}, {"world", OmegaFrame::world}}, "angular-velocity frame");
}
RowGrid row_grid_from_string(std::string_view s) {
  return from_names<RowGrid>(s, {{"every_step", RowGrid::every_step}, {"observation", RowGrid::observation}}, "grid");
}

std::string RecordedTrajectory::where(std::size_t n) const {
  return csv ? cat("line ", std::to_string(n + 2)) : cat("sample ", std::to_string(n));
}

std::vector<std::string> trajectory_columns(const Problem& p, const FileConventions& c) {
  std::vector<std::string> cols{"t"};
  const bool tr = p.translating();
  for (std::size_t b = 0; b < p.bodies.size(); ++b) {
    const std::string sfx = p.bodies.size() > 1 ? cat("_", std::to_string(b)) : std::string();
    if (quaternion(c))
      for (int i = 1; i <= 4; ++i) cols.push_back(cat("q", std::to_string(i), sfx));
    else
      for (int i = 1; i <= 3; ++i)
        for (int k = 1; k <= 3; ++k) cols.push_back(cat("R", std::to_string(i), std::to_string(k), sfx));
    const char* w = c.omega == OmegaFrame::body ? "W" : "w";
    for (int i = 1; i <= 3; ++i) cols.push_back(cat(w, std::to_string(i), sfx));
    if (tr) {
      for (int i = 1; i <= 3; ++i) cols.push_back(cat("x", std::to_string(i), sfx));
      for (int i = 1; i <= 3; ++i) cols.push_back(cat("v", std::to_string(i), sfx));
    }
  }
  return cols;
}

std::string rotation_problem(const Mat3& R) {
  const double off = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
  const double det = R.determinant();
  if (off <= kRotationTolerance && det > 0) return {};
  return cat("R is not a rotation (max |R^T R - I| = ", format_number(off, 3), ", det R = ", format_number(det, 6),
             "; at most ", format_number(kRotationTolerance, 1), " and det R > 0 are accepted");
}

RecordedTrajectory read_trajectory(const std::string& file, const Problem& p, std::size_t max_rows, const FileConventions& c) {
  const std::string ext = fs::path(file).extension().string();
  if (ext == ".csv") {
    // stat before open: opening a FIFO for reading blocks until a writer comes.
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) throw InputError(cat("trajectory file '", file, "' is not a regular file"));
    note_input(file, cat("the trajectory file '", file, "'"));
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(cat("cannot read trajectory file '", file, "'"));
    return read_trajectory_csv(in, file, p, max_rows, c);
  }
  if (ext == ".json")
    return trajectory_from_json(read_json_input(file, "trajectory file", JsonLimits{kTrajectoryJsonDepth}), file, p, max_rows, c);
  throw InputError(cat("trajectory file '", file, "': the format is told by the extension, .csv or .json"));
}

namespace {

/// A positive finite number at j[key] (InputError naming `at` otherwise).
double positive(const nlohmann::json& v, const std::string& at) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0))
    throw InputError(cat(at, ": expected a positive number"));
  return v.get<double>();
}

std::string text(const nlohmann::json& v, const std::string& at) {
  if (!v.is_string() || v.get<std::string>().empty()) throw InputError(cat(at, ": expected a non-empty string"));
  return v.get<std::string>().substr(0, 200);
}

void only_keys(const nlohmann::json& j, std::initializer_list<std::string_view> keys, const std::string& at) {
  for (const auto& [k, v] : j.items()) {
    bool known = false;
    std::string list;
    for (std::string_view x : keys) known |= k == x, list += cat(list.empty() ? "" : ", ", std::string(x));
    if (!known)
      throw InputError(cat(at, ": unknown key '", k.substr(0, 40), "' (known: ", list,
                           "; anything else goes under \"meta\")"));
  }
}

/// The manifest's "cost": ns per step (one number, or one per level, null where not measured) or
/// steps per second, with the machine and the method (docs/trajectory-files.md, "Declared cost").
DeclaredCost read_cost(const nlohmann::json& c, const Ladder& L, const std::string& at) {
  if (!c.is_object())
    throw InputError(cat(at, ": expected {\"ns_per_step\": ... or \"steps_per_second\": ..., \"machine\": ..., \"method\": ...}"));
  only_keys(c, {"ns_per_step", "steps_per_second", "machine", "method"}, at);
  const bool ns = c.contains("ns_per_step"), sps = c.contains("steps_per_second");
  if (ns == sps) throw InputError(cat(at, ": give either ns_per_step or steps_per_second"));
  if (!c.contains("machine") || !c.contains("method"))
    throw InputError(cat(at, ": a declared cost says on which machine (\"machine\") and how it was measured (\"method\")"));
  DeclaredCost d;
  d.machine = text(c["machine"], at + ".machine");
  d.method = text(c["method"], at + ".method");
  const std::string key = ns ? "ns_per_step" : "steps_per_second";
  const auto& v = c[key];
  const auto as_ns = [&](const nlohmann::json& x, const std::string& where) {
    const double y = positive(x, where);
    return ns ? y : 1e9 / y;
  };
  if (v.is_array()) {
    if (v.size() != std::size_t(L.levels))
      throw InputError(cat(at, ".", key, ": ", std::to_string(v.size()), " values, the ladder has ", std::to_string(L.levels),
                           " levels (null for a level not measured)"));
    for (std::size_t k = 0; k < v.size(); ++k)
      d.ns_per_step.push_back(v[k].is_null() ? kNaN : as_ns(v[k], cat(at, ".", key, "[", std::to_string(k), "]")));
  } else {
    d.ns_per_step.assign(std::size_t(L.levels), as_ns(v, cat(at, ".", key)));
  }
  return d;
}

}  // namespace

namespace {

/// A named value of the manifest (an attitude form, a frame, a grid), parsed by `parse`; InputError
/// prefixed with where it is.
template <class E>
E named(const nlohmann::json& v, const std::string& at, E (*parse)(std::string_view)) {
  if (!v.is_string()) throw InputError(cat(at, ": expected a string"));
  try {
    return parse(v.get<std::string>());
  } catch (const InputError& e) {
    throw InputError(cat(at, ": ", e.what()));
  }
}

/// A level's "breakdown": {"t": the first state not produced, in (t0, t_end], "reason": why}.
LevelBreakdown read_breakdown(const nlohmann::json& b, const std::string& at, const Ladder& L) {
  if (!b.is_object() || !b.contains("t") || !b.contains("reason"))
    throw InputError(cat(at, ": expected {\"t\": <time of the first state not produced>, \"reason\": <why>}"));
  only_keys(b, {"t", "reason"}, at);
  if (!b["t"].is_number() || !std::isfinite(b["t"].get<double>())) throw InputError(cat(at, ".t: expected a finite time"));
  const double t = b["t"].get<double>();
  if (!(t > L.t0 && t <= L.t_end() * (1 + 1e-12)))
    throw InputError(cat(at, ".t = ", message_number(t), " is not in (t0, t_end] = (", message_number(L.t0), ", ",
                         message_number(L.t_end()), "]"));
  return {t, cat("the program reports a breakdown at t = ", message_number(t), ": ", text(b["reason"], at + ".reason"))};
}

/// One entry of the manifest's "levels": its h names the ladder level it fills.
void read_level_entry(const nlohmann::json& e, const std::string& at, const Ladder& L, const std::string& dir, TrajectorySet& set) {
  if (!e.is_object() || !e.contains("h") || !e["h"].is_number() || !e.contains("file") || !e["file"].is_string())
    throw InputError(cat(at, ": expected {\"h\": <step>, \"file\": <name>}"));
  only_keys(e, {"h", "file", "grid", "breakdown"}, at);
  const double h = e["h"].get<double>();
  const int k = L.level_of(h, 1e-9);
  if (k < 0)
    throw InputError(cat(at, ": h = ", message_number(h), " is not a step of the ladder (h0 = ", message_number(L.h0), " 2^-k, k = 0..",
                         std::to_string(L.levels - 1), "; `rigidbench ladder` prints it)"));
  TrajectorySet::Level& lv = set.levels[std::size_t(k)];
  if (!lv.file.empty()) throw InputError(cat(at, ": level ", std::to_string(k), " (h = ", message_number(h), ") given twice"));
  const fs::path f = fs::path(e["file"].get<std::string>());
  lv.file = (f.is_absolute() ? f : fs::path(dir) / f).string();
  if (e.contains("grid")) lv.grid = named(e["grid"], at + ".grid", &row_grid_from_string);
  if (e.contains("breakdown")) lv.breakdown = read_breakdown(e["breakdown"], at + ".breakdown", L);
}

/// manifest.json: every key optional, unknown keys refused (docs/trajectory-files.md, "The manifest").
void read_manifest(const std::string& m, const Ladder& L, const std::string& dir, TrajectorySet& set) {
  const nlohmann::json j = read_json_input(m, "the trajectory manifest", JsonLimits{kTrajectoryJsonDepth});
  if (!j.is_object()) throw InputError(cat(m, ": expected an object ({\"levels\": [{\"h\": <step>, \"file\": <name>}, ...]})"));
  only_keys(j, {"levels", "attitude", "angular_velocity", "grid", "cost", "meta"}, m);
  if (j.contains("attitude")) set.attitude = named(j["attitude"], m + ": attitude", &attitude_form_from_string);
  if (j.contains("angular_velocity")) set.omega = named(j["angular_velocity"], m + ": angular_velocity", &omega_frame_from_string);
  if (j.contains("grid"))
    for (auto& lv : set.levels) lv.grid = named(j["grid"], m + ": grid", &row_grid_from_string);
  if (j.contains("cost")) set.cost = read_cost(j["cost"], L, m + ": cost");
  if (!j.contains("levels")) return;
  if (!j["levels"].is_array()) throw InputError(cat(m, ": levels: expected [{\"h\": <step>, \"file\": <name>}, ...]"));
  std::size_t i = 0;
  for (const auto& e : j["levels"]) read_level_entry(e, cat(m, ": levels[", std::to_string(i++), "]"), L, dir, set);
}

}  // namespace

TrajectorySet trajectory_set(const std::string& dir, const Ladder& L) {
  if (!fs::is_directory(dir)) throw InputError(cat("--trajectories '", dir, "' is not a folder"));
  TrajectorySet set;
  set.levels.resize(std::size_t(L.levels));
  const fs::path manifest = fs::path(dir) / "manifest.json";
  if (fs::exists(manifest)) read_manifest(manifest.string(), L, dir, set);
  for (int k = 0; k < L.levels; ++k) {
    std::string& f = set.levels[std::size_t(k)].file;
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
  return set;
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
  j["output_grid"] = "every step (t_n = t0 + n h_k, n = 0..steps_k) or the observation grid alone (t_j = t0 + j dt, "
                     "j = 0..observations, the same at every level); one row each, the first the initial state";
  j["observation_dt"] = L.obs_dt();
  j["observations"] = L.m;
  j["columns"] = trajectory_columns(p);
  j["formats"] = "CSV (a header line of column names, then one row per state) or JSON ({\"data\": {column: [values]}}), "
                 "as `rigidbench simulate` writes them; extra columns are ignored";
  // The conventions a file set may declare (manifest.json or `score` options) and the columns of each.
  oj forms = oj::object();
  for (AttitudeForm a : {AttitudeForm::matrix_row_major, AttitudeForm::matrix_column_major, AttitudeForm::quaternion_wxyz,
                         AttitudeForm::quaternion_xyzw}) {
    const auto cols = trajectory_columns(p, {a, OmegaFrame::body});
    forms[std::string(to_string(a))] = oj::array();
    for (const auto& c : cols)
      if (c[0] == 'R' || c[0] == 'q') forms[std::string(to_string(a))].push_back(c);
  }
  j["attitude_forms"] = forms;
  j["angular_velocity_frames"] = {{"body", {"W1", "W2", "W3"}}, {"world", {"w1", "w2", "w3"}}};
  j["grids"] = {"every_step", "observation"};
  oj levels = oj::array();
  for (int k = 0; k < L.levels; ++k)
    levels.push_back({{"level", k},
                      {"h", L.h(k)},
                      {"steps", L.steps(k)},
                      {"file", cat("level", std::to_string(k), ".csv")},
                      {"rows_every_step", L.steps(k) + 1},
                      {"rows_observation", L.m + 1}});
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

namespace {

/// The option and the manifest agree, or only one is given; else InputError naming both.
template <class E>
std::optional<E> agreed(std::optional<E> option, std::optional<E> manifest, const char* what, const std::string& dir) {
  if (option && manifest && *option != *manifest)
    throw InputError(cat("--", what, " ", std::string(to_string(*option)), " but ", dir, "/manifest.json declares ",
                         std::string(to_string(*manifest)), ": give one"));
  return option ? option : manifest;
}

/// Level k's grid that a file is on: its rows every row_steps steps of h.
struct LevelGrid {
  const Ladder& L;
  int k = 0;
  RowGrid grid = RowGrid::every_step;
  std::int64_t row_steps() const { return grid == RowGrid::every_step ? 1 : L.stride(k); }
  std::size_t rows() const { return grid == RowGrid::every_step ? std::size_t(L.steps(k)) + 1 : std::size_t(L.m) + 1; }
  const char* name() const { return grid == RowGrid::every_step ? "every step" : "the observation grid"; }
  double time_of(std::size_t n) const { return L.t0 + double(std::int64_t(n) * row_steps()) * L.h(k); }
  bool on_grid(double t, std::size_t n) const {
    const double e = time_of(n);
    return std::abs(t - e) <= 1e-9 * std::max(1.0, std::abs(e));
  }
};

/// The grid a file is on: declared; else told by the number of rows (a complete level) or by the
/// spacing of the first two (a level that ends early). With stride 1 (the coarsest level, usually)
/// both are the same. InputError naming both row counts when neither fits.
LevelGrid grid_of(const RecordedTrajectory& r, bool early, std::optional<RowGrid> declared, const Ladder& L, int k) {
  const LevelGrid every{L, k, RowGrid::every_step}, obs{L, k, RowGrid::observation};
  if (declared) return {L, k, *declared};
  if (!early && r.t.size() == every.rows()) return every;
  if (!early && r.t.size() == obs.rows()) return obs;
  if (early && r.t.size() == 1) return every;  // one row: either grid
  if (early && r.t.size() >= 2) {
    if (every.on_grid(r.t[1], 1)) return every;
    if (obs.on_grid(r.t[1], 1)) return obs;
  }
  throw InputError(cat(r.file, ": ", std::to_string(r.t.size()), " rows, but level ", std::to_string(k), " (h = ", message_number(L.h(k)),
                       ") holds either every step (", std::to_string(every.rows()), " rows, t0 + n h) or the observation grid (",
                       std::to_string(obs.rows()), " rows, t0 + j ", message_number(L.obs_dt()),
                       "): a truncated file or a missing row? (declare \"grid\" in manifest.json to be told which rows are missing)"));
}

/// Where the level ends early: the first row that is not finite, or the declared breakdown, whichever
/// comes first; the rows before it must be every row of the grid before its time. None for a level
/// that runs to its end (then every row must be there).
std::optional<LevelBreakdown> level_end(const RecordedTrajectory& r, const TrajectorySet::Level& lv, const LevelGrid& g) {
  const std::size_t need = g.rows(), n = r.t.size();
  std::optional<LevelBreakdown> end;
  if (r.breakdown) {
    if (n >= need)  // a non-finite row after the last state of the span
      throw InputError(cat(r.file, ": ", r.where(n), ": more rows than the level's ", std::to_string(need), " states on ", g.name()));
    if (!g.on_grid(r.breakdown->t, n))
      throw InputError(cat(r.file, ": ", r.where(n), ": t = ", message_number(r.breakdown->t), ", but row ", std::to_string(n),
                           " is at ", message_number(g.time_of(n)), " (the grid does not match the ladder)"));
    end = r.breakdown;
  }
  if (lv.breakdown && (!end || lv.breakdown->t < end->t)) {
    // The program produced every state before t, and not the one at t (on the step grid).
    const double t = lv.breakdown->t, n_end = (t - g.L.t0) / g.L.h(g.k);
    if (std::abs(n_end - std::round(n_end)) > 1e-6)
      throw InputError(cat(r.file, ": the declared breakdown at t = ", message_number(t), " is not a step time t0 + n h (h = ",
                           message_number(g.L.h(g.k)), ")"));
    std::size_t before = 0;  // rows of the grid strictly before t
    while (before < need && g.time_of(before) < t - 1e-9 * std::max(1.0, std::abs(t))) ++before;
    if (n != before)
      throw InputError(cat(r.file, ": ", std::to_string(n), " rows, but with the breakdown declared at t = ", message_number(t),
                           " level ", std::to_string(g.k), " holds the ", std::to_string(before), " rows of ", g.name(), " before it"));
    end = lv.breakdown;
  }
  if (!end && n < need)
    throw InputError(cat(r.file, ": ", std::to_string(n), " states, but level ", std::to_string(g.k), " (h = ",
                         message_number(g.L.h(g.k)), ") on ", g.name(), " needs ", std::to_string(need),
                         ": a truncated file or a missing row?"));
  return end;
}

void check_initial_state(const RecordedTrajectory& r, const Problem& p, const FileConventions& conv) {
  for (std::size_t b = 0; b < p.bodies.size(); ++b) {
    const BodyState &a = r.states[0].bodies[b], &e = p.initial.bodies[b];
    const double dev = std::max({so3::angle_between(a.R, e.R), (a.W - e.W).norm() / std::max(1.0, e.W.norm()),
                                 (a.x - e.x).norm() / std::max(1.0, e.x.norm()),
                                 p.translating() ? (a.v - e.v).norm() / std::max(1.0, e.v.norm()) : 0.0});
    if (!(dev <= 1e-9))
      throw InputError(cat(r.file, ": ", r.where(0), " (t = t0) is not the problem's initial state (deviation ", format_number(dev, 3),
                           "; `rigidbench ladder` prints it", conv.attitude != AttitudeForm::matrix_row_major || conv.omega != OmegaFrame::body
                               ? "; are the attitude form and the angular-velocity frame the ones declared?" : "", ")"));
  }
}

/// Reads and checks level k's file: its grid, the time of every row, where it ends early, the
/// initial state.
ReplayLevel read_level(const TrajectorySet::Level& lv, const FileConventions& conv, std::optional<RowGrid> grid,
                       const Problem& p, const Ladder& L, int k) {
  ReplayLevel out;
  out.rows = read_trajectory(lv.file, p, LevelGrid{L, k, grid.value_or(RowGrid::every_step)}.rows(), conv);
  const RecordedTrajectory& r = out.rows;
  if (r.t.empty())
    throw InputError(cat(r.file, ": no finite row: the first row is the initial state (t = t0)",
                         r.breakdown ? cat("; ", r.breakdown->reason) : std::string()));
  const LevelGrid g = grid_of(r, r.breakdown || lv.breakdown, grid, L, k);
  out.row_steps = g.row_steps();
  for (std::size_t n = 0; n < r.t.size(); ++n)
    if (!g.on_grid(r.t[n], n))
      throw InputError(cat(r.file, ": ", r.where(n), ": t = ", message_number(r.t[n]), ", but row ", std::to_string(n), " of level ",
                           std::to_string(k), " on ", g.name(), " is at t0 + ", std::to_string(std::int64_t(n) * out.row_steps),
                           " h = ", message_number(g.time_of(n)), " (h = ", message_number(L.h(k)), "; the grid does not match the ladder)"));
  if (const auto end = level_end(r, lv, g)) {
    // The step that would produce the state at the breakdown's time fails, so a report says the run
    // broke down there (IntegrationOutcome::failed_at), as a compiled scheme's would.
    out.fail_step = std::int64_t(std::llround((end->t - L.t0) / L.h(k))) - 1;
    out.fail_reason = end->reason;
  }
  check_initial_state(r, p, conv);
  return out;
}

}  // namespace

namespace {

/// A row's time on the output grid, to 1e-9 relative.
bool on_output_grid(const OutputGrid& g, double t, std::size_t j) {
  return std::abs(t - g.time_of(j)) <= 1e-9 * std::max(1.0, std::abs(g.time_of(j)));
}

/// One tolerance's run as the program declared and wrote it.
struct AdaptiveLevel {
  double tol = 0;
  std::string file;
  Counters counters;
  RecordedTrajectory rows;
  std::int64_t fail_index = -1;  // the output interval whose end the program did not produce
  std::string fail_reason;
};

}  // namespace

namespace {
/// A non-negative integer count of the manifest (InputError naming where otherwise).
std::uint64_t count(const nlohmann::json& v, const std::string& at) {
  if (!v.is_number_integer() || v.get<std::int64_t>() < 0) throw InputError(cat(at, ": expected a non-negative integer"));
  return std::uint64_t(v.get<std::int64_t>());
}
}  // namespace

/// manifest.json of an adaptive file set: {"levels": [{"tol", "file", "accepted_steps",
/// "rejected_steps", "rhs_evaluations", "load_evaluations"?, "shortened_steps"?}, ...], "attitude"?,
/// "angular_velocity"?, "meta"?}; every tolerance of the ladder once.
AdaptiveTrajectorySet adaptive_trajectory_set(const std::string& dir, const ToleranceLadder& T) {
  AdaptiveTrajectorySet set;
  std::optional<AttitudeForm>& att = set.attitude;
  std::optional<OmegaFrame>& omega = set.omega;
  if (!fs::is_directory(dir)) throw InputError(cat("--trajectories '", dir, "' is not a folder"));
  const std::string m = (fs::path(dir) / "manifest.json").string();
  if (!fs::exists(m))
    throw InputError(cat("an adaptive file set needs ", m, ", with each tolerance's file and its controller's counts ",
                         "(`rigidbench ladder --adaptive` prints them)"));
  const nlohmann::json j = read_json_input(m, "the trajectory manifest", JsonLimits{kTrajectoryJsonDepth});
  if (!j.is_object() || !j.contains("levels") || !j["levels"].is_array())
    throw InputError(cat(m, ": expected {\"levels\": [{\"tol\": <tolerance>, \"file\": <name>, \"accepted_steps\": n, ...}, ...]}"));
  only_keys(j, {"levels", "attitude", "angular_velocity", "cost", "meta"}, m);
  if (j.contains("cost")) {
    const nlohmann::json& c = j["cost"];
    const std::string at = m + ": cost";
    if (!c.is_object()) throw InputError(cat(at, ": expected {\"machine\": ..., \"method\": ...} (each level its \"seconds\")"));
    only_keys(c, {"machine", "method"}, at);
    if (!c.contains("machine") || !c.contains("method"))
      throw InputError(cat(at, ": a declared cost says on which machine (\"machine\") and how it was measured (\"method\")"));
    set.cost = AdaptiveTrajectorySet::DeclaredCost{text(c["machine"], at + ".machine"), text(c["method"], at + ".method")};
  }
  if (j.contains("attitude")) att = named(j["attitude"], m + ": attitude", &attitude_form_from_string);
  if (j.contains("angular_velocity")) omega = named(j["angular_velocity"], m + ": angular_velocity", &omega_frame_from_string);
  std::vector<AdaptiveTrajectorySet::Level>& levels = set.levels;
  levels.resize(std::size_t(T.levels));
  std::size_t i = 0;
  for (const auto& e : j["levels"]) {
    const std::string at = cat(m, ": levels[", std::to_string(i++), "]");
    if (!e.is_object()) throw InputError(cat(at, ": expected an object"));
    only_keys(e, {"tol", "file", "accepted_steps", "rejected_steps", "rhs_evaluations", "load_evaluations", "shortened_steps",
                  "seconds"},
              at);
    for (const char* need : {"tol", "file", "accepted_steps", "rejected_steps", "rhs_evaluations"})
      if (!e.contains(need)) throw InputError(cat(at, ": missing \"", need, "\" (the tolerance ladder needs every run's counts)"));
    const double tol = positive(e["tol"], at + ".tol");
    int k = -1;
    for (int q = 0; q < T.levels; ++q)
      if (std::abs(tol - T.tol(q)) <= 1e-9 * T.tol(q)) k = q;
    if (k < 0)
      throw InputError(cat(at, ": tol = ", message_number(tol), " is not on the ladder (tol0 10^(-k/2), tol0 = ",
                           message_number(T.tol0), ", k = 0..", std::to_string(T.levels - 1), ")"));
    AdaptiveTrajectorySet::Level& lv = levels[std::size_t(k)];
    if (!lv.file.empty()) throw InputError(cat(at, ": tol = ", message_number(tol), " given twice"));
    lv.tol = T.tol(k);
    const fs::path f = fs::path(text(e["file"], at + ".file"));
    lv.file = (f.is_absolute() ? f : fs::path(dir) / f).string();
    lv.counters.accepted_steps = count(e["accepted_steps"], at + ".accepted_steps");
    lv.counters.rejected_steps = count(e["rejected_steps"], at + ".rejected_steps");
    lv.counters.rhs_evaluations = count(e["rhs_evaluations"], at + ".rhs_evaluations");
    if (e.contains("load_evaluations")) lv.counters.load_evaluations = count(e["load_evaluations"], at + ".load_evaluations");
    if (e.contains("shortened_steps")) lv.counters.shortened_steps = count(e["shortened_steps"], at + ".shortened_steps");
    if (e.contains("seconds") != set.cost.has_value())
      throw InputError(set.cost ? cat(at, ": missing \"seconds\" (with a declared cost every run gives its time; null: not timed)")
                                : cat(at, ": \"seconds\" without a declared cost: a declared cost says on which machine ",
                                      "(\"machine\") and how it was measured (\"method\"), in the manifest's \"cost\""));
    if (e.contains("seconds") && !e["seconds"].is_null()) lv.seconds = positive(e["seconds"], at + ".seconds");
  }
  for (int k = 0; k < T.levels; ++k) {
    const AdaptiveTrajectorySet::Level& lv = levels[std::size_t(k)];
    if (lv.file.empty())
      throw InputError(cat(m, ": no entry for tol = ", message_number(T.tol(k)), " (level ", std::to_string(k), " of the ladder)"));
    std::error_code ec;
    if (!fs::is_regular_file(lv.file, ec)) throw InputError(cat("trajectory file '", lv.file, "' is not a regular file"));
  }
  return set;
}

namespace {

/// Reads one tolerance's file: a row per output time (the first the initial state), or the rows
/// before the first non-finite one (a breakdown there).
void read_adaptive_level(AdaptiveLevel& lv, const OutputGrid& g, const FileConventions& conv, const Problem& p) {
  const std::size_t need = std::size_t(g.intervals) + 1;
  lv.rows = read_trajectory(lv.file, p, need, conv);
  const RecordedTrajectory& r = lv.rows;
  if (r.t.empty())
    throw InputError(cat(r.file, ": no finite row: the first row is the initial state (t = t0)",
                         r.breakdown ? cat("; ", r.breakdown->reason) : std::string()));
  for (std::size_t j = 0; j < r.t.size(); ++j)
    if (!on_output_grid(g, r.t[j], j))
      throw InputError(cat(r.file, ": ", r.where(j), ": t = ", message_number(r.t[j]), ", but output ", std::to_string(j), " is at ",
                           message_number(g.time_of(j)), " (t0 + j ", message_number(g.dt), "; `rigidbench ladder --adaptive` prints the times)"));
  if (r.breakdown) {
    lv.fail_index = std::int64_t(r.t.size()) - 1;
    lv.fail_reason = r.breakdown->reason;
  } else if (r.t.size() < need) {
    throw InputError(cat(r.file, ": ", std::to_string(r.t.size()), " rows, but the run holds ", std::to_string(need),
                         " output times: a truncated file or a missing row?"));
  }
  check_initial_state(r, p, conv);
}

/// Replays an adaptive scheme's run: the level is told by its tolerance (abs_tolerance), each step
/// advances to the next output time, the counts are the ones the program declared.
class AdaptiveReplay final : public AnyIntegrator {
 public:
  AdaptiveReplay(const SchemeInfo& info, const AdaptiveLevel* lv) : info_(&info), lv_(lv) {}
  const SchemeInfo& info() const override { return *info_; }
  void reset(const State&, double) override { n_ = 0; }
  StepStatus step(double, double) override {
    if (lv_ == nullptr) return StepStatus::breakdown("no recorded run at this tolerance");
    if (n_ == lv_->fail_index) return StepStatus::breakdown(lv_->fail_reason);
    ++n_;
    return StepStatus::success();
  }
  void read(State& x) const override {
    if (lv_) x = lv_->rows.states[std::min(std::size_t(n_), lv_->rows.states.size() - 1)];
  }
  Counters counters() const override { return lv_ ? lv_->counters : Counters{}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  const SchemeInfo* info_;
  const AdaptiveLevel* lv_;
  std::int64_t n_ = 0;
};

/// The suite that judges a replayed scheme: the scored problem alone, no cost measured.
SuiteRequest replay_request(const ScoreRequest& req, const SchemeEntry& e) {
  SuiteRequest sr;
  sr.problem_models = {req.problem};
  sr.schemes = {e};
  sr.ladder = req.ladder;
  sr.reference = req.reference;
  sr.progress = req.progress;
  sr.measure_cost = false;
  sr.no_cost_reason = "not measured: trajectories scored from files (the program that wrote them was not timed)";
  return sr;
}

SuiteResult score_adaptive(const ScoreRequest& req, const SchemeInfo& info) {
  const Problem& p = req.problem;
  const ToleranceLadder T = *req.tolerance;
  const AdaptiveTrajectorySet set = adaptive_trajectory_set(req.trajectories, T);
  auto levels = std::make_shared<std::vector<AdaptiveLevel>>();
  for (const AdaptiveTrajectorySet::Level& lv : set.levels) levels->push_back({lv.tol, lv.file, lv.counters, {}, -1, {}});
  FileConventions conv;
  if (auto a = agreed(req.attitude, set.attitude, "attitude", req.trajectories)) conv.attitude = *a;
  if (auto w = agreed(req.omega, set.omega, "angular-velocity", req.trajectories)) conv.omega = *w;
  const OutputGrid g = adaptive_output_grid(p, T, req.ladder);
  for (AdaptiveLevel& lv : *levels) read_adaptive_level(lv, g, conv, p);
  SchemeEntry e{&info,
                [&info, levels](const Problem&, const SchemeSettings& set) -> std::unique_ptr<AnyIntegrator> {
                  const double tol = set.get(kAbsTolerance);
                  for (const AdaptiveLevel& lv : *levels)
                    if (std::abs(lv.tol - tol) <= 1e-12 * tol) return std::make_unique<AdaptiveReplay>(info, &lv);
                  return std::make_unique<AdaptiveReplay>(info, nullptr);
                },
                {},
                false,
                SchemeOrigin::trajectories};
  SuiteRequest sr = replay_request(req, e);
  sr.tolerance_ladder = T;
  SuiteResult out = run_suite(sr);
  out.suite = "score";
  // A replay's wall clock is the reading of a file, not the program's run: each level's time is the
  // program's declared one, or none.
  for (PairResult& r : out.results) {
    if (!r.tolerance) continue;
    for (std::size_t k = 0; k < r.tolerance->levels.size() && k < set.levels.size(); ++k)
      r.tolerance->levels[k].seconds = set.levels[k].seconds, r.tolerance->levels[k].seconds_max = kNaN;
    r.tolerance->repetitions = 1;
    CostResult& c = r.cost;
    if (set.cost) {
      c.declared = DeclaredCost{{}, set.cost->machine, set.cost->method};
      c.source = cat("declared by the program, not measured by rigidbench (each tolerance's seconds in tolerance_ladder): ",
                     c.declared->method, " on ", c.declared->machine);
    } else {
      c.source = "not measured: trajectories scored from files (the program that wrote them was not timed)";
    }
  }
  return out;
}

}  // namespace

nlohmann::ordered_json tolerance_ladder_description(const Problem& p, const ToleranceLadder& T, const LadderRequest& lr) {
  using oj = nlohmann::ordered_json;
  const OutputGrid g = adaptive_output_grid(p, T, lr);
  oj j = ladder_description(p, make_ladder(p, 2, lr), 0);
  for (const char* k : {"order", "output_grid", "observation_dt", "observations", "grids", "levels"}) j.erase(k);
  j["adaptive"] = true;
  j["output_times"] = "t_j = t0 + j output_dt, j = 0..outputs: one row each, the first the initial state (the scheme "
                      "steps onto them or interpolates there)";
  j["output_dt"] = g.dt;
  j["outputs"] = g.intervals;
  j["t_end"] = g.time_of(std::size_t(g.intervals));
  j["manifest"] = "manifest.json: {\"levels\": [{\"tol\": tol_k, \"file\": name, \"accepted_steps\": n, \"rejected_steps\": n, "
                  "\"rhs_evaluations\": n, \"load_evaluations\": n (optional), \"shortened_steps\": n (optional), "
                  "\"seconds\": s (with a declared cost)}, ...], \"cost\": {\"machine\": ..., \"method\": ...} (optional)}; "
                  "abs = rel = tol_k";
  oj levels = oj::array();
  for (int k = 0; k < T.levels; ++k)
    levels.push_back({{"level", k}, {"tol", T.tol(k)}, {"file", cat("tol", std::to_string(k), ".csv")}, {"rows", g.intervals + 1}});
  j["tolerances"] = levels;
  return j;
}

SuiteResult score_trajectories(const ScoreRequest& req) {
  const Problem& p = req.problem;
  SchemeDeclaration d = req.scheme;
  d.families = {std::string(p.family->equations())};
  if (d.source.empty()) d.source = cat("trajectories scored from files (", req.trajectories, ")");
  if (d.representation.empty()) d.representation = "unknown (an outside program's trajectories)";
  check_claims_apply(d.claims, p, d.name);
  // A structure claim is judged on the scheme's one-step map (verification/structure.hpp: a step
  // against its inverse, the map's Jacobian), which a set of trajectories does not give: refused,
  // not accepted and dropped.
  if (d.claims.symmetric || d.claims.symplectic)
    throw InputError(cat("score: '", d.name, "' claims ", d.claims.symmetric ? "symmetric" : "",
                         d.claims.symmetric && d.claims.symplectic ? " and " : "", d.claims.symplectic ? "symplectic" : "",
                         ": a structure claim is judged on the scheme's one-step map, which recorded trajectories do not "
                         "give (verify the scheme itself - a registered C++ or Python scheme - to judge it)"));
  d.adaptive = req.tolerance.has_value();
  const SchemeInfo& info = declare_scheme(std::move(d));
  if (info.adaptive) return score_adaptive(req, info);
  const Ladder L = make_ladder(p, info.order, req.ladder);
  const TrajectorySet set = trajectory_set(req.trajectories, L);
  FileConventions conv;
  if (auto a = agreed(req.attitude, set.attitude, "attitude", req.trajectories)) conv.attitude = *a;
  if (auto w = agreed(req.omega, set.omega, "angular-velocity", req.trajectories)) conv.omega = *w;

  auto levels = std::make_shared<std::vector<ReplayLevel>>();
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < L.levels; ++k) {
    const TrajectorySet::Level& lv = set.levels[std::size_t(k)];
    ReplayLevel r = read_level(lv, conv, agreed(req.grid, lv.grid, "grid", req.trajectories), p, L, k);
    // Reading and checking a level of millions of rows takes seconds: once the reading has taken
    // more than one, a line per level read (the levels' runs then report like verify's).
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (req.progress && t > 1)
      std::fprintf(stderr, "score: level %d of %d read (%zu rows of %s) after %.0f s\n", k + 1, L.levels, r.rows.t.size(),
                   r.rows.file.c_str(), t);
    levels->push_back(std::move(r));
  }

  SchemeEntry e{&info,
                [&info, levels, L](const Problem&, const SchemeSettings&) -> std::unique_ptr<AnyIntegrator> {
                  return std::make_unique<Replay>(info, levels, L);
                },
                {},
                false,
                SchemeOrigin::trajectories};
  // The files hold every level: all of them are judged (a fixed ladder), as a paper's printed steps are.
  SuiteRequest sr = replay_request(req, e);
  sr.ladder.levels = L.levels;
  SuiteResult out = run_suite(sr);
  out.suite = "score";
  if (set.cost)
    for (PairResult& r : out.results) {
      if (r.status == "skipped") continue;
      CostResult& c = r.cost;
      c.declared = *set.cost;
      const std::vector<double>& ns = set.cost->ns_per_step;
      for (int k = 0; k < L.levels; ++k)
        if (std::isfinite(ns[std::size_t(k)])) c.ns_per_step = ns[std::size_t(k)], c.h = L.h(k);
      c.source = cat("declared by the program, not measured by rigidbench: ", set.cost->method, " on ", set.cost->machine);
    }
  return out;
}

}  // namespace rigidbench
