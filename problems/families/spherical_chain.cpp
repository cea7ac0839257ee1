// The spherical_chain family (families/spherical_chain.hpp; docs/problems.md, "Chains"): its checks,
// invariants, problem-file section and catalogue problems.
#include "spherical_chain.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "../../core/so3.hpp"
#include "../file_reader.hpp"
#include "common.hpp"

namespace rigidbench {

void place_chain(const ChainData& d, State& s) {
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    BodyState& b = s.bodies[i];
    const Vec3 Ra = b.R * d.inboard[i], va = b.R * b.W.cross(d.inboard[i]);
    if (i > 0) {
      const BodyState& q = s.bodies[i - 1];
      b.x = q.x + q.R * d.outboard[i - 1] - Ra;
      b.v = q.v + q.R * q.W.cross(d.outboard[i - 1]) - va;
    } else if (d.pivot) {
      b.x = *d.pivot - Ra;
      b.v = -va;
    }
  }
}

Vec3 chain_offset(const ChainData& d, std::size_t i, std::size_t j) {
  if (j > i) return Vec3::Zero();
  const Vec3 a = j > 0 || d.pivot ? d.inboard[j] : Vec3(Vec3::Zero());
  return j < i ? Vec3(d.outboard[j] - a) : Vec3(-a);
}

void chain_momenta(const Problem& p, const State& s, std::vector<Vec3>& Pi, Vec3& P) {
  const ChainData& d = chain_data(p);
  const std::size_t n = s.bodies.size();
  Pi.resize(n);
  P.setZero();
  for (std::size_t j = 0; j < n; ++j) {
    Pi[j] = p.inertia(j) * s.bodies[j].W;
    for (std::size_t i = j; i < n; ++i)
      Pi[j] += p.bodies[i].mass * chain_offset(d, i, j).cross(s.bodies[j].R.transpose() * s.bodies[i].v);
    if (!d.pivot) P += p.bodies[j].mass * s.bodies[j].v;
  }
}

Eigen::MatrixXd chain_mass_matrix(const Problem& p, const std::vector<Mat3>& R) {
  const ChainData& d = chain_data(p);
  const std::size_t n = R.size();
  const Eigen::Index N = Eigen::Index(3 * n + (d.pivot ? 0 : 3));
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(N, N);
  double mass = 0;
  for (std::size_t j = 0; j < n; ++j) {
    K.block<3, 3>(Eigen::Index(3 * j), Eigen::Index(3 * j)) = p.inertia(j);
    Vec3 mc = Vec3::Zero();
    for (std::size_t i = j; i < n; ++i) mc += p.bodies[i].mass * chain_offset(d, i, j);
    for (std::size_t l = 0; l < n; ++l)
      for (std::size_t i = std::max(j, l); i < n; ++i)
        K.block<3, 3>(Eigen::Index(3 * j), Eigen::Index(3 * l)) -= p.bodies[i].mass * so3::hat(chain_offset(d, i, j)) *
                                                                   R[j].transpose() * R[l] * so3::hat(chain_offset(d, i, l));
    if (!d.pivot) {
      K.block<3, 3>(Eigen::Index(3 * j), N - 3) = so3::hat(mc) * R[j].transpose();
      K.block<3, 3>(N - 3, Eigen::Index(3 * j)) = -R[j] * so3::hat(mc);
    }
    mass += p.bodies[j].mass;
  }
  if (!d.pivot) K.bottomRightCorner<3, 3>() = mass * Mat3::Identity();
  return K;
}

double joint_separation(const ChainData& d, const State& s) {
  double worst = 0;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const BodyState& b = s.bodies[i];
    const Vec3 child = b.x + b.R * d.inboard[i];
    if (i > 0) {
      const BodyState& q = s.bodies[i - 1];
      worst = std::max(worst, (child - (q.x + q.R * d.outboard[i - 1])).norm());
    } else if (d.pivot) {
      worst = std::max(worst, (child - *d.pivot).norm());
    }
  }
  return worst;
}

double chain_energy(const Problem& p, const State& s) {
  const Vec3& g = chain_data(p).gravity;
  double e = 0;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const BodyState& b = s.bodies[i];
    const double m = p.bodies[i].mass;
    e += 0.5 * (m * b.v.squaredNorm() + b.W.dot(p.inertia(i) * b.W)) - m * g.dot(b.x);
  }
  return e;
}

namespace families {
namespace {

/// The chain's length: the sum over links of max(|b_i - a_i|, |a_i|), the joint-to-joint distance or
/// the inboard joint's from the centre of mass (1 if it is zero).
double chain_length(const ChainData& d) {
  double L = 0;
  for (std::size_t i = 0; i < d.inboard.size(); ++i)
    L += std::max((d.outboard[i] - d.inboard[i]).norm(), d.inboard[i].norm());
  return L > 0 ? L : 1.0;
}

/// A box of mass m with edges (wx, wy, L), its long edge along body z, hanging from joints at the
/// middle of its two small faces: inboard (0, 0, L/2), outboard (0, 0, -L/2) from its centre.
struct Link {
  double mass, wx, wy, length;
  Mat3 inertia() const {
    return Vec3(mass / 12 * (wy * wy + length * length), mass / 12 * (wx * wx + length * length),
                mass / 12 * (wx * wx + wy * wy))
        .asDiagonal();
  }
};

/// A catalogue chain of identical links: each body's attitude by its rotation vector and its body
/// angular velocity; the centres of mass placed by the joints (place_chain).
Problem chain(const char* name, const char* title, const std::vector<Vec3>& rotation, const std::vector<Vec3>& W,
              std::optional<Vec3> pivot, const Vec3& gravity, double t_end, double h0) {
  const Link link{1.0, 0.1, 0.2, 1.0};
  Problem p;
  p.name = name;
  p.title = title;
  p.source = "chains of rigid bodies on SO(3)^n with spherical joints ([LLM] ch. 7); docs/problems.md, \"Chains\"";
  p.family = &find_family("spherical_chain");
  const std::size_t n = rotation.size();
  p.bodies.assign(n, BodyModel{link.inertia(), link.mass});
  ChainData& d = p.family_data.edit<ChainData>();
  d.pivot = pivot;
  d.gravity = gravity;
  d.inboard.assign(n, Vec3(0, 0, link.length / 2));
  d.outboard.assign(n, Vec3(0, 0, -link.length / 2));
  p.initial = State(n);
  for (std::size_t i = 0; i < n; ++i) {
    p.initial.bodies[i].R = so3::exp(rotation[i]);
    p.initial.bodies[i].W = W[i];
  }
  if (!pivot) p.initial.bodies[0].v = Vec3(0.1, 0.0, 0.05);
  place_chain(d, p.initial);
  p.t_end = t_end;
  std::vector<double> samples;
  for (int k = 1; k <= 5; ++k) samples.push_back(t_end * k / 5);
  p.verification = {.h0 = h0, .levels = 6, .h0_order1 = h0 / 8, .sample_times = samples};
  return p;
}

class SphericalChain final : public Family {
 public:
  std::string_view name() const override { return "spherical_chain"; }
  std::string_view title() const override {
    return "n rigid bodies in a chain of spherical joints, pivoted or free, under gravity (SO(3)^n, [LLM] ch. 7)";
  }
  bool translating() const override { return true; }
  bool many_bodies() const override { return true; }

  void validate(Problem& p) const override {
    const std::string w = where(p);
    require(p.loads.empty(), w + "a spherical_chain takes its gravity in \"chain\", not loads");
    ChainData& d = p.family_data.edit<ChainData>();
    const std::size_t n = p.bodies.size();
    if (d.inboard.empty()) d.inboard.assign(n, Vec3::Zero());
    if (d.outboard.empty()) d.outboard.assign(n, Vec3::Zero());
    require(d.inboard.size() == n && d.outboard.size() == n,
            w + "one inboard and one outboard joint point per body (" + std::to_string(n) + " bodies)");
    require(d.gravity.allFinite(), w + "gravity must be finite");
    require(!d.pivot || d.pivot->allFinite(), w + "the pivot must be finite");
    for (std::size_t i = 0; i < n; ++i)
      require(d.inboard[i].allFinite() && d.outboard[i].allFinite(),
              w + "body " + std::to_string(i) + ": joint points must be finite");
    // The initial positions and velocities must be the joints': a state off the chain's manifold is
    // not a chain (the message gives the values that are).
    State placed = p.initial;
    place_chain(d, placed);
    const double L = chain_length(d);
    double vs = 1e-300;
    for (const BodyState& b : placed.bodies) vs = std::max(vs, b.v.norm() + L * b.W.norm());
    for (std::size_t i = 0; i < n; ++i) {
      const BodyState &a = p.initial.bodies[i], &b = placed.bodies[i];
      require((a.x - b.x).norm() <= 1e-9 * L && (a.v - b.v).norm() <= 1e-9 * vs,
              w + "body " + std::to_string(i) + ": the initial position and velocity must be the joints' (x = (" +
                  num(b.x.x()) + ", " + num(b.x.y()) + ", " + num(b.x.z()) + "), v = (" + num(b.v.x()) + ", " +
                  num(b.v.y()) + ", " + num(b.v.z()) + "); docs/problem-files.md)");
    }
  }

  std::vector<InvariantGroup> invariants(const Problem& p) const override {
    const ChainData& d = chain_data(p);
    const State& s0 = p.initial;
    std::vector<InvariantGroup> g;
    // Each invariant's scale: the sum of the magnitudes of its terms, what round-off is relative to
    // (the angular momentum's about the point it is taken about).
    const Vec3 origin = d.pivot.value_or(Vec3::Zero());
    double e_scale = 0, ls = 0, ps = 0;
    for (std::size_t i = 0; i < s0.bodies.size(); ++i) {
      const BodyState& b = s0.bodies[i];
      const double m = p.bodies[i].mass;
      e_scale += 0.5 * (m * b.v.squaredNorm() + b.W.dot(p.inertia(i) * b.W)) + m * std::abs(d.gravity.dot(b.x));
      ps += m * b.v.norm();
      ls += m * (b.x - origin).norm() * b.v.norm() + (p.inertia(i) * b.W).norm();
    }
    g.push_back({{{"energy", InvariantKind::energy, "E = sum (m|v|^2 + W.JW)/2 - m g.x", std::max(e_scale, 1e-300)}},
                 [](const Problem& q, const State& s, double* out) { *out = chain_energy(q, s); }});
    // The moment of the joints' forces about a point: the pivot's force has none about the pivot, the
    // free chain's joints none in sum; gravity none about its own direction.
    auto angular = [origin](const Problem& q, const State& s) {
      Vec3 L = Vec3::Zero();
      for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const BodyState& b = s.bodies[i];
        L += (b.x - origin).cross(q.bodies[i].mass * b.v) + b.R * (q.inertia(i) * b.W);
      }
      return L;
    };
    ls = std::max(ls, 1e-300);
    if (d.gravity.norm() > 0 && d.pivot) {
      Eigen::Index imax;
      d.gravity.cwiseAbs().maxCoeff(&imax);
      const Vec3 e = d.gravity[imax] < 0 ? Vec3(-d.gravity.normalized()) : Vec3(d.gravity.normalized());  // e3 for gravity -e3
      g.push_back({{{"momentum_along_field", InvariantKind::momentum,
                     "e . sum ((x - p) x m v + R J W), e the unit direction of gravity, p the pivot", ls, true}},
                   [e, angular](const Problem& q, const State& s, double* out) { *out = e.dot(angular(q, s)); }});
    } else if (d.gravity.norm() == 0) {
      InvariantGroup m{{}, [angular](const Problem& q, const State& s, double* out) {
                         Vec3 P = Vec3::Zero();
                         for (std::size_t i = 0; i < s.bodies.size(); ++i) P += q.bodies[i].mass * s.bodies[i].v;
                         const Vec3 L = angular(q, s);
                         for (int k = 0; k < 3; ++k) out[k] = L[k], out[3 + k] = P[k];
                       }};
      for (int k = 0; k < 3; ++k)
        m.defs.push_back({cat("angular_momentum_", axis_name(k)), InvariantKind::momentum,
                          cat("e", std::to_string(k + 1), " . sum ((x - p) x m v + R J W), p the pivot or the origin"), ls,
                          true});
      if (!d.pivot)
        for (int k = 0; k < 3; ++k)
          m.defs.push_back({cat("linear_momentum_", axis_name(k)), InvariantKind::momentum,
                            cat("e", std::to_string(k + 1), " . sum m v"), std::max(ps, 1e-300), true});
      g.push_back(std::move(m));
    }
    g.push_back({{{"joint_separation", InvariantKind::constraint,
                   "max over joints of |x_i + R_i a_i - (x_{i-1} + R_{i-1} b_{i-1})| (the pivot's: - p)", chain_length(d)}},
                 [](const Problem& q, const State& s, double* out) { *out = joint_separation(chain_data(q), s); }});
    g.push_back(orthogonality("max over bodies of |R^T R - I|_F"));
    return g;
  }
  double length_scale(const Problem& p) const override { return chain_length(chain_data(p)); }

  // The Legendre transform of the chain's Lagrangian (chain_momenta, chain_mass_matrix): the
  // symplecticity check differences the step in these coordinates (verification/structure.cpp).
  bool canonical_position(const Problem& p, std::size_t b) const override { return b == 0 && !chain_data(p).pivot; }
  bool momenta(const Problem& p, const State& s, std::vector<BodyMomenta>& m) const override {
    std::vector<Vec3> Pi;
    Vec3 P;
    chain_momenta(p, s, Pi, P);
    m.assign(s.bodies.size(), BodyMomenta{});
    for (std::size_t j = 0; j < Pi.size(); ++j) m[j].Pi = Pi[j];
    if (!chain_data(p).pivot) m[0].P = P;
    return true;
  }
  // Its inverse: the mass matrix solved for the velocities, the positions and velocities then placed by
  // the joints.
  void velocities(const Problem& p, const std::vector<BodyMomenta>& m, State& s) const override {
    const ChainData& d = chain_data(p);
    const std::size_t n = s.bodies.size();
    std::vector<Mat3> R(n);
    Eigen::VectorXd rhs(Eigen::Index(3 * n + (d.pivot ? 0 : 3)));
    for (std::size_t j = 0; j < n; ++j) {
      R[j] = s.bodies[j].R;
      rhs.segment<3>(Eigen::Index(3 * j)) = m[j].Pi;
    }
    if (!d.pivot) rhs.tail<3>() = m[0].P;
    const Eigen::VectorXd u = chain_mass_matrix(p, R).ldlt().solve(rhs);
    for (std::size_t j = 0; j < n; ++j) s.bodies[j].W = u.segment<3>(Eigen::Index(3 * j));
    if (!d.pivot) s.bodies[0].v = u.tail<3>();
    place_chain(d, s);
  }
  double energy(const Problem& p, const State& s) const override { return chain_energy(p, s); }
  std::vector<std::string> formulations(const Problem&) const override { return {"chain_minimal", "chain_maximal"}; }

  // {"chain": {"pivot": [3] (omitted: free), "gravity": [3]}} and per body "inboard", "outboard" ([3]).
  std::vector<const char*> file_keys() const override { return {"chain"}; }
  std::vector<const char*> body_file_keys() const override { return {"inboard", "outboard"}; }
  void read(const nlohmann::json& j, Problem& p, const ProblemFileReader& r) const override {
    ChainData& d = p.family_data.edit<ChainData>();
    d.inboard.assign(p.bodies.size(), Vec3::Zero());
    d.outboard.assign(p.bodies.size(), Vec3::Zero());
    for (std::size_t i = 0; i < p.bodies.size(); ++i) {
      const auto& bj = j["bodies"][i];
      const std::string bp = cat("/bodies/", std::to_string(i));
      if (bj.contains("inboard")) d.inboard[i] = r.vec3(bj["inboard"], bp + "/inboard");
      if (bj.contains("outboard")) d.outboard[i] = r.vec3(bj["outboard"], bp + "/outboard");
    }
    if (!j.contains("chain")) r.fail("", "a spherical_chain needs \"chain\": {\"pivot\": [..] (omit for a free chain), \"gravity\": [..]}");
    const nlohmann::json& c = j["chain"];
    r.only(c, "/chain", {"pivot", "gravity"});
    if (c.contains("pivot")) d.pivot = r.vec3(c["pivot"], "/chain/pivot");
    if (c.contains("gravity")) d.gravity = r.vec3(c["gravity"], "/chain/gravity");
  }
  void write(const Problem& p, nlohmann::ordered_json& j) const override {
    const ChainData& d = chain_data(p);
    nlohmann::ordered_json c = nlohmann::ordered_json::object();
    if (d.pivot) c["pivot"] = json_vec(*d.pivot);
    c["gravity"] = json_vec(d.gravity);
    j["chain"] = c;
  }
  void write_body(const Problem& p, std::size_t b, nlohmann::ordered_json& body) const override {
    body["inboard"] = json_vec(chain_data(p).inboard[b]);
    body["outboard"] = json_vec(chain_data(p).outboard[b]);
  }

  // Links 0.1 x 0.2 x 1 (mass 1) tilted out of one plane and spinning about their long axes, so that
  // no motion is planar. Over their spans the five-link chain's and the free chain's nearby motions
  // diverge (finite-time Lyapunov exponents 0.29/s and 0.16/s), the double chain's do not (-0.18/s;
  // tests/test_chains.cpp); the spans end before the reference's estimate at 1e-13 passes 1e-10
  // (chain_5: 7.2e-11 over 2.5 s, 1e-10 over 3 s). The double chain's tilts are moderate: with
  // tilts of 0.5-0.9 rad and spins of 3 rad/s, RK4's local slopes fell from 4.6 to 4.0 only where its
  // errors reach the reference's floor, so no order could be read above it.
  // Not in the quick suite: the RK4 baselines are the only schemes that integrate chains so far.
  std::vector<CatalogueEntry> catalogue() const override {
    const Vec3 g(0, 0, -9.81);
    return {{"chain_double",
             [g] {
               return chain("chain_double", "Double 3D pendulum of two rigid links on ball joints, under gravity",
                            {Vec3(0.3, 0.2, 0.0), Vec3(-0.2, 0.4, 0.1)}, {Vec3(0.3, -0.2, 1.0), Vec3(-0.3, 0.2, -0.8)},
                            Vec3::Zero(), g, 4.0, 0.01);
             },
             false},
            {"chain_5",
             [g] {
               return chain("chain_5", "Chain of five rigid links on ball joints hanging from a pivot, under gravity",
                            {Vec3(0.3, 0.2, 0.0), Vec3(0.5, -0.3, 0.1), Vec3(-0.2, 0.6, 0.0), Vec3(0.4, 0.4, -0.2),
                             Vec3(-0.5, 0.1, 0.3)},
                            {Vec3(0.2, -0.3, 2.0), Vec3(-0.4, 0.2, -1.5), Vec3(0.3, 0.1, 1.0), Vec3(0.1, -0.5, -2.5),
                             Vec3(-0.2, 0.4, 1.5)},
                            Vec3::Zero(), g, 2.5, 0.005);
             },
             false},
            {"chain_free",
             [] {
               return chain("chain_free", "Free-floating chain of three rigid links on ball joints, no gravity",
                            {Vec3::Zero(), Vec3(0.6, 0.2, 0.0), Vec3(-0.3, 0.7, 0.4)},
                            {Vec3(0.4, -0.2, 1.0), Vec3(-0.3, 0.5, -1.2), Vec3(0.6, 0.1, 0.8)}, std::nullopt, Vec3::Zero(),
                            10.0, 0.02);
             },
             false}};
  }
};

}  // namespace

std::unique_ptr<Family> spherical_chain() { return std::make_unique<SphericalChain>(); }

}  // namespace families
}  // namespace rigidbench
