// The integration driver (integrators/integrate.hpp): step times computed on the grid, observations
// where the plan puts them, the landing last step, resumed runs, every kind of breakdown, and the
// isolated schemes' runs in a child process.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <stdexcept>
#include <vector>

#include "../core/so3.hpp"
#include "../integrators/integrate.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

/// A recording scheme: W = (t, steps, 0) after each step; fails or turns non-finite at a chosen step.
struct Recorder {
  std::vector<double> t_in, h_in;
  double t = 0;
  std::int64_t n = 0, fail_at = -1, nan_at = -1;
  mutable int reads = 0;
  bool nan = false;
  void reset(const State&, double t0) { t = t0, n = 0, nan = false; }
  StepStatus step(double tn, double h) {
    if (n == fail_at) return StepStatus::breakdown("the test's breakdown");
    t_in.push_back(tn), h_in.push_back(h);
    t = tn + h;
    if (n == nan_at) nan = true;
    ++n;
    return StepStatus::success();
  }
  void read(State& x) const {
    ++reads;
    x = State(1);
    x.body().W = Vec3(nan ? std::numeric_limits<double>::quiet_NaN() : t, double(n), 0);
  }
};

}  // namespace

TEST_CASE("driver: step times are t0 + n h, observations every k-th step with their index and time", "[integrate]") {
  Recorder s;
  s.reset(State(1), 0.5);
  State x;
  std::vector<Observation> seen;
  const FixedSteps grid{0.5, 0.1, 12};
  const IntegrationOutcome r =
      integrate(s, grid, {.every = 4, .initial = true}, x, [&](const Observation& o, const State&) { seen.push_back(o); });
  REQUIRE(r.ok);
  CHECK(r.steps == 12);
  CHECK(r.t == 0.5 + 12 * 0.1);
  REQUIRE(s.t_in.size() == 12);
  for (std::size_t n = 0; n < 12; ++n) {
    CHECK(s.t_in[n] == 0.5 + double(n) * 0.1);  // computed, never accumulated: bit for bit
    CHECK(s.h_in[n] == 0.1);
  }
  REQUIRE(seen.size() == 4);  // initial, after 4, 8, 12
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK(seen[j].index == std::int64_t(j));
    CHECK(seen[j].steps == std::int64_t(4 * j));
    CHECK(seen[j].t == 0.5 + double(4 * j) * 0.1);
  }
  CHECK(s.reads == 4);
}

TEST_CASE("driver: a landing last step ends exactly on t_end and is observed", "[integrate]") {
  const FixedSteps grid = FixedSteps::covering(0.0, 1.05, 0.1, 1e6);
  REQUIRE(grid.steps == 11);
  Recorder s;
  State x;
  std::vector<double> times;
  const IntegrationOutcome r = integrate(s, grid, {.every = 5, .last = true}, x,
                                         [&](const Observation& o, const State&) { times.push_back(o.t); });
  REQUIRE(r.ok);
  CHECK(times == std::vector<double>{0.5, 1.0, 1.05});
  CHECK(s.h_in.back() == 1.05 - 1.0);
  CHECK(r.t == 1.05);
  // Without `last`, an end off the observation stride is not observed.
  Recorder u;
  times.clear();
  integrate(u, grid, {.every = 5}, x, [&](const Observation& o, const State&) { times.push_back(o.t); });
  CHECK(times == std::vector<double>{0.5, 1.0});
  CHECK_THROWS_AS(FixedSteps::covering(0.0, 1.0, 2.0, 1e6), InputError);
  CHECK_THROWS_AS(FixedSteps::covering(0.0, 1.0, std::nan(""), 1e6), InputError);
  CHECK_THROWS_AS(FixedSteps::covering(0.0, 1.0, 1e-9, 1e6), InputError);
}

TEST_CASE("driver: a run resumed at step `from` takes the same times as one run", "[integrate]") {
  Recorder one, two;
  integrate(one, FixedSteps{0.0, 0.3, 10});
  integrate(two, FixedSteps{.t0 = 0.0, .h = 0.3, .steps = 4});
  const IntegrationOutcome r = integrate(two, FixedSteps{.t0 = 0.0, .h = 0.3, .steps = 10, .from = 4});
  CHECK(r.steps == 10);
  CHECK(one.t_in == two.t_in);
  CHECK(one.reads == 0);  // no observer, no read-out
}

TEST_CASE("driver: breakdowns end the run with where and why", "[integrate]") {
  State x;
  const auto ignore = [](const Observation&, const State&) {};
  SECTION("a failed step") {
    Recorder s;
    s.fail_at = 3;
    const IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.25, 8}, {}, x, ignore);
    CHECK_FALSE(r.ok);
    CHECK(r.steps == 3);
    CHECK(r.t == 0.75);
    CHECK(r.cause == "the test's breakdown");
    CHECK(r.reason == "step 3 (t = 0.75, h = 0.25): the test's breakdown");
  }
  SECTION("a non-finite state, caught at the next observation") {
    Recorder s;
    s.nan_at = 2;  // the state after step 2 (3 steps taken) is NaN
    int observed = 0;
    const IntegrationOutcome r =
        integrate(s, FixedSteps{0.0, 0.25, 8}, {.every = 4}, x, [&](const Observation&, const State&) { ++observed; });
    CHECK_FALSE(r.ok);
    CHECK(observed == 0);  // the observer never sees it
    CHECK(r.steps == 4);
    CHECK(r.cause == "non-finite state");
    CHECK(r.reason == "non-finite state at the observation after step 3 (t = 1, h = 0.25)");
  }
  SECTION("an observer that refuses the state") {
    Recorder s;
    const IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.25, 8}, {.every = 2}, x,
                                           [&](const Observation& o, const State&) {
                                             return o.steps == 6 ? StepStatus::breakdown("the energy is not finite")
                                                                 : StepStatus::success();
                                           });
    CHECK_FALSE(r.ok);
    CHECK(r.steps == 6);
    CHECK(s.n == 6);  // no step after the refusal
    CHECK(r.reason == "the energy is not finite");
  }
}

TEST_CASE("driver: simulate writes t0, every k-th step and t_end from the problem's initial state", "[integrate]") {
  const Problem p = catalogue_problem("free_body");
  auto integ = find_scheme("rk4_quat").make(p);
  const Trajectory tr = simulate(*integ, p, 0.1, p.t0 + 1.05, 4);
  REQUIRE(tr.ok);
  CHECK(tr.t == std::vector<double>{p.t0, p.t0 + 4 * 0.1, p.t0 + 8 * 0.1, p.t0 + 1.05});
  REQUIRE(tr.states.size() == 4);
  CHECK(tr.states[0].body().W == p.initial.body().W);
}

// ---- isolated schemes (integrate.hpp, "Isolated schemes") -------------------------------------------
namespace {

/// A body turning at a constant W (R <- R exp(h W)), run in a child process when `isolate`; at chosen
/// steps it aborts after a last word on standard error (as an engine's assertion does), throws an
/// InputError, or breaks down.
class Turning final : public AnyIntegrator {
 public:
  explicit Turning(bool isolate) : info_(make_info(isolate)) {}
  const SchemeInfo& info() const override { return info_; }
  void reset(const State& x0, double) override { x_ = x0; }
  StepStatus step(double, double h) override {
    if (n_ == abort_at) {
      std::fprintf(stderr, "turning.cpp:12: step: Assertion `finite(q)' failed.\n");
      std::abort();
    }
    if (n_ == throw_at) throw InputError("the step is too large for this chart");
    if (n_ == bad_alloc_at) throw std::bad_alloc();
    if (n_ == fail_at) return StepStatus::breakdown("the test's breakdown");
    x_.body().R = x_.body().R * so3::exp(h * x_.body().W);
    ++n_;
    return StepStatus::success();
  }
  void read(State& x) const override {
    if (n_ == read_throw_at) throw std::runtime_error("Simbody: State::getQ(): the stage is not realized");
    x = x_;
  }
  Counters counters() const override { return {.load_evaluations = std::uint64_t(n_)}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }
  std::int64_t abort_at = -1, throw_at = -1, fail_at = -1, read_throw_at = -1, bad_alloc_at = -1;

 private:
  static SchemeInfo make_info(bool isolate) {
    return {.name = "turning", .title = "", .source = "", .representation = "", .order = 1,
            .kind = SchemeKind::explicit_, .applies = {}, .claims = {}, .notes = "", .isolate = isolate};
  }
  SchemeInfo info_;
  State x_;
  std::int64_t n_ = 0;
};

State turning_start() {
  State x(1);
  x.body().R = test::random_rotation(0.4, 2.0);
  x.body().W = Vec3(0.3, -1.1, 2.0);
  return x;
}

}  // namespace

TEST_CASE("driver: an isolated scheme observes the states it would in this process, and its runs chain",
          "[integrate]") {
  const State x0 = turning_start();
  std::vector<State> seen[2];
  State end[2];
  for (int isolate = 0; isolate < 2; ++isolate) {
    Turning s(isolate == 1);
    s.reset(x0, 0);
    State x(1);
    const auto keep = [&](const Observation&, const State& y) { seen[isolate].push_back(y); };
    IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.01, 6}, {.every = 2, .initial = true}, x, keep);
    REQUIRE(r.ok);
    CHECK(r.steps == 6);
    // Resumed at step 6: the scheme here must hold the state the child reached.
    r = integrate(s, FixedSteps{.t0 = 0.0, .h = 0.01, .steps = 10, .from = 6}, {.every = 2}, x, keep);
    REQUIRE(r.ok);
    CHECK(r.t == 0.01 * 10);
    s.read(end[isolate]);
  }
  REQUIRE(seen[0].size() == 6);
  REQUIRE(seen[1].size() == seen[0].size());
  for (std::size_t i = 0; i < seen[0].size(); ++i) CHECK(test::compare(seen[1][i].body().R, seen[0][i].body().R, 0.0) == "");
  CHECK(test::compare(end[1].body().R, end[0].body().R, 0.0) == "");
  CHECK(test::compare(end[1].body().R, x0.body().R, 1e-3) != "");  // it did turn
}

TEST_CASE("driver: an isolated scheme that aborts is a breakdown with the signal and its last words",
          "[integrate]") {
  Turning s(true);
  s.abort_at = 5;
  s.reset(turning_start(), 0);
  State x(1);
  int observed = 0;
  const IntegrationOutcome r =
      integrate(s, FixedSteps{0.0, 0.01, 10}, {.every = 2}, x, [&](const Observation&, const State&) { ++observed; });
  CHECK(observed == 2);  // after steps 2 and 4; the abort comes in step 5 (the sixth)
  CHECK_FALSE(r.ok);
  CHECK(r.steps == 4);
  CHECK(r.failed_at == Approx(0.06));
  CHECK_THAT(r.cause, Catch::Contains("killed by signal 6") && Catch::Contains("Assertion `finite(q)' failed."));
  CHECK_THAT(r.reason, Catch::StartsWith("after step 4 (t = 0.04), before t = 0.06: the scheme's process was killed"));
}

TEST_CASE("driver: what a scheme throws from step or read is its breakdown, here and isolated, and the observer's propagates",
          "[integrate][security]") {
  // Before, an exception from step() or read() - Simbody's from its state read-out - left the
  // driver and ended the whole command (exit 3 or 2) with no report.
  for (const bool isolate : {false, true}) {
    CAPTURE(isolate);
    State x(1);
    {
      Turning s(isolate);
      s.throw_at = 1;
      s.reset(turning_start(), 0);
      const IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.01, 4}, x);
      CHECK_FALSE(r.ok);
      CHECK(r.reason == "step 1 (t = 0.01, h = 0.01): the scheme threw: the step is too large for this chart");
      CHECK(r.steps == 1);
      CHECK(r.failed_at == Approx(0.02));
    }
    {
      Turning s(isolate);
      s.read_throw_at = 4;
      s.reset(turning_start(), 0);
      int seen = 0;
      const IntegrationOutcome r =
          integrate(s, FixedSteps{0.0, 0.25, 8}, {.every = 2}, x, [&](const Observation&, const State&) { ++seen; });
      CHECK_FALSE(r.ok);
      CHECK(seen == 1);
      CHECK_THAT(r.cause, Catch::Contains("the scheme threw: Simbody: State::getQ()"));
    }
    {
      Turning s(isolate);
      s.bad_alloc_at = 0;
      s.reset(turning_start(), 0);
      const IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.25, 8}, x);
      CHECK_FALSE(r.ok);
      CHECK_THAT(r.cause, Catch::Contains("the scheme threw: std::bad_alloc"));
    }
  }
  Turning s(false);
  s.reset(turning_start(), 0);
  State x(1);
  CHECK_THROWS_MATCHES(integrate(s, FixedSteps{0.0, 0.25, 8}, {.every = 2}, x,
                                 [](const Observation&, const State&) { throw std::logic_error("the harness's own bug"); }),
                       std::logic_error, Catch::Message("the harness's own bug"));
}

TEST_CASE("driver: timed runs isolate as observed runs do, timed where they run", "[integrate][security]") {
  // verify's cost run and bench's timings ran an isolated scheme in this process: DART aborting on a
  // fast spin ended verify after its pair had already been reported a breakdown.
  Turning s(true);
  s.abort_at = 500;
  s.reset(turning_start(), 0);
  const TimedRun dies = timed_run(s, FixedSteps{0.0, 1e-3, 1000}, 1);
  CHECK_FALSE(dies.outcome.ok);
  CHECK_THAT(dies.outcome.cause, Catch::Contains("killed by signal 6"));
  for (const bool isolate : {false, true}) {
    Turning t(isolate);
    t.reset(turning_start(), 0);
    const TimedRun r = timed_run(t, FixedSteps{0.0, 1e-3, 20000}, 1);
    REQUIRE(r.outcome.ok);
    CHECK(r.cpu_seconds > 0);
    CHECK(r.wall_seconds >= r.cpu_seconds * 0.5);
    CHECK(r.wall_seconds < 5);
    CHECK(r.counters.load_evaluations == 20000);  // the child's counters, brought back
  }
}

TEST_CASE("registry: a registered scheme that cannot be made is a breakdown at its first step", "[integrate][security]") {
  // MuJoCo refusing a body of mass 1e-16 ended the whole verify (exit 2, no report), even with MuJoCo
  // only in the default selection.
  static const SchemeInfo info{.name = "refuses", .title = "", .source = "", .representation = "", .order = 1,
                               .kind = SchemeKind::explicit_, .applies = {}, .claims = {}, .notes = ""};
  SchemeEntry e{&info, [](const Problem&, const SchemeSettings&) -> std::unique_ptr<AnyIntegrator> {
                  throw InputError("Engine refused the model (mass below its minimum)");
                },
                {}, false, SchemeOrigin::registered};
  const Problem p = catalogue_problem("free_body");
  const auto s = e.make(p);
  s->reset(p.initial, p.t0);
  State x(1);
  const IntegrationOutcome r = integrate(*s, FixedSteps{0.0, 0.1, 3}, x);
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.reason, Catch::Contains("could not be made for problem 'free_body'") &&
                           Catch::Contains("Engine refused the model"));
  // A built-in's exception is rigidbench's own: it propagates.
  e.origin = SchemeOrigin::builtin;
  CHECK_THROWS_AS(e.make(p), InputError);
}

TEST_CASE("driver: an isolated scheme's errors and breakdowns are the ones it has in this process", "[integrate]") {
  State x(1);
  SECTION("a failed step") {
    Turning s(true);
    s.fail_at = 3;
    s.reset(turning_start(), 0);
    const IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.25, 8}, x);
    CHECK_FALSE(r.ok);
    CHECK(r.reason == "step 3 (t = 0.75, h = 0.25): the test's breakdown");
  }
  SECTION("an observer here that refuses a state ends the child") {
    Turning s(true);
    s.reset(turning_start(), 0);
    const IntegrationOutcome r = integrate(s, FixedSteps{0.0, 0.25, 8}, {.every = 2}, x, [&](const Observation& o, const State&) {
      return o.steps == 4 ? StepStatus::breakdown("refused here") : StepStatus::success();
    });
    CHECK_FALSE(r.ok);
    CHECK(r.steps == 4);
    CHECK(r.reason == "refused here");
  }
}
