#pragma once
// Long-time energy behaviour (docs/metrics.md, "Long-time energy"): one run of 10^5-10^6 steps of a
// scheme at a fixed step, the running maximum of |E(t) - E0| / S_E at log-spaced times, the exponent
// a of max|dE| ~ t^a fitted on log-log axes with its standard error, and the behaviour it indicates:
// bounded (a < 1/4), random walk (1/4 <= a < 3/4, Brouwer's law of rounding errors is a = 1/2),
// linear drift (3/4 <= a < 3/2), faster than linear (a >= 3/2), or round-off when the largest
// deviation stays within the rounding a run of that length accumulates.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../integrators/registry.hpp"
#include "../problems/problem.hpp"
#include "metrics.hpp"

namespace rigidbench {

struct LongTimeEnergy {
  std::string status = "ok";  // ok | breakdown | not_applicable
  std::string reason;
  double h = kNaN;
  std::int64_t steps = 0;       // asked for
  std::int64_t steps_run = 0;   // taken (fewer after a breakdown)
  double scale = kNaN;          // S_E (docs/metrics.md, Invariants)
  std::vector<double> t, max_deviation;  // at the checkpoints: max over [t0, t] of |E - E0| / S_E
  LineFit fit;                  // log10 max_deviation against log10 (t - t0), the later decades
  std::string behaviour = "undefined";  // bounded | random_walk | linear_drift | faster_than_linear | roundoff | undefined
  bool uncertain = false;       // the exponent is within 2 standard errors of a class boundary
  double seconds = 0;
};

/// One invariant's deviation over a long run at a fixed step: the running maximum of |I - I0| / S_I at
/// log-spaced times, its growth exponent and behaviour (as above), and the signed drift.
struct InvariantGrowth {
  std::string name;
  double scale = kNaN;          // S_I (docs/metrics.md, Invariants)
  std::vector<double> t, max_deviation;
  LineFit fit;
  std::string behaviour = "undefined";
  bool uncertain = false;
  /// d/dt of (I - I0) / S_I: the mean over the run's last tenth of steps less the mean over its first
  /// tenth, over the time between their centres (a linear drift's rate; near 0 for an oscillation).
  double drift_rate = kNaN;
  double final_mean = kNaN;  // the mean of (I - I0) / S_I over the run's last tenth of steps
};
struct LongTimeRun {
  std::string status = "ok";  // ok | breakdown
  std::string reason;
  std::int64_t steps_run = 0;
  std::vector<InvariantGrowth> invariants;  // in the order asked for
};
/// Runs s on p for `steps` steps of size h, every step observed: the invariants `which` (indices into
/// p.invariants(), each holding from t0) and, after each step, `each` on the state (the card's
/// probes). The one long run both the energy run below and the conformance card use.
LongTimeRun long_time_run(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps,
                          const std::vector<std::size_t>& which, const std::function<void(const State&)>& each = {});

/// The behaviour a fitted exponent indicates (see above); `final_deviation` is the last running
/// maximum, compared with the round-off of `steps` steps, 10 eps sqrt(steps), eps the scheme's unit of
/// rounding (unit_roundoff: float's for a scheme in single precision).
std::string classify_energy_growth(double exponent, double final_deviation, std::int64_t steps, bool* uncertain = nullptr,
                                   double stderr_exponent = kNaN, double eps = kEps);

/// Runs s on p for `steps` steps of size h from the initial state. not_applicable when the problem
/// declares no conserved energy (an invariant of kind energy holding from t0) or the scheme does not
/// apply; breakdown when a step fails (the series up to it is kept).
LongTimeEnergy long_time_energy(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps);

}  // namespace rigidbench
