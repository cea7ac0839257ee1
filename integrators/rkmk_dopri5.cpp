// RKMK with the Dormand-Prince 5(4) pair on SO(3) x R^3 (rkmk_dopri5.hpp says what and why), its
// metadata and the one instantiation of its type-erased wrapper.
#include "rkmk_dopri5.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rigidbench {

namespace {

// Dormand & Prince (1980), RK5(4)7M: nodes c, matrix a (row i: the weights of stages 0..i-1), the
// 5th-order weights b (= row 6 of a: first same as last) and e = b - b^ with b^ the 4th-order weights.
constexpr std::array<double, 7> kB = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
constexpr rkmk::Tableau<7> kDopri5{
    .c = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1},
    .a = {{{},
           {1.0 / 5},
           {3.0 / 40, 9.0 / 40},
           {44.0 / 45, -56.0 / 15, 32.0 / 9},
           {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
           {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
           kB}},
    .weight = kB,
    .denominator = 1};
constexpr std::array<double, 7> kE = {35.0 / 384 - 5179.0 / 57600, 0, 500.0 / 1113 - 7571.0 / 16695, 125.0 / 192 - 393.0 / 640,
                                      -2187.0 / 6784 + 92097.0 / 339200, 11.0 / 84 - 187.0 / 2100, -1.0 / 40};
struct ErrorWeights {
  constexpr double operator()(int j) const { return kE[j]; }
};

// Hairer-Norsett-Wanner's step factor (rkmk_dopri5.hpp): safety 0.9, within [0.2, 5], exponent
// 1/(q + 1) with q = 4 the order of the embedded solution.
constexpr double kSafety = 0.9, kShrinkMost = 0.2, kGrowMost = 5, kExponent = 1.0 / 5;
/// Rejections in a row after which a step is a breakdown (the controller cannot meet its tolerance).
constexpr int kMaxRejections = 500;
constexpr double kUlp = 2.220446049250313e-16;

double step_factor(double err) {
  if (!(err > 0)) return kGrowMost;
  if (!std::isfinite(err)) return kShrinkMost;
  return std::clamp(kSafety * std::pow(err, -kExponent), kShrinkMost, kGrowMost);
}

}  // namespace

RkmkDopri5::RkmkDopri5(const Problem& p, const SchemeSettings& set)
    : So3VelocityScheme(p), abs_(set.get(kAbsTolerance)), rel_(set.get(kRelTolerance)) {}

// Flattened: the seven unrolled stages are one function, as the loop they replace was (without it
// GCC stops inlining the stage bodies and the attempt costs a third more instructions).
[[gnu::flatten]] RkmkDopri5::Attempt RkmkDopri5::attempt(double dt) {
  Vec3 du[7], dW[7];
  du[0] = W_;  // dexp_r(0)^{-1} = I
  dW[0] = dW_;
  const auto [u, W] = rkmk::stages<kDopri5>(t_, dt, R_, W_, du, dW, [this](double t, const Mat3& R, const Vec3& Ws) {
    ++c_.rhs_evaluations;
    return acceleration(t, R, Ws);
  });
  // Stage 6 is the 5th-order solution itself (u, W); the error is the difference to the 4th order.
  const Vec3 eu = rkmk::scaled_sum<7>(dt, nullptr, du, ErrorWeights{});
  const Vec3 eW = rkmk::scaled_sum<7>(dt, nullptr, dW, ErrorWeights{});
  double err = 0;
  for (int k = 0; k < 3; ++k) {
    err = std::max(err, std::abs(eu[k]) / (abs_ + rel_));
    err = std::max(err, std::abs(eW[k]) / (abs_ + rel_ * std::max(std::abs(W_[k]), std::abs(W[k]))));
  }
  if (!u.allFinite() || !W.allFinite() || !dW[6].allFinite() || std::isnan(err)) err = std::numeric_limits<double>::infinity();
  return {u, W, dW[6], err};
}

double RkmkDopri5::error_estimate(double t, double h) {
  (void)t;  // the current state's time, t_
  if (!fsal_) {
    ++c_.rhs_evaluations;
    dW_ = acceleration(t_, R_, W_);
    fsal_ = true;
  }
  // attempt() scales each component by abs + rel |W|: with abs = 1, rel = 0 its norm is the estimate's
  // own (the controller's tolerances are restored after it; the state is not advanced).
  const double abs = abs_, rel = rel_;
  abs_ = 1, rel_ = 0;
  const double e = attempt(h).err;
  abs_ = abs, rel_ = rel;
  return e;
}

StepStatus RkmkDopri5::step(double t, double h) {
  const double target = t + h;
  if (dt_ == 0) dt_ = std::min(h, 1e-2 * std::max(1.0, std::abs(h)));
  if (!fsal_) {
    ++c_.rhs_evaluations;
    dW_ = acceleration(t_, R_, W_);
    fsal_ = true;
  }
  while (t_ < target) {
    const double remaining = target - t_;
    const bool last = dt_ >= remaining;
    const double before = dt_;
    if (last) dt_ = remaining;
    Attempt a;
    bool rejected = false;
    for (int tries = 0;; ++tries) {
      if (tries == kMaxRejections)
        return StepStatus::breakdown(cat(std::to_string(tries), " rejected steps in a row at t = ", format_number(t_, 6),
                                         " (the controller cannot meet its tolerance)"));
      if (!(dt_ > 4 * kUlp * std::max(1.0, std::abs(t_))))
        return StepStatus::breakdown(cat("the controller's step fell to ", format_number(dt_, 3), " at t = ",
                                         format_number(t_, 6), " (step size underflow)"));
      a = attempt(dt_);
      if (a.err <= 1) break;
      ++c_.rejected_steps;
      rejected = true;
      dt_ *= step_factor(a.err);
    }
    const bool shortened = last && dt_ == remaining;
    const double proposal = dt_ * (rejected ? std::min(1.0, step_factor(a.err)) : step_factor(a.err));
    R_ = R_ * so3::exp(a.u);
    W_ = a.W;
    dW_ = a.dW_end;
    t_ = shortened ? target : t_ + dt_;
    ++c_.accepted_steps;
    if (shortened && before > remaining) ++c_.shortened_steps;
    dt_ = shortened ? std::max(proposal, before) : proposal;
  }
  return {};
}

const SchemeInfo& RkmkDopri5::info() {
  static const SchemeInfo i{
      .name = "rkmk_dopri5",
      .title = "Runge-Kutta-Munthe-Kaas with the Dormand-Prince 5(4) pair on SO(3), controlled, exact landing",
      .source = "Munthe-Kaas, BIT 38 (1998); Iserles et al., Acta Numerica 9 (2000), sec. 4; Dormand & Prince, "
                "J. Comput. Appl. Math. 6 (1980); Celledoni et al., Int. J. Comput. Math. 99 (2022)",
      .representation = "rotation matrix and body angular velocity; the error estimated in so(3) x R^3",
      .order = 5,
      .kind = SchemeKind::explicit_,
      .applies = {.families = {"rigid_body"}, .features = {"internal_momentum"}},
      .claims = {.constraint = Claim::exact},
      .notes = "R_{n+1} = R_n exp(u_{n+1}): on SO(3) at every tolerance; first same as last; Hairer's step factor",
      .settings = {kAbsTolerance, kRelTolerance},
      .adaptive = true};
  return i;
}

template class Erased<RkmkDopri5>;

}  // namespace rigidbench
