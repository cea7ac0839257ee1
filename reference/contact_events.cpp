#include "contact_events.hpp"

#include <algorithm>
#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <cmath>
#include <limits>

#include "../core/types.hpp"
#include "../problems/families/body_system.hpp"
#include "../problems/formulations/body_system.hpp"
#include "../problems/interactions.hpp"
#include "reference.hpp"

namespace rigidbench {

namespace {
using B = formulations::BodySystemQuaternion;
constexpr double kUlp = std::numeric_limits<double>::epsilon();

Vec3 position(const std::vector<double>& y, std::size_t b) {
  const double* s = y.data() + B::kPer * b + 7;
  return Vec3(s[0], s[1], s[2]);
}
/// The Illinois variant of regula falsi on [lo, hi], where the gap g (glo, ghi at the ends) changes
/// its contact state (< 0: in contact): shrinks the bracket to width eps, or until its left end
/// passes `stop` (an earlier switch is known), and returns its right end - a time past the switch.
template <class G>
double past_switch(double lo, double hi, double glo, double ghi, double eps, double stop, G&& g) {
  const bool before = glo < 0;
  int side = 0;  // the end kept last: its weight is halved when it is kept again
  for (int it = 0; it < 200 && hi - lo > eps && lo < stop; ++it) {
    double m = (glo * hi - ghi * lo) / (glo - ghi);
    if (!(m > lo && m < hi)) m = 0.5 * (lo + hi);
    const double gm = g(m);
    if ((gm < 0) == before) {
      lo = m, glo = gm;
      if (side == -1) ghi *= 0.5;
      side = -1;
    } else {
      hi = m, ghi = gm;
      if (side == 1) glo *= 0.5;
      side = 1;
    }
  }
  return hi;
}
/// Of the switches found on the step [t, tn] (states y, ynew; `at` the dense output), the earliest,
/// with `first` set to a time just past it (past_switch); null when none is.
template <class S, class At>
const ContactSwitch* earliest_switch(const std::vector<ContactSwitch>& found, const ContactGaps& gaps, const S& y,
                                     const S& ynew, double t, double tn, double eps, double& first, At&& at) {
  const ContactSwitch* which = nullptr;
  for (const ContactSwitch& s : found) {
    const double hi = past_switch(t, tn, gaps.gap(s, y), gaps.gap(s, ynew), eps, first,
                                  [&](double m) { return gaps.gap(s, at(m)); });
    if (which == nullptr || hi < first) first = hi, which = &s;
  }
  return which;
}
[[noreturn]] void throw_step_limit(std::size_t max_steps) {
  throw ReferenceStepLimit(cat("reference: more than ", std::to_string(max_steps),
                               " steps (the limit; RIGIDBENCH_REFERENCE_MAX_STEPS): the problem's rates over its span are "
                               "more than a reference can follow - shorten the span or lower the angular velocities"));
}
/// The output times from times[next] up to tn, the end of an accepted step: its end state ynew where
/// one falls on it, the dense output `at` otherwise; the index of the next output time.
template <class S, class At>
std::size_t emit_outputs(const std::vector<double>& times, std::size_t next, double tn, const S& ynew,
                         std::vector<S>& out, At&& at) {
  for (; next < times.size() && times[next] <= tn; ++next) out.push_back(times[next] == tn ? ynew : at(times[next]));
  return next;
}
}  // namespace

ContactGaps::ContactGaps(const Problem& p) : n_(p.bodies.size()) {
  const BodySystemData& d = body_system_data(p);
  diameter_.assign(n_, 0.0);
  for (std::size_t b = 0; b < n_ && b < d.diameters.size(); ++b) diameter_[b] = d.diameters[b];
  pairs_ = d.interactions.contact_stiffness > 0 && n_ > 1;
  reach_ = 0;
  for (double D : diameter_) reach_ = std::max(reach_, D);
  for (const Wall& w : d.interactions.walls)
    if (w.stiffness > 0) walls_.push_back({w.normal, w.offset});
}

double ContactGaps::gap(const ContactSwitch& s, const std::vector<double>& y) const {
  if (s.wall) {  // interactions::wall: in contact while n . x - c < D_i / 2
    const WallGap& w = walls_[s.j];
    return w.normal.dot(position(y, s.i)) - w.offset - 0.5 * diameter_[s.i];
  }
  // interactions::contact: in contact while |x_i - x_j| < (D_i + D_j) / 2
  return (position(y, s.i) - position(y, s.j)).norm() - 0.5 * (diameter_[s.i] + diameter_[s.j]);
}

void ContactGaps::crossings(const std::vector<double>& a, const std::vector<double>& b, double floor,
                            std::vector<ContactSwitch>& out) const {
  const auto changed = [&](const ContactSwitch& s) {
    const double ga = gap(s, a), gb = gap(s, b);
    return (ga < 0) != (gb < 0) && std::max(std::abs(ga), std::abs(gb)) > floor * distance(s);
  };
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t w = 0; w < walls_.size(); ++w)
      if (const ContactSwitch s{i, w, true}; changed(s)) out.push_back(s);
  if (!pairs_) return;
  // A pair in contact at either end is within its contact distance there, so within that distance
  // plus both bodies' displacements over the step at the step's end.
  double moved = 0;
  std::vector<Vec3> xa(n_), xb(n_);
  for (std::size_t i = 0; i < n_; ++i) {
    xa[i] = position(a, i), xb[i] = position(b, i);
    moved = std::max(moved, (xb[i] - xa[i]).norm());
  }
  interactions::for_each_near_pair(n_, [&](std::size_t i) -> const Vec3& { return xb[i]; }, reach_ + 2 * moved,
                                   [&](std::size_t i, std::size_t j) {
                                     // Apart at both ends (the common case): no switch, and no square root.
                                     const double D = 0.5 * (diameter_[i] + diameter_[j]);
                                     if ((xa[i] - xa[j]).squaredNorm() >= D * D && (xb[i] - xb[j]).squaredNorm() >= D * D)
                                       return;
                                     if (const ContactSwitch s{i, j, false}; changed(s)) out.push_back(s);
                                   });
}

// GCC 12 reports -Wuninitialized inside odeint's stepper copy constructor (as in reference.cpp).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
std::vector<std::vector<double>> integrate_with_contact_events(const Problem& p, const std::vector<double>& times,
                                                               double tol, std::size_t max_steps, ContactEventLog& log) {
  namespace ode = boost::numeric::odeint;
  using S = std::vector<double>;
  if (times.empty()) return {};
  const B sys{&p};
  const ContactGaps gaps(p);
  auto ctl = ode::make_controlled(tol, tol, ode::runge_kutta_dopri5<S>());
  const double chatter = std::pow(tol, 2.0 / 3.0);  // gaps within D tol^{2/3} of 0: not located (header)
  const auto eps = [tol](double at) { return std::max(tol, 4 * kUlp * std::max(1.0, std::abs(at))); };  // in time
  S y = B::from_state(p.initial), dydt(y.size()), ynew(y.size()), dydtnew(y.size()), probe(y.size());
  double t = times.front();
  sys(y, dydt, t);
  std::vector<S> out{y};
  std::size_t next = 1;
  double dt = times.size() > 1 ? std::min(times[1] - times[0], 1e-3) : 1e-3;
  bool cut = false;      // the current attempt was shortened to end just past a located switch
  double resume = 0;     // the controller's proposal before the cut, kept for the step after it
  std::vector<ContactSwitch> found;
  ContactSwitch last;    // the switch of the last cut
  bool just_cut = false;  // the step before this one ended at a cut
  int rejected_in_a_row = 0;
  while (next < times.size()) {
    if (!(dt > 4 * kUlp * std::max(1.0, std::abs(t))))
      throw std::runtime_error(cat("reference: the step fell to ", format_number(dt, 3), " at t = ", format_number(t, 9)));
    double tn = t;
    const double tried = dt;
    if (ctl.try_step(std::cref(sys), y, dydt, tn, ynew, dydtnew, dt) != ode::success) {
      ++log.rejected;
      if (cut) {  // the step to the switch was too long itself: the controller's shorter one, unchecked,
        cut = false;  // ends before it, and the switch is located again from there
        --log.located;
        if (log.record) log.switches.pop_back();
      }
      if (++rejected_in_a_row > 500)
        throw std::runtime_error(cat("reference: 500 rejected steps in a row at t = ", format_number(t, 9)));
      continue;
    }
    rejected_in_a_row = 0;
    const auto interpolate = [&](double at, S& into) { ctl.stepper().calc_state(at, into, y, dydt, t, ynew, dydtnew, tn); };
    if (!cut && log.locate) {
      found.clear();
      gaps.crossings(y, ynew, chatter, found);
      // The switch of the last cut, found again at the start of the next step: that cut ended a few
      // ulps short of it (its step's end differs from the interpolant's). It is not located twice.
      if (just_cut) std::erase(found, last);
      // The earliest switch, bracketed on this step's dense output to a time just past it.
      double first = tn;
      const ContactSwitch* which = earliest_switch(found, gaps, y, ynew, t, tn, eps(tn), first, [&](double m) -> const S& {
        interpolate(m, probe);
        return probe;
      });
      // Past the bracket by its width, so that the redone step's own end (a few ulps from the
      // interpolant's) lies past the switch too: a straddle of at most twice the location tolerance.
      if (which != nullptr) first = std::min(tn, first + eps(tn));
      if (which != nullptr && first < tn && first - t > 4 * kUlp * std::max(1.0, std::abs(t))) {
        // Redo the step to end just past the switch: no kink inside it but within the tolerance.
        if (log.record) log.switches.push_back(*which);
        last = *which;
        resume = std::max(dt, tried);
        dt = first - t;
        cut = true;
        ++log.located;
        continue;
      }
    } else if (cut && log.record) {  // a step that ended just past a located switch
      log.times.push_back(tn);
    }
    next = emit_outputs(times, next, tn, ynew, out, [&](double at) -> const S& {
      interpolate(at, probe);
      return probe;
    });
    y.swap(ynew), dydt.swap(dydtnew), t = tn;
    just_cut = cut;
    if (cut) dt = std::max(dt, resume), cut = false;
    if (++log.steps > max_steps) throw_step_limit(max_steps);
  }
  return out;
}
#pragma GCC diagnostic pop

}  // namespace rigidbench
