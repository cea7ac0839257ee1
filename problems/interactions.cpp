#include "interactions.hpp"

#include <cmath>

#include "../core/so3.hpp"

namespace rigidbench::interactions {

double bending(double K, const Mat3& Ri, const Mat3& Rj, Vec3* mi, Vec3* mj) {
  // d/d(delta_i) of |log(exp(hat(delta)) R_ij)|^2 / 2 is theta (theta is an eigenvector of the
  // inverse left Jacobian), hence the moments of eq. 47; log is accurate up to the half-turn.
  const Vec3 theta = so3::log(Ri * Rj.transpose());
  if (mi) *mi -= K * theta;
  if (mj) *mj += K * theta;
  return 0.5 * K * theta.squaredNorm();
}

double axial(double K, double L0, const Vec3& xi, const Vec3& xj, Vec3* Fi, Vec3* Fj) {
  const Vec3 d = xi - xj;
  const double L = d.norm();
  const double s = L / L0 - 1.0;
  if (Fi || Fj) {
    const Vec3 F = (-K * s / (L0 * L)) * d;  // eq. 52
    if (Fi) *Fi += F;
    if (Fj) *Fj -= F;
  }
  return 0.5 * K * s * s;
}

double shear(double K, const Vec3& rest, const Mat3& Ri, const Mat3& Rj, const Vec3& xi, const Vec3& xj, Vec3* Fi,
             Vec3* Fj, Vec3* mi, Vec3* mj) {
  const Vec3 r0 = rest.normalized();
  const Vec3 d = xi - xj;
  const double L = d.norm();
  const Vec3 e = d / L;
  const Vec3 ai = Ri * r0, aj = Rj * r0;
  const Vec3 a = 0.5 * (ai + aj);
  const double c = a.dot(e);
  const double g = K * (1.0 - c);  // -dU/dc
  if (Fi || Fj) {
    // dc/dx_i = (I - e e^T) a / L
    const Vec3 F = (g / L) * (a - c * e);
    if (Fi) *Fi += F;
    if (Fj) *Fj -= F;
  }
  // dc/d(delta_i) = (R_i r0 x e) / 2 for R_i -> exp(hat(delta)) R_i.
  if (mi) *mi += (0.5 * g) * ai.cross(e);
  if (mj) *mj += (0.5 * g) * aj.cross(e);
  return 0.5 * K * (1.0 - c) * (1.0 - c);
}

namespace {
/// U(s) = 2K/5 s^{5/2} for an overlap s = 1 - gap/D > 0, and its derivative -dU/d(gap) = K/D s^{3/2}.
double hertz_overlap(double K, double D, double s, double& push) {
  const double r = std::sqrt(s);
  push = K / D * s * r;
  return 0.4 * K * s * s * r;
}
/// The same of a gap: 0 and no push while apart.
double hertz(double K, double D, double gap, double& push) {
  const double s = 1.0 - gap / D;
  if (!(s > 0)) {
    push = 0;
    return 0;
  }
  return hertz_overlap(K, D, s, push);
}
}  // namespace

double contact_overlap(double K, double D, const Vec3& d, double L2, Vec3* Fi, Vec3* Fj) {
  const double L = std::sqrt(L2);
  double push;
  const double U = hertz(K, D, L, push);
  if (L == 0) return U;  // coincident centres: no direction to push along
  if (Fi || Fj) {
    const Vec3 F = (push / L) * d;  // eq. 57
    if (Fi) *Fi += F;
    if (Fj) *Fj -= F;
  }
  return U;
}

double wall_overlap(double K, double Di, const Vec3& normal, double s, Vec3* F) {
  // eq. 56 and 57 with the wall a particle of zero diameter: D = D_i/2.
  double push;
  const double U = hertz_overlap(K, 0.5 * Di, s, push);
  if (F) *F += push * normal;
  return U;
}

bool NeighbourList::update(std::size_t n, const Vec3* x) {
  const double moved2 = 0.25 * skin_ * skin_;
  bool stale = at_build_.size() != n || n > std::size_t(UINT32_MAX);
  for (std::size_t b = 0; b < n && !stale; ++b) stale = !((x[b] - at_build_[b]).squaredNorm() <= moved2);  // NaN: stale
  if (!stale) return true;
  for (std::size_t b = 0; b < n; ++b)
    if (!x[b].allFinite()) {
      at_build_.clear();
      return false;
    }
  if (n > std::size_t(UINT32_MAX)) return false;
  build(n, x);
  return true;
}

void NeighbourList::build(std::size_t n, const Vec3* x) {
  ++builds_;
  at_build_.assign(x, x + n);
  // Pairs i < j within reach + skin, met in the all-pairs order; each body's neighbours then fill
  // its run in that order, which is ascending (the pairs (i, b), i < b, come before the (b, j)).
  const double r = reach_ + skin_, r2 = r * r;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for_each_near_pair(n, [x](std::size_t b) -> const Vec3& { return x[b]; }, r, [&](std::size_t i, std::size_t j) {
    if ((x[i] - x[j]).squaredNorm() < r2) pairs.emplace_back(std::uint32_t(i), std::uint32_t(j));
  });
  start_.assign(n + 1, 0);
  for (const auto& [i, j] : pairs) ++start_[i + 1], ++start_[j + 1];
  for (std::size_t b = 1; b <= n; ++b) start_[b] += start_[b - 1];
  next_.resize(start_[n]);
  std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
  for (const auto& [i, j] : pairs) next_[fill[i]++] = j, next_[fill[j]++] = i;
}

}  // namespace rigidbench::interactions
