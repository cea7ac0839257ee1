// Long-time energy (verification/long_time.hpp): the growth classes from the fitted exponent, and on
// real runs a drifting explicit scheme, a bounded symplectic one and an exactly conserving one.
#include <cmath>

#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../verification/long_time.hpp"
#include "support.hpp"

using namespace rigidbench;

TEST_CASE("long-time energy: classes from the exponent, round-off from the final deviation", "[long_time]") {
  bool unsure = true;
  CHECK(classify_energy_growth(0.02, 1e-6, 100000, &unsure, 0.01) == "bounded");
  CHECK_FALSE(unsure);
  CHECK(classify_energy_growth(0.5, 1e-6, 100000) == "random_walk");
  CHECK(classify_energy_growth(1.0, 1e-6, 100000) == "linear_drift");
  CHECK(classify_energy_growth(2.0, 1e-6, 100000) == "faster_than_linear");
  CHECK(classify_energy_growth(1.0, 1e-15, 100000) == "roundoff");  // below 10 eps sqrt(N) = 7e-13
  // In a scheme's single precision, 10 eps32 sqrt(N) = 3.8e-4: Jolt's 1.8e-5 over 1e4 steps is rounding.
  CHECK(classify_energy_growth(1.0, 1.8e-5, 10000) == "linear_drift");
  CHECK(classify_energy_growth(1.0, 1.8e-5, 10000, nullptr, kNaN, unit_roundoff("float32")) == "roundoff");
  CHECK(classify_energy_growth(kNaN, 1e-6, 100000) == "undefined");
  CHECK(classify_energy_growth(0.7, 1e-6, 100000, &unsure, 0.05) == "random_walk");
  CHECK(unsure);  // 0.75 is within two standard errors
}

TEST_CASE("long-time energy: Lie-Euler drifts, the LGVI stays bounded, the AKW midpoint rule keeps E to round-off", "[long_time]") {
  const Problem free = catalogue_problem("free_body");
  const Problem pend = catalogue_problem("pendulum3d");
  // Explicit Lie-Euler gains energy every step (exponentially at h = 0.05, where it breaks down by
  // t = 120); at h = 0.005 over t = 100 the gain is still close to linear.
  const LongTimeEnergy le = long_time_energy(free, find_scheme("lie_euler"), 0.005, 20000);
  INFO("lie_euler a = " << le.fit.slope << " +- " << le.fit.stderr_slope << ", final " << le.max_deviation.back());
  CHECK(le.status == "ok");
  CHECK(le.steps_run == 20000);
  CHECK(le.t.back() == Approx(100.0));
  CHECK(le.fit.slope >= 0.75);
  CHECK((le.behaviour == "linear_drift" || le.behaviour == "faster_than_linear"));
  const LongTimeEnergy lg = long_time_energy(pend, find_scheme("lgvi"), 0.05, 20000);
  INFO("lgvi a = " << lg.fit.slope << " +- " << lg.fit.stderr_slope << ", final " << lg.max_deviation.back());
  CHECK(lg.behaviour == "bounded");
  CHECK(lg.max_deviation.back() < 1e-2);
  const LongTimeEnergy ak = long_time_energy(free, find_scheme("akw_midpoint"), 0.05, 20000);
  INFO("akw a = " << ak.fit.slope << ", final " << ak.max_deviation.back());
  CHECK(ak.max_deviation.back() < 1e-11);
  // The running maximum never decreases; the checkpoints are log-spaced up to the last step.
  for (std::size_t k = 1; k < le.t.size(); ++k) {
    CHECK(le.t[k] > le.t[k - 1]);
    CHECK(le.max_deviation[k] >= le.max_deviation[k - 1]);
  }
  // No conserved energy under time-dependent loads: not applicable, with the reason.
  const LongTimeEnergy nt = long_time_energy(catalogue_problem("non_twisting_case2"), find_scheme("gr_nonholonomic"), 0.005, 100);
  CHECK(nt.status == "not_applicable");
  CHECK_THAT(nt.reason, Catch::Contains("energy"));
}
