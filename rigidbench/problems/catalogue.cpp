#include "rigidbench/problems/catalogue.hpp"

#include <cmath>
#include <functional>
#include <algorithm>
#include <mutex>
#include <numbers>
#include <random>
#include <string>

#include "rigidbench/core/rrp.hpp"
#include "rigidbench/core/so3.hpp"

namespace rigidbench {
namespace {

constexpr double pi = std::numbers::pi;

Problem free_body_common(std::string name) {
  Problem p;
  p.name = std::move(name);
  p.bodies = {BodyModel{Vec3(1, 2, 3).asDiagonal(), 1.0}};
  p.initial.body().R = Mat3::Identity();
  return p;
}

// P1: torque-free asymmetric body (Euler-Poinsot).
Problem free_body() {
  Problem p = free_body_common("free_body");
  p.title = "Torque-free asymmetric body (Euler-Poinsot), J = diag(1, 2, 3)";
  p.source = "docs/problems.md P1";
  p.initial.body().W = Vec3(1.0, 0.5, -0.8);
  p.t_end = 10.0;
  // |W| ~ 1.4 rad/s: h0 = 0.05 is ~0.07 rad per step, inside every scheme's asymptotic range.
  p.verification = {.h0 = 0.05, .levels = 6, .h0_order1 = 0.0125, .sample_times = {2, 4, 6, 8, 10}};
  return p;
}

// P1b: near the intermediate axis; periodic flips (Dzhanibekov effect).
Problem dzhanibekov() {
  Problem p = free_body_common("dzhanibekov");
  p.title = "Free body near the intermediate axis (Dzhanibekov flips)";
  p.source = "docs/problems.md P1b";
  p.initial.body().W = Vec3(0.01, 5.0, 0.01);
  p.t_end = 20.0;
  // 5 rad/s spin; the flips amplify phase errors, so steps are small.
  p.verification = {.h0 = 0.01, .levels = 6, .h0_order1 = 2.5e-4, .sample_times = {4, 8, 12, 16, 20}};
  return p;
}

// P2: heavy symmetrical top (paper 002; Simo & Wong 1991).
Problem heavy_top() {
  Problem p;
  p.name = "heavy_top";
  p.title = "Heavy symmetrical top (Simo & Wong 1991), J = diag(5, 5, 1), M = 20, g = l = 1";
  p.source = "paper 002; docs/problems.md P2";
  p.bodies = {BodyModel{Vec3(5, 5, 1).asDiagonal(), 20.0}};
  // t = -M g r x e3, r = l R E3: a field -g e3 acting at l E3.
  p.loads = {UniformField{.mass = 20.0, .acceleration = Vec3(0, 0, -1.0), .point = Vec3(0, 0, 1.0)}};
  p.initial.body().R = so3::exp(Vec3(0.05, 0, 0));
  p.initial.body().W = Vec3(0, 0, 50.0);
  p.t_end = 10.0;
  // 50 rad/s spin, 40 rad/s nutation: h0 = 4e-3 puts h = 1e-3 (RK4) and 2e-3 (Terze) on the ladder.
  // Explicit first-order schemes amplify the nutation by (1 + (40 h)^2)^(n/2) ~ exp(8000 h): they
  // are asymptotic only for h below ~2e-5 (exp(0.16) at h0), hence h0_order1 = 2e-5, whose
  // observation grid (h0 2^4 = 3.2e-4) still contains the sample times 2, 4, ..., 10.
  p.verification = {.h0 = 4e-3, .levels = 6, .h0_order1 = 2e-5, .sample_times = {2, 4, 6, 8, 10}};
  return p;
}

// P3: three-dimensional pendulum, spherical body (paper 001 section 3).
Problem pendulum3d() {
  Problem p;
  p.name = "pendulum3d";
  p.title = "Three-dimensional pendulum, spherical body (Baker & Gonzalez section 3)";
  p.source = "paper 001 section 3; docs/problems.md P3";
  p.bodies = {BodyModel{Mat3::Identity(), 1.0}};  // J = 1, m = 1 (not stated in the paper)
  // U(R) = -m g e3 . R rho0 exactly as printed (paper 001 section 3): a field +g e3 at rho0 = E3.
  // The printed moment (eq. 40) mixes frames; the moment used is the one derived from U
  // (docs/decisions.md, "pendulum3d").
  p.loads = {UniformField{.mass = 1.0, .acceleration = Vec3(0, 0, 1.0), .point = Vec3(0, 0, 1.0)}};
  const Vec3 alpha0 = Vec3(0, 1, 0) * 2.0 * std::tan(3.0 * pi / 8.0);  // 3 pi / 4 about e2
  const Mat3 R0 = rrp::to_matrix(alpha0);
  const double s = std::sin(pi / 4.0);
  const Vec3 Omega0 = Vec3(1, 0, 1) * 0.4 * s * s;  // spatial
  p.initial.body().R = R0;
  p.initial.body().W = R0.transpose() * Omega0;
  p.t_end = 10.0;
  // The paper's ladder h = 0.1 2^-k, k = 0..5, extended by two levels so that the second-order
  // schemes reach the asymptotic range of Q_II (its O(h) correction halves per level).
  p.verification = {.h0 = 0.1, .levels = 8, .h0_order1 = std::nullopt, .sample_times = {2, 4, 6, 8, 10}};
  return p;
}

// P6: a body in an ideal fluid (paper 003, Kirchhoff's equations): added-mass tensor M, inertia I.
Problem kirchhoff_body() {
  Problem p;
  p.name = "kirchhoff_body";
  p.title = "Body in an ideal fluid (Kirchhoff), M = diag(2, 3, 4), I = diag(1, 2, 3)";
  p.source = "paper 003; docs/problems.md P6";
  p.family = &find_family("kirchhoff_body");
  BodyModel b;
  b.inertia = Vec3(1, 2, 3).asDiagonal();
  b.added_mass = Vec3(2, 3, 4).asDiagonal();
  p.bodies = {b};
  p.initial.body().R = Mat3::Identity();
  p.initial.body().x = Vec3::Zero();
  p.initial.body().v = Vec3(1.0, 0.5, 0.2);  // = R u with R(0) = I
  p.initial.body().W = Vec3(0.3, 1.0, 0.5);
  p.t_end = 20.0;
  p.verification = {.h0 = 0.05, .levels = 6, .h0_order1 = std::nullopt, .sample_times = {4, 8, 12, 16, 20}};
  return p;
}

// P4: rigid body on a non-twisting frame (paper 000 section 6). J = [[3, -1/7, 0], [-1/7, 4, 0], [0, 0, 5]]
// (Euler coefficients [[3, 1/7, 0], [1/7, 2, 0], [0, 0, 1]]), R(0) = I, t in [0, 5], h = 0.005.
// `scale` multiplies the printed load amplitudes of eqs. 115 and 118 (1 = as printed; the *_tables
// variants use 1/20, docs/findings.md "Paper 000 Tables 3-6").
Problem non_twisting(int which, double scale) {
  Problem p;
  p.family = &find_family("non_twisting");
  p.name = cat("non_twisting_case", std::to_string(which), scale == 1.0 ? "" : "_tables");
  const char* what[] = {"", "nonzero initial velocity, no load", "vanishing follower load from rest",
                        "nonzero initial velocity and a vanishing follower load"};
  p.title = cat("Rigid body on a non-twisting frame, case ", std::to_string(which), ": ", what[which],
                scale == 1.0 ? "" : " (load amplitudes / 20: the values behind Tables 3-6)");
  p.source = cat("paper 000 section 6.", std::to_string(which), "; docs/problems.md P4");
  Mat3 J;
  J << 3, -1.0 / 7.0, 0, -1.0 / 7.0, 4, 0, 0, 0, 5;
  p.bodies = {BodyModel{J, 1.0}};
  p.initial.body().R = Mat3::Identity();
  // omega_perp(0) = a d1(0) + b d2(0) with R(0) = I: body components (a, b, 0) (eqs. 112, 114, 117).
  const Vec3 W0[] = {Vec3::Zero(), Vec3(6, -18, 0), Vec3::Zero(), Vec3(1.5, 4.5, 0)};
  p.initial.body().W = W0[which];
  // f(t) of eq. 116: 2t on [0, 0.5), 2 - 2t on [0.5, 1), 0 from t = 1 (kinks at 0.5 and 1).
  const TimeProfile f{{{0.0, 0.0}, {0.5, 1.0}, {1.0, 0.0}}};
  if (which == 2) p.loads = {FollowerMoment{-scale * Vec3(2472.5, 1075, 0), f}};
  if (which == 3) p.loads = {FollowerMoment{-scale * Vec3(1236.25, 537.5, 0), f}};
  p.t_end = 5.0;
  // The paper's h = 0.005 is the coarsest level; the ladder goes 7 levels down (h = 7.8e-5) so that
  // the printed loads (|W| ~ 400 rad/s after t = 1, 2 rad per step at h = 0.005) reach the asymptotic range.
  p.verification = {.h0 = 0.005, .levels = 7, .h0_order1 = std::nullopt, .sample_times = {1, 2, 3, 4, 5}};
  return p;
}

// P5: the particle-binder torus of paper 001 section 4.1 in SE(3)^80. Particle i sits at the angle
// pi + 2 pi i / N of a circle of diameter D_t in the plane z = 0 (particle 0 nearest the wall), the
// neighbours in point contact (D_p = D_t sin(pi/N)); bonds (i, i+1 mod N) with rest vectors of that
// undeformed ring and R0 = I. `impact`: the wall x = 0 (normal e1), the closest surface 0.05 from it,
// v(0) = (-1, 0, 0). Free: no wall, v(0) = (-1, 0, 0) plus a rigid spin 0.5 rad/s about e3 through
// the ring's centre (W = R^T omega), and particle 0 moved radially out so that both its bonds are
// 1 % longer than at rest (docs/problems.md P5: "a perturbation of the bond lengths of 1 % on particle 0").
Problem torus(bool impact) {
  constexpr std::size_t N = 80;
  constexpr double Dt = 3.0, r = Dt / 2, Km = 10, Ka = 200, Ks = 200, Kpp = 2100, v0 = 1.0;
  const double Dp = Dt * std::sin(pi / double(N));
  Problem p;
  p.family = &find_family("body_system");
  p.name = impact ? "torus_impact" : "torus_free";
  p.title = impact ? "Particle-binder torus (80 particles) impacting a rigid wall"
                   : "Free particle-binder torus (80 particles), spinning, one bond pair stretched 1 %";
  p.source = "paper 001 section 4.1; docs/problems.md P5";
  const Vec3 centre(impact ? 0.05 + Dp / 2 + r : 0.0, 0, 0);
  std::vector<Vec3> ring(N);
  for (std::size_t i = 0; i < N; ++i) {
    const double phi = pi + 2 * pi * double(i) / double(N);
    ring[i] = centre + r * Vec3(std::cos(phi), std::sin(phi), 0);
  }
  BodyModel body{Mat3::Identity(), 1.0};
  body.diameter = Dp;
  p.bodies.assign(N, body);
  p.initial = State(N);
  for (std::size_t i = 0; i < N; ++i)
    p.interactions.bonds.push_back(Bond{.i = i, .j = (i + 1) % N, .bending = Km, .axial = Ka, .shear = Ks,
                                        .rest = ring[i] - ring[(i + 1) % N]});
  p.interactions.contact_stiffness = Kpp;
  const Vec3 omega = impact ? Vec3::Zero() : Vec3(0, 0, 0.5);
  for (std::size_t i = 0; i < N; ++i) {
    BodyState& b = p.initial.bodies[i];
    b.x = ring[i];
    if (!impact && i == 0) {
      // |x0 - x1| = 1.01 L0 with x0 on its ray from the centre: a^2 - 2 a r cos(2 pi/N) + r^2 = (1.01 L0)^2.
      const double c = std::cos(2 * pi / double(N)), L = 1.01 * Dp;
      const double a = r * c + std::sqrt(r * r * c * c - r * r + L * L);
      b.x = centre + (a / r) * (ring[0] - centre);
    }
    b.v = Vec3(-v0, 0, 0) + omega.cross(b.x - centre);
    b.W = b.R.transpose() * omega;
  }
  if (impact) p.interactions.walls.push_back(Wall{.normal = Vec3::UnitX(), .offset = 0.0, .stiffness = Kpp});
  p.t_end = impact ? 35.0 : 25.0;
  // Convergence on [0, 10] (docs/problems.md P5). The stiffest mode, the bonds' axial one, has
  // omega_max ~ 2 sqrt(K^a / L0^2) = 240 rad/s (more under Hertz contact): explicit Verlet-type maps
  // are stable only for h < 2/omega_max = 8.3e-3, and the impact's contact stiffening makes h = 4e-3
  // blow up and h = 2e-3 drift (docs/findings.md). The ladders start where the maps are stable and
  // reach the asymptotic range (local slopes within 0.1 of 2 on torus_free from h = 5e-4 down).
  p.verification = {.h0 = impact ? 1e-3 : 2e-3, .levels = impact ? 4 : 5, .h0_order1 = std::nullopt,
                    .sample_times = {2, 4, 6, 8, 10}, .t_end = 10.0};
  return p;
}

struct Entry {
  std::string name;
  std::function<Problem()> make;
  bool quick;
  bool builtin;
};

std::size_t builtin_entries_count();
std::vector<Entry> builtin_entries() {
  // The torus (P5) is not in the quick suite: its high-accuracy reference alone takes over a minute
  // on 2 cores (quick <= 60 s). `verify --problem torus_free torus_impact` runs it.
  return {{"free_body", free_body, true, true},
          {"dzhanibekov", dzhanibekov, true, true},
          {"heavy_top", heavy_top, true, true},
          {"pendulum3d", pendulum3d, true, true},
          {"kirchhoff_body", kirchhoff_body, true, true},
          {"non_twisting_case1", [] { return non_twisting(1, 1.0); }, true, true},
          {"non_twisting_case2", [] { return non_twisting(2, 1.0); }, true, true},
          {"non_twisting_case3", [] { return non_twisting(3, 1.0); }, true, true},
          {"non_twisting_case2_tables", [] { return non_twisting(2, 1.0 / 20.0); }, true, true},
          {"non_twisting_case3_tables", [] { return non_twisting(3, 1.0 / 20.0); }, true, true},
          {"torus_impact", [] { return torus(true); }, false, true},
          {"torus_free", [] { return torus(false); }, false, true},
          {"particle_gas", [] { return particle_gas(kParticleGasDefault); }, false, true}};
}
std::size_t builtin_entries_count() {
  static const std::size_t n = builtin_entries().size();
  return n;
}

/// Built-in problems, then the ones the program registered, in order. Registration happens before
/// any command runs; the mutex only guards registrations against each other.
std::vector<Entry>& registered() {
  static std::vector<Entry> e = builtin_entries();
  return e;
}
/// The built-in problems, those the families declare (Family::catalogue), then the registered ones.
std::vector<Entry> entries() {
  std::vector<Entry> e(registered().begin(), registered().begin() + std::ptrdiff_t(builtin_entries_count()));
  for (const Family* f : all_families())
    for (CatalogueEntry& c : f->catalogue()) e.push_back({std::move(c.name), std::move(c.make), c.quick, true});
  e.insert(e.end(), registered().begin() + std::ptrdiff_t(builtin_entries_count()), registered().end());
  return e;
}
std::mutex& entries_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

// P7: a granular gas of n frictionless spheres in a closed box (docs/problems.md P7), the scalable
// body system of the scaling study (`bench --sizes`). Spheres of diameter D = 1, m = 1, J = m D^2/10
// (solid sphere), on a cubic lattice of spacing 1.5 D (packing fraction pi/(6 1.5^3) = 0.155) with
// k = ceil(n^(1/3)) sites per edge filled in order; each centre jittered by at most 0.1 D per axis
// (so that no two overlap: the closest centres stay 1.5 - 2 sqrt(3) 0.1 > 1.15 apart) and
// velocities and spins uniform in [-1, 1]^3, all from one mt19937_64 stream (seed 20261124) read
// as 53-bit uniforms, identical on every platform. Six walls close the box half a spacing beyond the
// outer sites. Hertz contact (eq. 56) between spheres and with the walls, K = 1e4: a head-on
// collision at the mean relative speed overlaps by ~3 % of D and lasts ~0.05. Measured on 500
// spheres over [0, 4] (bg_newmark, h = 1e-3): largest overlap 4.9 % of D, 1.7 collisions per sphere
// per unit time. The energy is the one conserved quantity: the walls take momentum.
Problem particle_gas(std::size_t n) {
  if (n < 2 || n > 1000000)
    throw InputError(cat("particle_gas: the number of spheres must be in [2, 1000000] (got ", std::to_string(n), ")"));
  constexpr double D = 1.0, spacing = 1.5 * D, jitter = 0.1 * D, K = 1e4;
  std::size_t k = 1;
  while (k * k * k < n) ++k;
  std::mt19937_64 rng(20261124);
  const auto uniform = [&rng](double a, double b) { return a + (b - a) * double(rng() >> 11) * 0x1.0p-53; };
  Problem p;
  p.family = &find_family("body_system");
  p.name = n == kParticleGasDefault ? "particle_gas" : cat("particle_gas_", std::to_string(n));
  p.title = cat("Granular gas: ", std::to_string(n), " frictionless spheres with Hertz contact in a closed box");
  p.source = "docs/problems.md P7 (rigidbench's own: the scalable body system)";
  BodyModel body{Mat3::Identity() * (0.1 * D * D), 1.0};
  body.diameter = D;
  p.bodies.assign(n, body);
  p.initial = State(n);
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t i = b % k, j = (b / k) % k, l = b / (k * k);
    BodyState& s = p.initial.bodies[b];
    s.x = spacing * Vec3(double(i), double(j), double(l));
    for (int a = 0; a < 3; ++a) s.x[a] += uniform(-jitter, jitter);
    for (int a = 0; a < 3; ++a) s.v[a] = uniform(-1, 1);
    for (int a = 0; a < 3; ++a) s.W[a] = uniform(-1, 1);
  }
  p.interactions.contact_stiffness = K;
  const double lo = -0.5 * spacing, hi = (double(k) - 0.5) * spacing;
  for (int a = 0; a < 3; ++a) {
    const Vec3 e = Vec3::Unit(a);
    p.interactions.walls.push_back(Wall{.normal = e, .offset = lo, .stiffness = K});    // e . x >= lo
    p.interactions.walls.push_back(Wall{.normal = -e, .offset = -hi, .stiffness = K});  // e . x <= hi
  }
  p.t_end = 4.0;
  // The contact's stiffest mode is ~70 rad/s at these speeds: h = 4e-3 is 0.28 rad per step.
  p.verification = {.h0 = 4e-3, .levels = 4, .h0_order1 = std::nullopt, .sample_times = {0.5, 1.0}, .t_end = 1.0};
  return p;
}

std::vector<std::string> catalogue_names() {
  std::vector<std::string> n;
  for (const Entry& e : entries()) n.push_back(e.name);
  return n;
}

std::vector<std::string> quick_problem_names() {
  std::vector<std::string> n;
  for (const Entry& e : entries())
    if (e.quick) n.push_back(e.name);
  return n;
}

bool builtin_problem(const std::string& name) {
  if (std::string base; sized_problem(name, base)) return true;
  for (const Entry& e : entries())
    if (e.name == name) return e.builtin;
  return false;
}

void register_problem(const std::string& name, std::function<Problem()> make, bool quick) {
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      }))
    throw InputError(cat("cannot register problem '", name, "': a name is one or more of a-z, 0-9 and _"));
  if (!make) throw InputError(cat("cannot register problem '", name, "': no function makes it"));
  std::lock_guard lock(entries_mutex());
  for (const Entry& e : entries())
    if (e.name == name)
      throw InputError(cat("cannot register problem '", name, "': the name is taken by ",
                           e.builtin ? "a built-in problem" : "another registered problem"));
  // Made and validated once now, so that a bad problem is refused where it is registered.
  Problem p = make();
  if (p.name != name)
    throw InputError(cat("cannot register problem '", name, "': it is made with the name '", p.name, "' (they must agree)"));
  p.finalize();
  registered().push_back({name, std::move(make), quick, false});
}

namespace {
/// The catalogue problems that have a size: NAME_N is make(N).
struct Scalable {
  const char* name;
  Problem (*make)(std::size_t n);
};
const std::vector<Scalable>& scalable_problems() {
  static const std::vector<Scalable> table{{"particle_gas", particle_gas}};
  return table;
}
}  // namespace

std::vector<std::string> scalable_problem_names() {
  std::vector<std::string> out;
  for (const Scalable& s : scalable_problems()) out.emplace_back(s.name);
  return out;
}

std::optional<std::size_t> sized_problem(const std::string& name, std::string& base) {
  for (const Scalable& s : scalable_problems()) {
    const std::string prefix = cat(s.name, "_");
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 7 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    base = s.name;
    return std::size_t(std::stoul(digits));
  }
  return std::nullopt;
}

Problem catalogue_problem(const std::string& name) {
  std::string base;
  if (const auto n = sized_problem(name, base))
    for (const Scalable& s : scalable_problems())
      if (base == s.name) {
        Problem p = s.make(*n);
        p.name = name;  // particle_gas_2000 names the default size too
        p.finalize();
        return p;
      }
  for (const Entry& e : entries())
    if (e.name == name) {
      Problem p = e.make();
      if (p.name != name)
        throw InputError(cat("catalogue problem '", name, "' is made with the name '", p.name, "' (they must agree)"));
      p.finalize();
      return p;
    }
  std::string known;
  for (const auto& n : catalogue_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown problem '" + name + "' (known: " + known + "; particle_gas_N for N spheres)");
}

}  // namespace rigidbench
