// The reference: conserves what the exact flow conserves, its two steppers agree, and its error
// estimate is genuine (not an artefact of the output grid).
#include <cstdlib>
#include <iomanip>
#include <filesystem>

#include "../core/parallel.hpp"
#include "../core/so3.hpp"
#include "../core/task_graph.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/body_system.hpp"
#include "../reference/binomial.hpp"
#include "../reference/contact_events.hpp"
#include "../reference/reference.hpp"
#include "support.hpp"

#include <boost/math/special_functions/binomial.hpp>

using namespace rigidbench;

namespace {
std::vector<double> grid(const Problem& p, int n) {
  std::vector<double> t;
  for (int j = 0; j <= n; ++j) t.push_back(p.t0 + (p.t_end - p.t0) * j / n);
  return t;
}
/// p over [t0, t0 + span] only (its convergence span and sample times dropped).
Problem shortened(Problem p, double span) {
  p.t_end = p.t0 + span;
  p.verification.t_end = std::nullopt;
  p.verification.sample_times.clear();
  p.finalize();
  return p;
}
double max_state_difference(const ReferenceSolution& a, const ReferenceSolution& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.states.size(); ++i)
    m = std::max({m, so3::angle_between(a.states[i].body().R, b.states[i].body().R),
                  (a.states[i].body().W - b.states[i].body().W).norm()});
  return m;
}
}  // namespace

TEST_CASE("the reference conserves the invariants of the exact flow on every catalogue problem", "[reference][ci][sanitize]") {
  for (const auto& name : catalogue_names()) {
    INFO(name);
    // The 2000-sphere gas: its reference over [0, 0.25] alone takes ~40 s; particle_gas_200 stands for
    // it in the test case below.
    if (name == "particle_gas") continue;
    Problem p = catalogue_problem(name);
    // The 80-particle torus: a short span (its reference over [0, 10] takes minutes; under the
    // sanitizers [0, 0.25] takes 100 s, so a fifth of it there).
    if (p.of_family("body_system")) p = shortened(p, test::kSanitized ? 0.05 : 0.25);
    // An odeint formulation: the family's first that is not the closed form (kirchhoff for a rigid body).
    Formulation f = Formulation::kirchhoff;
    for (const Formulation& g : applicable_formulations(p))
      if (g != Formulation::analytic) {
        f = g;
        break;
      }
    const ReferenceSolution r = compute_reference(p, grid(p, 500), {.formulation = f});
    REQUIRE(r.states.size() == 501);
    const auto& defs = p.invariants();
    std::vector<double> I0(defs.size()), I(defs.size());
    std::vector<char> anchored(defs.size(), 0);
    for (std::size_t i = 0; i < r.states.size(); ++i) {
      p.evaluate_invariants(r.states[i], I.data());
      for (std::size_t k = 0; k < I.size(); ++k) {
        // An invariant that holds once the load has vanished is checked from its from_time on.
        if (r.times[i] < defs[k].from_time - 1e-12) continue;
        if (!anchored[k]) anchored[k] = 1, I0[k] = I[k];
        INFO(defs[k].name << " at t = " << r.times[i]);
        // Tolerance 1e-13 per component over the span; energy and momenta drift at most ~1e-11 relative.
        CHECK(std::abs(I[k] - I0[k]) <= 1e-10 * std::max(1.0, std::abs(I0[k])));
      }
    }
  }
}

TEST_CASE("pendulum3d: the exact flow with the moment derived from U conserves E", "[reference]") {
  // docs/problems.md P3: the printed eq. 40 mixes frames; the moment derived from U must make E constant.
  const Problem p = catalogue_problem("pendulum3d");
  const ReferenceSolution r = kirchhoff_reference(p, grid(p, 1000));
  const double E0 = p.energy(p.initial);
  double worst = 0;
  for (const State& s : r.states) worst = std::max(worst, std::abs(p.energy(s) - E0));
  CHECK(worst < 1e-12);
  // ... and the motion passes close to the half-turn where the RRP chart is singular.
  double max_angle = 0;
  for (const State& s : r.states) max_angle = std::max(max_angle, so3::angle(s.body().R));
  CHECK(max_angle > 3.0);
}

TEST_CASE("Bulirsch-Stoer and RKF78 references agree to within their estimates", "[reference]") {
  for (const char* name : {"heavy_top", "free_body", "pendulum3d"}) {
    INFO(name);
    const Problem p = catalogue_problem(name);
    const auto t = grid(p, 200);
    const ReferenceSolution bs = kirchhoff_reference(p, t);
    const ReferenceSolution rk = kirchhoff_reference(p, t, {.stepper = ReferenceStepper::rkf78});
    CHECK(max_state_difference(bs, rk) < 1e-10);
    CHECK(bs.error_estimate.max() < 1e-10);
  }
}

TEST_CASE("the error estimate does not collapse on a grid finer than the reference's own steps", "[reference]") {
  // With a grid-landing stepper both tolerance runs take the same grid-bound steps and agree bit
  // for bit; the dense-output default must still report a genuine (non-zero) difference.
  const Problem p = catalogue_problem("heavy_top");
  const ReferenceSolution fine = kirchhoff_reference(p, grid(p, 32000));
  CHECK(fine.error_estimate.attitude > 0);
  CHECK(fine.error_estimate.attitude < 1e-10);
  CHECK(fine.steps < 5000);  // internal steps independent of the 32000 output points
}

TEST_CASE("bad reference grids are input errors", "[reference]") {
  const Problem p = catalogue_problem("free_body");
  CHECK_THROWS_AS(kirchhoff_reference(p, {}), InputError);
  CHECK_THROWS_AS(kirchhoff_reference(p, {0.5, 1.0}), InputError);
  CHECK_THROWS_AS(kirchhoff_reference(p, {0.0, 1.0, 1.0}), InputError);
  CHECK_THROWS_AS(kirchhoff_reference(p, {0.0, 1.0}, {.tolerance = 0}), InputError);
}

TEST_CASE("body systems: the reference resolves the C^1 contact onsets, and its estimate bounds its error",
          "[reference][ci]") {
  // Every contact begins and ends where the Hertz force (eq. 57) is only C^1. The body systems with
  // contact are integrated by Dormand-Prince 5(4), whose error estimate sees those instants; RKF78's
  // does not (reference.cpp, body_system_stepper): at tolerance 1e-13 it was 5.5e-7 off in position on
  // particle_gas_200 over [0, 1], and across the wall onset of torus_impact E moved by ~4e-9 of E.
  // Checked against the same solver at tolerance 1e-15: the default reference (1e-13) is that close
  // in position and velocity, to within its own estimate (the difference from the 1e-12 rerun).
  struct Case {
    const char* name;
    double span;
  };
  for (const Case c : {Case{"particle_gas_200", 0.5}, Case{"torus_impact", 0.25}}) {
    INFO(c.name);
    const Problem p = shortened(catalogue_problem(c.name), c.span);
    const auto t = grid(p, 50);
    const ReferenceSolution r = compute_reference(p, t, {});
    const ReferenceSolution tight = compute_reference(p, t, {.tolerance = 1e-15});
    CHECK(r.stepper.find("dopri5") != std::string::npos);
    const double E0 = p.energy(p.initial);
    double worst_E = 0, contact = 0, dx = 0, dv = 0;
    for (std::size_t i = 0; i < r.states.size(); ++i) {
      const State& s = r.states[i];
      worst_E = std::max(worst_E, std::abs(p.energy(s) - E0) / E0);
      const SystemEnergy e = system_energy(p, s);
      contact = std::max(contact, e.wall + e.contact);
      for (std::size_t b = 0; b < s.bodies.size(); ++b) {
        dx = std::max(dx, (s.bodies[b].x - tight.states[i].bodies[b].x).norm());
        dv = std::max(dv, (s.bodies[b].v - tight.states[i].bodies[b].v).norm());
      }
    }
    INFO("largest relative energy change " << worst_E << "; against tolerance 1e-15: position " << dx
                                           << ", velocity " << dv << "; estimates " << r.error_estimate.position
                                           << ", " << r.error_estimate.velocity);
    CHECK(contact > 1e-3 * E0);  // the particles really hit the wall, or each other
    CHECK(worst_E < 1e-10);
    CHECK(dx <= r.error_estimate.position);
    CHECK(dv <= r.error_estimate.velocity);
    CHECK(r.error_estimate.position < 1e-8);
    CHECK(r.error_estimate.velocity < 1e-8);
  }
}

TEST_CASE("torus_impact: the reference resolves the convergence span, the impact's own flow does not allow a longer one",
          "[reference][ci]") {
  // docs/decisions.md, "torus_impact's convergence span". On [0, 0.5] (the catalogue's span: the
  // impact at t = 0.05 and the rebound) the reference at 1e-13 and its 1e-12 rerun - its error
  // estimate - agree to better than 1e-9 in position. Beyond, the exact flow separates nearby states
  // exponentially: a change of 1e-6 in one particle's initial velocity, far above the references'
  // errors, has grown ~4x by t = 1 and then ~1400x more by t = 2.5 (e^{4.8 t}), and saturates at
  // ~0.1-0.2 from t = 3 on - as the references' own tolerance differences do.
  const Problem full = catalogue_problem("torus_impact");
  REQUIRE(full.verification.t_end);
  CHECK(*full.verification.t_end == 0.5);
  const Problem p = shortened(full, *full.verification.t_end);
  const ReferenceSolution r = compute_reference(p, grid(p, 50), {});
  INFO("position estimate " << r.error_estimate.position);
  CHECK(r.error_estimate.position <= 1e-9);
  CHECK(r.error_estimate.position > 0);
  // The sensitivity: two runs 2.5 s long from initial states 1e-6 apart, at tolerance 1e-11. Their
  // estimates (the difference from a 1e-10 rerun, 10x looser: an over-estimate) reach 5e-4 at t = 2.5
  // by the same amplification, a tenth of the separation; at 1e-12 the separation is the same, 5.2e-3.
  Problem q = shortened(full, 2.5), pert = q;
  pert.initial.bodies[5].v.y() += 1e-6;
  const auto t = grid(q, 10);
  const ReferenceSolution a = compute_reference(q, t, {.tolerance = 1e-11}), b = compute_reference(pert, t, {.tolerance = 1e-11});
  const auto separation = [&](std::size_t i) {
    double d = 0;
    for (std::size_t k = 0; k < a.states[i].bodies.size(); ++k) d = std::max(d, (a.states[i].bodies[k].x - b.states[i].bodies[k].x).norm());
    return d;
  };
  const double at1 = separation(4), at25 = separation(10);
  INFO("separation of states 1e-6 apart at t = 0: " << at1 << " at t = 1, " << at25 << " at t = 2.5; estimate "
                                                    << a.error_estimate.position);
  CHECK(a.error_estimate.position < 0.2 * at25);  // the flow, not the references' error
  CHECK(at1 < 1e-5);
  CHECK(at25 > 300 * at1);  // exponential from t = 1: ~e^{4.8 x 1.5} = 1400
}

namespace {
/// Spheres of diameter 0.2 (m = 1) at the given centres and velocities, Hertz contact K = 1e4 between
/// them and with the wall x = 0 (normal e1), over [0, t_end].
Problem spheres(const std::vector<Vec3>& x, const std::vector<Vec3>& v, double t_end) {
  Problem p;
  p.family = &find_family("body_system");
  p.name = "spheres";
  p.bodies.assign(x.size(), BodyModel{Mat3::Identity() * 0.004, 1.0});
  p.initial = State(x.size());
  for (std::size_t b = 0; b < x.size(); ++b) p.initial.bodies[b].x = x[b], p.initial.bodies[b].v = v[b];
  BodySystemData& d = p.family_data.edit<BodySystemData>();
  d.diameters.assign(x.size(), 0.2);
  d.interactions.contact_stiffness = 1e4;
  d.interactions.walls.push_back(Wall{.normal = Vec3::UnitX(), .offset = 0.0, .stiffness = 1e4});
  p.t_end = t_end;
  p.verification.h0 = 1e-3;
  p.verification.levels = 3;
  p.finalize();
  return p;
}
std::vector<double> uniform_times(double t_end, int n) {
  std::vector<double> t;
  for (int j = 0; j <= n; ++j) t.push_back(t_end * j / n);
  return t;
}
/// A sphere (radius R = 0.1, m = 1) meeting the wall head-on at speed v0 under the Hertz force
/// K/R s^{3/2}, s = (R - x)/R: energy 0.4 K s^{5/2} (interactions.cpp), so the deepest overlap is
/// s_max R with 0.4 K s_max^{5/2} = v0^2/2, and the contact lasts 2 (s_max R / v0) int_0^1 (1 - u^{5/2})^{-1/2} du
/// = 2 (s_max R / v0) (2/5) B(2/5, 1/2).
double hertz_wall_contact_time(double K, double R, double v0) {
  const double s_max = std::pow(v0 * v0 / (0.8 * K), 0.4);
  const double beta = std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9);
  return 2 * s_max * R / v0 * 0.4 * beta;
}
}  // namespace

TEST_CASE("contact events: a sphere hitting a wall - onset at d/v, release after the Hertz contact time", "[reference]") {
  // Gap d = 0.25 at speed 1: the onset at t = 0.25 exactly; the release 2.9432 s_max R / v0 later, at
  // speed 1 again (no damping). Located on the dense output to the tolerance.
  const double v0 = 1.0, d = 0.25, R = 0.1, tc = hertz_wall_contact_time(1e4, R, v0);
  const Problem p = spheres({Vec3(d + R, 0, 0)}, {Vec3(-v0, 0, 0)}, 0.5);
  ContactEventLog log;
  log.record = true;
  const auto out = integrate_with_contact_events(p, uniform_times(0.5, 10), 1e-12, 1000000, log);
  INFO("located " << log.located << ", steps " << log.steps << ", rejected " << log.rejected << ", contact time " << tc);
  REQUIRE(log.times.size() == 2);
  CHECK(log.times[0] == Approx(d / v0).margin(1e-11));
  CHECK(log.times[1] == Approx(d / v0 + tc).margin(1e-9));
  CHECK(log.switches[0] == ContactSwitch{0, 0, true});
  State end(1);
  formulations::BodySystemQuaternion::to_state(out.back(), end);
  CHECK(end.body().v.x() == Approx(v0).margin(1e-9));  // elastic: the speed comes back
  CHECK(end.body().x.x() == Approx(R + v0 * (0.5 - d / v0 - tc)).margin(1e-9));
}

TEST_CASE("contact events: located switches make the contact references an order of magnitude more accurate at the same cost",
          "[reference][ci]") {
  // docs/decisions.md, "Contact onsets in the reference". particle_gas_200 over [0, 0.5] (144 switches):
  // at tolerance 1e-10 the end positions against a located run at 1e-13 are 1.3e-8 off without the
  // location and 5.9e-10 with it, in 1 345 and 1 428 steps (measured; the same 12x at 1e-12). The
  // Hertz onsets do not make the controller creep: Dormand-Prince's estimate sees them, and the
  // rejected steps are the same with and without (783 and 720) - what a step across an onset
  // loses is accuracy, which the location gives back.
  Problem p = catalogue_problem("particle_gas_200");
  p.t_end = p.t0 + 0.5;
  p.verification.t_end = std::nullopt;
  p.verification.sample_times.clear();
  p.finalize();
  const auto t = uniform_times(0.5, 10);
  ContactEventLog truth_log, located, blind;
  blind.locate = false;
  blind.record = true;  // nothing to record without the location
  const auto truth = integrate_with_contact_events(p, t, 1e-13, 100000000, truth_log);
  const auto a = integrate_with_contact_events(p, t, 1e-10, 100000000, located);
  const auto b = integrate_with_contact_events(p, t, 1e-10, 100000000, blind);
  const auto off = [&](const std::vector<double>& y) {
    double d = 0;
    for (std::size_t i = 0; i < y.size(); i += formulations::BodySystemQuaternion::kPer)
      for (std::size_t k = 7; k < 10; ++k) d = std::max(d, std::abs(y[i + k] - truth.back()[i + k]));
    return d;
  };
  INFO("located: " << off(a.back()) << " in " << located.steps << " steps (" << located.located << " switches); not: "
                   << off(b.back()) << " in " << blind.steps);
  CHECK(located.located > 50);
  CHECK(blind.times.empty());
  CHECK(off(a.back()) * 5 < off(b.back()));
  CHECK(double(located.steps) < 1.2 * double(blind.steps));
}

TEST_CASE("contact events: grazing contacts and two simultaneous onsets", "[reference]") {
  const double v0 = 1.0, R = 0.1, tc = hertz_wall_contact_time(1e4, R, v0);
  SECTION("grazing: a sphere passing another at exactly the contact distance, one sliding along the wall") {
    // |x_0 - x_1| = sqrt(D^2 + (v t - 1)^2) touches D at t = 1 and the gap never crosses 0; the third
    // sphere's wall gap is 0 throughout. No switch, no force: the velocities stay as they were.
    const Problem p = spheres({Vec3(0.5, 0, 0), Vec3(0.7, -1, 0), Vec3(R, 5, 0)},
                              {Vec3(0, 0, 0), Vec3(0, v0, 0), Vec3(0, 0, v0)}, 2.0);
    ContactEventLog log;
    log.record = true;
    const auto out = integrate_with_contact_events(p, uniform_times(2.0, 8), 1e-12, 1000000, log);
    CHECK(log.located == 0);
    State end(3);
    formulations::BodySystemQuaternion::to_state(out.back(), end);
    for (std::size_t b = 0; b < 3; ++b) CHECK((end.bodies[b].v - p.initial.bodies[b].v).norm() == 0);
  }
  SECTION("two spheres reaching the wall at the same instant") {
    const Problem p = spheres({Vec3(0.25 + R, 0, 0), Vec3(0.25 + R, 3, 0)}, {Vec3(-v0, 0, 0), Vec3(-v0, 0, 0)}, 0.5);
    ContactEventLog log;
    log.record = true;
    const auto out = integrate_with_contact_events(p, uniform_times(0.5, 10), 1e-12, 1000000, log);
    INFO("located " << log.located);
    REQUIRE(!log.times.empty());
    for (double t : log.times) CHECK((std::abs(t - 0.25) <= 1e-11 || std::abs(t - 0.25 - tc) <= 1e-9));
    CHECK(log.times.front() == Approx(0.25).margin(1e-11));
    CHECK(log.times.back() == Approx(0.25 + tc).margin(1e-9));
    State end(2);
    formulations::BodySystemQuaternion::to_state(out.back(), end);
    CHECK(end.bodies[0].v.x() == Approx(v0).margin(1e-9));
    CHECK(end.bodies[0].x.x() == end.bodies[1].x.x());  // the same arithmetic for both
    CHECK(end.bodies[0].v.x() == end.bodies[1].v.x());
  }
}

TEST_CASE("contact events: a body system's reference is the same bit for bit on any number of threads", "[reference]") {
  // The loads and the per-body derivatives split over the workers a unit may use (core/parallel.hpp,
  // SystemLoads): a 512-sphere gas integrated alone (one thread) and as the one unit of a scheduler of
  // two workers (two threads; the Verlet list built again along the way) ends in the same states, and
  // locates the same switches at the same times.
  const Problem p = catalogue_problem("particle_gas_512");
  const std::vector<double> times = uniform_times(0.3, 3);
  ContactEventLog alone;
  alone.record = true;
  const auto serial = integrate_with_contact_events(p, times, 1e-9, 1000000, alone);
  ContactEventLog shared;
  shared.record = true;
  std::vector<std::vector<double>> split;
  int threads = 0;
  TaskGraph graph;
  graph.add([&] {
    threads = parallel::spare_threads();
    split = integrate_with_contact_events(p, times, 1e-9, 1000000, shared);
  });
  graph.run(2);
  CHECK(threads == 2);
  CHECK(alone.located > 0);
  CHECK(shared.times == alone.times);
  CHECK(shared.steps == alone.steps);
  REQUIRE(split.size() == serial.size());
  for (std::size_t k = 0; k < serial.size(); ++k) CHECK(split[k] == serial[k]);
}

TEST_CASE("the Pascal-triangle binomials the Bulirsch-Stoer dense output uses are Boost's values", "[reference]") {
  // reference.cpp hands odeint's binomial_coefficient<double> to rigidbench::binomial; the reference
  // is unchanged only if every value is the same. Compared with Boost's table path in long double
  // (another instantiation, not the specialised one): equal wherever C(n, k) < 2^53 (every value the
  // stepper asks for: kappa <= 2 k_max + 1 = 17), within one ulp beyond.
  int compared = 0;
  for (unsigned n = 0; n <= 80; ++n)
    for (unsigned k = 0; k <= n; ++k) {
      const double ours = binomial(n, k);
      const double boost_value = static_cast<double>(boost::math::binomial_coefficient<long double>(n, k));
      if (boost_value < 0x1p53)
        CHECK(ours == boost_value);
      else
        CHECK(std::abs(ours - boost_value) <= std::nextafter(boost_value, INFINITY) - boost_value);
      ++compared;
    }
  CHECK(compared == 81 * 82 / 2);
  CHECK(binomial(17, 8) == 24310);
  CHECK(binomial(66, 33) == 7219428434016265740.0);
  CHECK_THROWS_AS(binomial(3, 4), std::domain_error);
  CHECK_THROWS_AS(binomial(5000, 2500), std::overflow_error);
}

TEST_CASE("a reference computed as work units in any order is compute_reference's, bit for bit", "[reference]") {
  // ReferenceJob (docs/scaling.md, "Work units"): the closed form's segments (dzhanibekov: the
  // asymmetric quadrature of psi, 1200 intervals in 5 segments each for the double and the extended
  // evaluation) and the odeint runs (heavy_top: the run and its looser estimate), run backwards and
  // interleaved, give the states and the estimate of the one-call path.
  for (const char* name : {"dzhanibekov", "heavy_top", "free_body"}) {
    INFO(name);
    const Problem p = shortened(catalogue_problem(name), 3.0);
    const auto t = grid(p, 1200);
    const ReferenceSolution one = compute_reference(p, t);
    ReferenceJob job(p, t);
    REQUIRE(job.units() >= 2);
    if (std::string(name) == "dzhanibekov") CHECK(job.units() == 10);
    for (std::size_t u = job.units(); u-- > 0;)
      if (u % 2 == 1) job.run_unit(u);
    for (std::size_t u = 0; u < job.units(); u += 2) job.run_unit(u);
    const ReferenceSolution units = job.finish();
    CHECK(units.kind == one.kind);
    REQUIRE(units.states.size() == one.states.size());
    for (std::size_t i = 0; i < one.states.size(); ++i) {
      const BodyState &a = one.states[i].body(), &b = units.states[i].body();
      REQUIRE(a.R == b.R);
      REQUIRE(a.W == b.W);
    }
    CHECK(units.estimate_attitude == one.estimate_attitude);
    CHECK(units.estimate_omega == one.estimate_omega);
    CHECK(units.error_estimate.max() == one.error_estimate.max());
    CHECK(units.steps == one.steps);
    CHECK_THROWS_AS(job.finish(), std::logic_error);
  }
  // A unit left out is a programming error, not a silent half reference.
  const Problem hb = shortened(catalogue_problem("heavy_top"), 1.0);
  ReferenceJob partial(hb, grid(hb, 10));
  partial.run_unit(0);
  CHECK_THROWS_AS(partial.finish(), std::logic_error);
  CHECK_THROWS_AS(partial.run_unit(2), std::logic_error);
}

TEST_CASE("an analytic evaluation with a segment left out refuses to finish", "[reference]") {
  const Problem p = shortened(catalogue_problem("dzhanibekov"), 3.0);
  ReferenceJob job(p, grid(p, 1200));
  for (std::size_t u = 1; u < job.units(); ++u) job.run_unit(u);
  CHECK_THROWS_AS(job.finish(), std::logic_error);
}

TEST_CASE("the reference's step budget ends a solve that would run on, with exit 2 naming it", "[reference]") {
  // The default, 10^8, takes ~15 minutes to reach; RIGIDBENCH_REFERENCE_MAX_STEPS lowers it so that
  // the budget itself is exercised: the odeint path (kirchhoff) and the hand-stepped Euler angles.
  setenv("RIGIDBENCH_REFERENCE_MAX_STEPS", "50", 1);
  for (const char* form : {"kirchhoff", "euler_angles"}) {
    const std::string out = test::tmp_path(cat("budget-", form, ".csv"));
    std::filesystem::remove(out);
    const auto r = test::run_cli(cat("reference --problem heavy_top --formulation ", form,
                                     " --h 0.1 --t-end 2 --no-cache --out ", out));
    INFO(form << ": " << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("reference: more than 50 steps (the limit; RIGIDBENCH_REFERENCE_MAX_STEPS)"));
    CHECK(!std::filesystem::exists(out));
  }
  // Within a budget that suffices, the same command succeeds: the limit is what stopped it.
  setenv("RIGIDBENCH_REFERENCE_MAX_STEPS", "1000000", 1);
  CHECK(test::run_cli("reference --problem heavy_top --h 0.1 --t-end 2 --no-cache --out " +
                      test::tmp_path("budget-ok.csv")).exit_code == 0);
  for (const char* bad : {"0", "-3", "1e5", "lots", "99999999999999"}) {
    setenv("RIGIDBENCH_REFERENCE_MAX_STEPS", bad, 1);
    const auto r = test::run_cli("reference --problem heavy_top --h 0.1 --t-end 2 --no-cache --out " +
                                 test::tmp_path("budget-bad.csv"));
    INFO(bad << ": " << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("RIGIDBENCH_REFERENCE_MAX_STEPS must be a whole number"));
  }
  unsetenv("RIGIDBENCH_REFERENCE_MAX_STEPS");
}
