// The declarations of the odeint adaptive schemes (their loop is in odeint_adaptive.hpp).
#include "odeint_adaptive.hpp"

namespace rigidbench {

namespace {

/// What differs between the four: the rest of their declaration is shared (odeint_info below).
struct OdeintVariant {
  std::string_view name, title, source;
  int order;  // 0: variable (Bulirsch-Stoer)
  std::string_view notes;
  bool dense_output = false;  // steps past the output times and interpolates (SchemeInfo::dense_output)
};

constexpr OdeintVariant kDopri5{
    "odeint_dopri5", "Dormand-Prince 5(4), controlled, dense output (Boost.Odeint)",
    "Dormand & Prince, J. Comput. Appl. Math. 6 (1980); Boost.Odeint runge_kutta_dopri5 with controlled_runge_kutta and "
    "its continuous extension (calc_state)",
    5, "steps past each output time and interpolates there; error estimate of order 4 (local extrapolation); "
       "the stepper of the body systems' references with contact (there with exact landing on the grid)",
    true};
constexpr OdeintVariant kCashKarp54{
    "odeint_cash_karp54", "Cash-Karp 5(4), controlled, exact landing (Boost.Odeint)",
    "Cash & Karp, ACM TOMS 16 (1990); Boost.Odeint runge_kutta_cash_karp54 with controlled_runge_kutta", 5,
    "the step is shortened to land on each output time (odeint integrate_times)"};
constexpr OdeintVariant kFehlberg78{
    "odeint_fehlberg78", "Runge-Kutta-Fehlberg 7(8), controlled, exact landing (Boost.Odeint)",
    "Fehlberg, NASA TR R-287 (1968); Boost.Odeint runge_kutta_fehlberg78 with controlled_runge_kutta", 8,
    "the stepper of the body systems' references without contact, on the same right-hand side"};
constexpr OdeintVariant kBulirschStoer{
    "odeint_bulirsch_stoer", "Bulirsch-Stoer extrapolation, order and step controlled, exact landing (Boost.Odeint)",
    "Bulirsch & Stoer, Numer. Math. 8 (1966); Deuflhard, SIAM Rev. 27 (1985); Boost.Odeint bulirsch_stoer", 0,
    "variable order (the modified midpoint rule extrapolated; order 0 here means: chosen per step); the method of "
    "the rigid-body references, which use its dense-output form"};

SchemeInfo odeint_info(const OdeintVariant& v) {
  return {.name = v.name,
          .title = v.title,
          .source = v.source,
          .representation = "quaternion q and body angular velocity W (Kirchhoff form; per body with x and v for SE(3)^n), "
                            "q normalised only if project = 1",
          .order = v.order,
          .kind = SchemeKind::explicit_,
          .applies = {.families = {"rigid_body", "body_system", "spherical_chain"}, .features = {"internal_momentum"}},
          .claims = {},
          .notes = v.notes,
          .settings = {kAbsTolerance, kRelTolerance, kProjectQuaternion},
          .adaptive = true,
          .dense_output = v.dense_output};
}

}  // namespace

const SchemeInfo& Dopri5Tag::info() {
  static const SchemeInfo i = odeint_info(kDopri5);
  return i;
}
const SchemeInfo& CashKarp54Tag::info() {
  static const SchemeInfo i = odeint_info(kCashKarp54);
  return i;
}
const SchemeInfo& Fehlberg78Tag::info() {
  static const SchemeInfo i = odeint_info(kFehlberg78);
  return i;
}
const SchemeInfo& BulirschStoerTag::info() {
  static const SchemeInfo i = odeint_info(kBulirschStoer);
  return i;
}

template class Erased<OdeintDopri5>;
template class Erased<OdeintCashKarp54>;
template class Erased<OdeintFehlberg78>;
template class Erased<OdeintBulirschStoer>;

}  // namespace rigidbench
