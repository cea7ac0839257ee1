// Flop counts (docs/flops.md): the building blocks the derivations use are the operations Eigen
// performs, counted by running Eigen on a scalar type that counts them; every built-in scheme
// declares a derivation on the single-body problems; the models have the structure their schemes
// have (explicit: no per-iteration work; the Gebhardt-Romero lamina its two-director elimination).
#include <Eigen/Dense>
#include <cmath>
#include <utility>

#include "../core/small_lu.hpp"

#include "../integrators/builtin.hpp"
#include "../integrators/registry.hpp"
#include "../integrators/flops.hpp"
#include "../problems/catalogue.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace flop_count {  // named (external linkage): Eigen needs only some of these operators
/// A double that counts +, -, *, / and sqrt (docs/flops.md conventions: negation, abs and
/// comparisons are free).
struct Counted {
  double v = 0;
  static inline long long ops = 0;
  Counted() = default;
  Counted(double x) : v(x) {}  // NOLINT: implicit, as Eigen's scalar requirements expect
  friend Counted operator+(Counted a, Counted b) { return ++ops, Counted(a.v + b.v); }
  friend Counted operator-(Counted a, Counted b) { return ++ops, Counted(a.v - b.v); }
  friend Counted operator*(Counted a, Counted b) { return ++ops, Counted(a.v * b.v); }
  friend Counted operator/(Counted a, Counted b) { return ++ops, Counted(a.v / b.v); }
  Counted operator-() const { return Counted(-v); }
  Counted& operator+=(Counted b) { return *this = *this + b; }
  Counted& operator-=(Counted b) { return *this = *this - b; }
  Counted& operator*=(Counted b) { return *this = *this * b; }
  Counted& operator/=(Counted b) { return *this = *this / b; }
  friend bool operator<(Counted a, Counted b) { return a.v < b.v; }
  friend bool operator>(Counted a, Counted b) { return a.v > b.v; }
  friend bool operator<=(Counted a, Counted b) { return a.v <= b.v; }
  friend bool operator>=(Counted a, Counted b) { return a.v >= b.v; }
  friend bool operator==(Counted a, Counted b) { return a.v == b.v; }
  friend bool operator!=(Counted a, Counted b) { return a.v != b.v; }
};
Counted sqrt(Counted a) { return ++Counted::ops, Counted(std::sqrt(a.v)); }
Counted abs(Counted a) { return Counted(std::abs(a.v)); }
}  // namespace flop_count
using flop_count::Counted;

namespace Eigen {
template <>
struct NumTraits<Counted> : NumTraits<double> {
  using Real = Counted;
  using NonInteger = Counted;
  using Nested = Counted;
  using Literal = Counted;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 1, MulCost = 1 };
  static Counted epsilon() { return Counted(NumTraits<double>::epsilon()); }
  static Counted dummy_precision() { return Counted(NumTraits<double>::dummy_precision()); }
  static Counted highest() { return Counted(NumTraits<double>::highest()); }
  static Counted lowest() { return Counted(NumTraits<double>::lowest()); }
  static int digits10() { return NumTraits<double>::digits10(); }
};
}  // namespace Eigen

namespace {
/// Operations of SmallLu (every Newton step's LU) of an N x N matrix (first) and of one solve with
/// it (second).
template <int N>
std::pair<long long, long long> count_lu() {
  Eigen::Matrix<Counted, N, N> A;
  Eigen::Matrix<Counted, N, 1> b;
  for (int i = 0; i < N; ++i) {
    b(i) = Counted(1.0 + i);
    for (int j = 0; j < N; ++j) A(i, j) = Counted(1.0 / (1.0 + i + j) + (i == j ? 2.0 : 0.0) + 0.1 * ((i * 7 + j * 3) % 5));
  }
  Counted::ops = 0;
  const SmallLu<N, Counted> lu(A);
  const long long factor = Counted::ops;
  Counted::ops = 0;
  const Eigen::Matrix<Counted, N, 1> x = lu.solve(b);
  const long long solve = Counted::ops;
  // The solve is a solve: A x = b (the count above is of a real factorisation).
  for (int i = 0; i < N; ++i) {
    double r = -b(i).v;
    for (int j = 0; j < N; ++j) r += A(i, j).v * x(j).v;
    CHECK(std::abs(r) < 1e-12 * N);
  }
  return {factor, solve};
}
}  // namespace

TEST_CASE("the building blocks of the flop counts are the operations Eigen and SmallLu perform", "[flops][fast]") {
  using V = Eigen::Matrix<Counted, 3, 1>;
  using M = Eigen::Matrix<Counted, 3, 3>;
  const V a(1.0, 2.0, 3.0), b(-0.5, 0.25, 4.0);
  M A, B;
  A << 1, 2, 3, 4, 5, 6, 7, 8, 10;
  B << 2, 0, 1, 1, 3, 0, 0, 1, 4;
  auto count = [](auto&& f) {
    Counted::ops = 0;
    f();
    return double(Counted::ops);
  };
  CHECK(count([&] { V c = a.cross(b); (void)c; }) == flops::cross);
  CHECK(count([&] { Counted d = a.dot(b); (void)d; }) == flops::dot);
  CHECK(count([&] { Counted d = a.norm(); (void)d; }) == flops::norm);
  CHECK(count([&] { V c = A * a; (void)c; }) == flops::mat_vec);
  CHECK(count([&] { M C = A * B; (void)C; }) == flops::mat_mat);
  CHECK(count([&] { M C = A + B; (void)C; }) == flops::mat_add);
  // Dense LU with partial pivoting and one solve, on every size a scheme solves (3: the SO(3)
  // schemes; 6, 7: GR's constraints; 9, 10: a lamina's; 15, 16: GR dense).
  const auto check_lu = [](std::pair<long long, long long> counted, int n) {
    INFO("n = " << n);
    CHECK(double(counted.first) == flops::lu_factor(n));
    CHECK(double(counted.second) == flops::lu_substitute(n));
  };
  check_lu(count_lu<3>(), 3);
  check_lu(count_lu<6>(), 6);
  check_lu(count_lu<7>(), 7);
  check_lu(count_lu<9>(), 9);
  check_lu(count_lu<10>(), 10);
  check_lu(count_lu<15>(), 15);
  check_lu(count_lu<16>(), 16);
}

TEST_CASE("every built-in scheme derives its flops on the single-body problems it integrates", "[flops][fast]") {
  for (const char* name : {"free_body", "heavy_top", "pendulum3d", "dzhanibekov", "non_twisting_case1", "non_twisting_case2"}) {
    const Problem p = catalogue_problem(name);
    for (const auto& e : registry()) {
      // An adaptive scheme's work per output interval is its controller's choice: no fixed count.
      if (!e.builtin || e.info->adaptive || !not_applicable(*e.info, p).empty()) continue;
      INFO(e.info->name << " on " << name);
      REQUIRE(e.info->flops != nullptr);
      const auto m = e.info->flops(p);
      REQUIRE(m.has_value());
      CHECK(m->base > 0);
      // Explicit schemes do no per-iteration work; implicit ones do (on a loaded problem at least:
      // Campello (26) is explicit without a load).
      if (e.info->kind == SchemeKind::explicit_) {
        CHECK(m->per_iteration == 0);
        CHECK(m->per_jacobian == 0);
      } else if (!p.torque_free()) {
        CHECK(m->per_iteration > 0);
        CHECK(m->per_jacobian > 0);
      }
    }
  }
}

TEST_CASE("flop models follow the loads and the solver path of their schemes", "[flops][fast]") {
  const Problem free_body = catalogue_problem("free_body"), heavy_top = catalogue_problem("heavy_top");
  const auto model = [](const std::string& scheme, const Problem& p) { return find_scheme(scheme).info->flops(p).value(); };
  // A load adds work to every scheme that evaluates it.
  for (const char* s : {"rk4_quat", "odeint_rk4_quat", "lie_euler", "rkmk4", "terze", "rig_pos", "rig_neg", "dlm_splitting", "lgvi"})
    CHECK(model(s, heavy_top).base > model(s, free_body).base);
  for (const char* s : {"simo_wong", "akw_midpoint", "rig_imp", "lgvi"}) CHECK(model(s, free_body).per_iteration > 0);
  for (const char* s : {"simo_wong", "akw_midpoint"}) {
    CHECK(model(s, heavy_top).per_iteration > model(s, free_body).per_iteration);
    CHECK(model(s, heavy_top).per_jacobian > model(s, free_body).per_jacobian);
  }
  // odeint's generic algebra multiplies by the tableau's 1 and 0: more flops than the same method by hand.
  CHECK(model("odeint_rk4_quat", free_body).base > model("rk4_quat", free_body).base);
  // Gebhardt-Romero: the catalogue's free body is a lamina (J3 = J1 + J2, JJ33 = 0) and takes the
  // 9 x 9 Schur complement of its third director and the constraints; the heavy top the 6 x 6 one of
  // the constraints; a follower moment the dense 16 x 16 LU.
  const double lu16 = flops::lu_factor(16), lu15 = flops::lu_factor(15), lu9 = flops::lu_factor(9), lu6 = flops::lu_factor(6);
  CHECK(model("gr_energy_momentum", free_body).per_jacobian < lu15);
  CHECK(model("gr_energy_momentum", free_body).per_jacobian > lu9);
  // Path two's Schur complement takes only the constraint rows that involve an eliminated director
  // (three of six each): less than the 9 x 9 LU and the dense 6 x 6 by 6 x 9 product together.
  CHECK(model("gr_energy_momentum", free_body).per_jacobian < lu9 + 12 * 6 * 9);
  CHECK(model("gr_energy_momentum", heavy_top).per_jacobian != model("gr_energy_momentum", free_body).per_jacobian);
  CHECK(model("gr_energy_momentum", heavy_top).per_jacobian > lu6);
  CHECK(model("gr_nonholonomic", catalogue_problem("non_twisting_case3")).per_jacobian > lu16);
  // Outside the derivations: a body system, a gyrostat.
  CHECK_FALSE(find_scheme("rk4_quat").info->flops(catalogue_problem("torus_free")).has_value());
  CHECK_FALSE(find_scheme("rk4_quat").info->flops(catalogue_problem("gyrostat")).has_value());
}
