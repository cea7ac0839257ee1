#pragma once
// Interaction potentials of the body_system family (paper 001 section 4, docs/problems.md P5): binder
// bonds between two particles (bending/torsion eq. 44, axial eq. 51, shear eq. 53 in a
// frame-consistent form), particle-particle contact (eq. 56) and particle-wall contact (eq. 56 with
// the wall as a particle of zero diameter). Each term returns its energy and, when given, adds its
// spatial forces F = -dU/dx and spatial moments m = -dU/d(delta), R -> exp(hat(delta)) R, to the
// bodies it acts on. Every term is invariant under translations, so sum F = 0; every term except
// the wall is invariant under rotations, so sum (x x F + m) = 0: the free system conserves linear
// and angular momentum (tests/test_interactions.cpp checks both, and every load against finite
// differences of the energy).
//
// Decisions (docs/decisions.md, "P5 torus"):
//  - eq. 53 as printed applies R_j to the spatial bond vector and is not invariant under a global
//    rotation; the shear energy used is U^s = K^s/2 [1 - c]^2, c = (R_i + R_j)/2 d0^ . d^, with d0^
//    the unit reference bond vector (body components, R0 = I) and d^ the current one: the reference
//    direction carried by the mean of the two attitudes. It equals the printed form when R_i = R_j.
//  - eq. 56 prints the prefactor 5/2; the force it states (eq. 57) is the gradient of
//    (2/5) K [1 - |d|/D]_+^{5/2} (Hertz), which is the energy used, so that energy and force agree.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "../core/types.hpp"

namespace rigidbench::interactions {

/// eq. 44: U = K/2 |theta|^2, hat(theta) = log(R_i R_j^T); m_i = -K theta, m_j = +K theta (eq. 47).
double bending(double K, const Mat3& Ri, const Mat3& Rj, Vec3* mi = nullptr, Vec3* mj = nullptr);

/// eq. 51: U = K/2 (|d|/L0 - 1)^2, d = x_i - x_j; the forces of eq. 52.
double axial(double K, double L0, const Vec3& xi, const Vec3& xj, Vec3* Fi = nullptr, Vec3* Fj = nullptr);

/// Frame-consistent eq. 53 (see above); rest = x_i0 - x_j0 in the reference configuration.
double shear(double K, const Vec3& rest, const Mat3& Ri, const Mat3& Rj, const Vec3& xi, const Vec3& xj,
             Vec3* Fi = nullptr, Vec3* Fj = nullptr, Vec3* mi = nullptr, Vec3* mj = nullptr);

/// contact()'s overlapping case: d = x_i - x_j, L2 = |d|^2 < D^2.
double contact_overlap(double K, double D, const Vec3& d, double L2, Vec3* Fi, Vec3* Fj);

/// eq. 56 (with 2/5, see above): U = 2K/5 [1 - |d|/D]_+^{5/2}, D = (D_i + D_j)/2; the force of eq. 57.
/// Inline up to the no-overlap test: a body system walks every pair (n(n-1)/2 per load evaluation)
/// and most are apart.
inline double contact(double K, double D, const Vec3& xi, const Vec3& xj, Vec3* Fi = nullptr, Vec3* Fj = nullptr) {
  const Vec3 d = xi - xj;
  const double L2 = d.squaredNorm();
  if (L2 >= D * D) return 0;  // the common case: no overlap, no square root
  return contact_overlap(K, D, d, L2, Fi, Fj);
}

/// Visits every pair i < j of n bodies whose centres x(i), x(j) may be within `reach` of each other
/// (and some that are not), in the order of the all-pairs loop -- i ascending, then j ascending --
/// so that sums over the visited pairs of a term that is zero beyond reach (contact) are the
/// all-pairs sums bit for bit. A uniform grid of cells no smaller than reach: overlapping pairs sit
/// in the same or adjacent cells, so the work is O(n) at bounded density instead of n(n-1)/2
/// distances. Below 32 bodies, with a non-finite centre or with reach <= 0 it visits every pair.
template <class XofB, class Visit>
void for_each_near_pair(std::size_t n, const XofB& x, double reach, Visit&& visit) {
  const auto all_pairs = [&] {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) visit(i, j);
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  Vec3 lo = Vec3::Constant(inf), hi = Vec3::Constant(-inf);
  bool finite = true;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& xi = x(i);
    finite = finite && xi.allFinite();
    lo = lo.cwiseMin(xi), hi = hi.cwiseMax(xi);
  }
  if (n < 32 || !finite || !(reach > 0) || !std::isfinite(reach) || !(hi - lo).allFinite()) return all_pairs();
  // Cells a little larger than reach, so that rounding in the cell index cannot separate two centres
  // within reach by more than one cell; doubled while the grid would have more than ~4n cells.
  double cell = reach * (1 + 1e-9);
  std::size_t m[3];
  const auto count = [&] {
    double total = 1;
    for (int a = 0; a < 3; ++a) total *= std::floor((hi[a] - lo[a]) / cell) + 1;
    return total;
  };
  while (count() > 4.0 * double(n) + 64) cell *= 2;
  for (int a = 0; a < 3; ++a) m[a] = std::size_t(std::floor((hi[a] - lo[a]) / cell)) + 1;
  // Counting sort of the bodies by cell (i ascending within a cell).
  // Local scratch: four allocations per call cost less than a shared library's thread_local
  // accesses, each a __tls_get_addr call (measured).
  std::vector<std::size_t> cell_of(n), start, body, near;
  start.assign(m[0] * m[1] * m[2] + 1, 0);
  const auto index = [&](const Vec3& p, int a) { return std::min(m[a] - 1, std::size_t((p[a] - lo[a]) / cell)); };
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& p = x(i);
    cell_of[i] = (index(p, 0) * m[1] + index(p, 1)) * m[2] + index(p, 2);
    ++start[cell_of[i] + 1];
  }
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  body.resize(n);
  {
    std::vector<std::size_t>& fill = near;  // scratch: the next free slot of each cell
    fill.assign(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) body[fill[cell_of[i]]++] = i;
  }
  const std::size_t mx = m[0], my = m[1], mz = m[2];
  const std::size_t* const first = start.data();
  const std::size_t* const members = body.data();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = cell_of[i], cz = c % mz, cy = (c / mz) % my, cx = c / (my * mz);
    const std::size_t x0 = cx ? cx - 1 : 0, x1 = std::min(cx + 1, mx - 1), y0 = cy ? cy - 1 : 0,
                      y1 = std::min(cy + 1, my - 1), z0 = cz ? cz - 1 : 0, z1 = std::min(cz + 1, mz - 1);
    near.clear();
    for (std::size_t ax = x0; ax <= x1; ++ax)
      for (std::size_t ay = y0; ay <= y1; ++ay) {
        // The cells (ax, ay, z0 ... z1) are consecutive: one run of members.
        const std::size_t d = (ax * my + ay) * mz;
        for (std::size_t k = first[d + z0], end = first[d + z1 + 1]; k < end; ++k)
          if (members[k] > i) near.push_back(members[k]);
      }
    for (std::size_t a = 1; a < near.size(); ++a)  // insertion sort: a handful of neighbours
      for (std::size_t b = a; b > 0 && near[b - 1] > near[b]; --b) std::swap(near[b - 1], near[b]);
    for (const std::size_t j : near) visit(i, j);
  }
}

/// The near pairs of n moving bodies, kept from one load evaluation to the next (a Verlet list:
/// Allen & Tildesley, Computer Simulation of Liquids, 2nd ed., section 5.3). At each build it holds,
/// for every body, the bodies whose centres are within reach + skin of its own, ascending; it is built
/// again as soon as some centre has moved more than skin/2 from where it was at the build, so every
/// pair within reach of each other is on it at every evaluation. A body's list ascending is the
/// order in which the all-pairs loop (i ascending, then j ascending) meets that body's pairs: sums
/// over it of a term zero beyond reach are the all-pairs sums bit for bit. Building costs a grid walk
/// (for_each_near_pair); between builds an evaluation walks the list only.
class NeighbourList {
 public:
  NeighbourList(double reach, double skin) : reach_(reach), skin_(skin) {}
  /// Brings the list up to date for the centres x[0..n); false (and no list) when a centre is not
  /// finite - the caller then walks every pair, as the definition does.
  bool update(std::size_t n, const Vec3* x);
  /// The neighbours of body b at the last build, ascending.
  const std::uint32_t* begin(std::size_t b) const { return next_.data() + start_[b]; }
  const std::uint32_t* end(std::size_t b) const { return next_.data() + start_[b + 1]; }
  /// How many times the list was built (the tests' and the profile's count).
  std::size_t builds() const { return builds_; }

 private:
  void build(std::size_t n, const Vec3* x);
  double reach_, skin_;
  std::vector<Vec3> at_build_;
  std::vector<std::size_t> start_;
  std::vector<std::uint32_t> next_;
  std::size_t builds_ = 0;
};

/// wall()'s touching case: the overlap s = 1 - gap/(D_i/2) > 0.
double wall_overlap(double K, double Di, const Vec3& normal, double s, Vec3* F);

/// A wall n . x = c acting on a particle of diameter D_i as eq. 56 with the wall a particle of zero
/// diameter: gap n . x - c against D_i / 2. Not invariant under translations along n (it is a wall).
/// Inline up to the no-contact test, as contact(): every body meets every wall at each evaluation.
inline double wall(double K, double Di, const Vec3& normal, double offset, const Vec3& x, Vec3* F = nullptr) {
  const double s = 1.0 - (normal.dot(x) - offset) / (0.5 * Di);
  if (!(s > 0)) return 0;  // apart (or a point particle on the wall): no force, nothing added
  return wall_overlap(K, Di, normal, s, F);
}

}  // namespace rigidbench::interactions
