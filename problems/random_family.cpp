#include "random_family.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include "../core/so3.hpp"
#include "../core/types.hpp"

namespace rigidbench {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

/// Uniform in [a, b) from the top 53 bits of one draw (exactly specified, unlike
/// std::uniform_real_distribution, whose algorithm the standard leaves open).
double uniform(std::mt19937_64& rng, double a, double b) { return a + (b - a) * double(rng() >> 11) * 0x1.0p-53; }

/// Uniform on SO(3): Shoemake's subgroup algorithm (Graphics Gems III, "Uniform random rotations").
Mat3 uniform_rotation(std::mt19937_64& rng) {
  const double u1 = uniform(rng, 0, 1), u2 = uniform(rng, 0, 1), u3 = uniform(rng, 0, 1);
  const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
  const Eigen::Quaterniond q(b * std::cos(kTwoPi * u3), a * std::sin(kTwoPi * u2), a * std::cos(kTwoPi * u2),
                             b * std::sin(kTwoPi * u3));
  return q.normalized().toRotationMatrix();
}

/// Uniform on the unit sphere (Archimedes: z uniform in [-1, 1]).
Vec3 uniform_direction(std::mt19937_64& rng) {
  const double z = uniform(rng, -1, 1), phi = uniform(rng, 0, kTwoPi), r = std::sqrt(std::max(0.0, 1 - z * z));
  return Vec3(r * std::cos(phi), r * std::sin(phi), z);
}

Problem rigid_body_draw(const RandomFamilyRequest& req, std::size_t k) {
  // One generator per draw, seeded from (seed, k): draw k does not depend on N or on the other draws.
  std::seed_seq seq{std::uint32_t(req.seed), std::uint32_t(req.seed >> 32), std::uint32_t(k), std::uint32_t(k >> 32)};
  std::mt19937_64 rng(seq);
  Problem p;
  p.name = cat("random_rigid_body_", std::to_string(req.seed), "_", std::to_string(k));
  const double s1 = uniform(rng, 0.2, 1), s2 = uniform(rng, 0.2, 1), s3 = uniform(rng, 0.2, 1);
  const Vec3 principal(s2 + s3, s1 + s3, s1 + s2);
  const Mat3 Q = uniform_rotation(rng);  // columns: the principal axes in body components
  const Mat3 rotated = Q * principal.asDiagonal() * Q.transpose();
  const Mat3 J = 0.5 * (rotated + rotated.transpose());  // exactly symmetric
  const Mat3 R0 = uniform_rotation(rng);
  const Vec3 d = uniform_direction(rng);
  const Vec3 W0 = std::sqrt(2 * req.energy / d.dot(J * d)) * d;
  p.bodies = {BodyModel{J, 1.0}};
  p.initial.body().R = R0;
  p.initial.body().W = W0;
  double rate = W0.norm();
  const bool loaded = uniform(rng, 0, 1) < req.load_fraction;
  std::string load_text = "torque-free";
  if (loaded) {
    const double l = uniform(rng, 0.2, 1), strength = uniform(rng, 0.5, 2) * req.energy;
    const Vec3 point = l * uniform_direction(rng);
    const double g = strength / l;  // m = 1: m g l = strength
    p.loads = {UniformField{.mass = 1.0, .acceleration = Vec3(0, 0, -g), .point = point}};
    // The small-oscillation rate of the pendulum about its lowest position, at most sqrt(m g l / J_min).
    rate = std::max(rate, std::sqrt(strength / principal.minCoeff()));
    load_text = cat("uniform field m g l = ", format_number(strength, 4), " at |rho| = ", format_number(l, 4));
  }
  p.title = cat("Random rigid body ", std::to_string(k), " of seed ", std::to_string(req.seed), ": J principal (",
                format_number(principal[0], 4), ", ", format_number(principal[1], 4), ", ", format_number(principal[2], 4),
                "), E = ", format_number(req.energy, 4), ", ", load_text);
  // Not N: draw k is the same in every study of at least k draws.
  p.source = cat("draw ", std::to_string(k), " of `verify --random N --seed ", std::to_string(req.seed),
                 " --family rigid_body --energy ", format_number(req.energy, 17), " --load-fraction ",
                 format_number(req.load_fraction, 17), "` (N >= ", std::to_string(k),
                 "; docs/problems.md, Random families)");
  p.t_end = 10.0;
  int m = 0;
  while (rate * 2.0 / double(1 << m) > 0.07 && m < 20) ++m;
  const double h0 = 2.0 / double(1 << m);
  p.verification = {.h0 = h0, .levels = 6, .h0_order1 = h0 / 4, .sample_times = {2, 4, 6, 8, 10}};
  p.finalize();
  return p;
}

}  // namespace

std::vector<std::string> random_family_names() { return {"rigid_body"}; }

std::vector<Problem> random_problems(const RandomFamilyRequest& req) {
  if (req.family != "rigid_body")
    throw InputError(cat("--family: no random family '", req.family, "' (available: rigid_body)"));
  if (req.count < 1 || req.count > 100000) throw InputError(cat("--random: N must be in [1, 100000] (got ", std::to_string(req.count), ")"));
  if (!(req.energy > 0) || !std::isfinite(req.energy))
    throw InputError(cat("--energy must be positive and finite (got ", format_number(req.energy, 4), ")"));
  if (!(req.load_fraction >= 0 && req.load_fraction <= 1))
    throw InputError(cat("--load-fraction must be in [0, 1] (got ", format_number(req.load_fraction, 4), ")"));
  std::vector<Problem> out;
  out.reserve(req.count);
  for (std::size_t k = 1; k <= req.count; ++k) out.push_back(rigid_body_draw(req, k));
  return out;
}

}  // namespace rigidbench
