// The body_system family: n bodies in SE(3)^n coupled by interaction potentials (paper 001 section 4,
// docs/problems.md P5): binder bonds (eqs. 44, 51, 53), Hertz contact between particles (eq. 56) and
// walls. Interactions are the family's data (families/body_system.hpp); no external loads.
#include "body_system.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "../../core/directions.hpp"
#include "../../core/parallel.hpp"
#include "../../core/json_input.hpp"
#include "../catalogue.hpp"
#include "common.hpp"
#include "../file_reader.hpp"
#include "../interactions.hpp"

namespace rigidbench::families {
namespace {

constexpr double pi = std::numbers::pi;

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
  p.bodies.assign(N, BodyModel{Mat3::Identity(), 1.0});
  p.initial = State(N);
  BodySystemData& d = p.family_data.edit<BodySystemData>();
  d.diameters.assign(N, Dp);
  for (std::size_t i = 0; i < N; ++i)
    d.interactions.bonds.push_back(Bond{.i = i, .j = (i + 1) % N, .bending = Km, .axial = Ka, .shear = Ks,
                                        .rest = ring[i] - ring[(i + 1) % N]});
  d.interactions.contact_stiffness = Kpp;
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
  if (impact) d.interactions.walls.push_back(Wall{.normal = Vec3::UnitX(), .offset = 0.0, .stiffness = Kpp});
  p.t_end = impact ? 35.0 : 25.0;
  // Convergence on [0, 10] for the free torus, on [0, 0.5] for the impact (docs/problems.md P5;
  // docs/decisions.md, "torus_impact's convergence span"): after the impact the exact flow separates
  // nearby states at ~e^{5.2 t} (a 1e-9 change of one particle's velocity grows to 1e-3 at t = 3 and
  // saturates at ~0.2 by t = 5, exactly as the references' tolerance differences do), so no
  // reference in binary64 - and no scheme at any feasible h - resolves [0, 10]; on [0, 0.5], which
  // holds the impact (contact at t = 0.05), the reference at 1e-13 and its 1e-12 rerun agree to
  // 7.5e-10 in position. The stiffest mode, the bonds' axial one, has
  // omega_max ~ 2 sqrt(K^a / L0^2) = 240 rad/s (more under Hertz contact): explicit Verlet-type maps
  // are stable only for h < 2/omega_max = 8.3e-3, and the impact's contact stiffening makes h = 4e-3
  // blow up and h = 2e-3 drift (docs/findings.md). The ladders start where the maps are stable and
  // reach the asymptotic range (local slopes within 0.1 of 2 on torus_free from h = 5e-4 down).
  p.verification = impact ? VerificationSettings{.h0 = 1e-3, .levels = 4, .h0_order1 = std::nullopt,
                                                 .sample_times = {0.1, 0.2, 0.3, 0.4, 0.5}, .t_end = 0.5}
                           : VerificationSettings{.h0 = 2e-3, .levels = 5, .h0_order1 = std::nullopt,
                                                 .sample_times = {2, 4, 6, 8, 10}, .t_end = 10.0};
  return p;
}

class BodySystem final : public Family {
 public:
  std::string_view name() const override { return "body_system"; }
  std::string_view title() const override {
    return "n bodies in SE(3)^n with bonds, contact and walls (paper 001 section 4)";
  }
  bool translating() const override { return true; }
  bool many_bodies() const override { return true; }

  void validate(Problem& p) const override {
    const std::string w = where(p);
    require(p.loads.empty(), w + "the body_system family takes interactions (bonds, contact, walls), not loads");
    BodySystemData& d = p.family_data.edit<BodySystemData>();
    if (d.diameters.empty()) d.diameters.assign(p.bodies.size(), 0.0);
    require(d.diameters.size() == p.bodies.size(), w + "one contact diameter per body (" + std::to_string(d.diameters.size()) +
                                                       " for " + std::to_string(p.bodies.size()) + " bodies)");
    for (std::size_t b = 0; b < d.diameters.size(); ++b)
      require(std::isfinite(d.diameters[b]) && d.diameters[b] >= 0,
              w + "body " + std::to_string(b) + ": diameter must be finite and >= 0 (got " + num(d.diameters[b]) + ")");
    auto& in = d.interactions;
    for (std::size_t k = 0; k < in.bonds.size(); ++k) {
      const Bond& bd = in.bonds[k];
      const std::string kw = w + "bond " + std::to_string(k) + ": ";
      require(bd.i < p.bodies.size() && bd.j < p.bodies.size() && bd.i != bd.j,
              kw + "bodies " + std::to_string(bd.i) + " and " + std::to_string(bd.j) +
                  " must be two distinct bodies of " + std::to_string(p.bodies.size()));
      for (double K : {bd.bending, bd.axial, bd.shear})
        require(std::isfinite(K) && K >= 0, kw + "stiffnesses must be finite and >= 0 (got " + num(K) + ")");
      require(bd.rest.allFinite() && (bd.rest.norm() > 0 || (bd.axial == 0 && bd.shear == 0)),
              kw + "the rest vector must be finite and non-zero (axial and shear energies divide by its length)");
    }
    require(std::isfinite(in.contact_stiffness) && in.contact_stiffness >= 0,
            w + "contact_stiffness must be finite and >= 0 (got " + num(in.contact_stiffness) + ")");
    for (std::size_t k = 0; k < in.walls.size(); ++k) {
      Wall& wl = in.walls[k];
      const std::string kw = w + "wall " + std::to_string(k) + ": ";
      require(wl.normal.allFinite() && wl.normal.norm() > 0, kw + "the normal must be finite and non-zero");
      require(std::isfinite(wl.offset) && std::isfinite(wl.stiffness) && wl.stiffness >= 0,
              kw + "offset must be finite and stiffness finite and >= 0");
      wl.normal = unit_direction(wl.normal);
    }
  }

  std::vector<InvariantGroup> invariants(const Problem& p) const override {
    // Total energy; without walls the interactions are invariant under rigid motions, so total linear
    // momentum p = sum m v and angular momentum L = sum (x x m v + R J W) (spins included) are
    // conserved. Components are scaled by the sum of the magnitudes of their terms: that is what
    // round-off is relative to, however small the total.
    double ps = 0, ls = 0;
    for (std::size_t b = 0; b < p.bodies.size(); ++b) {
      const BodyState& s = p.initial.bodies[b];
      ps += p.bodies[b].mass * s.v.norm();
      ls += p.bodies[b].mass * s.x.norm() * s.v.norm() + (p.bodies[b].inertia * s.W).norm();
    }
    ps = std::max(ps, 1e-300);
    ls = std::max(ls, 1e-300);
    std::vector<InvariantGroup> g;
    g.push_back({{{"energy", InvariantKind::energy,
                   "E = sum (m|v|^2 + W.JW)/2 + U^m + U^a + U^s + U^pp + U^pw (paper 001 eq. 43)",
                   std::max(std::abs(system_energy(p, p.initial).total()), 1e-300)}},
                 [](const Problem& q, const State& s, double* out) { *out = system_energy(q, s).total(); },
                 [](const Problem& q) -> InvariantGroup::Along {
                   return [e = SystemEnergyAlong(q)](const State& s, double* out) mutable { *out = e(s).total(); };
                 }});
    if (body_system_data(p).interactions.walls.empty()) {
      InvariantGroup m{{}, [](const Problem& q, const State& s, double* out) {
                         Vec3 lin = Vec3::Zero(), ang = Vec3::Zero();
                         for (std::size_t i = 0; i < q.bodies.size(); ++i) {
                           const BodyState& b = s.bodies[i];
                           const Vec3 pb = q.bodies[i].mass * b.v;
                           lin += pb;
                           ang += b.x.cross(pb) + b.R * (q.bodies[i].inertia * b.W);
                         }
                         for (int i = 0; i < 3; ++i) out[i] = lin[i], out[3 + i] = ang[i];
                       }};
      for (int i = 0; i < 3; ++i)
        m.defs.push_back({cat("linear_momentum_", axis_name(i)), InvariantKind::momentum,
                          cat("e", std::to_string(i + 1), " . sum m v"), ps, true});
      for (int i = 0; i < 3; ++i)
        m.defs.push_back({cat("angular_momentum_", axis_name(i)), InvariantKind::momentum,
                          cat("e", std::to_string(i + 1), " . sum (x x m v + R J W), spins included"), ls, true});
      g.push_back(std::move(m));
    }
    g.push_back(orthogonality("max over bodies of |R^T R - I|_F"));
    return g;
  }
  bool internal_loads(const Problem& p) const override { return !body_system_data(p).interactions.empty(); }
  /// The largest contact diameter (1 for point particles).
  double length_scale(const Problem& p) const override {
    double L = 0;
    for (double D : body_system_data(p).diameters) L = std::max(L, D);
    return L > 0 ? L : 1.0;
  }
  double energy(const Problem& p, const State& s) const override { return system_energy(p, s).total(); }
  bool momenta(const Problem& p, const State& s, std::vector<BodyMomenta>& m) const override {
    return rigid_momenta(p, s, m);
  }
  void velocities(const Problem& p, const std::vector<BodyMomenta>& m, State& s) const override {
    rigid_velocities(p, m, s);
  }
  std::vector<std::string> formulations(const Problem&) const override { return {"body_system"}; }

  // {"interactions": {"bonds": [{"bodies": [i, j], "bending": Km, "axial": Ka, "shear": Ks, "rest": [..]}],
  //                   "contact_stiffness": Kpp, "walls": [{"normal": [..], "offset": c, "stiffness": K}]}}
  // and per body "diameter" (the contact diameter of eq. 56).
  std::vector<const char*> file_keys() const override { return {"interactions"}; }
  std::vector<const char*> body_file_keys() const override { return {"diameter"}; }
  void read(const nlohmann::json& j, Problem& p, const ProblemFileReader& r) const override {
    BodySystemData& d = p.family_data.edit<BodySystemData>();
    d.diameters.assign(p.bodies.size(), 0.0);
    for (std::size_t i = 0; i < p.bodies.size(); ++i) {
      const auto& bj = j["bodies"][i];
      if (bj.contains("diameter")) d.diameters[i] = r.number(bj["diameter"], cat("/bodies/", std::to_string(i), "/diameter"));
    }
    if (!j.contains("interactions")) return;
    const nlohmann::json& in = j["interactions"];
    r.only(in, "/interactions", {"bonds", "contact_stiffness", "walls"});
    if (in.contains("bonds")) {
      if (!in["bonds"].is_array()) r.fail("/interactions/bonds", "expected an array");
      for (std::size_t k = 0; k < in["bonds"].size(); ++k) {
        const nlohmann::json& b = in["bonds"][k];
        const std::string bp = "/interactions/bonds/" + std::to_string(k);
        r.only(b, bp, {"bodies", "bending", "axial", "shear", "rest"});
        const nlohmann::json& ij = r.field(b, bp, "bodies");
        if (!ij.is_array() || ij.size() != 2 || !ij[0].is_number_unsigned() || !ij[1].is_number_unsigned())
          r.fail(bp + "/bodies", "expected [i, j], two body indices, got " + json_brief(ij));
        Bond bd;
        bd.i = ij[0].get<std::size_t>();
        bd.j = ij[1].get<std::size_t>();
        if (b.contains("bending")) bd.bending = r.number(b["bending"], bp + "/bending");
        if (b.contains("axial")) bd.axial = r.number(b["axial"], bp + "/axial");
        if (b.contains("shear")) bd.shear = r.number(b["shear"], bp + "/shear");
        bd.rest = r.vec3(r.field(b, bp, "rest"), bp + "/rest");
        d.interactions.bonds.push_back(bd);
      }
    }
    if (in.contains("contact_stiffness"))
      d.interactions.contact_stiffness = r.number(in["contact_stiffness"], "/interactions/contact_stiffness");
    if (in.contains("walls")) {
      if (!in["walls"].is_array()) r.fail("/interactions/walls", "expected an array");
      for (std::size_t k = 0; k < in["walls"].size(); ++k) {
        const nlohmann::json& w = in["walls"][k];
        const std::string wp = "/interactions/walls/" + std::to_string(k);
        r.only(w, wp, {"normal", "offset", "stiffness"});
        d.interactions.walls.push_back(Wall{.normal = r.vec3(r.field(w, wp, "normal"), wp + "/normal"),
                                            .offset = w.contains("offset") ? r.number(w["offset"], wp + "/offset") : 0.0,
                                            .stiffness = r.number(r.field(w, wp, "stiffness"), wp + "/stiffness")});
      }
    }
  }
  void write(const Problem& p, nlohmann::ordered_json& j) const override {
    const Interactions& in = body_system_data(p).interactions;
    nlohmann::ordered_json bonds = nlohmann::ordered_json::array();
    for (const Bond& b : in.bonds)
      bonds.push_back({{"bodies", nlohmann::ordered_json::array({b.i, b.j})}, {"bending", b.bending}, {"axial", b.axial},
                       {"shear", b.shear}, {"rest", json_vec(b.rest)}});
    nlohmann::ordered_json walls = nlohmann::ordered_json::array();
    for (const Wall& w : in.walls)
      walls.push_back({{"normal", json_vec(w.normal)}, {"offset", w.offset}, {"stiffness", w.stiffness}});
    j["interactions"] = {{"bonds", bonds}, {"contact_stiffness", in.contact_stiffness}, {"walls", walls}};
  }
  void write_body(const Problem& p, std::size_t b, nlohmann::ordered_json& body) const override {
    body["diameter"] = diameter(body_system_data(p), b);
  }
  // The family's catalogue problems (docs/problems.md P5, P7), in the catalogue's order. The torus (P5)
  // and the gas (P7) are not in the quick suite: the torus' high-accuracy reference alone takes over a
  // minute on 2 cores (quick <= 60 s); `verify --problem torus_free torus_impact` runs it.
  std::vector<CatalogueEntry> catalogue() const override {
    return {{"torus_impact", [] { return torus(true); }, false},
            {"torus_free", [] { return torus(false); }, false},
            {"particle_gas", [] { return particle_gas(kParticleGasDefault); }, false}};
  }
};

}  // namespace

}  // namespace rigidbench::families

namespace rigidbench {

namespace {
/// The reach of contact: D_ij = (D_i + D_j)/2 <= max D.
double contact_reach(const BodySystemData& d, std::size_t n) {
  double reach = 0;
  for (std::size_t b = 0; b < n; ++b) reach = std::max(reach, diameter(d, b));
  return reach;
}

/// The bonds' terms in their order (walk_interactions and SystemLoads both start with them).
template <class RofB, class XofB>
void walk_bonds(const Interactions& in, const RofB& R, const XofB& x, SystemEnergy& e, Vec3* force, Vec3* moment) {
  const auto at = [](Vec3* a, std::size_t i) { return a ? a + i : nullptr; };
  for (const Bond& bd : in.bonds) {
    const std::size_t i = bd.i, j = bd.j;
    if (bd.bending != 0) e.bending += interactions::bending(bd.bending, R(i), R(j), at(moment, i), at(moment, j));
    if (bd.axial != 0)
      e.axial += interactions::axial(bd.axial, bd.rest.norm(), x(i), x(j), at(force, i), at(force, j));
    if (bd.shear != 0)
      e.shear += interactions::shear(bd.shear, bd.rest, R(i), R(j), x(i), x(j), at(force, i), at(force, j),
                                     at(moment, i), at(moment, j));
  }
}

/// The one walk over a body system's interactions (bonds, the near pairs for contact, walls): adds each
/// term's energy to e and, when `force`/`moment` are given (n entries, accumulated into), its loads.
/// R(b) and x(b) give body b's attitude and position (the schemes' arrays or a canonical State).
template <class RofB, class XofB>
void walk_interactions(const Problem& p, const RofB& R, const XofB& x, SystemEnergy& e, Vec3* force, Vec3* moment) {
  const auto at = [](Vec3* a, std::size_t i) { return a ? a + i : nullptr; };
  const std::size_t n = p.bodies.size();
  const BodySystemData& d = body_system_data(p);
  walk_bonds(d.interactions, R, x, e, force, moment);
  if (const double K = d.interactions.contact_stiffness; K != 0) {
    // Contact acts within D_ij = (D_i + D_j)/2 <= max D: only the pairs a grid finds near, in the
    // all-pairs order (the sums are the all-pairs sums bit for bit).
    interactions::for_each_near_pair(n, x, contact_reach(d, n), [&](std::size_t i, std::size_t j) {
      e.contact += interactions::contact(K, 0.5 * (diameter(d, i) + diameter(d, j)), x(i), x(j), at(force, i),
                                         at(force, j));
    });
  }
  for (const Wall& w : d.interactions.walls)
    for (std::size_t b = 0; b < n; ++b)
      e.wall += interactions::wall(w.stiffness, diameter(d, b), w.normal, w.offset, x(b), at(force, b));
}
}  // namespace

void system_loads(const Problem& p, const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment) {
  for (std::size_t b = 0; b < p.bodies.size(); ++b) force[b] = moment[b] = Vec3::Zero();
  SystemEnergy unused;
  walk_interactions(
      p, [R](std::size_t b) -> const Mat3& { return R[b]; }, [x](std::size_t b) -> const Vec3& { return x[b]; },
      unused, force, moment);
}

namespace {
/// The Verlet list's skin, in units of the contact reach: the list holds (1 + skin)^3 = 2 times the
/// pairs within reach, and at the gas's speeds (~1 per unit time, reach 1) it lasts ~0.1 time units,
/// hundreds of reference steps.
constexpr double kSkin = 0.25;
}  // namespace

SystemLoads::SystemLoads(const Problem& p)
    : p_(&p),
      reach_(contact_reach(body_system_data(p), p.bodies.size())),
      contact_(body_system_data(p).interactions.contact_stiffness != 0),
      near_(reach_, kSkin * reach_) {}

void SystemLoads::operator()(const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment) {
  evaluate(R, x, force, moment, p_->bodies.size() >= kParallelBodies ? parallel::spare_threads() : 1);
}

void SystemLoads::evaluate(const Mat3* R, const Vec3* x, Vec3* force, Vec3* moment, int threads) {
  const std::size_t n = p_->bodies.size();
  const bool listed = contact_ && reach_ > 0 && n >= 2;
  if (listed && !near_.update(n, x)) return system_loads(*p_, R, x, force, moment);  // a centre not finite
  const BodySystemData& d = body_system_data(*p_);
  const Interactions& in = d.interactions;
  for (std::size_t b = 0; b < n; ++b) force[b] = moment[b] = Vec3::Zero();
  SystemEnergy unused;
  walk_bonds(in, [R](std::size_t b) -> const Mat3& { return R[b]; }, [x](std::size_t b) -> const Vec3& { return x[b]; },
             unused, force, moment);
  const double K = in.contact_stiffness;
  parallel::for_each_chunk(n, threads, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) {
      Vec3 f = force[b];
      // The walk's pair (i, j), i < j, adds F(x_i - x_j) to body i and subtracts it from body j.
      if (listed)
        for (const std::uint32_t* k = near_.begin(b); k != near_.end(b); ++k) {
          const std::size_t j = *k;
          const double D = 0.5 * (diameter(d, std::min(b, j)) + diameter(d, std::max(b, j)));
          if (j > b) interactions::contact(K, D, x[b], x[j], &f, nullptr);
          else interactions::contact(K, D, x[j], x[b], nullptr, &f);
        }
      for (const Wall& w : in.walls) interactions::wall(w.stiffness, diameter(d, b), w.normal, w.offset, x[b], &f);
      force[b] = f;
    }
  });
}

namespace {
SystemEnergy kinetic_energy(const Problem& p, const State& s) {
  SystemEnergy e;
  for (std::size_t b = 0; b < p.bodies.size(); ++b) {
    const BodyState& x = s.bodies[b];
    e.translational += 0.5 * p.bodies[b].mass * x.v.squaredNorm();
    e.rotational += 0.5 * x.W.dot(p.bodies[b].inertia * x.W);
  }
  return e;
}
}  // namespace

SystemEnergy system_energy(const Problem& p, const State& s) {
  SystemEnergy e = kinetic_energy(p, s);
  walk_interactions(
      p, [&s](std::size_t b) -> const Mat3& { return s.bodies[b].R; },
      [&s](std::size_t b) -> const Vec3& { return s.bodies[b].x; }, e, nullptr, nullptr);
  return e;
}

SystemEnergyAlong::SystemEnergyAlong(const Problem& p)
    : p_(&p),
      reach_(contact_reach(body_system_data(p), p.bodies.size())),
      contact_(body_system_data(p).interactions.contact_stiffness != 0),
      near_(reach_, kSkin * reach_) {}

SystemEnergy SystemEnergyAlong::operator()(const State& s) {
  const std::size_t n = p_->bodies.size();
  if (!contact_ || !(reach_ > 0) || n < 2) return system_energy(*p_, s);
  x_.resize(n);
  for (std::size_t b = 0; b < n; ++b) x_[b] = s.bodies[b].x;
  if (!near_.update(n, x_.data())) return system_energy(*p_, s);  // a centre not finite: every pair
  const BodySystemData& d = body_system_data(*p_);
  const Interactions& in = d.interactions;
  SystemEnergy e = kinetic_energy(*p_, s);
  walk_bonds(in, [&s](std::size_t b) -> const Mat3& { return s.bodies[b].R; },
             [this](std::size_t b) -> const Vec3& { return x_[b]; }, e, nullptr, nullptr);
  const double K = in.contact_stiffness;
  for (std::size_t i = 0; i < n; ++i)
    for (const std::uint32_t* k = near_.begin(i); k != near_.end(i); ++k)
      if (const std::size_t j = *k; j > i)
        e.contact += interactions::contact(K, 0.5 * (diameter(d, i) + diameter(d, j)), x_[i], x_[j], nullptr, nullptr);
  for (const Wall& w : in.walls)
    for (std::size_t b = 0; b < n; ++b) e.wall += interactions::wall(w.stiffness, diameter(d, b), w.normal, w.offset, x_[b]);
  return e;
}

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
  p.bodies.assign(n, BodyModel{Mat3::Identity() * (0.1 * D * D), 1.0});
  p.initial = State(n);
  BodySystemData& d = p.family_data.edit<BodySystemData>();
  d.diameters.assign(n, D);
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t i = b % k, j = (b / k) % k, l = b / (k * k);
    BodyState& s = p.initial.bodies[b];
    s.x = spacing * Vec3(double(i), double(j), double(l));
    for (int a = 0; a < 3; ++a) s.x[a] += uniform(-jitter, jitter);
    for (int a = 0; a < 3; ++a) s.v[a] = uniform(-1, 1);
    for (int a = 0; a < 3; ++a) s.W[a] = uniform(-1, 1);
  }
  d.interactions.contact_stiffness = K;
  const double lo = -0.5 * spacing, hi = (double(k) - 0.5) * spacing;
  for (int a = 0; a < 3; ++a) {
    const Vec3 e = Vec3::Unit(a);
    d.interactions.walls.push_back(Wall{.normal = e, .offset = lo, .stiffness = K});    // e . x >= lo
    d.interactions.walls.push_back(Wall{.normal = -e, .offset = -hi, .stiffness = K});  // e . x <= hi
  }
  p.t_end = 4.0;
  // The contact's stiffest mode is ~70 rad/s at these speeds: h = 4e-3 is 0.28 rad per step.
  p.verification = {.h0 = 4e-3, .levels = 4, .h0_order1 = std::nullopt, .sample_times = {0.5, 1.0}, .t_end = 1.0};
  return p;
}

}  // namespace rigidbench

namespace rigidbench::families {

std::unique_ptr<Family> body_system() { return std::make_unique<BodySystem>(); }

}  // namespace rigidbench::families
