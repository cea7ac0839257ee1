// The SE(3)^n model of paper 001 section 4 (docs/problems.md P5): every interaction term's forces and
// moments against central differences of its energy (both particles of a bond; aligned and
// near-half-turn cases), the symmetries that give the free torus its momenta, the catalogue
// geometry, and the paper 001 maps on it: velocity-Verlet translation and exact momenta.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>

#include "../core/so3.hpp"
#include "../integrators/registry.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/families/body_system.hpp"
#include "../problems/interactions.hpp"
#include "support.hpp"

using namespace rigidbench;
namespace ia = rigidbench::interactions;

namespace {

/// Two particles: attitudes and positions, perturbed one coordinate at a time.
struct Pair {
  Mat3 R[2];
  Vec3 x[2];
};

/// A term's energy and its loads (forces F, moments m on both particles) at a pair configuration.
using Term = std::function<double(const Pair&, Vec3* F, Vec3* m)>;

/// -dU/dx_b and -dU/d(delta_b) (R_b -> exp(hat(delta)) R_b) by central differences, against the
/// term's own loads; tolerance relative to the largest load.
void check_against_fd(const Term& term, const Pair& c, double e = 1e-6, double rel = 1e-7) {
  Vec3 F[2] = {Vec3::Zero(), Vec3::Zero()}, m[2] = {Vec3::Zero(), Vec3::Zero()};
  term(c, F, m);
  double scale = 1e-9;  // absolute floor: loads that vanish (aligned cases) are compared to 1e-16
  for (int b = 0; b < 2; ++b) scale = std::max({scale, F[b].norm(), m[b].norm()});
  for (int b = 0; b < 2; ++b) {
    Vec3 Ffd, mfd;
    for (int k = 0; k < 3; ++k) {
      Pair p = c, q = c;
      p.x[b] += e * Vec3::Unit(k);
      q.x[b] -= e * Vec3::Unit(k);
      Ffd[k] = -(term(p, nullptr, nullptr) - term(q, nullptr, nullptr)) / (2 * e);
      p = c, q = c;
      p.R[b] = so3::exp(e * Vec3::Unit(k)) * c.R[b];
      q.R[b] = so3::exp(-e * Vec3::Unit(k)) * c.R[b];
      mfd[k] = -(term(p, nullptr, nullptr) - term(q, nullptr, nullptr)) / (2 * e);
    }
    INFO("particle " << b << ", load scale " << scale);
    const std::string fm = test::compare(F[b], Ffd, rel * scale), mm = test::compare(m[b], mfd, rel * scale);
    INFO("force: " << fm);
    CHECK(fm.empty());
    INFO("moment: " << mm);
    CHECK(mm.empty());
  }
}

const double L0 = 0.1178;
const Vec3 kRest = L0 * Vec3(0.6, 0.8, 0.0);

Term bending_term() {
  return [](const Pair& c, Vec3* F, Vec3* m) {
    (void)F;
    return ia::bending(10.0, c.R[0], c.R[1], m ? &m[0] : nullptr, m ? &m[1] : nullptr);
  };
}
Term axial_term() {
  return [](const Pair& c, Vec3* F, Vec3*) {
    return ia::axial(200.0, kRest.norm(), c.x[0], c.x[1], F ? &F[0] : nullptr, F ? &F[1] : nullptr);
  };
}
Term shear_term() {
  return [](const Pair& c, Vec3* F, Vec3* m) {
    return ia::shear(200.0, kRest, c.R[0], c.R[1], c.x[0], c.x[1], F ? &F[0] : nullptr, F ? &F[1] : nullptr,
                     m ? &m[0] : nullptr, m ? &m[1] : nullptr);
  };
}
Term contact_term() {
  return [](const Pair& c, Vec3* F, Vec3*) {
    return ia::contact(2100.0, L0, c.x[0], c.x[1], F ? &F[0] : nullptr, F ? &F[1] : nullptr);
  };
}

/// A bond near its rest state: x_0 - x_1 = rest, perturbed by `dx`, attitudes R0, R1.
Pair bond_pair(const Mat3& R0, const Mat3& R1, const Vec3& dx = Vec3::Zero()) {
  Pair c;
  c.R[0] = R0, c.R[1] = R1;
  c.x[1] = Vec3(0.3, -0.2, 0.1);
  c.x[0] = c.x[1] + kRest + dx;
  return c;
}

}  // namespace

TEST_CASE("binder bond energies: forces and moments are minus the gradients of eqs. 44 51 53", "[interactions]") {
  for (int trial = 0; trial < 20; ++trial) {
    const Pair c = bond_pair(test::random_rotation(0, 1), test::random_rotation(0, 1), 0.02 * test::random_unit());
    INFO("trial " << trial);
    check_against_fd(bending_term(), c);
    check_against_fd(axial_term(), c);
    check_against_fd(shear_term(), c);
  }
}

TEST_CASE("bond energies at the hard configurations: aligned and near the half-turn", "[interactions]") {
  SECTION("aligned: equal attitudes and the bond along its rest direction (zero loads, zero energy)") {
    const Mat3 R = test::random_rotation(0.5, 2.5);
    // A rigid rotation of the rest state: U = 0 and every load vanishes.
    Pair c;
    c.R[0] = c.R[1] = R;
    c.x[1] = Vec3(1, 2, 3);
    c.x[0] = c.x[1] + R * kRest;
    for (const Term& t : {bending_term(), axial_term(), shear_term()}) {
      Vec3 F[2] = {Vec3::Zero(), Vec3::Zero()}, m[2] = {Vec3::Zero(), Vec3::Zero()};
      CHECK(std::abs(t(c, F, m)) < 1e-24);
      for (int b = 0; b < 2; ++b) CHECK(F[b].norm() + m[b].norm() < 1e-10);
    }
    // Stretched along the rest direction only: the axial force, no shear.
    c.x[0] = c.x[1] + 1.01 * (R * kRest);
    check_against_fd(axial_term(), c);
    check_against_fd(shear_term(), c);
  }
  SECTION("relative rotation near the half-turn (|theta| = pi - 1e-3)") {
    for (int trial = 0; trial < 10; ++trial) {
      const Mat3 R1 = test::random_rotation(0, 3);
      const Mat3 R0 = so3::exp((std::numbers::pi - 1e-3) * test::random_unit()) * R1;
      const Pair c = bond_pair(R0, R1, 0.01 * test::random_unit());
      // FD steps well below the 1e-3 distance to the half-turn, where the gradient of |theta|^2 jumps.
      check_against_fd(bending_term(), c, 1e-7, 1e-6);
      check_against_fd(shear_term(), c, 1e-7, 1e-6);
      Vec3 m[2] = {Vec3::Zero(), Vec3::Zero()};
      ia::bending(10.0, R0, R1, &m[0], &m[1]);
      CHECK(m[0].norm() == Approx(10.0 * (std::numbers::pi - 1e-3)).epsilon(1e-9));  // |K theta|
    }
  }
}

TEST_CASE("contact and wall: eq. 56 with the 2/5 prefactor whose gradient is eq. 57", "[interactions]") {
  for (int trial = 0; trial < 20; ++trial) {
    Pair c = bond_pair(Mat3::Identity(), Mat3::Identity());
    // Overlaps down to 1 %: closer to the onset the force's curvature ~ s^{-1/2} spoils central differences.
    c.x[0] = c.x[1] + L0 * test::uniform(0.7, 0.99) * test::random_unit();
    check_against_fd(contact_term(), c, 1e-7, 1e-6);
  }
  // Eq. 57 as printed: |F| = K/D [1 - |d|/D]^{3/2}.
  Vec3 F0 = Vec3::Zero(), F1 = Vec3::Zero();
  const Vec3 d = 0.9 * L0 * Vec3::UnitX();
  ia::contact(2100.0, L0, d, Vec3::Zero(), &F0, &F1);
  CHECK(F0.x() == Approx(2100.0 / L0 * std::pow(0.1, 1.5)).epsilon(1e-14));
  CHECK((F0 + F1).norm() == 0.0);
  // No overlap: nothing.
  CHECK(ia::contact(2100.0, L0, Vec3(L0, 0, 0), Vec3::Zero(), &F0, &F1) == 0.0);
  // The wall is a particle of zero diameter: contact within D_i / 2 of the plane, along its normal.
  const Vec3 n = Vec3(1, 1, 0).normalized();
  for (double gap : {0.03, 0.05, 0.058}) {
    const Vec3 x = gap * n + Vec3(0, 0, 0.7);
    Vec3 F = Vec3::Zero();
    const double U = ia::wall(2100.0, L0, n, 0.0, x, &F);
    const double e = 1e-7;
    Vec3 Ffd;
    for (int k = 0; k < 3; ++k)
      Ffd[k] = -(ia::wall(2100.0, L0, n, 0.0, x + e * Vec3::Unit(k)) - ia::wall(2100.0, L0, n, 0.0, x - e * Vec3::Unit(k))) / (2 * e);
    CHECK(U > 0);
    CHECK(test::compare(F, Ffd, 1e-7 * F.norm()).empty());
    CHECK(F.cross(n).norm() < 1e-12 * F.norm());
  }
}

TEST_CASE("torus model: system loads are the gradient of the total energy and balance globally", "[interactions]") {
  Problem p = catalogue_problem("torus_free");
  // A generic deformed state: every particle rotated and displaced, some neighbours overlapping.
  State s = p.initial;
  for (BodyState& b : s.bodies) {
    b.R = test::random_rotation(0, 0.8);
    b.x += 0.01 * test::random_unit();
  }
  s.bodies[5].x = s.bodies[6].x + 0.9 * (s.bodies[5].x - s.bodies[6].x);  // a compressed bond: contact
  const std::size_t n = p.bodies.size();
  std::vector<Mat3> R(n);
  std::vector<Vec3> x(n), F(n), m(n);
  for (std::size_t b = 0; b < n; ++b) R[b] = s.bodies[b].R, x[b] = s.bodies[b].x;
  system_loads(p, R.data(), x.data(), F.data(), m.data());
  const SystemEnergy e0 = system_energy(p, s);
  CHECK(e0.contact > 0);
  CHECK(e0.bending > 0);
  CHECK(e0.shear > 0);
  CHECK(e0.axial > 0);
  // Sum F = 0 and sum (x x F + m) = 0: the interactions are invariant under rigid motions.
  Vec3 sumF = Vec3::Zero(), sumM = Vec3::Zero();
  double scale = 0;
  for (std::size_t b = 0; b < n; ++b) {
    sumF += F[b];
    sumM += x[b].cross(F[b]) + m[b];
    scale = std::max({scale, F[b].norm() * (1 + x[b].norm()), m[b].norm()});
  }
  CHECK(sumF.norm() < 1e-13 * scale);
  CHECK(sumM.norm() < 1e-13 * scale);
  // The potential is invariant under a global rigid motion (the frame-consistent shear energy).
  const Mat3 Q = test::random_rotation(0.5, 3);
  const Vec3 c(3, -1, 2);
  State moved = s;
  for (BodyState& b : moved.bodies) b.R = Q * b.R, b.x = Q * b.x + c;
  const SystemEnergy e1 = system_energy(p, moved);
  CHECK(e1.shear == Approx(e0.shear).epsilon(1e-12));
  CHECK(e1.bending == Approx(e0.bending).epsilon(1e-12));
  CHECK(e1.axial == Approx(e0.axial).epsilon(1e-12));
  CHECK(e1.contact == Approx(e0.contact).epsilon(1e-12));
  // Loads of body 5 and 6 against differences of the total potential.
  const double h = 1e-6;
  auto U = [&](const State& st) {
    const SystemEnergy e = system_energy(p, st);
    return e.total() - e.translational - e.rotational;
  };
  for (std::size_t b : {std::size_t(5), std::size_t(6), std::size_t(40)})
    for (int k = 0; k < 3; ++k) {
      State a = s, z = s;
      a.bodies[b].x += h * Vec3::Unit(k);
      z.bodies[b].x -= h * Vec3::Unit(k);
      CHECK(F[b][k] == Approx(-(U(a) - U(z)) / (2 * h)).margin(1e-6 * (1 + F[b].norm())));
      a = s, z = s;
      a.bodies[b].R = so3::exp(h * Vec3::Unit(k)) * s.bodies[b].R;
      z.bodies[b].R = so3::exp(-h * Vec3::Unit(k)) * s.bodies[b].R;
      CHECK(m[b][k] == Approx(-(U(a) - U(z)) / (2 * h)).margin(1e-6 * (1 + m[b].norm())));
    }
}

TEST_CASE("torus catalogue geometry (docs/problems.md P5)", "[interactions]") {
  const Problem ti = catalogue_problem("torus_impact"), tf = catalogue_problem("torus_free");
  const double Dp = 3.0 * std::sin(std::numbers::pi / 80);
  REQUIRE(ti.bodies.size() == 80);
  REQUIRE(body_system_data(ti).interactions.bonds.size() == 80);
  for (std::size_t i = 0; i < 80; ++i) {
    const Vec3 d = ti.initial.bodies[i].x - ti.initial.bodies[(i + 1) % 80].x;
    CHECK(d.norm() == Approx(Dp).epsilon(1e-13));  // point contact (to the round-off of the ring coordinates)
    CHECK(diameter(body_system_data(ti), i) == Dp);
  }
  double closest = 1e9;
  for (const BodyState& b : ti.initial.bodies) closest = std::min(closest, b.x.x() - Dp / 2);
  CHECK(closest == Approx(0.05).epsilon(1e-12));
  // At rest: all the energy is the translational m |v|^2 / 2 of 80 particles at 1 m/s.
  const SystemEnergy e = system_energy(ti, ti.initial);
  CHECK(e.total() == Approx(40.0).epsilon(1e-13));
  // Free torus: particle 0's two bonds are 1 % longer than at rest; the others are at rest.
  const auto& B = tf.initial.bodies;
  CHECK((B[0].x - B[1].x).norm() == Approx(1.01 * Dp).epsilon(1e-12));
  CHECK((B[79].x - B[0].x).norm() == Approx(1.01 * Dp).epsilon(1e-12));
  CHECK((B[1].x - B[2].x).norm() == Approx(Dp).epsilon(1e-12));
  // Spin 0.5 rad/s about e3 through the centre on top of v = (-1, 0, 0).
  CHECK(test::compare(B[20].W, Vec3(0, 0, 0.5), 1e-15).empty());
  CHECK((B[20].v - Vec3(-1, 0, 0) - Vec3(0, 0, 0.5).cross(B[20].x)).norm() < 1e-15);
  // Invariants: energy and momenta for the free torus; energy only with the wall.
  CHECK(tf.invariants().size() == 8);
  CHECK(ti.invariants().size() == 2);
}

TEST_CASE("granular gas catalogue geometry (docs/problems.md P7)", "[interactions]") {
  const Problem p = catalogue_problem("particle_gas_500");
  REQUIRE(p.bodies.size() == 500);
  CHECK(p.name == "particle_gas_500");
  CHECK(p.of_family("body_system"));
  CHECK(body_system_data(p).interactions.bonds.empty());
  CHECK(body_system_data(p).interactions.walls.size() == 6);
  CHECK(body_system_data(p).interactions.contact_stiffness == 1e4);
  // No two spheres overlap, none touches a wall: the lattice of spacing 1.5 jittered by at most 0.1
  // per axis keeps centres 1.5 - 2 sqrt(3) 0.1 > 1.15 apart and 0.65 from the walls.
  double closest = 1e9, wall_gap = 1e9;
  for (std::size_t i = 0; i < 500; ++i) {
    const BodyState& a = p.initial.bodies[i];
    CHECK(diameter(body_system_data(p), i) == 1.0);
    for (std::size_t j = i + 1; j < 500; ++j) closest = std::min(closest, (a.x - p.initial.bodies[j].x).norm());
    for (const Wall& w : body_system_data(p).interactions.walls) wall_gap = std::min(wall_gap, w.normal.dot(a.x) - w.offset);
    CHECK((a.v.array().abs() <= 1.0).all());
    CHECK((a.W.array().abs() <= 1.0).all());
  }
  CHECK(closest > 1.15);
  CHECK(wall_gap > 0.64);
  const SystemEnergy e = system_energy(p, p.initial);
  CHECK(e.contact == 0);
  CHECK(e.wall == 0);
  double kinetic = 0;
  for (const BodyState& b : p.initial.bodies) kinetic += 0.5 * b.v.squaredNorm() + 0.05 * b.W.squaredNorm();
  CHECK(e.total() == Approx(kinetic).epsilon(1e-14));
  // Walls take momentum: the energy is the one conserved quantity (beside the constraint |R^T R - I|).
  REQUIRE(p.invariants().size() == 2);
  CHECK(p.invariants()[0].name == "energy");
  CHECK(p.invariants()[1].kind == InvariantKind::constraint);
  // One stream of fixed seed: the same problem on every call; the catalogue's size is particle_gas.
  CHECK(catalogue_problem("particle_gas_500") == p);
  Problem d = catalogue_problem("particle_gas_2000");
  d.name = "particle_gas";
  CHECK(d == catalogue_problem("particle_gas"));
  CHECK(builtin_problem("particle_gas_64"));
  // Sizes outside [2, 1e6] and malformed sizes are input errors.
  CHECK_THROWS_AS(catalogue_problem("particle_gas_1"), InputError);
  CHECK_THROWS_AS(catalogue_problem("particle_gas_"), InputError);
  CHECK_THROWS_AS(catalogue_problem("particle_gas_x12"), InputError);
  CHECK_THROWS_AS(catalogue_problem("particle_gas_12345678"), InputError);
  std::string base;
  CHECK(sized_problem("particle_gas_640", base) == std::size_t(640));
  CHECK(base == "particle_gas");
  CHECK_FALSE(sized_problem("torus_free", base));
}

TEST_CASE("paper 001 maps on SE(3)^n: velocity-Verlet translation and exact momenta on the free torus", "[interactions]") {
  const Problem p = catalogue_problem("torus_free");
  const double h = 2e-3;
  const std::size_t n = p.bodies.size();
  std::vector<Mat3> R(n);
  std::vector<Vec3> x(n), F0(n), m0(n), F1(n), m1(n);
  for (std::size_t b = 0; b < n; ++b) R[b] = p.initial.bodies[b].R, x[b] = p.initial.bodies[b].x;
  system_loads(p, R.data(), x.data(), F0.data(), m0.data());
  for (const char* name : {"bg_body", "bg_spatial", "bg_newmark", "campello_symplectic_euler"}) {
    INFO(name);
    auto integ = find_scheme(name).make(p);
    integ->reset(p.initial, 0.0);
    State s(n);
    REQUIRE(integ->step(0.0, h).ok);
    integ->read(s);
    // One step against (21a)/(21c) (Verlet) or (27a)/(27c) (symplectic Euler), from the loads at both ends.
    for (std::size_t b = 0; b < n; ++b) R[b] = s.bodies[b].R, x[b] = s.bodies[b].x;
    system_loads(p, R.data(), x.data(), F1.data(), m1.data());
    const bool euler = std::string(name) == "campello_symplectic_euler";
    double ex = 0, ev = 0;
    for (std::size_t b = 0; b < n; ++b) {
      const BodyState& a = p.initial.bodies[b];
      const Vec3 v1 = euler ? Vec3(a.v + h * F0[b]) : Vec3(a.v + 0.5 * h * (F0[b] + F1[b]));
      const Vec3 x1 = euler ? Vec3(a.x + h * v1) : Vec3(a.x + h * a.v + 0.5 * h * h * F0[b]);
      ex = std::max(ex, (s.bodies[b].x - x1).norm());
      ev = std::max(ev, (s.bodies[b].v - v1).norm());
    }
    CHECK(ex < 1e-15);
    CHECK(ev < 1e-13);
    // 2000 steps: total linear and angular momentum (spins included) to round-off.
    integ->reset(p.initial, 0.0);
    std::vector<double> I0(p.invariants().size()), I(p.invariants().size());
    p.evaluate_invariants(p.initial, I0.data());
    double worst = 0;
    for (int k = 0; k < 2000; ++k) {
      REQUIRE(integ->step(k * h, h).ok);
      integ->read(s);
      p.evaluate_invariants(s, I.data());
      for (std::size_t i = 0; i < I.size(); ++i)
        if (p.invariants()[i].kind == InvariantKind::momentum)
          worst = std::max(worst, std::abs(I[i] - I0[i]) / p.invariants()[i].natural_scale);
    }
    CHECK(worst < 1e-13);
  }
}

TEST_CASE("contact over the near pairs of a grid equals the all-pairs loop bit for bit", "[interactions]") {
  // The sums of contact forces and energy over every pair i < j, in that order, against
  // system_loads / system_energy (interactions::for_each_near_pair): on the torus (a ring of touching
  // neighbours, some compressed), a dense cloud of spheres of different diameters, all centres in
  // one point, and centres 1e200 apart (the grid's cells grow to stay at ~4n).
  const auto all_pairs = [](const Problem& p, const std::vector<Vec3>& x, std::vector<Vec3>& F) {
    double U = 0;
    F.assign(x.size(), Vec3::Zero());
    const BodySystemData& d = body_system_data(p);
    const double K = d.interactions.contact_stiffness;
    for (std::size_t i = 0; i < x.size(); ++i)
      for (std::size_t j = i + 1; j < x.size(); ++j)
        U += ia::contact(K, 0.5 * (diameter(d, i) + diameter(d, j)), x[i], x[j], &F[i], &F[j]);
    return U;
  };
  const auto check = [&](Problem p, const std::vector<Vec3>& x) {
    p.family_data.edit<BodySystemData>().interactions.bonds.clear();
    p.family_data.edit<BodySystemData>().interactions.walls.clear();
    const std::size_t n = x.size();
    std::vector<Mat3> R(n, Mat3::Identity());
    std::vector<Vec3> F(n), m(n), expected;
    system_loads(p, R.data(), x.data(), F.data(), m.data());
    const double U = all_pairs(p, x, expected);
    State s(n);
    for (std::size_t b = 0; b < n; ++b) s.bodies[b].x = x[b];
    CHECK(system_energy(p, s).contact == U);
    for (std::size_t b = 0; b < n; ++b) CHECK((F[b].array() == expected[b].array()).all());
    return U;
  };
  Problem torus = catalogue_problem("torus_free");
  std::vector<Vec3> x;
  for (const BodyState& b : torus.initial.bodies) x.push_back(b.x + 0.002 * test::random_unit());
  x[5] = x[6] + 0.9 * (x[5] - x[6]);
  CHECK(check(torus, x) > 0);
  // 400 spheres of diameters 0.05 ... 0.25 in a unit box: many overlaps, many cells.
  Problem cloud = torus;
  cloud.bodies.assign(400, torus.bodies[0]);
  x.assign(400, Vec3::Zero());
  std::vector<double>& diameters = cloud.family_data.edit<BodySystemData>().diameters;
  diameters.assign(400, 0.0);
  for (std::size_t b = 0; b < 400; ++b) {
    diameters[b] = 0.05 + 0.2 * double((b * 37) % 101) / 100.0;
    x[b] = 0.5 * (test::random_unit() + test::random_unit());
  }
  CHECK(check(cloud, x) > 0);
  x.assign(400, Vec3(0.3, -0.2, 0.1));  // coincident centres: no direction to push along, energy only
  CHECK(check(cloud, x) > 0);
  for (std::size_t b = 0; b < 400; ++b) x[b] = 1e200 * test::random_unit();
  check(cloud, x);
  // The granular gas squeezed to 60 % of its lattice spacing (0.9 < D): overlaps across the whole box.
  Problem gas = catalogue_problem("particle_gas_600");
  x.clear();
  for (const BodyState& b : gas.initial.bodies) x.push_back(0.6 * b.x);
  CHECK(check(gas, x) > 0);
}

TEST_CASE("the loads kept between evaluations equal system_loads bit for bit on any number of threads", "[interactions]") {
  // SystemLoads (a Verlet list, a gather per body split over threads) against the definition, the
  // walk of system_loads: forces and moments equal bit for bit on 1, 2 and 3 threads, along a path
  // of configurations on which the list is kept, built again, and given up for a non-finite centre.
  const auto same = [](const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!(a[i].array() == b[i].array()).all()) return false;
    return true;
  };
  const auto check = [&](const Problem& p, const std::vector<Mat3>& R, const std::vector<Vec3>& x,
                         std::vector<SystemLoads>& kept) {
    const std::size_t n = x.size();
    std::vector<Vec3> F(n), m(n);
    system_loads(p, R.data(), x.data(), F.data(), m.data());
    for (int threads = 1; threads <= 3; ++threads) {
      std::vector<Vec3> Ft(n, Vec3::Constant(7)), mt(n, Vec3::Constant(7));
      kept[std::size_t(threads - 1)].evaluate(R.data(), x.data(), Ft.data(), mt.data(), threads);
      CHECK(same(F, Ft));
      CHECK(same(m, mt));
    }
  };
  SECTION("the torus at the wall: bonds, contact and a wall, turned attitudes") {
    const Problem p = catalogue_problem("torus_impact");
    std::vector<SystemLoads> kept(3, SystemLoads(p));
    std::vector<Mat3> R;
    std::vector<Vec3> x;
    for (const BodyState& b : p.initial.bodies) {
      R.push_back(so3::exp(0.3 * test::random_unit()));
      x.push_back(b.x + Vec3(-0.06, 0, 0) + 0.004 * test::random_unit());  // into the wall, neighbours pressed
    }
    check(p, R, x, kept);
  }
  SECTION("a gas of 600 spheres moving: the list kept, rebuilt, given up and taken again") {
    Problem p = catalogue_problem("particle_gas_600");
    std::vector<SystemLoads> kept(3, SystemLoads(p));
    const std::size_t n = p.bodies.size();
    std::vector<Mat3> R(n, Mat3::Identity());
    std::vector<Vec3> x;
    for (const BodyState& b : p.initial.bodies) x.push_back(0.62 * b.x);  // squeezed: overlaps everywhere
    check(p, R, x, kept);
    const std::size_t built = kept[0].list_builds();
    CHECK(built == 1);
    for (int k = 0; k < 20; ++k) {  // small moves: the list is kept, and still exact
      for (Vec3& xi : x) xi += 0.005 * test::random_unit();
      check(p, R, x, kept);
    }
    CHECK(kept[0].list_builds() == built);
    for (Vec3& xi : x) xi += 0.2 * test::random_unit();  // beyond half the skin: built again
    check(p, R, x, kept);
    CHECK(kept[0].list_builds() == built + 1);
    const Vec3 keep = x[17];
    x[17] = Vec3(std::nan(""), 0, 0);  // the walk's NaNs, where the walk puts them
    for (int threads = 1; threads <= 3; ++threads) {
      std::vector<Vec3> F(n), Ft(n), m(n), mt(n);
      system_loads(p, R.data(), x.data(), F.data(), m.data());
      kept[std::size_t(threads - 1)].evaluate(R.data(), x.data(), Ft.data(), mt.data(), threads);
      for (std::size_t b = 0; b < n; ++b) CHECK(F[b].hasNaN() == Ft[b].hasNaN());
    }
    x[17] = keep;
    check(p, R, x, kept);
  }
}

TEST_CASE("a body system's invariants along a run equal its invariants bit for bit", "[interactions]") {
  // Problem::invariant_along (the long-time run's energy check) and invariants_along (every level's
  // invariants), through SystemEnergyAlong (a Verlet list kept between calls), against
  // evaluate_invariants (system_energy: a grid walk per call), exactly, along states on which the
  // list is kept, built again, and given up for a non-finite centre; and the families without an
  // `along` evaluator through `evaluate` itself.
  const auto energy_index = [](const Problem& p) {
    for (std::size_t i = 0; i < p.invariants().size(); ++i)
      if (p.invariants()[i].name == "energy") return i;
    FAIL("no energy invariant");
    return std::size_t(0);
  };
  const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  std::function<void(const State&, double*)> all_along;  // one per problem, made beside `along`
  const auto same_as_definition = [&](const Problem& p, const State& s, const std::function<double(const State&)>& along) {
    std::vector<double> def(p.invariants().size()), all(p.invariants().size(), -1.0);
    p.evaluate_invariants(s, def.data());
    all_along(s, all.data());
    bool ok = same(along(s), def[energy_index(p)]);
    for (std::size_t i = 0; i < def.size(); ++i) ok = ok && same(all[i], def[i]);
    return ok;
  };
  SECTION("a gas of 600 spheres squeezed and moving") {
    const Problem p = catalogue_problem("particle_gas_600");
    auto along = p.invariant_along(energy_index(p));
    all_along = p.invariants_along();
    State s = p.initial;
    for (BodyState& b : s.bodies) b.x *= 0.62;  // overlaps everywhere: hundreds of contact terms
    CHECK(same_as_definition(p, s, along));
    for (int k = 0; k < 20; ++k) {
      for (BodyState& b : s.bodies) b.x += 0.005 * test::random_unit(), b.v += 0.1 * test::random_unit();
      CHECK(same_as_definition(p, s, along));
    }
    for (BodyState& b : s.bodies) b.x += 0.2 * test::random_unit();  // the list built again
    CHECK(same_as_definition(p, s, along));
    const Vec3 keep = s.bodies[17].x;
    s.bodies[17].x = Vec3(std::nan(""), 0, 0);
    CHECK(same_as_definition(p, s, along));
    s.bodies[17].x = keep;
    CHECK(same_as_definition(p, s, along));
  }
  SECTION("the tori: bonds and contact, a wall (impact), momenta beside the energy (free)") {
    for (const char* name : {"torus_impact", "torus_free"}) {
      INFO(name);
      const Problem p = catalogue_problem(name);
      auto along = p.invariant_along(energy_index(p));
      all_along = p.invariants_along();
      State s = p.initial;
      for (BodyState& b : s.bodies) b.R = so3::exp(0.3 * test::random_unit()), b.x += Vec3(-0.06, 0, 0);  // into the wall
      for (int k = 0; k < 5; ++k) {
        CHECK(same_as_definition(p, s, along));
        for (BodyState& b : s.bodies) b.R = so3::exp(0.1 * test::random_unit()) * b.R, b.x += 0.01 * test::random_unit();
      }
    }
  }
  SECTION("a family without an evaluator of its own: the group's evaluate") {
    const Problem p = catalogue_problem("heavy_top");
    auto along = p.invariant_along(energy_index(p));
    all_along = p.invariants_along();
    CHECK(same_as_definition(p, p.initial, along));
    CHECK_THROWS_AS(p.invariant_along(p.invariants().size()), std::out_of_range);
  }
}
