#pragma once
// Random problem families (docs/problems.md, "Random families"; docs/scaling.md): N problems drawn
// from a seed, so that a scheme's verdicts become distributions over a family instead of single
// points, and the worst draw can be written out as a problem file that reproduces it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "problem.hpp"

namespace rigidbench {

struct RandomFamilyRequest {
  std::string family = "rigid_body";
  std::size_t count = 0;      // N >= 1
  std::uint64_t seed = 0;
  double energy = 1.0;        // the kinetic energy 1/2 W.JW of every draw (> 0)
  double load_fraction = 0.5; // the fraction of draws that carry a uniform-field load, in [0, 1]
};

/// The families `verify --random` draws from.
std::vector<std::string> random_family_names();

/// The N problems of the request, finalized, named random_<family>_<seed>_<k> (k = 1..N). Draw k
/// depends only on (family, seed, k, energy, load_fraction): the same problem on every platform up
/// to the last bits of the C library's sin, cos, sqrt (mt19937_64 and the transforms below are
/// exactly specified). rigid_body: principal moments J = (s2 + s3, s1 + s3, s1 + s2), s_a uniform in
/// [0.2, 1] (every triangle inequality J_a <= J_b + J_c holds: a mass distribution's moments), the
/// principal axes and the attitude uniform on SO(3) (Shoemake's subgroup algorithm, [Shoemake]), the angular
/// velocity's direction uniform on the sphere and its size giving the kinetic energy, and with
/// probability load_fraction a uniform field acting at a body point at distance l in [0.2, 1] from
/// the pivot, of strength m g l in [0.5, 2] times the energy. The ladder: span 10, h0 = 2 / 2^m with m
/// the smallest giving at most 0.07 rad per step at the fastest rate (spin or pendulum), 6 levels,
/// first-order schemes from h0 / 4, Q_II at t = 2, 4, ..., 10. Throws InputError for a bad request.
std::vector<Problem> random_problems(const RandomFamilyRequest& req);

}  // namespace rigidbench
