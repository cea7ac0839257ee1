#include "trajectory_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "report.hpp"
#include "../verification/scoring.hpp"

namespace rigidbench {
namespace {

/// The path, once its extension is known to name a format (before a temporary is created).
const std::string& checked(const std::string& path) {
  check_trajectory_path(path);
  return path;
}

/// The shortest text that reads back as the same double (std::to_chars); "null" for a value that
/// could not be computed in JSON, as every report writes it; "nan"/"inf" in CSV.
void append_number(std::string& out, double x, bool json) {
  if (json && !std::isfinite(x)) {
    out += "null";
    return;
  }
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, x);
  out.append(b, r.ptr);
}

std::string json_string(const std::string& s) { return nlohmann::json(s).dump(); }

constexpr std::size_t kFlushBytes = std::size_t(1) << 16;

}  // namespace

TrajectoryWriter::TrajectoryWriter(const std::string& path, const Problem& p, nlohmann::ordered_json meta,
                                   std::size_t transpose_doubles)
    : p_(p),
      meta_(std::move(meta)),
      file_(checked(path)),
      csv_(std::filesystem::path(path).extension() == ".csv"),
      transpose_doubles_(std::max<std::size_t>(1, transpose_doubles)) {
  // The state columns `score` reads back (verification/scoring.hpp), then the problem's invariants.
  cols_ = trajectory_columns(p);
  for (const auto& d : p.invariants()) cols_.push_back(d.name);
  row_.resize(cols_.size());
  if (csv_) {
    for (std::size_t c = 0; c < cols_.size(); ++c) buf_ += cat(c ? "," : "", cols_[c]);
    buf_ += '\n';
  } else {
    scratch_ = std::tmpfile();
    if (scratch_ == nullptr) throw IoError(cat("cannot write '", path, "': no scratch file: ", std::strerror(errno)));
  }
}

TrajectoryWriter::~TrajectoryWriter() {
  if (scratch_) std::fclose(scratch_);
}

void TrajectoryWriter::add(double t, const State& s) {
  const std::size_t nobs = std::size_t(p_.observables());
  row_[0] = t;
  flatten(s, p_.translating(), row_.data() + 1);
  p_.evaluate_invariants(s, row_.data() + 1 + nobs);
  if (csv_) {
    for (std::size_t c = 0; c < row_.size(); ++c) {
      if (c) buf_ += ',';
      append_number(buf_, row_[c], false);
    }
    buf_ += '\n';
    if (buf_.size() >= kFlushBytes) {
      file_.write(buf_);
      buf_.clear();
    }
  } else if (std::fwrite(row_.data(), sizeof(double), row_.size(), scratch_) != row_.size()) {
    throw IoError(cat("cannot write '", file_.path(), "': scratch file: ", std::strerror(errno)));
  }
  ++rows_;
}

void TrajectoryWriter::finish() {
  if (!csv_) {
    // The same document as before streaming: schema_version, tool, meta, columns, data.
    nlohmann::ordered_json head;
    head["schema_version"] = kSchemaVersion;
    head["tool"] = tool_info();
    head["meta"] = meta_;
    head["columns"] = cols_;
    std::string h = head.dump(1);
    h.pop_back();  // the closing brace: "data" follows
    while (!h.empty() && (h.back() == '\n' || h.back() == ' ')) h.pop_back();
    buf_ = h + ",\n \"data\": {";
    // Columns [c0, c1) per pass over the scratch file, c1 - c0 = budget / rows (at least one).
    const std::size_t ncols = cols_.size(), per_pass = std::max<std::size_t>(1, transpose_doubles_ / std::max<std::size_t>(rows_, 1));
    std::vector<double> block;
    for (std::size_t c0 = 0; c0 < ncols; c0 += per_pass) {
      const std::size_t c1 = std::min(ncols, c0 + per_pass), w = c1 - c0;
      block.assign(w * rows_, 0.0);
      std::rewind(scratch_);
      for (std::size_t i = 0; i < rows_; ++i) {
        if (std::fread(row_.data(), sizeof(double), ncols, scratch_) != ncols)
          throw IoError(cat("cannot write '", file_.path(), "': scratch file: ", std::strerror(errno)));
        for (std::size_t c = c0; c < c1; ++c) block[(c - c0) * rows_ + i] = row_[c];
      }
      for (std::size_t c = c0; c < c1; ++c) {
        buf_ += cat(c ? ",\n  " : "\n  ", json_string(cols_[c]), ": [");
        for (std::size_t i = 0; i < rows_; ++i) {
          if (i) buf_ += ", ";
          append_number(buf_, block[(c - c0) * rows_ + i], true);
          if (buf_.size() >= kFlushBytes) {
            file_.write(buf_);
            buf_.clear();
          }
        }
        buf_ += "]";
      }
    }
    buf_ += "\n }\n}\n";
  }
  file_.write(buf_);
  buf_.clear();
  file_.commit();
}

void write_trajectory(const std::string& path, const Problem& p, const std::vector<double>& t,
                      const std::vector<State>& states, const nlohmann::ordered_json& meta) {
  TrajectoryWriter w(path, p, meta);
  for (std::size_t i = 0; i < t.size(); ++i) w.add(t[i], states[i]);
  w.finish();
}

}  // namespace rigidbench
