#pragma once
// A geometric adaptive scheme: Runge-Kutta-Munthe-Kaas with the Dormand-Prince 5(4) pair on
// SO(3) x R^3 (docs/adaptive.md, "The geometric pair"), its stages those of every RKMK method
// (munthe_kaas.hpp). RKMK [MK98; IMNZ00, sec. 4] writes the
// attitude over one step as R(t_n + s) = R_n exp(u(s)) with u(0) = 0 and
//   u' = dexp_r(u)^{-1} W,   J W' = (J W + h_B) x W + T(t, R_n exp(u)),
// an ODE on the vector space so(3) x R^3 (R^3 with its additive group) to which any Runge-Kutta pair
// applies; R_{n+1} = R_n exp(u_{n+1}) is then on SO(3) whatever the step or the tolerance. The pair is
// Dormand & Prince's RK5(4)7M (J. Comput. Appl. Math. 6 (1980) 19-26, Table 2): the 5th-order
// solution propagates (local extrapolation), the difference to the embedded 4th-order one is the
// error estimate, measured in the algebra and in W as in the variable-step RKMK methods of Celledoni,
// Cokaj, Leone, Murari & Owren (Int. J. Comput. Math. 99 (2022) 58-88).
//
// - First same as last: the 7th stage is evaluated at (R_{n+1}, W_{n+1}), and its W' is the first
//   stage of the next step (in the new frame, u = 0, the first u' is W_{n+1} itself). So 6 right-hand
//   sides per attempt, one at the start.
// - Error test: accept when max_i |e_i| / sc_i <= 1 with sc_i = abs + rel max(|W_n,i|, |W_{n+1},i|)
//   for the three components of W and sc = abs + rel for the three of the attitude error in the
//   algebra (radians; the scale of a unit quaternion's or a rotation matrix's entries, so the
//   tolerance means the same as for odeint_dopri5 on q): docs/decisions.md, "Adaptive schemes on a
//   tolerance ladder".
// - Step control: Hairer, Norsett & Wanner, Solving ODEs I, sec. II.4, eq. (4.13): h_new =
//   h min(5, max(0.2, 0.9 err^{-1/5})), no growth right after a rejection; the step is shortened to
//   land exactly on each output time, the controller's proposal kept for the next (as odeint's
//   integrate_times, so the two dopri5 schemes differ in their geometry, not their control).
#include "any_integrator.hpp"
#include "munthe_kaas.hpp"

namespace rigidbench {

class RkmkDopri5 final : public So3VelocityScheme {
 public:
  static const SchemeInfo& info();
  RkmkDopri5(const Problem& p, const SchemeSettings& set);
  explicit RkmkDopri5(const Problem& p) : RkmkDopri5(p, SchemeSettings{}) {}

  void reset(const State& x0, double t0) {
    So3VelocityScheme::reset(x0, t0);
    t_ = t0;
    dt_ = 0;  // chosen at the first call from the first output interval
    fsal_ = false;
  }
  /// Advances to the output time t + h (integrator.hpp, "Adaptive schemes").
  StepStatus step(double t, double h);
  /// The embedded 4th-order solution's difference from the 5th over one step of h from the current
  /// state (HasErrorEstimate): max over u and W, unscaled.
  double error_estimate(double t, double h);

 private:
  /// One attempt of size dt from (R_, W_, t_): the new increment u_{n+1}, W_{n+1}, its W' (the next
  /// first stage) and the scaled error norm (infinite when a stage is not finite).
  struct Attempt {
    Vec3 u, W, dW_end;
    double err;
  };
  Attempt attempt(double dt);

  double abs_, rel_;
  double t_ = 0, dt_ = 0;
  Vec3 dW_ = Vec3::Zero();  // W' at (t_, R_, W_): the first stage (first same as last)
  bool fsal_ = false;
};

// The type-erased wrapper, instantiated once in rkmk_dopri5.cpp (integrators/builtin.hpp says why).
extern template class Erased<RkmkDopri5>;

}  // namespace rigidbench
