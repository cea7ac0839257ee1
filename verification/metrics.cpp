#include "metrics.hpp"

#include "../core/types.hpp"

#include <algorithm>
#include <cmath>

namespace rigidbench {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::undefined: return "undefined";
  }
  return "?";
}

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  LineFit f;
  const std::size_t n = x.size();
  if (n < 2 || y.size() != n) return f;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n);
  my /= double(n);
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0) return f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double sse = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = y[i] - f.intercept - f.slope * x[i];
    sse += r * r;
  }
  f.r2 = syy > 0 ? 1.0 - sse / syy : 1.0;
  if (n >= 3) f.stderr_slope = std::sqrt(sse / double(n - 2) / sxx);
  return f;
}

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

double trapezoid(const std::vector<double>& f, double dt) {
  if (f.size() < 2) return 0.0;
  double s = 0.5 * (f.front() + f.back());
  for (std::size_t i = 1; i + 1 < f.size(); ++i) s += f[i];
  return s * dt;
}

Convergence assess_order(const std::vector<double>& h, const std::vector<double>& error,
                         const std::vector<double>& floor, double expected, double tolerance, bool at_least) {
  Convergence c;
  c.at_least = at_least;
  c.h = h;
  c.error = error;
  c.floor = floor;
  c.expected = expected;
  const std::size_t n = h.size();
  c.asymptotic.assign(n, false);
  c.local_slopes.assign(n > 0 ? n - 1 : 0, kNaN);
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (error[i] > 0 && error[i + 1] > 0 && std::isfinite(error[i]) && std::isfinite(error[i + 1]))
      c.local_slopes[i] = std::log(error[i] / error[i + 1]) / std::log(h[i] / h[i + 1]);
  // Levels above their floor (not at reference accuracy, not at round-off, not broken down).
  std::vector<bool> usable(n, false);
  std::size_t below_floor = 0, broken = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(error[i])) ++broken;
    else if (!(error[i] > floor[i])) ++below_floor;
    else usable[i] = true;
  }
  // The asymptotic range: the longest run of consecutive usable levels ending at the finest usable
  // one in which every local slope lies within 2x the verdict tolerance of the finest local slope.
  // Coarse levels where higher-order terms still bend the curve drop out; the run is chosen without
  // reference to the expected order (docs/decisions.md, "Asymptotic range").
  std::ptrdiff_t last = -1;
  for (std::size_t i = 0; i < n; ++i)
    if (usable[i]) last = std::ptrdiff_t(i);
  std::size_t pre_asymptotic = 0;
  if (last >= 1 && usable[std::size_t(last - 1)]) {
    const double ref_slope = c.local_slopes[std::size_t(last - 1)];
    std::ptrdiff_t first = last - 1;
    while (first >= 1 && usable[std::size_t(first - 1)] &&
           std::abs(c.local_slopes[std::size_t(first - 1)] - ref_slope) <= 2 * tolerance)
      --first;
    for (std::ptrdiff_t i = first; i <= last; ++i) c.asymptotic[std::size_t(i)] = true;
    for (std::ptrdiff_t i = 0; i < first; ++i) pre_asymptotic += usable[std::size_t(i)];
  } else if (last >= 0) {
    c.asymptotic[std::size_t(last)] = true;
  }
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < n; ++i)
    if (c.asymptotic[i]) {
      lx.push_back(std::log(h[i]));
      ly.push_back(std::log(error[i]));
    }
  if (lx.size() >= 3) {
    c.fit = fit_line(lx, ly);
    const bool ok = at_least ? c.fit.slope >= expected - tolerance : std::abs(c.fit.slope - expected) <= tolerance;
    c.verdict = ok ? Verdict::pass : Verdict::fail;
  } else {
    if (lx.size() == 2) c.fit = fit_line(lx, ly);
    c.verdict = Verdict::undefined;
    c.note = "fewer than 3 levels in the asymptotic range";
  }
  if (pre_asymptotic)
    c.note += cat(c.note.empty() ? "" : "; ", std::to_string(pre_asymptotic),
                  " coarse level(s) outside the asymptotic range (local slopes not yet settled)");
  if (below_floor)
    c.note += std::string(c.note.empty() ? "" : "; ") + std::to_string(below_floor) +
              " level(s) at reference accuracy or round-off excluded";
  if (broken) c.note += std::string(c.note.empty() ? "" : "; ") + std::to_string(broken) + " level(s) broke down";
  return c;
}

QiiLevel second_quotient(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const Eigen::MatrixXd& c,
                         const std::vector<double>& times, const std::vector<int>& components,
                         const std::vector<std::size_t>& sample_rows, double expected, double tolerance) {
  QiiLevel q;
  auto diff = [&](const Eigen::MatrixXd& u, const Eigen::MatrixXd& v, Eigen::Index r) {
    double s = 0;
    for (int k : components) s += (u(r, k) - v(r, k)) * (u(r, k) - v(r, k));
    return std::sqrt(s);
  };
  auto size = [&](Eigen::Index r) {
    double s = 0;
    for (int k : components) s += c(r, k) * c(r, k);
    return std::sqrt(s);
  };
  // A numerator within a few ulps of zero means the quantity is reproduced exactly: Q_II is
  // undefined there (docs/metrics.md), never a pass.
  auto value = [&](Eigen::Index r) {
    const double num = diff(a, b, r), den = diff(b, c, r);
    if (!std::isfinite(num) || !std::isfinite(den) || num <= 64 * kEps * size(r) || den == 0) return kNaN;
    return num / den;
  };
  std::vector<double> all;
  q.series.reserve(std::size_t(a.rows()));
  for (Eigen::Index r = 1; r < a.rows(); ++r) {
    const double v = value(r);
    q.series.push_back(v);
    if (std::isfinite(v)) all.push_back(v);
    else ++q.undefined_points;
  }
  q.defined_points = all.size();
  if (!all.empty()) {
    q.median = median(all);
    q.min = *std::min_element(all.begin(), all.end());
    q.max = *std::max_element(all.begin(), all.end());
  }
  bool any_undefined = false, all_pass = true;
  q.max_deviation = 0;
  q.min_denominator = std::numeric_limits<double>::infinity();
  for (std::size_t r : sample_rows) {
    const double v = value(Eigen::Index(r));
    q.sample_t.push_back(times[r]);
    q.sample_value.push_back(v);
    q.min_denominator = std::min(q.min_denominator, diff(b, c, Eigen::Index(r)));
    if (!std::isfinite(v)) {
      any_undefined = true;
      q.max_deviation = kNaN;
    } else {
      q.max_deviation = std::max(q.max_deviation, std::abs(v / expected - 1.0));
      if (std::abs(v / expected - 1.0) > tolerance) all_pass = false;
    }
  }
  if (sample_rows.empty()) {
    q.verdict = Verdict::undefined;
    q.note = "no sample times";
  } else if (!all_pass) {
    q.verdict = Verdict::fail;
  } else if (any_undefined) {
    q.verdict = Verdict::undefined;
    q.note = "Q_II undefined at a sample time (numerator at round-off: the quantity is reproduced exactly)";
  } else {
    q.verdict = Verdict::pass;
  }
  return q;
}

}  // namespace rigidbench
