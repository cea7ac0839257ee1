// The spherical_chain family (problems/families/spherical_chain.cpp; docs/problems.md, "Chains"): its
// two reference formulations against each other within their estimates, one link against the heavy top,
// its invariants along the reference, the span against the motion's Lyapunov exponent, and its
// problem file.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

#include "../core/so3.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/spherical_chain.hpp"
#include "../problems/problem_file.hpp"
#include "../integrators/registry.hpp"
#include "../reference/reference.hpp"
#include "chain_support.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

std::vector<double> grid(double t0, double t1, int n) {
  std::vector<double> g;
  for (int j = 0; j <= n; ++j) g.push_back(t0 + (t1 - t0) * j / n);
  return g;
}

ReferenceSolution reference(const Problem& p, const std::vector<double>& g, const char* formulation) {
  return compute_reference(p, g, {.formulation = formulation_from_string(formulation), .cache_dir = ""});
}

/// The largest difference between two references' states on their grid: attitude (rad), W, x, v.
ReferenceErrorEstimate difference(const ReferenceSolution& a, const ReferenceSolution& b) {
  ReferenceErrorEstimate d;
  for (std::size_t j = 0; j < a.states.size(); ++j)
    for (std::size_t i = 0; i < a.states[j].bodies.size(); ++i) {
      const BodyState &u = a.states[j].bodies[i], &w = b.states[j].bodies[i];
      d.attitude = std::max(d.attitude, so3::angle_between(u.R, w.R));
      d.omega = std::max(d.omega, (u.W - w.W).norm());
      d.position = std::max(d.position, (u.x - w.x).norm());
      d.velocity = std::max(d.velocity, (u.v - w.v).norm());
    }
  return d;
}

}  // namespace

TEST_CASE("chains: the minimal and maximal formulations agree within their estimates", "[chains][reference][ci]") {
  for (const char* name : {"chain_double", "chain_5", "chain_free"}) {
    const Problem p = catalogue_problem(name);
    const auto g = grid(p.t0, p.t_end, 50);
    const ReferenceSolution a = reference(p, g, "chain_minimal"), b = reference(p, g, "chain_maximal");
    const ReferenceErrorEstimate d = difference(a, b);
    INFO(name << ": estimates " << a.error_estimate.max() << " (minimal), " << b.error_estimate.max()
              << " (maximal); differences R " << d.attitude << " rad, W " << d.omega << ", x " << d.position << ", v "
              << d.velocity);
    CHECK(a.error_estimate.max() <= 1e-10);
    CHECK(b.error_estimate.max() <= 1e-10);
    const double allowed = a.error_estimate.max() + b.error_estimate.max();
    CHECK(d.attitude <= allowed);
    CHECK(d.omega <= allowed);
    CHECK(d.position <= allowed);
    CHECK(d.velocity <= allowed);
    // Not the same numbers by construction: the formulations integrate different states.
    CHECK(d.max() > 0);
  }
}

TEST_CASE("chains: one link on its pivot is the realisable heavy top", "[chains][reference][ci]") {
  const Problem top = catalogue_problem("heavy_top_realisable");
  Problem p = test::chain_one_link();
  p.t_end = 2.0;
  p.verification = {.h0 = 0.004, .levels = 6, .h0_order1 = std::nullopt, .sample_times = {1.0, 2.0}};
  p.finalize();
  const auto g = grid(0.0, 2.0, 20);
  const ReferenceSolution t = compute_reference(top, g, {.cache_dir = ""});
  for (const char* f : {"chain_minimal", "chain_maximal"}) {
    const ReferenceSolution c = reference(p, g, f);
    double dR = 0, dW = 0;
    for (std::size_t j = 0; j < g.size(); ++j) {
      dR = std::max(dR, so3::angle_between(c.states[j].body().R, t.states[j].body().R));
      dW = std::max(dW, (c.states[j].body().W - t.states[j].body().W).norm());
    }
    INFO(f << ": R " << dR << " rad, W " << dW << "; estimates " << c.error_estimate.max() << ", "
           << t.error_estimate.max());
    CHECK(dR <= c.error_estimate.max() + t.error_estimate.max());
    CHECK(dW <= c.error_estimate.max() + t.error_estimate.max());
  }
  // The vertical momentum about the pivot is the top's momentum along the field.
  std::vector<double> ic(p.invariants().size()), it(top.invariants().size());
  p.evaluate_invariants(p.initial, ic.data());
  top.evaluate_invariants(top.initial, it.data());
  auto at = [](const Problem& q, const std::vector<double>& v, const char* n) {
    for (std::size_t k = 0; k < v.size(); ++k)
      if (q.invariants()[k].name == n) return v[k];
    FAIL("no invariant " << n);
    return 0.0;
  };
  CHECK(std::abs(at(p, ic, "momentum_along_field") - at(top, it, "momentum_along_field")) < 1e-12);
  CHECK(std::abs(at(p, ic, "energy") - at(top, it, "energy")) < 1e-12);
}

TEST_CASE("chains: invariants from the canonical state hold along the reference", "[chains][reference][ci]") {
  const std::vector<std::pair<const char*, std::vector<std::string>>> expect = {
      {"chain_double", {"energy", "momentum_along_field", "joint_separation", "orthogonality"}},
      {"chain_free",
       {"energy", "angular_momentum_x", "angular_momentum_y", "angular_momentum_z", "linear_momentum_x",
        "linear_momentum_y", "linear_momentum_z", "joint_separation", "orthogonality"}}};
  for (const auto& [name, names] : expect) {
    const Problem p = catalogue_problem(name);
    std::vector<std::string> got;
    for (const auto& d : p.invariants()) got.push_back(d.name);
    CHECK(got == names);
    for (const char* f : {"chain_minimal", "chain_maximal"}) {
      const ReferenceSolution ref = reference(p, grid(p.t0, p.t_end, 25), f);
      std::vector<double> i0(got.size()), i(got.size());
      p.evaluate_invariants(p.initial, i0.data());
      for (const State& s : ref.states) {
        p.evaluate_invariants(s, i.data());
        for (std::size_t k = 0; k < got.size(); ++k) {
          INFO(name << " " << f << ": " << got[k] << " " << i0[k] << " -> " << i[k]);
          CHECK(std::abs(i[k] - i0[k]) < 1e-10 * p.invariants()[k].natural_scale);
        }
      }
    }
  }
}

TEST_CASE("chains: the spans are short of where the motion's divergence outgrows the reference", "[chains][reference][ci]") {
  // The largest finite-time Lyapunov exponent over the span, from two minimal references 1e-8 apart in
  // body 0's angular velocity: growth e^(lambda T) must stay below 1e3 so that the references' 1e-13
  // tolerance resolves the motion to 1e-10 (docs/problems.md, "Chains", with the exponents measured).
  for (const char* name : {"chain_double", "chain_5", "chain_free"}) {
    const Problem p = catalogue_problem(name);
    Problem q = p;
    q.initial.bodies[0].W += Vec3(1e-8, 0, 0);
    place_chain(chain_data(q), q.initial);
    q.finalize();
    const auto g = grid(p.t0, p.t_end, 10);
    const ReferenceSolution a = reference(p, g, "chain_minimal"), b = reference(q, g, "chain_minimal");
    const double d = std::max(difference(a, b).attitude, difference(a, b).omega / 10);
    const double lambda = std::log(d / 1e-8) / (p.t_end - p.t0);
    INFO(name << ": separation " << d << " at t = " << p.t_end << ", lambda ~ " << lambda << " /s");
    CHECK(lambda * (p.t_end - p.t0) < std::log(1e3));
    CHECK(d > 1e-12);  // the perturbation did something: the two runs differ (a regular motion may bring them closer)
  }
}

TEST_CASE("chains: a chain moved away from the origin has the same invariants and scales", "[chains]") {
  // The momentum about the vertical is taken about the pivot: its value and its scale (what its
  // round-off is judged against) do not grow with the pivot's distance from the origin.
  const Problem p = catalogue_problem("chain_double");
  Problem q = p;
  const Vec3 shift(50, -20, 7);
  q.family_data.edit<ChainData>().pivot = *chain_data(p).pivot + shift;
  for (BodyState& b : q.initial.bodies) b.x += shift;
  q.finalize();
  std::vector<double> a(p.invariants().size()), b(q.invariants().size());
  p.evaluate_invariants(p.initial, a.data());
  q.evaluate_invariants(q.initial, b.data());
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO(p.invariants()[k].name);
    // The energy's potential -m g.x moves with the height, and its rounding with it: not compared.
    if (p.invariants()[k].name == "energy") continue;
    CHECK(q.invariants()[k].natural_scale == Approx(p.invariants()[k].natural_scale).epsilon(1e-12));
    CHECK(b[k] == Approx(a[k]).margin(1e-13));
  }
}

TEST_CASE("chains: joint separation measures a state off the joints", "[chains]") {
  const Problem p = catalogue_problem("chain_5");
  State s = p.initial;
  CHECK(joint_separation(chain_data(p), s) < 1e-15);
  s.bodies[2].x += Vec3(0, 3e-4, 4e-4);  // joints 2 and 3 both open by 5e-4
  CHECK(std::abs(joint_separation(chain_data(p), s) - 5e-4) < 1e-15);
}

TEST_CASE("chains: problem file round trip and bad chains", "[chains][problems]") {
  const Problem p = catalogue_problem("chain_double");
  const nlohmann::ordered_json j = problem_to_json(p);
  CHECK(j["family"] == "spherical_chain");
  CHECK(j["chain"]["gravity"][2] == -9.81);
  const Problem back = problem_from_json(nlohmann::json::parse(j.dump()), "x.json");
  CHECK(back == p);
  auto bad = [&](auto edit, const std::string& what) {
    nlohmann::json b = nlohmann::json::parse(j.dump());
    edit(b);
    CHECK_THROWS_WITH(problem_from_json(b, "x.json"), Catch::Contains(what));
  };
  bad([](nlohmann::json& b) { b.erase("chain"); }, "a spherical_chain needs \"chain\"");
  bad([](nlohmann::json& b) { b["initial"][1]["position"][0] = 0.5; },
      "body 1: the initial position and velocity must be the joints'");
  bad([](nlohmann::json& b) { b["chain"]["spin"] = 1; }, "spin");
  bad([](nlohmann::json& b) {
        b["loads"] = nlohmann::json::array({{{"type", "uniform_field"}, {"mass", 1}, {"acceleration", {0, 0, -1}}, {"point", {0, 0, 0}}}});
      },
      "not loads");
  // A free chain: no pivot key.
  const nlohmann::ordered_json f = problem_to_json(catalogue_problem("chain_free"));
  CHECK_FALSE(f["chain"].contains("pivot"));
  CHECK(problem_from_json(nlohmann::json::parse(f.dump()), "f.json") == catalogue_problem("chain_free"));
}

TEST_CASE("chains: the adaptive odeint schemes reach the reference at their tolerance", "[chains][reference][ci]") {
  // The same minimal form as the reference's, controlled by each odeint pair at 1e-10: at the span's
  // end within a few hundred tolerances (the global error of a local-error controller).
  for (const char* name : {"chain_double", "chain_free"}) {
    const Problem p = catalogue_problem(name);
    const ReferenceSolution ref = reference(p, {p.t0, p.t_end}, "chain_minimal");
    for (const char* scheme : {"odeint_dopri5", "odeint_cash_karp54", "odeint_fehlberg78", "odeint_bulirsch_stoer"}) {
      SchemeSettings set;
      set.values = {{"abs_tolerance", 1e-10}, {"rel_tolerance", 1e-10}};
      auto s = find_scheme(scheme).factory(p, set);
      s->reset(p.initial, p.t0);
      const StepStatus st = s->step(p.t0, p.t_end - p.t0);
      REQUIRE(st.ok);
      State x(p.bodies.size());
      s->read(x);
      double worst = 0;
      for (std::size_t i = 0; i < x.bodies.size(); ++i)
        worst = std::max({worst, so3::angle_between(x.bodies[i].R, ref.states.back().bodies[i].R),
                          (x.bodies[i].x - ref.states.back().bodies[i].x).norm()});
      INFO(name << " " << scheme << ": " << worst);
      CHECK(worst < 1e-7);
      CHECK(worst > 0);
      CHECK(joint_separation(chain_data(p), x) < 1e-13);  // the minimal form keeps the joints
    }
  }
}

TEST_CASE("chains: small oscillations of the double chain have the linearised modes' periods", "[chains][reference][ci]") {
  // The double chain hanging in its plane is the compound double pendulum: with absolute swing angles
  // (theta_1, theta_2) about the links' x axes, links of mass m, length L, the centre of mass c = L/2
  // below each joint and I the central moment about the swing axis,
  //   M = [I + m c^2 + m L^2, m L c; m L c, I + m c^2],   K = g [m (c + L), 0; 0, m c],
  // and a small motion in mode k is theta(t) = eps v_k cos(w_k t), K v_k = w_k^2 M v_k. Independent of
  // both formulations: the reference's states at half and a whole period of each mode must be the
  // mode's -eps v_k and eps v_k, to O(eps^3) (amplitude 1e-3: 1e-8 holds w_k to about 1e-6).
  const Problem base = catalogue_problem("chain_double");
  const double m = 1.0, L = 1.0, c = 0.5, g = 9.81, I = base.inertia(0)(0, 0);
  Eigen::Matrix2d M, K;
  M << I + m * c * c + m * L * L, m * L * c, m * L * c, I + m * c * c;
  K << g * m * (c + L), 0, 0, g * m * c;
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> modes(K, M);
  for (int k = 0; k < 2; ++k) {
    const double w = std::sqrt(modes.eigenvalues()[k]), eps = 1e-3;
    Eigen::Vector2d v = modes.eigenvectors().col(k);
    v /= v.cwiseAbs().maxCoeff();
    Problem p = base;
    for (int i = 0; i < 2; ++i) {
      p.initial.bodies[std::size_t(i)].R = so3::exp(eps * v[i] * Vec3::UnitX());
      p.initial.bodies[std::size_t(i)].W = Vec3::Zero();
    }
    place_chain(chain_data(p), p.initial);
    p.t_end = 2 * std::numbers::pi / w;
    p.verification = {.h0 = p.t_end / 64, .levels = 3, .h0_order1 = std::nullopt, .sample_times = {p.t_end}};
    p.finalize();
    const ReferenceSolution r = reference(p, {0.0, p.t_end / 2, p.t_end}, "chain_minimal");
    for (int i = 0; i < 2; ++i) {
      const Vec3 half = so3::log(r.states[1].bodies[std::size_t(i)].R), whole = so3::log(r.states[2].bodies[std::size_t(i)].R);
      INFO("mode " << k << " (w = " << w << " rad/s), link " << i << ": " << half.transpose() << " at T/2, "
                   << whole.transpose() << " at T, expected +-" << eps * v[i]);
      CHECK((half + eps * v[i] * Vec3::UnitX()).norm() < 1e-8);
      CHECK((whole - eps * v[i] * Vec3::UnitX()).norm() < 1e-8);
    }
  }
}
