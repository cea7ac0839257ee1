// The declarations of the odeint adaptive schemes (their loop is in odeint_adaptive.hpp).
#include "rigidbench/integrators/odeint_adaptive.hpp"

namespace rigidbench {

namespace {
const std::vector<SettingInfo> kSettings{kAbsTolerance, kRelTolerance, kProjectQuaternion};
const Applicability kRigidBody{.families = {"rigid_body"}, .features = {"internal_momentum"}};
}  // namespace

const SchemeInfo& Dopri5Tag::info() {
  static const SchemeInfo i{
      .name = "odeint_dopri5",
      .title = "Dormand-Prince 5(4), controlled, dense output (Boost.Odeint)",
      .source = "Dormand & Prince, J. Comput. Appl. Math. 6 (1980); Boost.Odeint runge_kutta_dopri5 with "
                "controlled_runge_kutta and its continuous extension (calc_state)",
      .representation = "quaternion q and body angular velocity W (Kirchhoff form), q normalised only if project = 1",
      .order = 5,
      .kind = SchemeKind::explicit_,
      .applies = kRigidBody,
      .claims = {},
      .notes = "steps past each output time and interpolates there; error estimate of order 4 (local extrapolation)",
      .settings = kSettings,
      .adaptive = true};
  return i;
}

const SchemeInfo& CashKarp54Tag::info() {
  static const SchemeInfo i{
      .name = "odeint_cash_karp54",
      .title = "Cash-Karp 5(4), controlled, exact landing (Boost.Odeint)",
      .source = "Cash & Karp, ACM TOMS 16 (1990); Boost.Odeint runge_kutta_cash_karp54 with controlled_runge_kutta",
      .representation = "quaternion q and body angular velocity W (Kirchhoff form), q normalised only if project = 1",
      .order = 5,
      .kind = SchemeKind::explicit_,
      .applies = kRigidBody,
      .claims = {},
      .notes = "the step is shortened to land on each output time (odeint integrate_times)",
      .settings = kSettings,
      .adaptive = true};
  return i;
}

const SchemeInfo& Fehlberg78Tag::info() {
  static const SchemeInfo i{
      .name = "odeint_fehlberg78",
      .title = "Runge-Kutta-Fehlberg 7(8), controlled, exact landing (Boost.Odeint)",
      .source = "Fehlberg, NASA TR R-287 (1968); Boost.Odeint runge_kutta_fehlberg78 with controlled_runge_kutta",
      .representation = "quaternion q and body angular velocity W (Kirchhoff form), q normalised only if project = 1",
      .order = 8,
      .kind = SchemeKind::explicit_,
      .applies = kRigidBody,
      .claims = {},
      .notes = "the rigidbench references' stepper for smooth rigid bodies, here judged as a scheme",
      .settings = kSettings,
      .adaptive = true};
  return i;
}

const SchemeInfo& BulirschStoerTag::info() {
  static const SchemeInfo i{
      .name = "odeint_bulirsch_stoer",
      .title = "Bulirsch-Stoer extrapolation, order and step controlled, exact landing (Boost.Odeint)",
      .source = "Bulirsch & Stoer, Numer. Math. 8 (1966); Deuflhard, SIAM Rev. 27 (1985); Boost.Odeint bulirsch_stoer",
      .representation = "quaternion q and body angular velocity W (Kirchhoff form), q normalised only if project = 1",
      .order = 0,
      .kind = SchemeKind::explicit_,
      .applies = kRigidBody,
      .claims = {},
      .notes = "variable order (the modified midpoint rule extrapolated; order 0 here means: chosen per step)",
      .settings = kSettings,
      .adaptive = true};
  return i;
}

template class Erased<OdeintDopri5>;
template class Erased<OdeintCashKarp54>;
template class Erased<OdeintFehlberg78>;
template class Erased<OdeintBulirschStoer>;

}  // namespace rigidbench
