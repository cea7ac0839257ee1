#pragma once
// Linear-algebra vocabulary shared by every layer. Fixed-size Eigen types only in hot paths.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace rigidbench {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec4 = Eigen::Vector4d;

/// Bad user input (unknown name, invalid number, malformed file...). The CLI maps it to exit code 2.
/// Precondition violations in library code throw this; programming misuse throws std::logic_error.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A number as text for messages: shortest-looking form with `digits` significant digits.
inline std::string format_number(double x, int digits = 17) {
  std::ostringstream os;
  os.precision(digits);
  os << x;
  return os.str();
}

/// A number in an error message: ten significant digits, enough to tell two step sizes or times apart.
inline std::string message_number(double x) { return format_number(x, 10); }

/// format_number for a finite x, "-" otherwise (the tables of the gate and of compare).
inline std::string format_or_dash(double x, int digits) { return std::isfinite(x) ? format_number(x, digits) : "-"; }

/// Concatenation by appending. Used instead of `"literal" + std::string` chains, which GCC 12 at
/// -O3 flags with a false -Wrestrict (GCC bug 105329).
template <class... A>
std::string cat(const A&... a) {
  std::string s;
  (s.append(a), ...);
  return s;
}

}  // namespace rigidbench
