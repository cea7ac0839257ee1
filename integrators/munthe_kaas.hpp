#pragma once
// Runge-Kutta-Munthe-Kaas (RKMK) methods on SO(3) x R^3 from their Butcher tableaux: Lie-Euler,
// RKMK4 and the Dormand-Prince pair (rkmk_dopri5.hpp) are one method family with three tableaux
// [MK98; IMNZ00, sec. 4]. Over one step the attitude is R(t_n + s) = R_n exp(u(s)), u(0) = 0, and
//   u' = dexp_r(u)^{-1} W,   J W' = (J W + h_B) x W + T(t, R_n exp(u))
// is an ODE on the vector space so(3) x R^3, to which the tableau applies as any explicit Runge-Kutta
// method does; R_{n+1} = R_n exp(u_{n+1}) is on SO(3) whatever the step. Stage i evaluates
//   u_i = h sum_{j<i} a_ij du_j,  W_i = W_n + h sum_{j<i} a_ij dW_j,
//   du_i = dexp_r(u_i)^{-1} W_i,  dW_i = W'(t_n + c_i h, R_n exp(u_i), W_i),
// with stage 0 at u = 0 (dexp_r(0)^{-1} = I: du_0 = W_n, and R_n exp(0) = R_n). The exact dexp
// inverse is used (truncating it at second commutators would already keep order 4).
//
// The stages are unrolled at compile time and a zero coefficient is no operation, so each scheme
// does the arithmetic of its hand-written update in the same order and with no more instructions:
// RKMK4's and RKMK-Dormand-Prince's results are bit for bit what they were. Lie-Euler's W update is
// h (J^-1 rhs), as docs/flops.md counts it, where Eigen had evaluated (h J^-1) rhs: its errors moved
// in the 12th digit, no verdict did.
#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "../core/so3.hpp"
#include "../problems/formulations/spherical_chain.hpp"
#include "scheme_base.hpp"

namespace rigidbench {
namespace rkmk {

/// An explicit Runge-Kutta tableau of S stages: nodes c, the strictly lower matrix a, and the weights
/// b as printed, b_j = weight_j / denominator (RK4: (1, 2, 2, 1)/6), summed before the division as
/// the update is written: R_{n+1} = R_n exp((h/d) sum_j weight_j du_j).
template <int S>
struct Tableau {
  static constexpr int stages = S;
  std::array<double, S> c;
  std::array<std::array<double, S>, S> a;
  std::array<double, S> weight;
  double denominator;
};

/// f(std::integral_constant<int, I>) for I = From, ..., To - 1, unrolled.
template <int From, int To, class F>
inline void unroll(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, From + I>{}), ...);
  }(std::make_integer_sequence<int, To - From>{});
}

/// Coefficients of a tableau as stateless function objects (coef(j)), so that each is a constant the
/// unrolled sums can test: row I of a, and the weights.
template <const auto& T, int I>
struct Row {
  constexpr double operator()(int j) const { return T.a[I][j]; }
};
template <const auto& T>
struct Weights {
  constexpr double operator()(int j) const { return T.weight[j]; }
};

/// The first j < N with Coef{}(j) != 0, or N.
template <int N, class Coef>
constexpr int first_nonzero() {
  for (int j = 0; j < N; ++j)
    if (Coef{}(j) != 0) return j;
  return N;
}

/// x0 + sum_{j<N, c_j != 0} (h c_j) v_j with c_j = Coef{}(j), left to right; without x0, from the
/// first term (no terms: zero).
template <int N, class Coef, class Seq>
inline Vec3 scaled_sum(double h, const Vec3* x0, const Seq& v, Coef) {
  constexpr int first = first_nonzero<N, Coef>();
  Vec3 s;
  if (x0 != nullptr) {
    s = *x0;
  } else if constexpr (first == N) {
    s.setZero();
  }
  unroll<first, N>([&](auto j) {
    constexpr double c = Coef{}(j);
    if constexpr (c != 0) {
      if (x0 == nullptr && j == first) {
        s = (h * c) * v[j];
      } else {
        s += (h * c) * v[j];
      }
    }
  });
  return s;
}

/// sum_j weight_j v_j of the tableau's weights, left to right, a unit weight not multiplied:
/// RK4's du1 + 2 du2 + 2 du3 + du4.
template <const auto& T, class Seq>
inline Vec3 weighted_sum(const Seq& v) {
  constexpr int first = first_nonzero<T.stages, Weights<T>>();
  static_assert(first < T.stages, "a tableau with no weights");
  Vec3 s;
  if constexpr (T.weight[first] == 1) {
    s = v[first];
  } else {
    s = T.weight[first] * v[first];
  }
  unroll<first + 1, T.stages>([&](auto j) {
    constexpr double w = T.weight[j];
    if constexpr (w == 1) {
      s += v[j];
    } else if constexpr (w != 0) {
      s += w * v[j];
    }
  });
  return s;
}

/// Stage j's value of body b, v[j][b]: a chain's per-body sequence, for scaled_sum and weighted_sum.
template <int S>
struct BodyColumn {
  const std::array<std::vector<Vec3>, S>* v;
  std::size_t b;
  const Vec3& operator[](int j) const { return (*v)[j][b]; }
};

/// The stage values of the last stage, (u_{S-1}, W_{S-1}).
struct LastStage {
  Vec3 u, W;
};

/// Stages 1, ..., S-1 of the tableau T from stage 0 (du[0] = W_n and dW[0], set by the caller, who
/// may have it from the last step: first same as last), at (t, R, W) = (t_n, R_n, W_n) with step h;
/// accel(t, R, W) is W'. Fills du[i], dW[i]; returns the last stage's (u, W).
template <const auto& T, class Accel>
inline LastStage stages(double t, double h, const Mat3& R, const Vec3& W, Vec3* du, Vec3* dW, Accel&& accel) {
  LastStage last{Vec3::Zero(), W};
  unroll<1, T.stages>([&](auto i) {
    const Vec3 u = scaled_sum<i>(h, nullptr, du, Row<T, i>{});
    const Vec3 Wi = scaled_sum<i>(h, &W, dW, Row<T, i>{});
    du[i] = so3::dexp_right_inverse(u) * Wi;
    dW[i] = accel(t + T.c[i] * h, Mat3(R * so3::exp(u)), Wi);
    if constexpr (i == T.stages - 1) last = {u, Wi};
  });
  return last;
}

}  // namespace rkmk

/// The RKMK method of the tableau T on a chain of bodies (families/spherical_chain.hpp): the group
/// SO(3)^n, and R^3 x R^3 for a free chain's (x_0, v_0). Each body has its own u_b, R_b(t_n + s) =
/// R_b exp(u_b(s)), and the stages are those of one body (rkmk::stages) taken body by body, with the
/// accelerations of all the bodies at once from the chain's minimal form
/// (formulations::ChainMinimal::solve, the chain references' equations); the base is the tableau's
/// plain Runge-Kutta method. The positions do not enter the accelerations (gravity is uniform).
template <const auto& T>
class MuntheKaasChain {
 public:
  MuntheKaasChain(const Problem& p, std::uint64_t* load_evaluations);
  void reset(const State& x0);
  void read(State& x) const;
  void step(double t, double h);

 private:
  void accelerations(int i, const std::vector<Mat3>& R, const std::vector<Vec3>& W);
  formulations::ChainMinimal f_;
  std::size_t n_;
  std::vector<Mat3> R_;
  std::vector<Vec3> W_;
  Vec3 x0_ = Vec3::Zero(), v0_ = Vec3::Zero();
  std::array<std::vector<Vec3>, T.stages> du_, dW_;  // stage j's du and dW of every body
  std::array<Vec3, T.stages> dx_, dv_;               // a free chain's base: x_0' and x_0''
  std::vector<Mat3> Rs_;                             // the stage's attitudes and angular velocities
  std::vector<Vec3> Ws_;
};

/// The fixed-step RKMK method of the tableau T on one body in (R, W), or on a chain of bodies
/// (MuntheKaasChain): a scheme is this with its tableau and its SchemeInfo (lie_euler.hpp, rkmk4.hpp).
template <const auto& T>
class MuntheKaas : public WithChain<So3VelocityScheme, MuntheKaasChain<T>> {
  using Base = WithChain<So3VelocityScheme, MuntheKaasChain<T>>;
  using Base::chain_, Base::c_, Base::R_, Base::W_, Base::acceleration;

 public:
  StepStatus step(double t, double h) {
    if (chain_) [[unlikely]] {
      chain_->step(t, h);
      return {};
    }
    Vec3 du[T.stages], dW[T.stages];
    du[0] = W_;
    dW[0] = acceleration(t, R_, W_);
    rkmk::stages<T>(t, h, R_, W_, du, dW,
                    [this](double ts, const Mat3& R, const Vec3& W) { return acceleration(ts, R, W); });
    const double hd = h / T.denominator;
    R_ = R_ * so3::exp(hd * rkmk::weighted_sum<T>(du));
    W_ += hd * rkmk::weighted_sum<T>(dW);
    return {};
  }

 protected:
  explicit MuntheKaas(const Problem& p) : Base(p) {
    if (p.of_family("spherical_chain")) chain_.emplace(p, &c_.load_evaluations);
  }
};

}  // namespace rigidbench
