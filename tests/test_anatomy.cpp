// Anatomy of the attitude error (verification/anatomy.hpp, docs/metrics.md "Error anatomy"): the
// split itself on constructed rotations, the axis each problem gets, and on the heavy top the finding
// it exists for - the Cayley-based midpoint rules and the LGVI rank last by attitude error only because
// of their phase about the spin axis.
#include <cmath>

#include "../core/so3.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../verification/anatomy.hpp"
#include "../verification/runner.hpp"
#include "support.hpp"

using namespace rigidbench;

TEST_CASE("error anatomy: the split of a constructed error", "[anatomy]") {
  const Mat3 Rref = so3::exp(Vec3(0.3, -0.2, 0.9));
  const PhaseAxis body{true, Vec3::UnitZ(), "E3"};
  const ErrorSplit s = split_attitude_error(body, Rref * so3::exp(Vec3(0, 0, 0.1)), Rref);
  CHECK(s.phase == Approx(0.1).epsilon(1e-12));
  CHECK(s.shape < 1e-15);
  const ErrorSplit t = split_attitude_error(body, Rref * so3::exp(Vec3(2e-3, 0, -0.05)), Rref);
  CHECK(t.phase == Approx(-0.05).epsilon(1e-12));
  CHECK(t.shape == Approx(2e-3).epsilon(1e-12));
  CHECK(t.total == Approx(std::hypot(2e-3, 0.05)).epsilon(1e-12));
  // A spatial axis measures the rotation applied in space, R = exp(phi n) R_ref.
  const Vec3 n = Vec3(1, 2, 2) / 3;
  const PhaseAxis space{false, n, "pi"};
  const ErrorSplit u = split_attitude_error(space, so3::exp(-0.2 * n) * Rref, Rref);
  CHECK(u.phase == Approx(-0.2).epsilon(1e-12));
  CHECK(u.shape < 1e-15);
}

TEST_CASE("error anatomy: the axis of each problem", "[anatomy]") {
  const auto top = phase_axis(catalogue_problem("heavy_top"));
  REQUIRE(top);
  CHECK(top->body);
  CHECK(top->axis == Vec3::UnitZ());
  const Problem fb = catalogue_problem("free_body");
  const auto free = phase_axis(fb);
  REQUIRE(free);
  CHECK_FALSE(free->body);
  const Vec3 pi = fb.initial.body().R * fb.inertia() * fb.initial.body().W;
  CHECK((free->axis - pi.normalized()).norm() < 1e-15);
  CHECK_FALSE(phase_axis(catalogue_problem("pendulum3d")));       // spherical under a field: no symmetry axis
  CHECK_FALSE(phase_axis(catalogue_problem("non_twisting_case1")));  // nonholonomic
  CHECK_FALSE(phase_axis(catalogue_problem("torus_free")));         // many bodies
}

TEST_CASE("error anatomy: on the heavy top the Cayley midpoint rules and the LGVI err in phase", "[anatomy]") {
  const Problem p = catalogue_problem("heavy_top");
  const Ladder L = make_ladder(p, 2, {.levels = 3});
  const ReferenceSolution ref = compute_reference(p, L.obs_times(), {.cache_dir = ""});
  double phase_akw = 0, phase_lgvi = 0;
  for (const char* s : {"akw_midpoint", "gr_energy_momentum", "lgvi", "simo_wong"}) {
    const PairResult r = verify_pair(p, find_scheme(s), L, ref);
    REQUIRE(r.anatomy);
    const ErrorAnatomy& a = *r.anatomy;
    const double total = a.total[2], phase = a.phase[2], shape = a.shape[2];
    INFO(s << ": total " << total << ", phase " << phase << ", shape " << shape);
    CHECK(total == Approx(std::hypot(phase, shape)).epsilon(1e-9));
    if (std::string(s) == "simo_wong") {
      CHECK(std::abs(phase) < 0.1 * total);  // its error is shape, not phase
    } else {
      CHECK(std::abs(phase) > 0.99 * total);  // almost all phase
      CHECK(shape < 1e-2 * total);
    }
    if (std::string(s) == "akw_midpoint") phase_akw = phase;
    if (std::string(s) == "lgvi") phase_lgvi = phase;
  }
  // The Cayley map lags, the LGVI's map leads by twice as much (0.104 and 0.209 rad at h = 1e-3).
  CHECK(phase_akw < 0);
  CHECK(phase_lgvi / phase_akw == Approx(-2).epsilon(0.01));
}
