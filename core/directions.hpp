#pragma once
// Directions read from problem files (a rotor axis, a wall normal): normalised once.
#include <cmath>
#include <limits>

#include "types.hpp"

namespace rigidbench {

/// The unit vector along v (v finite, non-zero), idempotent to the bit: a v already of unit length
/// to rounding (||v| - 1| <= 8 eps) is returned as it is. v.normalized() applied twice can differ in
/// the last bit, and then a problem written and read back would be another problem, with another
/// reference cache key (found by fuzz/problem_file.cpp).
inline Vec3 unit_direction(const Vec3& v) {
  const double n = v.norm();
  return std::abs(n - 1.0) <= 8 * std::numeric_limits<double>::epsilon() ? v : Vec3(v / n);
}

}  // namespace rigidbench
