#pragma once
// Contact onsets located in the reference of a body system with Hertz contact (docs/decisions.md,
// "Contact onsets in the reference"). The Hertz force of eq. 56/57, K/D s^{3/2}, is only C^1 where a
// gap crosses 0 - a pair's |x_i - x_j| - (D_i + D_j)/2, a body's n . x - c - D_i/2 at a wall - and a
// Runge-Kutta step across such an instant loses its order (its error ~ h^{5/2} whatever the method's),
// so the controller creeps through every onset by rejections (Hairer, Norsett & Wanner, Solving
// ODEs I, section II.6, "Discontinuous problems"). Here every gap is a switching function: after each
// step the gaps at its two ends are compared, a sign change is located on the step's own dense output
// (Dormand-Prince's continuous extension) by the Illinois variant of regula falsi, and the step is
// redone to end just past the earliest switch. Every step then has at most one kink, at its end,
// within the location tolerance.
//
// A gap that touches 0 without crossing it (grazing) changes no sign and is no event: the force there
// is 0 with a zero derivative. A switch whose gap stays within D tol^{2/3} of 0 at both ends of the
// step is not located either (chattering: neighbours resting at contact distance cross it at every
// small oscillation, ~50 000 times on torus_impact's [0, 0.5] at 1e-12): a step across it errs by
// ~ K/(m D) (|g|/D)^{3/2} h, below the tolerance for |g| <= D tol^{2/3} at the reference's steps. A contact that began and ended inside one step would be missed; at a
// reference's tolerance the steps are far shorter than a contact lasts (the controller resolves the
// force's rise), which tests/test_reference.cpp checks on the catalogue's contact problems.
#include <cstddef>
#include <vector>

#include "../problems/problem.hpp"

namespace rigidbench {

/// A switching function: the gap of a pair of bodies (i < j) or of body i at wall j.
struct ContactSwitch {
  std::size_t i = 0, j = 0;
  bool wall = false;
  bool operator==(const ContactSwitch&) const = default;
};

/// The gaps of a body system's contacts, evaluated on the state of formulations::BodySystemQuaternion
/// (13 numbers per body: q, W, x, v).
class ContactGaps {
 public:
  explicit ContactGaps(const Problem& p);
  /// Whether the problem has any contact (pairs with a stiffness, or a wall with one).
  bool any() const { return pairs_ || !walls_.empty(); }
  /// The gap of s in state y: < 0 in contact (the Hertz force acts), >= 0 apart.
  double gap(const ContactSwitch& s, const std::vector<double>& y) const;
  /// The switches whose contact state differs between the states a and b and whose gap exceeds
  /// `floor` times its contact distance at one of them (appended to out).
  void crossings(const std::vector<double>& a, const std::vector<double>& b, double floor,
                 std::vector<ContactSwitch>& out) const;
  /// The contact distance of s: (D_i + D_j)/2 for a pair, D_i/2 at a wall.
  double distance(const ContactSwitch& s) const {
    return s.wall ? 0.5 * diameter_[s.i] : 0.5 * (diameter_[s.i] + diameter_[s.j]);
  }

 private:
  struct WallGap {
    Vec3 normal;
    double offset;
  };
  std::size_t n_;
  std::vector<double> diameter_;
  bool pairs_;
  double reach_;  // the largest pair contact distance
  std::vector<WallGap> walls_;
};

/// What the located integration did: accepted steps, rejected attempts, steps cut at a located
/// switch, and (when `record`) the located switch times with their switches, in order.
struct ContactEventLog {
  std::size_t steps = 0, rejected = 0, located = 0;
  bool record = false;
  bool locate = true;  ///< false: the same loop without the location (the comparison of the tests)
  std::vector<double> times;
  std::vector<ContactSwitch> switches;
};

/// The body system p from its initial state on `times` (ascending, times[0] = p.t0): Dormand-Prince
/// 5(4) under odeint's controller at abs = rel = tol with every contact switch located (above); one
/// state of formulations::BodySystemQuaternion per grid time. `max_steps`: the run's step budget
/// (InputError beyond it). A switch is located to max(tol, 4 ulp) in time.
std::vector<std::vector<double>> integrate_with_contact_events(const Problem& p, const std::vector<double>& times,
                                                               double tol, std::size_t max_steps, ContactEventLog& log);

}  // namespace rigidbench
