// The body_system family: n bodies in SE(3)^n coupled by interaction potentials (paper 001 section 4,
// docs/problems.md P5): binder bonds (eqs. 44, 51, 53), Hertz contact between particles (eq. 56) and
// walls. Interactions are problem data (problems/interactions.hpp); no external loads.
#include <cmath>

#include "rigidbench/core/directions.hpp"
#include "rigidbench/core/json_input.hpp"
#include "rigidbench/problems/families/common.hpp"
#include "rigidbench/problems/file_reader.hpp"

namespace rigidbench::families {
namespace {

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
    auto& in = p.interactions;
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
                   std::max(std::abs(p.system_energy(p.initial).total()), 1e-300)}},
                 [](const Problem& q, const State& s, double* out) { *out = q.system_energy(s).total(); }});
    if (p.interactions.walls.empty()) {
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
  double energy(const Problem& p, const State& s) const override { return p.system_energy(s).total(); }
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
    for (std::size_t i = 0; i < p.bodies.size(); ++i) {
      const auto& bj = j["bodies"][i];
      if (bj.contains("diameter")) p.bodies[i].diameter = r.number(bj["diameter"], cat("/bodies/", std::to_string(i), "/diameter"));
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
        p.interactions.bonds.push_back(bd);
      }
    }
    if (in.contains("contact_stiffness"))
      p.interactions.contact_stiffness = r.number(in["contact_stiffness"], "/interactions/contact_stiffness");
    if (in.contains("walls")) {
      if (!in["walls"].is_array()) r.fail("/interactions/walls", "expected an array");
      for (std::size_t k = 0; k < in["walls"].size(); ++k) {
        const nlohmann::json& w = in["walls"][k];
        const std::string wp = "/interactions/walls/" + std::to_string(k);
        r.only(w, wp, {"normal", "offset", "stiffness"});
        p.interactions.walls.push_back(Wall{.normal = r.vec3(r.field(w, wp, "normal"), wp + "/normal"),
                                            .offset = w.contains("offset") ? r.number(w["offset"], wp + "/offset") : 0.0,
                                            .stiffness = r.number(r.field(w, wp, "stiffness"), wp + "/stiffness")});
      }
    }
  }
  void write(const Problem& p, nlohmann::ordered_json& j) const override {
    const Interactions& in = p.interactions;
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
    body["diameter"] = p.bodies[b].diameter;
  }
};

}  // namespace

std::unique_ptr<Family> body_system() { return std::make_unique<BodySystem>(); }

}  // namespace rigidbench::families
