#include "engine_body.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "../problems/families/rigid_body.hpp"
#include "../problems/families/spherical_chain.hpp"

namespace rigidbench::engines {

namespace {

std::string vec(const Vec3& v) {
  return cat("(", format_number(v.x(), 6), ", ", format_number(v.y(), 6), ", ", format_number(v.z(), 6), ")");
}

/// The body of p, assuming refusal(p) is empty.
EngineBody body_of_unchecked(const Problem& p) {
  EngineBody b;
  b.mass = p.bodies[0].mass;
  const Mat3& J = p.inertia();
  if (p.fields().empty()) {
    b.central_inertia = J;  // a torque-free body: J is about its centre of mass
    return b;
  }
  double m = 0;
  Vec3 mc = Vec3::Zero();
  for (const UniformField& f : p.fields()) {
    m += f.mass;
    mc += f.mass * f.point;
  }
  b.centre = mc / m;
  b.gravity = p.fields().front().acceleration;
  b.pivot = true;
  const Vec3& c = b.centre;
  b.central_inertia = J - b.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return b;
}

}  // namespace

Vec3 principal_moments(const Mat3& J) {
  return Eigen::SelfAdjointEigenSolver<Mat3>(0.5 * (J + J.transpose()), Eigen::EigenvaluesOnly).eigenvalues();
}

/// Why no body has the central inertia J (with its arithmetic), or empty.
static std::string unphysical(const Mat3& J) {
  const Vec3 l = principal_moments(J);
  if (!(l[0] > 0) || l[2] > l[0] + l[1] * (1 + 1e-12))
    return cat("its central inertia has principal moments ", vec(l),
               ", and a body's are positive with each at most the sum of the other two (docs/engines.md, "
               "\"Realisable bodies\")");
  return {};
}

std::string refusal(const Problem& p) {
  if (p.of_family("spherical_chain")) {
    for (std::size_t i = 0; i < p.bodies.size(); ++i)
      if (std::string why = unphysical(p.inertia(i)); !why.empty())
        return cat("no physical body is link ", std::to_string(i), " of this chain: ", why);
    return {};
  }
  if (!p.of_family("rigid_body")) return "an engine's scheme builds one body of the rigid_body family";
  if (p.bodies.size() != 1) return "an engine's scheme builds one body";
  if (!p.followers().empty())
    return "follower moments (a moment fixed in the body, scaled in time) are not a physical load an engine's "
           "body model has; not modelled (docs/engines.md)";
  if (internal_momentum_if_any(p)) return "internal angular momentum (a rotor) is not modelled in the engines";
  const double M = p.bodies[0].mass;
  if (p.fields().empty()) return {};
  double m = 0;
  for (const UniformField& f : p.fields()) {
    if (f.acceleration != p.fields().front().acceleration)
      return "fields of different accelerations are not one gravity (an engine has one)";
    m += f.mass;
  }
  if (std::abs(m - M) > 1e-12 * M)
    return cat("the fields' mass ", message_number(m), " is not the body's mass ", message_number(M),
               ": they are not gravity acting on this body, which is all an engine's gravity is");
  const EngineBody b = body_of_unchecked(p);
  const Vec3 l = principal_moments(b.central_inertia);
  if (!(l[0] > 0) || l[2] > l[0] + l[1] * (1 + 1e-12))
    return cat("no physical body has this inertia: about the centre of mass c = ", vec(b.centre), " of mass M = ",
               message_number(M), ", J_c = J - M(|c|^2 I - c c^T) has principal moments ", vec(l),
               ", and a body's are positive with each at most the sum of the other two (docs/engines.md, "
               "\"Realisable bodies\"; the catalogue's heavy_top_realisable is the heavy top with a body that exists)");
  return {};
}

EngineChain chain_of(const Problem& p) {
  if (std::string why = refusal(p); !why.empty()) throw InputError(cat("problem '", p.name, "': ", why));
  const ChainData& d = chain_data(p);
  EngineChain c{{}, d.pivot, d.gravity};
  for (std::size_t i = 0; i < p.bodies.size(); ++i) {
    const Vec3 origin = i > 0 || d.pivot ? d.inboard[i] : Vec3(Vec3::Zero());
    // 0 - a, not -a: a zero component stays +0 (a request's JSON would print -0.0).
    c.links.push_back({p.bodies[i].mass, p.inertia(i), Vec3(Vec3::Zero() - origin), d.outboard[i] - origin});
  }
  return c;
}

void pack_attitudes(const State& s, std::vector<double>& R, std::vector<double>& omega) {
  const std::size_t n = s.bodies.size();
  R.resize(9 * n);
  omega.resize(3 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const Mat3& Rk = s.bodies[k].R;
    const Vec3 w = Rk * s.bodies[k].W;
    for (int i = 0; i < 3; ++i) {
      omega[3 * k + std::size_t(i)] = w[i];
      for (int j = 0; j < 3; ++j) R[9 * k + std::size_t(3 * i + j)] = Rk(i, j);
    }
  }
}

void unpack_attitudes(const std::vector<double>& R, const std::vector<double>& omega, State& s) {
  const std::size_t n = R.size() / 9;
  s.bodies.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    Mat3 Rk;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Rk(i, j) = R[9 * k + std::size_t(3 * i + j)];
    s.bodies[k].R = Rk;
    s.bodies[k].W = Rk.transpose() * Vec3(omega[3 * k], omega[3 * k + 1], omega[3 * k + 2]);
  }
}

EngineBody body_of(const Problem& p) {
  if (std::string why = refusal(p); !why.empty()) throw InputError(cat("problem '", p.name, "': ", why));
  return body_of_unchecked(p);
}

}  // namespace rigidbench::engines
