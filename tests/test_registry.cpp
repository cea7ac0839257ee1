// The open registries: a program's own schemes and problems join the built-in ones and are run,
// benchmarked and reported exactly like them (docs/extending.md).
#include <algorithm>
#include <set>

#include "../benchmarks/step_benchmarks.hpp"
#include "../core/names.hpp"
#include "../core/so3.hpp"
#include "../problems/catalogue.hpp"
#include "../reference/reference.hpp"
#include "../reports/report.hpp"
#include "../reports/styles.hpp"
#include "../verification/suite.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

/// A scheme defined outside the built-in list: Lie-Euler's update under a name of its own (a working
/// scheme, so that a registration leaking into other cases of this process is harmless).
template <class Name>
class EulerNamed final {
 public:
  static const SchemeInfo& info() {
    static const SchemeInfo i{.name = Name::value,
                              .title = "Lie-Euler registered from a test",
                              .source = "tests/test_registry.cpp",
                              .representation = "R, W",
                              .order = 1,
                              .kind = SchemeKind::explicit_,
                              .applies = {.families = {"rigid_body"}},
                              .claims = {.constraint = Claim::exact},
                              .notes = ""};
    return i;
  }
  explicit EulerNamed(const Problem& p) : s_(p) {}
  void reset(const State& x0, double t0) { s_.reset(x0, t0); }
  StepStatus step(double t, double h) { return s_.step(t, h); }
  void read(State& x) const { s_.read(x); }
  Counters counters() const { return s_.counters(); }

 private:
  LieEuler s_;
};
struct OutsideName {
  static constexpr std::string_view value = "test_outside_euler";
};
struct BadNameValue {
  static constexpr std::string_view value = "Bad Name";
};
struct TakenNameValue {
  static constexpr std::string_view value = "terze";
};
struct UnregisteredName {
  static constexpr std::string_view value = "test_never_registered";
};
using OutsideEuler = EulerNamed<OutsideName>;
using BadName = EulerNamed<BadNameValue>;
using TakenName = EulerNamed<TakenNameValue>;

const SchemeEntry& outside_entry() {
  static const SchemeEntry& e = register_scheme<OutsideEuler>();
  return e;
}

}  // namespace

TEST_CASE("registry: an outside scheme joins the built-ins - bad and taken names are refused", "[registry]") {
  const SchemeEntry& e = outside_entry();
  CHECK_FALSE(e.builtin);
  CHECK(&find_scheme("test_outside_euler") == &e);
  const auto all = select_schemes({"all"});
  CHECK(std::find(all.begin(), all.end(), &e) != all.end());
  const auto globbed = select_schemes({"test_outside_*"});
  REQUIRE(globbed.size() == 1);
  CHECK(globbed.front() == &e);
  CHECK(find_scheme("terze").builtin);
  CHECK_THROWS_WITH(register_scheme<OutsideEuler>(), Catch::Contains("taken by another registered scheme"));
  CHECK_THROWS_WITH(register_scheme<TakenName>(), Catch::Contains("taken by a built-in scheme"));
  CHECK_THROWS_WITH(register_scheme<BadName>(), Catch::Contains("a-z, 0-9 and _"));
  CHECK(baseline_scheme().builtin);
}

TEST_CASE("registry: an outside scheme is verified, reported and benchmarked like a built-in", "[registry]") {
  const SchemeEntry& e = outside_entry();
  SuiteRequest req;
  req.integrators = {"test_outside_euler"};
  req.problems = {"free_body"};
  req.ladder.levels = 4;
  req.progress = false;
  req.measure_cost = false;
  req.jobs = 1;
  const SuiteResult s = run_suite(req);
  REQUIRE(s.results.size() == 1);
  const PairResult& r = s.results.front();
  CHECK(r.status == "ok");
  CHECK(r.info == e.info);
  // Lie-Euler's update: first order, on SO(3) to round-off.
  CHECK(r.convergence.at("attitude_error_final").verdict == Verdict::pass);
  const auto j = suite_report(s, {}, iso8601_now());
  const auto& jr = j["results"][0];
  CHECK(jr["integrator"] == "test_outside_euler");
  CHECK(jr["scheme"]["title"] == "Lie-Euler registered from a test");
  CHECK(jr["scheme"]["builtin"] == false);
  CHECK(jr["invariants"]["orthogonality"]["verdict"] == "pass");
  // Its figure style travels in the report: drawn from its name, dotted like every outside scheme's.
  CHECK(j["styles"]["test_outside_euler"]["line"] == ":");

  // The benchmark pairs include it beside the two baselines; its fixed-work run steps the same object.
  std::vector<Problem> problems{catalogue_problem("free_body")};
  const auto pairs = bench_pairs({&e}, problems);
  REQUIRE(pairs.size() == 3);
  CHECK(pairs[0].scheme == &baseline_scheme());
  CHECK(pairs[1].scheme == &rk4_baseline_scheme());
  CHECK(pairs[2].scheme == &e);
  CHECK(cpu_seconds_of_run(e, problems[0], 0.01, 100).fastest > 0);
}

TEST_CASE("registry: a pair verified with an unregistered entry still gets a report", "[registry]") {
  using Unregistered = EulerNamed<UnregisteredName>;
  const SchemeEntry e = scheme_entry<Unregistered>();
  const Problem p = catalogue_problem("free_body");
  const Ladder L = make_ladder(p, 1, {.levels = 3});
  const ReferenceSolution ref = compute_reference(p, L.obs_times(), {.cache_dir = ""});
  const PairResult r = verify_pair(p, e, L, ref);
  const auto j = pair_to_json(r, &p);
  CHECK(j["integrator"] == "test_never_registered");
  CHECK(j["scheme"]["builtin"] == false);
  CHECK(j["convergence"].contains("attitude_error_final"));
}

TEST_CASE("registry: an outside problem joins the catalogue", "[registry]") {
  static const bool once = [] {
    register_problem("test_outside_top", [] {
      Problem p = catalogue_problem("heavy_top");
      p.name = "test_outside_top";
      p.initial.body().W = Vec3(0, 0, 40.0);
      return p;
    }, false);
    return true;
  }();
  CHECK(once);
  const auto names = catalogue_names();
  CHECK(std::find(names.begin(), names.end(), "test_outside_top") != names.end());
  const auto quick = quick_problem_names();
  CHECK(std::find(quick.begin(), quick.end(), "test_outside_top") == quick.end());
  CHECK_FALSE(builtin_problem("test_outside_top"));
  CHECK(builtin_problem("heavy_top"));
  const Problem p = catalogue_problem("test_outside_top");
  CHECK(p.initial.body().W.z() == 40.0);
  CHECK(p.invariants().size() == catalogue_problem("heavy_top").invariants().size());
  CHECK_THROWS_WITH(register_problem("heavy_top", [] { return Problem{}; }), Catch::Contains("taken by a built-in"));
  CHECK_THROWS_WITH(register_problem("Heavy", [] { return Problem{}; }), Catch::Contains("a-z, 0-9 and _"));
  // Refused where they are registered, and not added: a problem named otherwise, an invalid one.
  CHECK_THROWS_WITH(register_problem("test_misnamed", [] { return catalogue_problem("free_body"); }),
                    Catch::Contains("must agree"));
  CHECK_THROWS_WITH(register_problem("test_not_spd", [] {
                      Problem p = catalogue_problem("free_body");
                      p.name = "test_not_spd";
                      p.bodies[0].inertia(2, 2) = -1.0;
                      return p;
                    }),
                    Catch::Contains("not positive definite"));
  CHECK_THROWS_WITH(catalogue_problem("test_misnamed"), Catch::Contains("unknown problem"));
}

TEST_CASE("registry: model families are looked up by name - names are unique", "[registry]") {
  CHECK(find_family("rigid_body").name() == "rigid_body");
  CHECK_THROWS_WITH(find_family("fluid"), Catch::Contains("unknown model family 'fluid'") && Catch::Contains("body_system"));
  struct Dummy final : Family {
    std::string_view name() const override { return "rigid_body"; }
    std::string_view title() const override { return "a second rigid_body"; }
    void validate(Problem&) const override {}
    std::vector<InvariantGroup> invariants(const Problem&) const override { return {}; }
    double energy(const Problem&, const State&) const override { return 0; }
    std::vector<std::string> formulations(const Problem&) const override { return {}; }
  };
  CHECK_THROWS_WITH(register_family(std::make_unique<Dummy>()), Catch::Contains("the name is taken"));
  std::size_t n = 0;
  for (const Family* f : all_families()) n += f->name() == "rigid_body";
  CHECK(n == 1);
  // Every catalogue problem's invariants come from its family, one definition per evaluated value.
  for (const auto& name : catalogue_names()) {
    const Problem p = catalogue_problem(name);
    std::vector<double> v(p.invariants().size(), std::nan(""));
    p.evaluate_invariants(p.initial, v.data());
    for (std::size_t i = 0; i < v.size(); ++i) {
      INFO(name << ": " << p.invariants()[i].name);
      CHECK(std::isfinite(v[i]));
    }
  }
}

TEST_CASE("registry: an outside family's equations get a reference through a registered solver", "[registry][reference]") {
  // A family with equations of its own: a spherical body (J = j I) whose spin is constant, so the
  // exact flow is R(t) = R0 exp((t - t0) W0). Its solver is registered for its equations under a
  // formulation name of its own: formulations are names, not a closed list.
  struct UniformSpin final : Family {
    std::string_view name() const override { return "test_uniform_spin"; }
    std::string_view title() const override { return "torque-free sphere"; }
    void validate(Problem& p) const override {
      const Mat3& J = p.bodies[0].inertia;
      if ((J - J(0, 0) * Mat3::Identity()).norm() > 1e-12 * J.norm())
        throw InputError("test_uniform_spin: the inertia must be spherical");
    }
    std::vector<InvariantGroup> invariants(const Problem&) const override { return {}; }
    double energy(const Problem& p, const State& s) const override {
      return 0.5 * s.body().W.dot(p.bodies[0].inertia * s.body().W);
    }
    std::vector<std::string> formulations(const Problem&) const override { return {"spin_closed_form"}; }
  };
  static const bool registered = [] {
    register_family(std::make_unique<UniformSpin>());
    return true;
  }();
  (void)registered;
  Problem p = catalogue_problem("free_body");
  p.name = "test_sphere";
  p.family = &find_family("test_uniform_spin");
  p.bodies[0].inertia = 2.0 * Mat3::Identity();
  p.finalize();
  const std::vector<double> grid{p.t0, p.t0 + 0.5, p.t0 + 1.0};
  // No solver yet: the family lists spin_closed_form but nothing solves its equations, and the name
  // is not known.
  CHECK(applicable_formulations(p).empty());
  CHECK_FALSE(formulation_from_string("spin_closed_form"));
  const Formulation own{"spin_closed_form"};
  CHECK_THROWS_WITH(compute_reference(p, grid), Catch::Contains("no formulation solves problem 'test_sphere'"));
  int calls = 0;
  // A formulation name is a cache and report key: one to 64 of a-z, 0-9 and _; "analytic" is the closed form.
  const auto none = [](const Problem&, const std::vector<double>&, double, const ReferenceSettings&) { return ReferenceRun{}; };
  CHECK_THROWS_WITH(register_reference_solver({"test_uniform_spin", Formulation{"Spin form"}, "bad", false, false, none}),
                    Catch::Contains("'Spin form' is not one to 64 of a-z, 0-9 and _"));
  CHECK_THROWS_WITH(register_reference_solver({"test_uniform_spin", Formulation::analytic, "bad", false, false, none}),
                    Catch::Contains("'analytic' is the closed form"));
  register_reference_solver({"test_uniform_spin", own, "uniform_spin_closed_form", false, false,
                             [&calls](const Problem& q, const std::vector<double>& t, double, const ReferenceSettings&) {
                               ++calls;
                               ReferenceRun r;
                               for (double ti : t) {
                                 State s = q.initial;
                                 s.body().R = q.initial.body().R * so3::exp((ti - q.t0) * q.initial.body().W);
                                 r.states.push_back(s);
                               }
                               return r;
                             }});
  CHECK_THROWS_WITH(register_reference_solver({"test_uniform_spin", own, "again", false, false, none}),
                    Catch::Contains("already solved by 'uniform_spin_closed_form'"));
  REQUIRE(applicable_formulations(p) == std::vector<Formulation>{own});
  CHECK(formulation_from_string("spin_closed_form") == own);
  const auto names = formulation_names();
  CHECK(std::count(names.begin(), names.end(), "spin_closed_form") == 1);
  CHECK(names.front() == "analytic");
  const ReferenceSolution r = compute_reference(p, grid);
  CHECK(calls == 4);  // each unit's pilot of the work estimate (a short window), the run and the estimating rerun
  CHECK(r.formulation == "uniform_spin_closed_form");
  CHECK(r.error_estimate.max() == 0);
  CHECK(so3::angle_between(r.states.back().body().R, p.initial.body().R * so3::exp(p.initial.body().W)) < 1e-15);
  // Quad precision is refused for a solver that does not declare it.
  ReferenceSettings q;
  q.precision = Precision::quad;
  CHECK_THROWS_WITH(compute_reference(p, grid, q), Catch::Contains("quad precision"));
}

TEST_CASE("styles: every built-in scheme has its own colour and marker, keyed by its name", "[registry][report]") {
  // The check values of CRC-32 (zlib's polynomial): outside schemes' styles match the renderer's
  // zlib.crc32 fallback for reports written before styles existed.
  CHECK(crc32("123456789") == 0xCBF43926u);
  CHECK(crc32("abc") == 0x352441C2u);
  std::set<std::pair<std::string, std::string>> seen;
  std::size_t builtins = 0;
  for (const SchemeEntry& e : registry()) {
    if (!e.builtin) continue;
    ++builtins;
    const SchemeStyle st = scheme_style(e.info->name);
    seen.insert({st.color, st.marker});
    CHECK(st.line == (&e == &baseline_scheme() ? "--" : "-"));
  }
  CHECK(seen.size() == builtins);
  CHECK(scheme_style("lie_euler").color != scheme_style("rk4_quat").color);
  CHECK(scheme_style("no_such_scheme").line == ":");
  CHECK(scheme_style("no_such_scheme").color == scheme_style("no_such_scheme").color);
  // An outside scheme's colour is never a built-in's, whatever its name hashes to.
  std::set<std::string> builtin_colours;
  for (const auto& [colour, marker] : seen) builtin_colours.insert(colour);
  for (const char* outside : {"no_such_scheme", "lie_midpoint_python", "lie_midpoint_explicit", "my_scheme", "a", "b", "c", "d", "e"})
    CHECK(builtin_colours.count(scheme_style(outside).color) == 0);
}

TEST_CASE("names: one alphabet wherever a name enters - registration, files, programs' own problems", "[registry]") {
  CHECK(is_name("heavy_top"));
  CHECK(is_name(std::string(kMaxNameLength, 'a')));
  for (const char* bad : {"", "Heavy", "a/b", "..", "a b", "=cmd()", "x^^5c", "tab\tname", "\x1b]0;x\x07"})
    CHECK_FALSE(is_name(bad));
  CHECK_FALSE(is_name(std::string(kMaxNameLength + 1, 'a')));
  // A problem a program builds itself is not registered or read from a file: the suite checks it.
  Problem p = catalogue_problem("free_body");
  p.name = "free body/2";
  SuiteRequest req;
  req.problem_models = {p};
  req.integrators = {"terze"};
  req.progress = false;
  req.measure_cost = false;
  CHECK_THROWS_WITH(run_suite(req), Catch::Contains("problem name 'free body/2' is not one to 64 of a-z, 0-9 and _"));
}

TEST_CASE("registry: a scheme family absent from this build is named with its reason", "[registry]") {
  static const bool once =
      (register_absent({"zzabsent_", "Zz (Debian libzz-dev) was not found when this build was configured"}), true);
  CHECK(once);
  CHECK_THROWS_MATCHES(find_scheme("zzabsent_step"), InputError,
                       Catch::Message("unknown integrator 'zzabsent_step'; zzabsent_* schemes are not in this build: Zz "
                                      "(Debian libzz-dev) was not found when this build was configured"));
  CHECK_THROWS_WITH(select_schemes({"zzab*"}), Catch::Contains("libzz-dev"));
  CHECK_THROWS_WITH(select_schemes({"zzabsent_*"}), Catch::Contains("libzz-dev"));
  // Other unknown names keep the registry's own message.
  CHECK_THROWS_WITH(find_scheme("no_such_scheme"), !Catch::Contains("libzz-dev") && Catch::Contains("registered:"));
  CHECK_THROWS_WITH(select_schemes({"*zz_nothing*"}), !Catch::Contains("libzz-dev"));
}
