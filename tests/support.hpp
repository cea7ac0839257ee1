#pragma once
// Test helpers: comparisons that report the worst entry, seeded samples, running the CLI.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "../core/so3.hpp"
#include "../core/types.hpp"
#include "../integrators/builtin.hpp"  // the built-in scheme types the tests name

namespace rigidbench::test {

#ifndef RIGIDBENCH_TEST_SANITIZED
#define RIGIDBENCH_TEST_SANITIZED 0
#endif
/// True in the sanitize preset's build (tests/CMakeLists.txt), where ASan + UBSan make Eigen code ~25x
/// slower (docs/decisions.md, "Sanitizers"). A test may then run the same code paths on a smaller
/// input; what it asserts stays the same, and the release build's fast label runs the full size.
inline constexpr bool kSanitized = RIGIDBENCH_TEST_SANITIZED != 0;

/// Max-norm distance with the index of the worst entry and NaN/inf detection (after Drake's
/// CompareMatrices): the message says where two matrices differ, not just that they do.
template <class A, class B>
std::string compare(const A& a, const B& b, double tol) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return "size mismatch";
  double worst = -1;
  Eigen::Index wi = 0, wj = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const double d = std::abs(a(i, j) - b(i, j));
      if (!std::isfinite(a(i, j)) || !std::isfinite(b(i, j))) return "non-finite entry";
      if (d > worst) worst = d, wi = i, wj = j;
    }
  if (worst <= tol) return "";
  std::ostringstream os;
  os.precision(17);
  os << "worst entry (" << wi << "," << wj << "): " << a(wi, wj) << " vs " << b(wi, wj) << ", |diff| = " << worst
     << " > " << tol;
  return os.str();
}

/// Fixed, printed seed (Eigen test/main.h style): reruns reproduce every sample.
inline std::mt19937_64& rng() {
  static std::mt19937_64 g(20261121u);
  return g;
}
inline Vec3 random_unit() {
  std::normal_distribution<double> n;
  Vec3 v(n(rng()), n(rng()), n(rng()));
  return v.normalized();
}
inline double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng()); }

/// A random rotation exp(theta u), theta uniform in [min_angle, max_angle], u uniform on the sphere.
inline Mat3 random_rotation(double min_angle = 0, double max_angle = 3) {
  const double theta = uniform(min_angle, max_angle);
  return so3::exp(theta * random_unit());
}

/// Central finite differences of a residual r(w) in R^3, column by column (Newton Jacobian checks).
template <class F>
Mat3 fd_jacobian(F&& residual, const Vec3& w, double e = 1e-6) {
  Mat3 Jfd;
  for (int k = 0; k < 3; ++k) {
    Vec3 rp, rm;
    residual(Vec3(w + e * Vec3::Unit(k)), rp);
    residual(Vec3(w - e * Vec3::Unit(k)), rm);
    Jfd.col(k) = (rp - rm) / (2 * e);
  }
  return Jfd;
}


struct CommandResult {
  int exit_code;
  std::string output;  // stdout and stderr
};
/// Runs the rigidbench executable with `args` (a shell-quoted string) and captures its output.
inline CommandResult run_cli(const std::string& args) {
  const std::string cmd = std::string(RIGIDBENCH_EXE) + " " + args + " 2>&1";
  CommandResult r{-1, {}};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) r.output += buf;
  const int st = pclose(p);
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// cat, not `std::string(a) + "/" + name`: GCC 12 at -O3 reports a false array-bounds error on that
// form when it is inlined into a large unit (GCC PR 105651).
inline std::string tmp_path(const std::string& name) { return cat(RIGIDBENCH_TEST_TMP, "/", name); }

}  // namespace rigidbench::test
