// The physics engines as schemes (docs/engines.md): the bodies they are given, the conventions of
// each engine's state, faults as breakdowns, and the evidence behind a verdict that contradicts an
// engine's documentation, reproduced by an independent computation.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <tuple>
#include <vector>

#include "../core/quaternion.hpp"
#include "../engines/engine_body.hpp"
#include "../engines/engines.hpp"
#include "../integrators/integrate.hpp"
#include "../integrators/registry.hpp"
#include "../integrators/declared_scheme.hpp"
#include "../verification/program_scheme.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/spherical_chain.hpp"
#include "support.hpp"

namespace rigidbench {
namespace {

TEST_CASE("engines: the body an engine is given, and the bodies no engine can build", "[engines]") {
  // A free body: J about the centre of mass, no gravity, no pivot.
  const Problem free = catalogue_problem("free_body");
  CHECK(engines::refusal(free).empty());
  const engines::EngineBody fb = engines::body_of(free);
  CHECK_FALSE(fb.pivot);
  CHECK(test::compare(fb.central_inertia, free.inertia(), 0.0) == "");
  CHECK(fb.gravity.isZero());

  // The catalogue's heavy top has no body: J_c = diag(5, 5, 1) - 20 diag(1, 1, 0) = diag(-15, -15, 1).
  const std::string top = engines::refusal(catalogue_problem("heavy_top"));
  CHECK_THAT(top, Catch::Contains("(-15, -15, 1)"));
  CHECK_THAT(top, Catch::Contains("heavy_top_realisable"));
  CHECK_THROWS_AS(engines::body_of(catalogue_problem("heavy_top")), InputError);
  // Nor has the 3-D pendulum as printed: J = I about the pivot, m = l = 1 leaves diag(0, 0, 1).
  CHECK_THAT(engines::refusal(catalogue_problem("pendulum3d")), Catch::Contains("(0, 0, 1)"));

  // The realisable top: central inertia diag(3, 3, 1) at c = E3, gravity -10 e3, on its pivot.
  const engines::EngineBody b = engines::body_of(catalogue_problem("heavy_top_realisable"));
  CHECK(b.pivot);
  CHECK(b.mass == 2.0);
  CHECK(test::compare(b.centre, Vec3(0, 0, 1), 0.0) == "");
  CHECK(test::compare(b.gravity, Vec3(0, 0, -10), 0.0) == "");
  CHECK(test::compare(b.central_inertia, Mat3(Vec3(3, 3, 1).asDiagonal()), 1e-15) == "");

  // Loads that are not gravity on the body: a field of another mass, follower moments.
  Problem light = catalogue_problem("heavy_top_realisable");
  std::get<UniformField>(light.loads[0]).mass = 1.0;
  light.finalize();
  CHECK_THAT(engines::refusal(light), Catch::Contains("not the body's mass"));
  Problem follower = catalogue_problem("free_body");
  follower.loads = {FollowerMoment{}};
  follower.finalize();
  CHECK_THAT(engines::refusal(follower), Catch::Contains("follower moments"));
}

TEST_CASE("engines: heavy_top_realisable is heavy_top's motion", "[engines]") {
  // Same J about the pivot and the same M g l: the same moment at every attitude, so the same
  // equations of motion (and the same reference) as P2.
  const Problem a = catalogue_problem("heavy_top"), b = catalogue_problem("heavy_top_realisable");
  CHECK(test::compare(a.inertia(), b.inertia(), 0.0) == "");
  CHECK(test::compare(a.initial.body().R, b.initial.body().R, 0.0) == "");
  CHECK(test::compare(a.initial.body().W, b.initial.body().W, 0.0) == "");
  for (int i = 0; i < 20; ++i) {
    const Mat3 R = test::random_rotation();
    CHECK(test::compare(a.body_moment(0, R), b.body_moment(0, R), 1e-13) == "");
    CHECK(std::abs(a.potential(R) - b.potential(R)) <= 1e-13);
  }
}

/// An engine's variant, the engines registered as the `rigidbench` command registers them.
[[maybe_unused]] const SchemeEntry& engine(const std::string& name) {
  engines::register_engines();
  return find_scheme(name);
}

/// On a free body and on the realisable top at a random attitude: the state read right after a reset
/// is the initial state, and a step of 1e-7 turns the body by R0 exp(h W), W the angular velocity read
/// after the step (body components: the frame of W, and not exp(h W) R0), within `tol`.
[[maybe_unused]] void check_round_trip_and_one_step(const std::string& scheme, double tol) {
  for (const char* problem : {"free_body", "heavy_top_realisable"}) {
    Problem p = catalogue_problem(problem);
    p.initial.body().R = test::random_rotation(0.5, 3.0);
    p.initial.body().W = Vec3(0.3, -0.7, 5.0);
    INFO(scheme << " on " << problem);
    auto s = engine(scheme).make(p);
    s->reset(p.initial, p.t0);
    State x(1);
    s->read(x);
    CHECK(test::compare(x.body().R, p.initial.body().R, 1e-14) == "");
    CHECK(test::compare(x.body().W, p.initial.body().W, 1e-13) == "");
    REQUIRE(s->step(0, 1e-7).ok);
    s->read(x);
    CHECK(test::compare(x.body().R, p.initial.body().R * so3::exp(1e-7 * x.body().W), tol) == "");
    CHECK(test::compare(x.body().R, so3::exp(1e-7 * x.body().W) * p.initial.body().R, tol) != "");
  }
}


/// A chain engine on chain_5 and chain_free against rkmk4 at h = 1e-3 (fourth order: ~1e-11 off over the
/// 0.1 s here): the state read right after a reset is the initial state (R, W, x, v), and the error at
/// h = 1e-3 and 5e-4 halves with h (first order; a convention wrong by a frame or a sign does not
/// converge). Minimal coordinates keep the joints to round-off; maximal ones let them come apart at first
/// order in h (the measured, not claimed, joint separation; docs/engines.md, "Chains"). `unit`: the
/// engine's unit round-off, 1e-16 for double precision; a float32 engine (unit 6e-8) reads back the
/// initial state to its own precision.
/// `stabilised`: a maximal-coordinate engine whose solver corrects the joints' drift.
[[maybe_unused]] void check_chain_engine(const std::string& scheme, bool minimal, double unit = 1e-16, bool stabilised = false,
                                         std::vector<const char*> problems = {"chain_5", "chain_free"}) {
  for (const char* problem : problems) {
    const Problem p = catalogue_problem(problem);
    INFO(scheme << " on " << problem);
    const auto run = [&](const SchemeEntry& e, double h, int n) {
      auto s = e.make(p);
      s->reset(p.initial, p.t0);
      REQUIRE(integrate(*s, FixedSteps{p.t0, h, n}).ok);
      State x(p.bodies.size());
      s->read(x);
      return x;
    };
    const State truth = run(find_scheme("rkmk4"), 1e-3, 100);
    auto s = engine(scheme).make(p);
    s->reset(p.initial, p.t0);
    State x0(p.bodies.size());
    s->read(x0);
    for (std::size_t i = 0; i < p.bodies.size(); ++i) {
      const BodyState &a = x0.bodies[i], &b = p.initial.bodies[i];
      CHECK(test::compare(a.R, b.R, 100 * unit) == "");
      CHECK(test::compare(a.W, b.W, 1000 * unit) == "");
      CHECK(test::compare(a.x, b.x, 100 * unit) == "");
      CHECK(test::compare(a.v, b.v, 1000 * unit) == "");
    }
    double error[2], separation[2];
    for (int k = 0; k < 2; ++k) {
      const State x = run(engine(scheme), 1e-3 / (1 << k), 100 << k);
      error[k] = 0;
      for (std::size_t i = 0; i < p.bodies.size(); ++i)
        error[k] = std::max({error[k], (x.bodies[i].R - truth.bodies[i].R).norm(),
                             (x.bodies[i].W - truth.bodies[i].W).norm() / truth.bodies[i].W.norm()});
      separation[k] = joint_separation(chain_data(p), x);
    }
    INFO("errors " << error[0] << ", " << error[1] << "; joint separations " << separation[0] << ", " << separation[1]);
    CHECK(error[0] < 0.05);
    CHECK(error[0] / error[1] > 1.7);
    CHECK(error[0] / error[1] < 2.3);
    if (minimal) {
      CHECK(separation[1] < 100 * unit * p.family->length_scale(p));
    } else if (stabilised) {
      // The engine's solver corrects the joints' drift (as shipped): they stay together to a fraction
      // of the first-order drift an unstabilised engine shows (ODE's 1e-6 to 1e-5 here).
      CHECK(separation[0] < 1e-5 * p.family->length_scale(p));
    } else {
      CHECK(separation[0] > 1e-6);  // the joints do come apart without error reduction
      CHECK(separation[0] / separation[1] > 1.7);
      CHECK(separation[0] / separation[1] < 2.3);
    }
  }
}

/// The npm engines on chains (docs/engines.md, "Chains"), each where `npm ci` has installed it: MuJoCo 3
/// as the Debian MuJoCo (minimal coordinates, double precision), Rapier and Jolt with the gyroscopic
/// term (maximal coordinates, float32, their joints stabilised by their solvers). Rapier on chain_5
/// only: on chain_free its float32 rounding already outgrows the first-order error at these steps (its
/// error grows as h shrinks there, slope -1.00 over the ladder: the finding docs/engines.md states).
TEST_CASE("engines: the npm engines' chains converge at first order", "[engines][ci]") {
  engines::register_engines();
  const std::vector<const char*> both{"chain_5", "chain_free"};
  for (const auto& [scheme, minimal, unit, problems] :
       {std::tuple{"mujoco3_euler", true, 1e-16, both}, std::tuple{"rapier", false, 6e-8, std::vector<const char*>{"chain_5"}},
        std::tuple{"jolt_gyroscopic", false, 6e-8, both}}) {
    if (!is_registered(scheme)) {
      WARN(scheme << " is not registered here (npm ci in engines/npm and Node.js: scripts/install-deps.sh)");
      continue;
    }
    check_chain_engine(scheme, minimal, unit, !minimal, problems);
  }
}

/// A declaration's family_claims (docs/programs.md): read per family, kept apart from the scheme's
/// claims (claims_on gives each problem its family's), and refused for a family the scheme does not
/// integrate or for a claim that is not one.
TEST_CASE("programs: claims per family in a declaration", "[engines]") {
  engines::register_engines();  // "physical_body" needs the engines' hook
  const std::string file = std::string(RIGIDBENCH_TEST_TMP) + "/family_claims.json";
  const auto declare = [&](const std::string& body) {
    std::ofstream(file) << R"({"programs": [{"name": "fc_test", "command": ["true"], "order": 1, "physical_body": true, )" << body
                        << "}]}";
    return read_program_declarations(file);
  };
  std::vector<ProgramDeclaration> d = declare(
      R"("families": ["rigid_body", "spherical_chain"], "claims": {"constraint": "exact"}, "family_claims": {"spherical_chain": {"energy": "bounded"}})");
  REQUIRE(d.size() == 1);
  REQUIRE(d[0].scheme.family_claims.size() == 1);
  d[0].scheme.name = "fc_test_ok";
  const SchemeInfo& info = declare_scheme(d[0].scheme);
  const Problem chain = catalogue_problem("chain_double"), body = catalogue_problem("free_body");
  CHECK(claims_on(info, chain).constraint == Claim::none);
  CHECK(claims_on(info, chain).energy == Claim::bounded);
  CHECK(claims_on(info, body).constraint == Claim::exact);
  CHECK(claims_on(info, body).energy == Claim::none);

  std::vector<ProgramDeclaration> other = declare(R"("family_claims": {"spherical_chain": {}})");
  other[0].scheme.name = "fc_test_other";
  CHECK_THROWS_WITH(declare_scheme(other[0].scheme), Catch::Contains("claims on the family 'spherical_chain', which it does not integrate"));
  CHECK_THROWS_WITH(declare(R"("family_claims": {"spherical_chain": {"energy": "always"}})"), Catch::Contains("family_claims"));
  CHECK_THROWS_WITH(declare(R"("family_claims": ["spherical_chain"])"), Catch::Contains("expected an object {family: {kind: claim}}"));
}

#ifdef RIGIDBENCH_HAVE_MUJOCO

TEST_CASE("engines: MuJoCo's chains (nested bodies on ball joints) converge at first order", "[engines]") {
  check_chain_engine("mujoco_euler", true);
}

TEST_CASE("engines: MuJoCo's state conventions (quaternion order, body-frame angular velocity)", "[engines]") {
  Problem p = catalogue_problem("free_body");
  p.initial.body().R = test::random_rotation(0.5, 3.0);
  auto s = engine("mujoco_euler").make(p);
  s->reset(p.initial, p.t0);
  State x(1);
  s->read(x);  // the quaternion (w, x, y, z) written and read back
  CHECK(test::compare(x.body().R, p.initial.body().R, 1e-15) == "");
  CHECK(test::compare(x.body().W, p.initial.body().W, 0.0) == "");
  // One tiny step: the attitude moves by R0 exp(h W) (W in body components), not by exp(h W) R0.
  const double h = 1e-7;
  REQUIRE(s->step(0, h).ok);
  s->read(x);
  const Mat3& R0 = p.initial.body().R;
  CHECK(test::compare(x.body().R, R0 * so3::exp(h * x.body().W), 1e-13) == "");
  CHECK((x.body().R - so3::exp(h * x.body().W) * R0).cwiseAbs().maxCoeff() > 1e-8);
}

TEST_CASE("engines: MuJoCo's free joint and ball joint give the same rotation", "[engines]") {
  const Problem p = catalogue_problem("dzhanibekov");
  const SchemeEntry& e = engine("mujoco_rk4");
  const auto ball = configure_schemes({&e}, {"ball_joint=1"});
  auto a = e.make(p), b = ball.front().make(p);
  a->reset(p.initial, p.t0);
  b->reset(p.initial, p.t0);
  REQUIRE(integrate(*a, FixedSteps{0.0, 0.01, 200}).ok);
  REQUIRE(integrate(*b, FixedSteps{0.0, 0.01, 200}).ok);
  State xa(1), xb(1);
  a->read(xa);
  b->read(xb);
  CHECK(test::compare(xa.body().R, xb.body().R, 1e-13) == "");
  CHECK(test::compare(xa.body().W, xb.body().W, 1e-13) == "");
}

TEST_CASE("engines: a MuJoCo fault is a breakdown with MuJoCo's reason, never its silent reset", "[engines]") {
  // dzhanibekov (|W| = 5) at h = 3: RK4 far outside its stability region grows until MuJoCo's check
  // (|qvel| or |qacc| > 1e10) resets mjData to the model's initial state. Read as a result, that
  // reset would be a body back at rest at the identity.
  const Problem p = catalogue_problem("dzhanibekov");
  auto s = engine("mujoco_rk4").make(p);
  s->reset(p.initial, p.t0);
  const IntegrationOutcome out = integrate(*s, FixedSteps{0.0, 3.0, 1000});
  REQUIRE_FALSE(out.ok);
  CHECK(out.failed_at > 3.0);  // not the first step: the state grew first
  CHECK_THAT(out.reason, Catch::Contains("MuJoCo") && Catch::Contains("reset the state"));
}

// MuJoCo documents mjINT_RK4 as "4th-order Runge Kutta"; rigidbench measures order 2 on SO(3)
// (docs/engines.md, "MuJoCo"). The reason: mj_RungeKutta combines the stages' body angular
// velocities as vectors and integrates the quaternion once from the step's start with that
// combination, q_{n+1} = q_n exp(h sum_i b_i W_i) (each stage likewise with its row of the tableau).
// The stage velocities live in the body frames of different stage attitudes; RKMK methods map each
// through dexp^-1 of its stage's displacement first (Munthe-Kaas, BIT 38 (1998)), and without that the
// attitude error per step is O(h^3): global order 2. This computation is written from that
// description alone; it reproduces mj_step to round-off and converges at order 2.
Vec4 integrate_pos(const Vec4& q, const Vec3& v, double h) {
  return quat::multiply(q, quat::from_rotation_vector(h * v)).normalized();
}

struct Rk4OnVelocities {
  Mat3 J, Jinv;
  Vec3 acc(const Vec3& W) const { return Jinv * (J * W).cross(W); }
  void step(Vec4& q, Vec3& W, double h) const {
    const double A[3] = {0.5, 0.5, 1.0}, b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    Vec3 v[4], a[4];
    v[0] = W;
    a[0] = acc(W);
    for (int i = 1; i < 4; ++i) {  // the classical tableau: stage i uses stage i-1 only
      v[i] = W + h * A[i - 1] * a[i - 1];
      a[i] = acc(v[i]);  // torque-free: the stage attitude integrate_pos(q, A v[i-1], h) does not enter
    }
    Vec3 dv = Vec3::Zero(), da = Vec3::Zero();
    for (int i = 0; i < 4; ++i) dv += b[i] * v[i], da += b[i] * a[i];
    q = integrate_pos(q, dv, h);
    W += h * da;
  }
};

TEST_CASE("engines: MuJoCo's RK4 is order 2 on SO(3), reproduced independently", "[engines]") {
  const Problem p = catalogue_problem("free_body");
  const Rk4OnVelocities rk{p.inertia(), p.inertia_inverse()};
  const double T = 2.0;
  const auto run = [&](double h) {
    Vec4 q = quat::from_matrix(p.initial.body().R);
    Vec3 W = p.initial.body().W;
    for (int n = 0; n < int(std::lround(T / h)); ++n) rk.step(q, W, h);
    return quat::to_matrix(q);
  };
  // The reproduction is MuJoCo's step, to round-off.
  auto s = engine("mujoco_rk4").make(p);
  s->reset(p.initial, p.t0);
  REQUIRE(integrate(*s, FixedSteps{0.0, 0.01, 200}).ok);
  State x(1);
  s->read(x);
  CHECK(test::compare(run(0.01), x.body().R, 1e-12) == "");
  // Its attitude error against RK4 on the quaternion form at h = 1e-4 falls by 4 per halving.
  auto ref = find_scheme("rk4_quat").make(p);
  ref->reset(p.initial, p.t0);
  REQUIRE(integrate(*ref, FixedSteps{0.0, 1e-4, 20000}).ok);
  State r(1);
  ref->read(r);
  const double e1 = (run(0.04) - r.body().R).norm(), e2 = (run(0.02) - r.body().R).norm(),
               e3 = (run(0.01) - r.body().R).norm();
  INFO("errors " << e1 << ", " << e2 << ", " << e3);
  CHECK(e1 / e2 == Approx(4).epsilon(0.1));
  CHECK(e2 / e3 == Approx(4).epsilon(0.1));
}

#endif  // RIGIDBENCH_HAVE_MUJOCO

#ifdef RIGIDBENCH_HAVE_ODE

TEST_CASE("engines: ODE's chains (ball joints in maximal coordinates) converge at first order", "[engines]") {
  check_chain_engine("ode_step", false);
}

TEST_CASE("engines: ODE's state conventions (centre of mass at the origin, world angular velocity)", "[engines]") {
  // The top: ODE's body origin is the centre of mass, R c from the pivot; its angular velocity is in
  // world components. The state read right after a reset is the initial state.
  Problem p = catalogue_problem("heavy_top_realisable");
  p.initial.body().R = test::random_rotation(0.5, 3.0);
  p.initial.body().W = Vec3(0.3, -0.7, 5.0);
  for (const char* name : {"ode_step", "ode_quickstep"}) {
    auto s = engine(name).make(p);
    s->reset(p.initial, p.t0);
    State x(1);
    s->read(x);
    CHECK(test::compare(x.body().R, p.initial.body().R, 1e-15) == "");
    CHECK(test::compare(x.body().W, p.initial.body().W, 1e-14) == "");
    // A step of 1e-7 about the pivot: R0 exp(h W), the pivot held (no drift of the centre of mass
    // off the sphere |x| = |c| beyond the step's second-order term).
    REQUIRE(s->step(0, 1e-7).ok);
    s->read(x);
    CHECK(test::compare(x.body().R, p.initial.body().R * so3::exp(1e-7 * x.body().W), 1e-12) == "");
  }
}

TEST_CASE("engines: ODE's QuickStep run is the same whatever else steps ODE in the process", "[engines]") {
  // dWorldQuickStep draws from ODE's one global generator to order its constraint rows: a world keeps
  // its own stream (ode.cpp, quick_step), so a run alone, a run interleaved step by step with another
  // world, and the same run again after a reset end in the same state bit for bit.
  const Problem p = catalogue_problem("heavy_top_realisable");
  const auto run = [&](AnyIntegrator& s, AnyIntegrator* other) {
    s.reset(p.initial, p.t0);
    if (other) other->reset(p.initial, p.t0);
    for (int k = 0; k < 2000; ++k) {
      REQUIRE(s.step(1e-4 * k, 1e-4).ok);
      if (other) REQUIRE(other->step(1e-4 * k, 2e-4).ok);
    }
    State x(1);
    s.read(x);
    return x;
  };
  auto a = engine("ode_quickstep").make(p), b = engine("ode_quickstep").make(p);
  const State alone = run(*a, nullptr);
  const State interleaved = run(*a, b.get());
  const State again = run(*a, nullptr);
  for (const State* x : {&interleaved, &again}) {
    CHECK((x->body().R.array() == alone.body().R.array()).all());
    CHECK((x->body().W.array() == alone.body().W.array()).all());
  }
}

TEST_CASE("engines: ODE without its gyroscopic term integrates another equation", "[engines]") {
  // gyroscopic=0 drops W x J W from Euler's equations: on the free body the angular velocity stays
  // at its initial value in world components, whatever h, so the error does not fall with h (what
  // `verify --set ode_step.gyroscopic=0` reports as order 0; docs/engines.md).
  const Problem p = catalogue_problem("free_body");
  const SchemeEntry& e = engine("ode_step");
  const auto off = configure_schemes({&e}, {"gyroscopic=0"});
  auto s = off.front().make(p);
  s->reset(p.initial, p.t0);
  REQUIRE(integrate(*s, FixedSteps{0.0, 0.01, 100}).ok);
  State x(1);
  s->read(x);
  const Vec3 w0 = p.initial.body().R * p.initial.body().W;
  CHECK(test::compare(Vec3(x.body().R * x.body().W), w0, 1e-12) == "");
  // With the term (ODE's default) the world angular velocity moves (J is not scalar).
  auto on = e.make(p);
  on->reset(p.initial, p.t0);
  REQUIRE(integrate(*on, FixedSteps{0.0, 0.01, 100}).ok);
  on->read(x);
  CHECK((x.body().R * x.body().W - w0).norm() > 0.1);
}

TEST_CASE("engines: an ODE state that overflows is a breakdown", "[engines]") {
  Problem p = catalogue_problem("free_body");
  p.initial.body().W = Vec3(1e160, 2e160, -1e160);  // J W x W overflows in the first step
  auto s = engine("ode_step").make(p);
  s->reset(p.initial, p.t0);
  const StepStatus st = s->step(0, 0.01);
  REQUIRE_FALSE(st.ok);
  CHECK_THAT(st.reason, Catch::Contains("ODE"));  // ODE's own assertion, e.g. in dxNormalize4
  // The world is not stepped again.
  CHECK_FALSE(s->step(0.01, 0.01).ok);
}

#endif  // RIGIDBENCH_HAVE_ODE

#ifdef RIGIDBENCH_HAVE_BULLET

TEST_CASE("engines: Bullet's state conventions (principal frame at the centre of mass, world angular velocity)",
          "[engines]") {
  // A body whose inertia is not diagonal in its own frame: Bullet's body frame is the principal one,
  // R P, and its angular velocity is in world components. Read right after a reset: the initial state.
  Problem p = catalogue_problem("free_body");
  const Mat3 Q = test::random_rotation(0.5, 2.5);
  p.bodies[0].inertia = Q * Vec3(1, 2, 3).asDiagonal() * Q.transpose();
  p.initial.body().R = test::random_rotation(0.5, 3.0);
  p.finalize();
  for (const char* name : {"bullet_gyro_explicit", "bullet_gyro_implicit_body"}) {
    auto s = engine(name).make(p);
    s->reset(p.initial, p.t0);
    State x(1);
    s->read(x);
    CHECK(test::compare(x.body().R, p.initial.body().R, 1e-14) == "");
    CHECK(test::compare(x.body().W, p.initial.body().W, 1e-14) == "");
    REQUIRE(s->step(0, 1e-7).ok);
    s->read(x);
    CHECK(test::compare(x.body().R, p.initial.body().R * so3::exp(1e-7 * x.body().W), 1e-12) == "");
    // The inertia Bullet was given is J's: over 200 steps of 1e-3 the spatial momentum R J W moves
    // by the first-order error only (~1e-4), where a body of another inertia would turn it by ~0.1.
    s->reset(p.initial, p.t0);
    REQUIRE(integrate(*s, FixedSteps{0.0, 1e-3, 200}).ok);
    s->read(x);
    const Vec3 pi0 = p.initial.body().R * p.inertia() * p.initial.body().W;
    CHECK((x.body().R * p.inertia() * x.body().W - pi0).norm() < 1e-3 * pi0.norm());
  }
  // The top: the centre of mass R c from the pivot, held there by the point-to-point constraint.
  const Problem top = catalogue_problem("heavy_top_realisable");
  auto s = engine("bullet_gyro_implicit_body").make(top);
  s->reset(top.initial, top.t0);
  State x(1);
  s->read(x);
  CHECK(test::compare(x.body().R, top.initial.body().R, 1e-14) == "");
  CHECK(test::compare(x.body().W, top.initial.body().W, 1e-13) == "");
}

TEST_CASE("engines: Bullet's chains, point-to-point constraints and multibody, converge at first order", "[engines]") {
  check_chain_engine("bullet_gyro_implicit_body", false);
  check_chain_engine("bullet_multibody", true);
#ifdef RIGIDBENCH_HAVE_MUJOCO
  // Bullet's multibody step and MuJoCo's Euler step are the same method on a chain: semi-implicit Euler
  // on the same minimal coordinates (each joint's relative quaternion, advanced by the exponential of
  // its relative angular velocity in the child's frame), from two independent codes. Their states
  // agree to round-off where each is 1e-4..1e-3 from the motion (docs/engines.md, "Chains").
  for (const char* problem : {"chain_5", "chain_free"}) {
    const Problem p = catalogue_problem(problem);
    State a(p.bodies.size()), b(p.bodies.size());
    for (auto [name, x] : {std::pair{"bullet_multibody", &a}, std::pair{"mujoco_euler", &b}}) {
      auto s = engine(name).make(p);
      s->reset(p.initial, p.t0);
      REQUIRE(integrate(*s, FixedSteps{p.t0, 1e-3, 100}).ok);
      s->read(*x);
    }
    double d = 0;
    for (std::size_t i = 0; i < p.bodies.size(); ++i)
      d = std::max({d, (a.bodies[i].R - b.bodies[i].R).norm(), (a.bodies[i].W - b.bodies[i].W).norm()});
    INFO(problem << ": Bullet's multibody and MuJoCo's Euler differ by " << d);
    CHECK(d < 1e-10);
  }
#endif
}

TEST_CASE("engines: a step Bullet would clamp is a breakdown", "[engines]") {
  // Bullet limits a step's rotation to pi/4 and slows the body without a word; rigidbench refuses
  // the step instead. free_body's |W| = 1.37: h = 0.6 rotates by 0.82 > pi/4, h = 0.5 by 0.69.
  const Problem p = catalogue_problem("free_body");
  auto s = engine("bullet_gyro_implicit_body").make(p);
  s->reset(p.initial, p.t0);
  CHECK(s->step(0, 0.5).ok);
  s->reset(p.initial, p.t0);
  const StepStatus st = s->step(0, 0.6);
  REQUIRE_FALSE(st.ok);
  CHECK_THAT(st.reason, Catch::Contains("pi/4"));
}

#endif  // RIGIDBENCH_HAVE_BULLET

}  // namespace
}  // namespace rigidbench

#ifdef RIGIDBENCH_HAVE_SIMBODY

namespace rigidbench {
namespace {

TEST_CASE("engines: Simbody's chains (a Ball mobilizer per link) converge at first order", "[engines]") {
  check_chain_engine("simbody_semi_explicit_euler", true);
}

TEST_CASE("engines: Simbody's state conventions (world angular velocity through its own setters)", "[engines]") {
  // Free and Ball mobilizers.
  check_round_trip_and_one_step("simbody_rk3", 1e-12);
}

TEST_CASE("engines: Simbody's variants are selected by name or glob, never by 'all'", "[engines]") {
  engine("simbody_rk3");
  for (const SchemeEntry* e : select_schemes({"all"})) CHECK(std::string(e->info->name).rfind("simbody_", 0) != 0);
  CHECK(select_schemes({"simbody_*"}).size() == 8);
  CHECK(select_schemes({"simbody_verlet"}).front()->info->order == 3);  // Simbody's own word
}

TEST_CASE("engines: a Simbody state that overflows is a breakdown", "[engines]") {
  Problem p = catalogue_problem("free_body");
  p.initial.body().W = Vec3(1e160, 2e160, -1e160);
  auto s = engine("simbody_rk2").make(p);
  s->reset(p.initial, p.t0);
  const StepStatus st = s->step(0, 0.01);
  REQUIRE_FALSE(st.ok);
  CHECK_THAT(st.reason, Catch::Contains("Simbody"));
}

/// Error of `scheme` at t = n h on free_body against RK4 on the quaternion form at h/64.
double error_after(const std::string& scheme, double h, int n) {
  const Problem p = catalogue_problem("free_body");
  auto s = find_scheme(scheme).make(p);
  s->reset(p.initial, p.t0);
  REQUIRE(integrate(*s, FixedSteps{0.0, h, n}).ok);
  auto r = find_scheme("rk4_quat").make(p);
  r->reset(p.initial, p.t0);
  REQUIRE(integrate(*r, FixedSteps{0.0, h / 64, 64 * n}).ok);
  State x(1), y(1);
  s->read(x);
  r->read(y);
  return (x.body().R - y.body().R).norm();
}

TEST_CASE("engines: Simbody's Feldberg and Verlet orders are local orders, reproduced independently", "[engines]") {
  // Simbody's header comments call RungeKuttaFeldbergIntegrator "fifth order" and VerletIntegrator
  // "third order"; verify measures 4.2 and 1.97 on free_body (docs/engines.md, "Simbody"). One step
  // from the initial state errs by O(h^(p+1)): the claims are the local orders of the attitude.
  engine("simbody_verlet");
  const double one_step_feldberg = error_after("simbody_rk_feldberg", 0.2, 1) / error_after("simbody_rk_feldberg", 0.1, 1);
  const double global_feldberg = error_after("simbody_rk_feldberg", 0.04, 50) / error_after("simbody_rk_feldberg", 0.02, 100);
  const double one_step_verlet = error_after("simbody_verlet", 0.02, 1) / error_after("simbody_verlet", 0.01, 1);
  const double global_verlet = error_after("simbody_verlet", 0.02, 100) / error_after("simbody_verlet", 0.01, 200);
  INFO("Feldberg: one step " << one_step_feldberg << ", over [0, 2] " << global_feldberg);
  INFO("Verlet: one step " << one_step_verlet << ", over [0, 2] " << global_verlet);
  CHECK(std::log2(one_step_feldberg) == Approx(5).margin(0.3));
  CHECK(std::log2(global_feldberg) == Approx(4).margin(0.3));
  CHECK(std::log2(one_step_verlet) == Approx(3).margin(0.3));
  CHECK(std::log2(global_verlet) == Approx(2).margin(0.3));

  // Independently of Simbody: Fehlberg's tableau (Fehlberg 1969, Table III) with the weights its
  // step advances - 25/216, 1408/2565, 2197/4104, -1/5 (the fourth-order solution; the fifth-order
  // weights 16/135, ... form only the error estimate) - is a fourth-order method on y' = y.
  const double A[6][5] = {{0, 0, 0, 0, 0},
                          {1.0 / 4, 0, 0, 0, 0},
                          {3.0 / 32, 9.0 / 32, 0, 0, 0},
                          {1932.0 / 2197, -7200.0 / 2197, 7296.0 / 2197, 0, 0},
                          {439.0 / 216, -8.0, 3680.0 / 513, -845.0 / 4104, 0},
                          {-8.0 / 27, 2.0, -3544.0 / 2565, 1859.0 / 4104, -11.0 / 40}};
  const double b4[6] = {25.0 / 216, 0, 1408.0 / 2565, 2197.0 / 4104, -1.0 / 5, 0};
  const double b5[6] = {16.0 / 135, 0, 6656.0 / 12825, 28561.0 / 56430, -9.0 / 50, 2.0 / 55};
  const auto solve = [&](const double* b, int n) {  // y' = y on [0, 1] in n steps: error at 1
    const double h = 1.0 / n;
    double y = 1;
    for (int s = 0; s < n; ++s) {
      double k[6];
      for (int i = 0; i < 6; ++i) {
        double yi = y;
        for (int j = 0; j < i; ++j) yi += h * A[i][j] * k[j];
        k[i] = yi;
      }
      for (int i = 0; i < 6; ++i) y += h * b[i] * k[i];
    }
    return std::abs(y - std::exp(1.0));
  };
  CHECK(std::log2(solve(b4, 16) / solve(b4, 32)) == Approx(4).margin(0.1));
  CHECK(std::log2(solve(b5, 8) / solve(b5, 16)) == Approx(5).margin(0.1));
}

}  // namespace
}  // namespace rigidbench

#endif  // RIGIDBENCH_HAVE_SIMBODY

#ifdef RIGIDBENCH_HAVE_DART

namespace rigidbench {
namespace {

TEST_CASE("engines: DART's chains (a BallJoint per link) converge at first order", "[engines]") {
  check_chain_engine("dart_step", true);
}

TEST_CASE("engines: DART's state conventions (body-frame joint velocities, the body's own frame read back)",
          "[engines]") {
  // FreeJoint and BallJoint; the step turns the body with the new velocity (World::step is
  // semi-implicit Euler), which check_round_trip_and_one_step reads back.
  check_round_trip_and_one_step("dart_step", 1e-14);
}

TEST_CASE("engines: DART is selected by name or glob, never by 'all', and runs in a child process", "[engines]") {
  const SchemeEntry& e = engine("dart_step");
  CHECK(e.info->isolate);
  CHECK_FALSE(e.in_all);
  for (const SchemeEntry* s : select_schemes({"all"})) CHECK(std::string(s->info->name) != "dart_step");
  CHECK(select_schemes({"dart*"}).size() == 1);
}

TEST_CASE("engines: DART's abort on a non-finite state is the run's breakdown, and this process goes on",
          "[engines]") {
  Problem p = catalogue_problem("free_body");
  p.initial.body().W = Vec3(1e160, 2e160, -1e160);
  auto s = engine("dart_step").make(p);
  s->reset(p.initial, p.t0);
  State x(1);
  const IntegrationOutcome r = integrate(*s, FixedSteps{0.0, 0.01, 20}, {.every = 1}, x, NoObserver{});
  // DART's Debian build asserts in the first step (BodyNode::updateBiasForce: a non-finite value).
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.cause, Catch::Contains("killed by signal 6") && Catch::Contains("dart/dynamics/"));
  CHECK(r.steps == 0);
}

}  // namespace
}  // namespace rigidbench

#endif  // RIGIDBENCH_HAVE_DART

#if defined(RIGIDBENCH_HAVE_DART) && defined(RIGIDBENCH_HAVE_SIMBODY)

namespace rigidbench {
namespace {

/// The names of the shared objects mapped into this process.
std::string mapped_objects() {
  std::ifstream f("/proc/self/maps");
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST_CASE("engines: plugins are loaded on first use and each is its own (Simbody then DART in one process)", "[engines]") {
  // ctest runs each case in a process of its own: nothing has made an engine's scheme before.
  const bool fresh = mapped_objects().find("librigidbench_") == std::string::npos;
  engines::register_engines();
  if (fresh) {
    (void)select_schemes({"simbody_*", "dart_step"});  // registering and selecting (as `list` does) load nothing
    CHECK(mapped_objects().find("libSimTKsimbody") == std::string::npos);
    CHECK(mapped_objects().find("libdart") == std::string::npos);
  }
  const Problem p = catalogue_problem("free_body");
  // Each plugin is opened as /proc/self/fd/N of the file checked; the loader knows objects by that
  // name, so a closed and reused N once handed DART's lookup the Simbody plugin ("interface missing").
  auto simbody = engine("simbody_rk2").make(p);
  auto dart = engine("dart_step").make(p);
  CHECK(mapped_objects().find("libSimTKsimbody") != std::string::npos);
  CHECK(mapped_objects().find("libdart") != std::string::npos);
  for (AnyIntegrator* s : {simbody.get(), dart.get()}) {
    s->reset(p.initial, p.t0);
    CHECK(s->step(p.t0, 0.01).ok);
  }
}

}  // namespace
}  // namespace rigidbench

#endif
