// Paper 001's E-error (eqs. 37-38; docs/metrics.md, "Paper 001's measures"): the relative H0 energy
// error ||E_h - E(0)||_H0 / ||E(0)||_H0 with ||E(0)||^2_H0 = E(0)^2 (t_N - t_0), by the trapezoid rule
// on the observation grid. Reference-free: E(0) is known.
#include <cmath>
#include <vector>

#include "error_metric.hpp"
#include "../metrics.hpp"

namespace rigidbench::metric_defs {
namespace {

double error(const ErrorInputs& in, const LevelRun& run) {
  const double E0 = in.p.energy(in.p.initial);
  std::vector<double> d2(in.M() + 1);
  for (std::size_t j = 0; j <= in.M(); ++j) {
    const double d = run.energy[j] - E0;
    d2[j] = d * d;
  }
  return E0 != 0 ? std::sqrt(trapezoid(d2, in.L.obs_dt())) / (std::abs(E0) * std::sqrt(in.span())) : kNaN;
}
double floor(const ErrorInputs& in) { return kRoundoffUlps * in.eps; }  // relative: 100 ulps
double one(const ErrorInputs&) { return 1.0; }

constexpr ErrorMeasure kEError{error, floor, one, one};

}  // namespace

extern const MetricDef E_error{
    "E_error", MetricSection::paper_measures, "paper 001 E-error", "paper 001 eqs. 37-38: |E_h - E(0)|_H0 / |E(0)|_H0", "1",
    VerdictRule::order_at_least, 1, false,
    "paper 001 eq. 37-38 relative H0 energy error; order p is a lower bound (energy errors may superconverge); "
    "informational",
    &kEError};

}  // namespace rigidbench::metric_defs
