// The kirchhoff_body family: one body in an ideal fluid (paper 003; docs/problems.md P6), SE(3) with
// the coupled kinetic energy T = 1/2 u.M u + 1/2 W.J W (u = R^T v the body velocity, M the added-mass
// tensor), no external loads. Kirchhoff form: P' + W x P = 0, Pi' + W x Pi + u x P = 0, P = M u,
// Pi = J W; Newton-Euler form: the spatial impulse R P and angular impulse x x R P + R Pi are constant.
#include "kirchhoff_body.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "common.hpp"
#include "../file_reader.hpp"

namespace rigidbench::families {
namespace {

// P6: a body in an ideal fluid (paper 003, Kirchhoff's equations): added-mass tensor M, inertia I.
Problem kirchhoff_body() {
  Problem p;
  p.name = "kirchhoff_body";
  p.title = "Body in an ideal fluid (Kirchhoff), M = diag(2, 3, 4), I = diag(1, 2, 3)";
  p.source = "paper 003; docs/problems.md P6";
  p.family = &find_family("kirchhoff_body");
  BodyModel b;
  b.inertia = Vec3(1, 2, 3).asDiagonal();
  p.bodies = {b};
  p.family_data.edit<KirchhoffBodyData>().added_mass = Vec3(2, 3, 4).asDiagonal();
  p.initial.body().R = Mat3::Identity();
  p.initial.body().x = Vec3::Zero();
  p.initial.body().v = Vec3(1.0, 0.5, 0.2);  // = R u with R(0) = I
  p.initial.body().W = Vec3(0.3, 1.0, 0.5);
  p.t_end = 20.0;
  p.verification = {.h0 = 0.05, .levels = 6, .h0_order1 = std::nullopt, .sample_times = {4, 8, 12, 16, 20}};
  return p;
}

class KirchhoffBody final : public Family {
 public:
  std::string_view name() const override { return "kirchhoff_body"; }
  std::string_view title() const override {
    return "one body in an ideal fluid (paper 003): SE(3) with added mass, no loads";
  }
  bool translating() const override { return true; }

  void validate(Problem& p) const override {
    const std::string w = where(p);
    require(p.loads.empty(), w + "a kirchhoff_body has no external loads (docs/problems.md P6)");
    KirchhoffBodyData& d = p.family_data.edit<KirchhoffBodyData>();
    const Mat3& M = d.added_mass;
    require(M.allFinite() && (M - M.transpose()).norm() <= 1e-12 * M.norm(),
            w + "body 0: added_mass must be finite and symmetric");
    Eigen::SelfAdjointEigenSolver<Mat3> es(M);
    require(es.eigenvalues().minCoeff() > 1e-12 * std::abs(es.eigenvalues().maxCoeff()) && es.eigenvalues().maxCoeff() > 0,
            w + "body 0: added_mass is not positive definite (eigenvalues " + num(es.eigenvalues()[0]) + ", " +
                num(es.eigenvalues()[1]) + ", " + num(es.eigenvalues()[2]) + ")");
    d.added_mass_inverse = M.inverse();
  }

  std::vector<InvariantGroup> invariants(const Problem& p) const override {
    const BodyState& b = p.initial.body();
    const Vec3 u = b.R.transpose() * b.v, P = kirchhoff_body_data(p).added_mass * u, Pi = p.inertia() * b.W;
    const Vec3 ps_vec = b.R * P, ms_vec = b.x.cross(ps_vec) + b.R * Pi;
    const double T0 = 0.5 * (u.dot(P) + b.W.dot(Pi));
    const double ps = std::max(ps_vec.norm(), 1e-300), ms = std::max(ms_vec.norm(), 1e-300);
    std::vector<InvariantGroup> g;
    InvariantGroup m{{{"energy", InvariantKind::energy, "T = 1/2 u.M u + 1/2 W.J W, u = R^T v", std::max(T0, 1e-300)},
                      {"impulse_squared", InvariantKind::casimir, "|P|^2, P = M u", ps * ps},
                      {"impulse_dot_angular", InvariantKind::casimir, "P . Pi, Pi = J W", std::max(ps * Pi.norm(), 1e-300)}},
                     [](const Problem& q, const State& s, double* out) {
                       const BodyState& x = s.body();
                       const Vec3 uu = x.R.transpose() * x.v, PP = kirchhoff_body_data(q).added_mass * uu,
                                  PPi = q.inertia() * x.W;
                       const Vec3 p_s = x.R * PP, m_s = x.x.cross(p_s) + x.R * PPi;
                       out[0] = 0.5 * (uu.dot(PP) + x.W.dot(PPi));
                       out[1] = PP.squaredNorm();
                       out[2] = PP.dot(PPi);
                       for (int i = 0; i < 3; ++i) out[3 + i] = p_s[i], out[6 + i] = m_s[i];
                     }};
    for (int i = 0; i < 3; ++i)
      m.defs.push_back({cat("spatial_impulse_", axis_name(i)), InvariantKind::momentum,
                        cat("e", std::to_string(i + 1), " . R P"), ps, true});
    for (int i = 0; i < 3; ++i)
      m.defs.push_back({cat("spatial_angular_impulse_", axis_name(i)), InvariantKind::momentum,
                        cat("e", std::to_string(i + 1), " . (x x R P + R Pi)"), ms, true});
    g.push_back(std::move(m));
    g.push_back(orthogonality());
    return g;
  }
  double energy(const Problem& p, const State& s) const override {
    const BodyState& b = s.body();
    const Vec3 u = b.R.transpose() * b.v;
    return 0.5 * (u.dot(kirchhoff_body_data(p).added_mass * u) + b.W.dot(p.inertia() * b.W));
  }
  // T = 1/2 u.M u + 1/2 W.J W with u = R^T v: Pi = J W and the spatial impulse P = R M R^T v.
  bool momenta(const Problem& p, const State& s, std::vector<BodyMomenta>& m) const override {
    const BodyState& b = s.body();
    m.assign(1, {p.inertia() * b.W, b.R * (kirchhoff_body_data(p).added_mass * (b.R.transpose() * b.v))});
    return true;
  }
  void velocities(const Problem& p, const std::vector<BodyMomenta>& m, State& s) const override {
    BodyState& b = s.body();
    b.W = p.inertia_inverse() * m[0].Pi;
    b.v = b.R * (kirchhoff_body_data(p).added_mass_inverse * (b.R.transpose() * m[0].P));
  }
  std::vector<std::string> formulations(const Problem&) const override {
    return {"kirchhoff", "newton_euler", "hybrid"};
  }

  // Per body "added_mass": the 3x3 SPD tensor M (required).
  std::vector<const char*> body_file_keys() const override { return {"added_mass"}; }
  void read(const nlohmann::json& j, Problem& p, const ProblemFileReader& r) const override {
    for (std::size_t i = 0; i < p.bodies.size(); ++i) {
      const std::string bp = "/bodies/" + std::to_string(i);
      const auto& bj = j["bodies"][i];
      if (!bj.contains("added_mass")) r.fail(bp, "a kirchhoff_body needs added_mass (3x3, SPD)");
      p.family_data.edit<KirchhoffBodyData>().added_mass = r.mat3(bj["added_mass"], bp + "/added_mass");
    }
  }
  void write_body(const Problem& p, std::size_t b, nlohmann::ordered_json& body) const override {
    if (b == 0) body["added_mass"] = json_mat(kirchhoff_body_data(p).added_mass);
  }
  // The family's catalogue problem (docs/problems.md P6).
  std::vector<CatalogueEntry> catalogue() const override { return {{"kirchhoff_body", kirchhoff_body, true}}; }
};

}  // namespace

std::unique_ptr<Family> kirchhoff_body() { return std::make_unique<KirchhoffBody>(); }

}  // namespace rigidbench::families
