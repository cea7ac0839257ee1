// An outside scheme and an outside problem, run by the whole rigidbench command line.
//
// The scheme is the explicit midpoint rule in the Munthe-Kaas form on SO(3) x R^3 (RKMK of order 2:
// Munthe-Kaas, BIT 38 (1998); Iserles, Munthe-Kaas, Norsett, Zanna, Acta Numerica 9 (2000) sec. 4):
// with a(t, R, W) = J^{-1}((J W) x W + T(t, R)) the body angular acceleration,
//   W_m = W_n + h/2 a(t_n, R_n, W_n),          R_m = R_n exp(h/2 W_n),
//   W_{n+1} = W_n + h a(t_n + h/2, R_m, W_m),  R_{n+1} = R_n exp(h W_m).
// Second order (dexp^{-1}(u) = I + O(u) does not enter at this order), explicit, two moment
// evaluations per step, R stays on SO(3) to round-off (a product of exponentials). It is nobody's
// published scheme of the catalogue: rigidbench tells its author what it is worth.
#include <rigidbench/rigidbench.hpp>

// The stage of the midpoint, 1/2. rigidbench's tests build this file once more with another
// (-DLIE_MIDPOINT_STAGE=0.6: then b2 c2 = 1/2 fails and the order is 1) as the broken build whose
// regression the history must name (tests/outside_regression.py); a scheme of yours needs no such macro.
#ifndef LIE_MIDPOINT_STAGE
#define LIE_MIDPOINT_STAGE 0.5
#endif

namespace {

using rigidbench::Mat3;
using rigidbench::Vec3;

class LieMidpointExplicit final {
 public:
  static const rigidbench::SchemeInfo& info() {
    static const rigidbench::SchemeInfo i{
        .name = "lie_midpoint_explicit",
        .title = "Explicit Lie midpoint (RKMK2) on SO(3) x R^3",
        .source = "Munthe-Kaas, BIT 38 (1998); Iserles et al., Acta Numerica 9 (2000), sec. 4 (order 2)",
        .representation = "rotation matrix R and body angular velocity W",
        .order = 2,
        .kind = rigidbench::SchemeKind::explicit_,
        .applies = {.families = {"rigid_body"}},
        .claims = {.constraint = rigidbench::Claim::exact},
        .notes = "An example of an outside scheme (examples/external_scheme)."};
    return i;
  }

  explicit LieMidpointExplicit(const rigidbench::Problem& p) : p_(&p) {}

  void reset(const rigidbench::State& x0, double /*t0*/) {
    R_ = x0.body().R;
    W_ = x0.body().W;
    c_ = {};
  }

  rigidbench::StepStatus step(double t, double h) {
    constexpr double c = LIE_MIDPOINT_STAGE;
    const Vec3 Wm = W_ + c * h * acceleration(t, R_, W_);
    const Mat3 Rm = R_ * rigidbench::so3::exp(c * h * W_);
    W_ += h * acceleration(t + c * h, Rm, Wm);
    R_ = R_ * rigidbench::so3::exp(h * Wm);
    return rigidbench::StepStatus::success();
  }

  void read(rigidbench::State& x) const {
    x.body().R = R_;
    x.body().W = W_;
  }
  rigidbench::Counters counters() const { return c_; }

 private:
  Vec3 acceleration(double t, const Mat3& R, const Vec3& W) {
    Vec3 rhs = (p_->inertia() * W).cross(W);
    if (!p_->torque_free()) {
      rhs += p_->body_moment(t, R);
      ++c_.load_evaluations;
    }
    return p_->inertia_inverse() * rhs;
  }

  const rigidbench::Problem* p_;
  Mat3 R_ = Mat3::Identity();
  Vec3 W_ = Vec3::Zero();
  rigidbench::Counters c_;
};

/// An outside catalogue problem of an existing family: an asymmetric top in gravity (a uniform
/// field at a body point off every principal axis), so no momentum but the vertical one is conserved.
rigidbench::Problem spinning_top() {
  rigidbench::Problem p;
  p.name = "spinning_top";
  p.title = "Asymmetric heavy top, J = diag(2, 3, 4), centre of mass at (0.1, 0, 0.5)";
  p.source = "examples/external_scheme";
  p.bodies = {rigidbench::BodyModel{Vec3(2, 3, 4).asDiagonal(), 1.0}};
  p.loads = {rigidbench::UniformField{.mass = 1.0, .acceleration = Vec3(0, 0, -9.81), .point = Vec3(0.1, 0, 0.5)}};
  p.initial.body().R = rigidbench::so3::exp(Vec3(0.3, 0.0, 0.0));
  p.initial.body().W = Vec3(0.0, 0.5, 6.0);
  p.t_end = 4.0;
  p.verification.h0 = 0.02;
  p.verification.levels = 5;
  p.verification.sample_times = {1, 2, 3, 4};
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  return rigidbench::main<LieMidpointExplicit>(argc, argv, [] { rigidbench::register_problem("spinning_top", spinning_top); });
}
