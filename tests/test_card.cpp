// The conformance card's verdict rules on their edges (docs/card.md): synthetic schemes whose card is
// known in advance - no gyroscopic term, a term of twice its size, energy gained at a known rate,
// damping at (h|omega|)^2 per step, a clock that runs fast - each get the card they should, and the
// safe-step search finds a step known in closed form.
#include <cmath>
#include <fstream>

#include "../core/json_schema.hpp"
#include "../core/so3.hpp"
#include "../problems/catalogue.hpp"
#include "../reference/analytic.hpp"
#include "../reports/card_report.hpp"
#include "support.hpp"

namespace {

using namespace rigidbench;

SchemeInfo synthetic_info(std::string_view name, std::string_view title, int order) {
  return {.name = name,
          .title = title,
          .source = "tests/test_card.cpp",
          .representation = "R, W",
          .order = order,
          .kind = SchemeKind::explicit_,
          .applies = {.families = {"rigid_body"}},
          .claims = {},
          .notes = ""};
}

/// rk4_quat, then a change of the state after each step: Mod::after(W, h) (and Mod::clock, the factor
/// on the step the scheme is given).
template <class Mod>
struct Modified {
  static const SchemeInfo& info() {
    static const SchemeInfo i = synthetic_info(Mod::name, "rk4_quat with a defect (tests/test_card.cpp)", 4);
    return i;
  }
  explicit Modified(const Problem& p) : s_(find_scheme("rk4_quat").make(p)), x_(1) {}
  void reset(const State& x0, double t0) { s_->reset(x0, t0); }
  StepStatus step(double t, double h) {
    const StepStatus st = s_->step(t, h * Mod::clock);
    if (!st.ok) return st;
    s_->read(x_);
    Mod::after(x_.body().W, h);
    s_->reset(x_, t + h);
    return st;
  }
  void read(State& x) const { s_->read(x); }
  Counters counters() const { return s_->counters(); }

 private:
  std::unique_ptr<AnyIntegrator> s_;
  State x_;
};

struct Gaining {  // W -> (1 + eps h) W: E(t) = E0 exp(2 eps t), a relative rate of 2 eps
  static constexpr const char* name = "gaining";
  static constexpr double clock = 1, eps = 1e-4;
  static void after(Vec3& W, double h) { W *= 1 + eps * h; }
};
struct Damped {  // E -> (1 - (h|W0|)^2) E per step: the (h|omega|)^2 damping MuJoCo 3 documents for implicitfast
  static constexpr const char* name = "damped";
  static constexpr double clock = 1, omega0_squared = 1.89;  // free_body's |W0|^2
  static void after(Vec3& W, double h) { W *= std::sqrt(1 - h * h * omega0_squared); }
};
struct FastClock {  // steps h (1 + delta): the exact motion delta faster, flips delta / (1 + delta) early
  static constexpr const char* name = "fast_clock";
  static constexpr double clock = 1.01;
  static void after(Vec3&, double) {}
};

/// Explicit Euler on J W' = k (J W x W), R <- R exp(h W^): k = 0 drops the gyroscopic term, k = 2
/// doubles it.
template <int k>
struct EulerGyro {
  static const SchemeInfo& info() {
    static const SchemeInfo i = synthetic_info(k == 0 ? "no_gyro" : "double_gyro", "Euler with a scaled gyroscopic term", 1);
    return i;
  }
  explicit EulerGyro(const Problem& p) : J_(p.inertia()), Jinv_(p.inertia_inverse()), x_(1) {}
  void reset(const State& x0, double) { x_ = x0; }
  StepStatus step(double, double h) {
    BodyState& b = x_.body();
    const Vec3 W = b.W;
    b.W += h * double(k) * (Jinv_ * (J_ * W).cross(W));
    b.R = b.R * so3::exp(h * W);
    return StepStatus::success();
  }
  void read(State& x) const { x = x_; }
  Counters counters() const { return {}; }

 private:
  Mat3 J_, Jinv_;
  State x_;
};

/// On a spherical body (W constant, the exact flow a rotation about a fixed axis): R <- R exp(h (1 + c
/// h |W|) W^), a rotation too long by c (h|W|)^2 per step. Its attitude error at T is c (h|W|) T |W|:
/// the safe step for 1e-3 rad is h|W| = 1e-3 / (c T |W|), in closed form.
struct OverRotating {
  static constexpr double c = 0.05;
  static const SchemeInfo& info() {
    static const SchemeInfo i = synthetic_info("over_rotating", "rotation too long by c (h|W|)^2 per step", 1);
    return i;
  }
  explicit OverRotating(const Problem&) : x_(1) {}
  void reset(const State& x0, double) { x_ = x0; }
  StepStatus step(double, double h) {
    BodyState& b = x_.body();
    b.R = b.R * so3::exp(h * (1 + c * h * b.W.norm()) * b.W);
    return StepStatus::success();
  }
  void read(State& x) const { x = x_; }
  Counters counters() const { return {}; }

 private:
  State x_;
};

const std::vector<double> kSweep{1e-3, 1e-2, 1e-1};

}  // namespace

TEST_CASE("card: a scheme without the gyroscopic term is absent, one with twice the term wrong, RK4's present", "[card]") {
  const Problem p = catalogue_problem("free_body");
  const GyroscopicProbe none = probe_gyroscopic(p, scheme_entry<EulerGyro<0>>(), 2.0, 0.02, 4);
  CHECK(none.verdict == "absent");
  CHECK(none.error_constant.back() < 1e-14);
  const GyroscopicProbe twice = probe_gyroscopic(p, scheme_entry<EulerGyro<2>>(), 2.0, 0.02, 4);
  CHECK(twice.verdict == "wrong");
  const GyroscopicProbe once = probe_gyroscopic(p, scheme_entry<EulerGyro<1>>(), 2.0, 0.02, 4);
  CHECK(once.verdict == "present");
  CHECK(std::abs(once.slope_exact - 1) < 0.1);
  const GyroscopicProbe rk4 = probe_gyroscopic(p, find_scheme("rk4_quat"), 2.0, 0.02, 4);
  CHECK(rk4.verdict == "present");
  CHECK(std::abs(rk4.slope_exact - 4) < 0.2);
  // Without the term there is no flip: W never leaves the intermediate axis.
  const FlipStudy flips = study_flips(catalogue_problem("dzhanibekov"), scheme_entry<EulerGyro<0>>(), {1e-2}, 4);
  CHECK(flips.points.at(0).flips_expected == 4);
  CHECK(flips.points.at(0).flips_seen == 0);
}

TEST_CASE("card: W kept to float32's rounding is 'absent' for a float32 scheme, 'wrong' for a double one", "[card]") {
  // Jolt with its gyroscopic force off (the default): W stays at W0 to ~1e-6, a float32 random walk
  // that does not fall with h. In float32's ulps that is the flow without the term; in double's it
  // is neither flow.
  GyroscopicProbe g;
  g.h = {0.02, 0.01, 0.005, 0.0025};
  g.error_exact = {1.15, 1.15, 1.15, 1.15};
  g.error_constant = {9e-7, 1.3e-6, 1.1e-6, 1.25e-6};
  g.separation = 1.15;
  GyroscopicProbe in_double = g;
  CHECK(gyroscopic_verdict(in_double) == "wrong");
  g.eps = unit_roundoff("float32");
  CHECK(gyroscopic_verdict(g) == "absent");
  // A float32 scheme whose W moves off W0 by more than its rounding and does not converge is still wrong.
  g.error_constant = {0.3, 0.3, 0.3, 0.3};
  CHECK(gyroscopic_verdict(g) == "wrong");
}

TEST_CASE("card: energy gained at a known rate is 'gaining' with that rate, and (h|omega|)^2 damping is 'losing'", "[card]") {
  const Problem p = catalogue_problem("free_body");
  const EnergySweep gain = sweep_energy(p, scheme_entry<Modified<Gaining>>(), kSweep, 100);
  CHECK(gain.summary == "gaining");
  for (const SweepPoint& pt : gain.points) {
    INFO("h|omega| = " << pt.h_omega);
    CHECK(pt.energy == "gaining");
    // E/E0 - 1 = exp(2 eps t) - 1: a rate of 2 eps to within the exponential's curvature (1 %).
    CHECK(std::abs(pt.energy_rate / (2 * Gaining::eps) - 1) < 0.02);
    // Scaling W scales E and |L|^2 alike: the polhode keeps its shape, its distance from the separatrix.
    CHECK(std::abs(pt.sigma_end - pt.sigma_start) < 1e-6);  // RK4's own error at h|omega| = 0.1: 2e-7
  }
  const EnergySweep damped = sweep_energy(p, scheme_entry<Modified<Damped>>(), kSweep, 100);
  CHECK(damped.summary == "losing");
  const SweepPoint& fine = damped.points.front();
  CHECK(fine.energy == "losing");
  // E_n / E0 = q^n, q = 1 - (h|W0|)^2. The rate the sweep reports is the mean of E / E0 - 1 over the
  // last tenth of the steps less the mean over the first tenth, over the time between them: the same
  // sums here, to 1 % (RK4's own energy error at this step is 1e-13).
  REQUIRE(p.initial.body().W.squaredNorm() == Approx(Damped::omega0_squared));
  const double q = 1 - fine.h * fine.h * Damped::omega0_squared;
  const std::int64_t N = fine.steps, tenth = N / 10;
  double head = 0, tail = 0;
  for (std::int64_t n = 1; n <= tenth; ++n) head += std::pow(q, double(n)) - 1;
  for (std::int64_t n = N - tenth + 1; n <= N; ++n) tail += std::pow(q, double(n)) - 1;
  const double expected = (tail - head) / double(tenth) / (double(N - tenth) * fine.h);
  CHECK(std::abs(fine.energy_rate / expected - 1) < 0.01);
  for (const SweepPoint& pt : damped.points) CHECK(pt.energy == "losing");
  // RK4 loses energy at large steps and keeps it to round-off at small ones.
  const EnergySweep rk4 = sweep_energy(p, find_scheme("rk4_quat"), {1e-3, 1.0}, 100);
  CHECK(rk4.points.at(0).energy == "exact");
  CHECK(rk4.points.at(1).energy == "losing");
  // Lie-Euler gains energy at a nearly constant |L|: the motion drifts toward the separatrix through the
  // intermediate axis (sigma 0.269 -> 0.17 at h|omega| = 0.01 over 100 s).
  const EnergySweep le = sweep_energy(p, find_scheme("lie_euler"), {1e-2}, 100);
  CHECK(le.points.at(0).energy == "gaining");
  CHECK(le.points.at(0).toward_intermediate);
  CHECK_FALSE(rk4.points.at(0).toward_intermediate);
}

TEST_CASE("card: the flip interval is the closed form's, and a fast clock flips early by delta / (1 + delta)", "[card]") {
  const Problem p = catalogue_problem("dzhanibekov");
  const double tau = torque_free_flip_interval(p);
  // The closed form's W2 changes sign at multiples of tau after its first change.
  std::vector<double> grid;
  for (int i = 0; i <= 4000; ++i) grid.push_back(p.t0 + 20.0 * i / 4000);
  const AnalyticSolution exact = torque_free_analytic(p, grid);
  std::vector<double> zeros;
  for (std::size_t i = 1; i < grid.size(); ++i) {
    const double a = exact.states[i - 1].body().W(1), b = exact.states[i].body().W(1);
    if ((a > 0) != (b > 0)) zeros.push_back(grid[i - 1] + (grid[i] - grid[i - 1]) * a / (a - b));
  }
  REQUIRE(zeros.size() >= 3);
  CHECK(std::abs((zeros.back() - zeros.front()) / double(zeros.size() - 1) / tau - 1) < 1e-5);
  const FlipStudy rk4 = study_flips(p, find_scheme("rk4_quat"), {1e-2}, 4);
  CHECK(rk4.points.at(0).flips_seen == 4);
  CHECK(std::abs(rk4.points.at(0).interval_error) < 1e-6);
  const FlipStudy fast = study_flips(p, scheme_entry<Modified<FastClock>>(), {1e-2}, 4);
  const double delta = FastClock::clock - 1;
  CHECK(std::abs(fast.points.at(0).interval_error / (-delta / (1 + delta)) - 1) < 1e-3);
}

TEST_CASE("card: the safe-step search brackets a step known in closed form", "[card]") {
  // On a closed form alone: error C / n^2 at N = 20 n steps; safe for n >= sqrt(C / tol).
  const double C = 5.0, tol = 1e-3;
  const auto n_star = std::int64_t(std::ceil(std::sqrt(C / tol)));  // 71
  int calls = 0;
  const SafeStep s = search_safe_step([&](std::int64_t n) -> std::optional<std::string> {
    ++calls;
    return C / double(n * n) <= tol ? std::nullopt : std::optional<std::string>("attitude");
  }, 10000, 20, 2.0, 10.0);
  const auto h_omega = [](std::int64_t n) { return 2.0 * 10.0 / (double(n) * 20); };
  CHECK(s.safe_h_omega <= h_omega(n_star) * (1 + 1e-12));
  CHECK(s.unsafe_h_omega > h_omega(n_star));
  CHECK(s.unsafe_h_omega / s.safe_h_omega < 1.05);
  CHECK(s.limited_by == "attitude");
  CHECK(s.runs == calls);
  // On a scheme: a spherical body whose attitude error after T is c (h|W|) T |W|.
  Problem p;
  p.name = "spinning_sphere";
  p.bodies = {BodyModel{Mat3::Identity(), 1.0}};
  p.initial = State(1);
  p.initial.body().W = Vec3(0.6, 0, 0.8) * 2.0;
  p.t_end = 10;
  p.verification = {.h0 = 0.1, .levels = 4, .h0_order1 = std::nullopt, .sample_times = {}};
  p.finalize();
  const SafeStep r = find_safe_step(p, scheme_entry<OverRotating>(), SafeStepLimits{}, 1e-4);
  const double exact = 1e-3 / (OverRotating::c * 10 * 2.0);  // h|W| = 1e-3 / (c T |W|) = 1e-3
  INFO("safe " << r.safe_h_omega << ", unsafe " << r.unsafe_h_omega << ", exact " << exact);
  CHECK(r.safe_h_omega <= exact * (1 + 1e-9));
  CHECK(r.unsafe_h_omega > exact);
  CHECK(r.unsafe_h_omega / r.safe_h_omega < 1.05);
  CHECK(r.limited_by == "attitude");
}

TEST_CASE("card: separatrix distance is 1 on a principal spin, 0 on the separatrix", "[card]") {
  Problem p = catalogue_problem("free_body");  // J = diag(1, 2, 3)
  State x = p.initial;
  x.body().W = Vec3(0, 0, 1);
  CHECK(separatrix_distance(p, x) == Approx(1.0));
  x.body().W = Vec3(1, 0, 0);
  CHECK(separatrix_distance(p, x) == Approx(1.0));
  // L^2 = 2 E J2: W1^2 (J1^2 - J1 J2) + W3^2 (J3^2 - J3 J2) = 0 -> W1^2 = 3 W3^2.
  x.body().W = Vec3(std::sqrt(3.0), 0.3, 1);
  CHECK(std::abs(separatrix_distance(p, x)) < 1e-12);
}

TEST_CASE("card: a card is written, valid against its schema, and read back the same", "[card]") {
  CardRequest req;
  req.h_omega = {1e-2, 1e-1};
  req.sweep_span = 20;
  req.flip_intervals = 2;
  req.measure_cost = false;
  req.determinism_steps = 200;
  req.safe_min_h_omega = 1e-3;
  ConformanceCard c = make_card(find_scheme("lgvi"), req);
  CHECK(c.status == "ok");
  CHECK(c.gyroscopic.verdict == "present");
  CHECK(c.determinism.same_process == "identical");
  CHECK(c.determinism.across_threads == "identical");
  // The discrete Moser-Veselov map keeps the free body's energy exactly (docs/card.md).
  CHECK(c.energy.summary == "exact");
  const CardReport r = CardReport::of({c}, {"test"}, "now");
  const nlohmann::ordered_json j = r.to_json();
  const nlohmann::json plain = nlohmann::json::parse(j.dump());
  REQUIRE_NOTHROW(validate_document(plain, DocumentSchema::card, "test"));
  CHECK(CardReport::read(plain, "test").to_json().dump() == j.dump());
}

TEST_CASE("card: bad input is refused with exit 2 before any work", "[card]") {
  const std::string file = test::tmp_path("card-out-is-a-file");
  { std::ofstream(file) << "x"; }
  const test::CommandResult a = test::run_cli("card --integrator lgvi --quiet --out " + file);
  CHECK(a.exit_code == 2);
  CHECK(a.output.find("is a file") != std::string::npos);
  const test::CommandResult b = test::run_cli("card --integrator no_such_scheme --quiet --out " + test::tmp_path("card-x"));
  CHECK(b.exit_code == 2);
  CHECK(b.output.find("no registered integrator matches") != std::string::npos);
  CardRequest req;
  req.h_omega = {1e-3, std::nan("")};
  CHECK_THROWS_AS(check_card_request(req), InputError);
  req.h_omega = {1e-3};
  req.sweep_span = 1e9;  // a sweep that would never end
  CHECK_THROWS_AS(check_card_request(req), InputError);
}
