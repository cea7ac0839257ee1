#pragma once
// Metric definitions of docs/metrics.md as pure functions on numbers; the runner feeds them.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace rigidbench {

/// Whether grid time t has reached an invariant's from_time (InvariantDef::from_time), with a few
/// ulps of slack so that a from_time on the grid t0 + n h counts as reached.
inline bool reached(double t, double from) { return t >= from - 8e-16 * std::max(1.0, std::abs(from)); }

enum class Verdict { pass, fail, undefined };
const char* to_string(Verdict v);

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEps = std::numeric_limits<double>::epsilon();
/// The unit of rounding of a scheme's arithmetic (SchemeInfo::precision): double's eps, or float's
/// for a scheme kept in single precision ("float32", an engine built so). Every round-off budget
/// below is in ulps of it, so that a float32 engine's rounding is its floor, not its order
/// (docs/metrics.md, "Schemes in single precision").
inline double unit_roundoff(std::string_view precision) {
  return precision == "float32" ? double(std::numeric_limits<float>::epsilon()) : kEps;
}

/// Default verdict tolerances (docs/metrics.md).
constexpr double kSlopeTolerance = 0.15;  // |slope - expected| <= 0.15
constexpr double kQiiTolerance = 0.02;    // |Q_II / 2^p - 1| <= 0.02
constexpr double kRefFloorFactor = 100;   // errors below 100x the reference estimate are not used for rates
constexpr double kRoundoffUlps = 100;     // ... nor errors within 100 ulps of round-off
/// The rounding a run of N steps may accumulate, in ulps of the quantity per step: the budget of an
/// exact claim (max(tau, 4 N eps)), of the order fit (levels not above it are left out) and of the
/// gate's allowance, one number everywhere (docs/decisions.md, "Round-off budget of exact claims").
constexpr double kRoundoffUlpsPerStep = 4;
/// What an exact claim allows after `steps` steps, relative to the invariant's scale: max(tau, 4 N eps)
/// with tau the problem's exact_threshold; `ulp_scale` is S_v / S_I for a component of a vector
/// (docs/metrics.md, "Invariants"); `eps` the scheme's unit_roundoff.
inline double exact_allowance(double exact_threshold, double steps, double ulp_scale = 1, double eps = kEps) {
  return std::max(exact_threshold, kRoundoffUlpsPerStep * steps * eps * ulp_scale);
}
/// A bounded claim holds when the growth exponent of the running maximum deviation is below this by
/// two standard errors, and fails when above it by two (docs/metrics.md, "Invariants"): the random
/// walk's 1/2, between a bounded oscillation's 0 and a linear drift's 1.
constexpr double kBoundedGrowth = 0.5;

struct LineFit {
  double slope = kNaN, intercept = kNaN, stderr_slope = kNaN, r2 = kNaN;
};
/// Least squares y = a + b x with the standard error of b and R^2 (needs >= 2 points; stderr >= 3).
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

double median(std::vector<double> v);

/// Trapezoid rule on a uniform grid of spacing dt.
double trapezoid(const std::vector<double>& f, double dt);

/// Observed order of one error metric over a step ladder (docs/metrics.md, Observed order).
struct Convergence {
  std::vector<double> h, error;      // error NaN where a level broke down
  std::vector<double> floor;         // per level: below it a level is not in the asymptotic range
  std::vector<bool> asymptotic;
  std::vector<double> local_slopes;  // between consecutive levels (NaN where undefined)
  LineFit fit;                       // over the asymptotic levels
 double expected = kNaN;
  bool at_least = false;             // expected is a lower bound
  Verdict verdict = Verdict::undefined;
  std::string note;
  bool gating = true;                // false: informational (paper measures), does not fail `verify`
  std::vector<double> rounding;      // per level: accumulated-rounding allowance (ErrorSeries::rounding)
  double saturation = kNaN;          // the error's own size (ErrorMeasure::saturation); not reported
};
/// A measure of a pair (section measures of the metric table): its number, its verdict by the
/// measure's rule (undefined for rule none, or where it was not measured) and what to say with it.
struct MeasureResult {
  double value = kNaN;
  Verdict verdict = Verdict::undefined;
  std::string note;
};

/// `at_least`: the expected order is a lower bound (pass when slope >= expected - tolerance), as for
/// the energy error of a non-conserving scheme, which may superconverge.
Convergence assess_order(const std::vector<double>& h, const std::vector<double>& error,
                         const std::vector<double>& floor, double expected, double tolerance = kSlopeTolerance,
                         bool at_least = false);

/// Second quotient of precision (paper 000 Appendix A, eq. 120) between three runs with steps
/// h, h/2, h/4 sampled on a common grid: rows are grid times, columns observables.
struct QiiLevel {
  double h = kNaN;
  std::vector<double> sample_t, sample_value;  // at the problem's sample times (NaN = undefined)
  double median = kNaN, min = kNaN, max = kNaN;  // over every common grid time t > t0 where defined
  std::size_t defined_points = 0, undefined_points = 0;
  double min_denominator = kNaN;  // smallest |xi(h/2) - xi(h/4)| over the sample times
  double max_deviation = kNaN;    // max over the sample times of |Q_II / 2^p - 1| (NaN if one is undefined)
  std::vector<double> series;     // Q_II at every common grid time t_1, t_2, ... (NaN = undefined)
  Verdict verdict = Verdict::undefined;
  std::string note;
};
/// `components` selects the observables entering the norm; `sample_rows` the rows of the sample times.
QiiLevel second_quotient(const Eigen::MatrixXd& xi_h, const Eigen::MatrixXd& xi_h2, const Eigen::MatrixXd& xi_h4,
                         const std::vector<double>& times, const std::vector<int>& components,
                         const std::vector<std::size_t>& sample_rows, double expected,
                         double tolerance = kQiiTolerance);

}  // namespace rigidbench
