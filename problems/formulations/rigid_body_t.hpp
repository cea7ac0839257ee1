#pragma once
// Rigid-body formulations of paper 003 written once for any scalar type T (double, or
// boost::multiprecision's cpp_bin_float_quad for references beyond double precision). Plain arrays
// and explicit arithmetic: no Eigen, so that a multiprecision T needs nothing but its operators.
//
// - KirchhoffT (left-invariant, body): q' = 1/2 q (x) (0, W), J W' = J W x W + T_body.
//   The double version used by the default reference and the RK4 baseline is formulations::
//   KirchhoffQuaternion (kirchhoff.hpp); the two agree to round-off (tests/test_reference_formulations).
// - NewtonEulerT (right-invariant, spatial): q' = 1/2 (0, w) (x) q with w = R J^-1 R^T pi the
//   spatial angular velocity, pi' = t (spatial moment). pi is constant for a torque-free body, so
//   the right-hand side carries no gyroscopic term (paper 003, the Newton-Euler form).
// Loads: the problem's uniform fields (docs/problems.md P2, P3), evaluated in T.
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "../../core/quaternion.hpp"
#include "../../core/state.hpp"
#include "../families/rigid_body.hpp"
#include "../problem.hpp"

namespace rigidbench::formulations {

template <class T>
using A3 = std::array<T, 3>;
template <class T>
using A33 = std::array<std::array<T, 3>, 3>;

template <class T>
A3<T> cross(const A3<T>& a, const A3<T>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <class T>
A3<T> mul(const A33<T>& M, const A3<T>& v) {
  A3<T> r;
  for (int i = 0; i < 3; ++i) r[i] = M[i][0] * v[0] + M[i][1] * v[1] + M[i][2] * v[2];
  return r;
}
template <class T>
A3<T> mul_transpose(const A33<T>& M, const A3<T>& v) {
  A3<T> r;
  for (int i = 0; i < 3; ++i) r[i] = M[0][i] * v[0] + M[1][i] * v[1] + M[2][i] * v[2];
  return r;
}
template <class T>
A33<T> matmul(const A33<T>& a, const A33<T>& b) {
  A33<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  return r;
}
template <class T>
A33<T> transpose(const A33<T>& a) {
  A33<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = a[j][i];
  return r;
}
template <class T>
T dot(const A3<T>& a, const A3<T>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <class T>
A33<T> cast33(const Mat3& M) {
  A33<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = T(M(i, j));
  return r;
}
template <class T>
A3<T> cast3(const Vec3& v) {
  return {T(v[0]), T(v[1]), T(v[2])};
}
/// R(q / |q|) for q = (w, x, y, z) (Hamilton, R maps body to space), as in quat::to_matrix.
template <class T>
A33<T> rotation(const T* q_in) {
  using std::sqrt;
  const T n = sqrt(q_in[0] * q_in[0] + q_in[1] * q_in[1] + q_in[2] * q_in[2] + q_in[3] * q_in[3]);
  const T s = q_in[0] / n, x = q_in[1] / n, y = q_in[2] / n, z = q_in[3] / n;
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - s * z), 2 * (x * z + s * y)},
           {2 * (x * y + s * z), 1 - 2 * (x * x + z * z), 2 * (y * z - s * x)},
           {2 * (x * z - s * y), 2 * (y * z + s * x), 1 - 2 * (x * x + y * y)}}};
}
/// Hamilton product a (x) (0, v) and (0, v) (x) a.
template <class T>
std::array<T, 4> times_pure(const T* a, const A3<T>& v) {
  return {-a[1] * v[0] - a[2] * v[1] - a[3] * v[2], a[0] * v[0] + a[2] * v[2] - a[3] * v[1],
          a[0] * v[1] - a[1] * v[2] + a[3] * v[0], a[0] * v[2] + a[1] * v[1] - a[2] * v[0]};
}
template <class T>
std::array<T, 4> pure_times(const A3<T>& v, const T* a) {
  return {-v[0] * a[1] - v[1] * a[2] - v[2] * a[3], v[0] * a[0] + v[1] * a[3] - v[2] * a[2],
          v[1] * a[0] + v[2] * a[1] - v[0] * a[3], v[2] * a[0] + v[0] * a[2] - v[1] * a[1]};
}

/// The problem's data in T: inertia, its inverse, and the uniform fields (m a spatial, point body).
template <class T>
struct RigidBodyData {
  A33<T> J, Jinv;
  A3<T> h;  // internal momentum: Pi = J W + h (families/rigid_body.hpp; zero but for the gyrostat)
  struct Field {
    A3<T> force, point;
  };
  std::vector<Field> fields;
  struct Follower {
    A3<T> body;
    std::vector<std::pair<T, T>> knots;  // TimeProfile in T
  };
  std::vector<Follower> followers;
  explicit RigidBodyData(const Problem& p) : J(cast33<T>(p.inertia())), h(cast3<T>(internal_momentum(p))) {
    // J^-1 in T (not the double inverse cast up): by cofactors, exact to T's precision.
    const auto& a = J;
    const T det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                  a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
        Jinv[i][j] = (a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1]) / det;
      }
    for (const Load& l : p.loads)
      std::visit(overloaded{[&](const UniformField& f) {
                              fields.push_back({cast3<T>(f.mass * f.acceleration), cast3<T>(f.point)});
                            },
                            [&](const FollowerMoment& m) {
                              Follower fo{cast3<T>(m.body), {}};
                              for (const auto& [t, v] : m.profile.knots) fo.knots.emplace_back(T(t), T(v));
                              followers.push_back(std::move(fo));
                            }},
                 l);
  }
  bool loaded() const { return !fields.empty() || !followers.empty(); }
  /// Body moment: p x (R^T m a) summed over the fields, plus f(t) B of every follower moment.
  A3<T> body_moment(const A33<T>& R, const T& t) const {
    A3<T> m{T(0), T(0), T(0)};
    for (const auto& f : fields) {
      const A3<T> c = cross(f.point, mul_transpose(R, f.force));
      for (int i = 0; i < 3; ++i) m[i] += c[i];
    }
    for (const auto& fo : followers) {
      const T s = piecewise_linear(fo.knots, t);  // TimeProfile in T
      for (int i = 0; i < 3; ++i) m[i] += s * fo.body[i];
    }
    return m;
  }
};

template <class T>
struct KirchhoffT {
  using state_type = std::array<T, 7>;  // q (4), W (3)
  static constexpr const char* name = "kirchhoff_quaternion";
  const RigidBodyData<T>* d;
  template <class Time>
  void operator()(const state_type& y, state_type& dy, const Time& t) const {
    const A3<T> W{y[4], y[5], y[6]};
    const auto dq = times_pure(y.data(), W);
    A3<T> Pi = mul(d->J, W);
    for (int i = 0; i < 3; ++i) Pi[i] += d->h[i];
    A3<T> rhs = cross(Pi, W);
    if (d->loaded()) {
      const A3<T> m = d->body_moment(rotation(y.data()), T(t));
      for (int i = 0; i < 3; ++i) rhs[i] += m[i];
    }
    const A3<T> dW = mul(d->Jinv, rhs);
    for (int i = 0; i < 4; ++i) dy[i] = dq[i] / 2;
    for (int i = 0; i < 3; ++i) dy[4 + i] = dW[i];
  }
  static state_type from_body(const BodyState& b, const RigidBodyData<T>&) {
    const Vec4 q = quat::from_matrix(b.R);
    return {T(q[0]), T(q[1]), T(q[2]), T(q[3]), T(b.W[0]), T(b.W[1]), T(b.W[2])};
  }
  static void to_body(const state_type& y, BodyState& b, const RigidBodyData<T>&) {
    const A33<T> R = rotation(y.data());
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) b.R(i, j) = static_cast<double>(R[i][j]);
      b.W[i] = static_cast<double>(y[4 + i]);
    }
  }
};

template <class T>
struct NewtonEulerT {
  using state_type = std::array<T, 7>;  // q (4), pi (3) spatial angular momentum
  static constexpr const char* name = "newton_euler_quaternion";
  const RigidBodyData<T>* d;
  template <class Time>
  void operator()(const state_type& y, state_type& dy, const Time& time) const {
    const A33<T> R = rotation(y.data());
    const A3<T> pi{y[4], y[5], y[6]};
    A3<T> Pi = mul_transpose(R, pi);  // body momentum J W + h
    for (int i = 0; i < 3; ++i) Pi[i] -= d->h[i];
    const A3<T> w = mul(R, mul(d->Jinv, Pi));  // spatial angular velocity
    const auto dq = pure_times(w, y.data());
    for (int i = 0; i < 4; ++i) dy[i] = dq[i] / 2;
    A3<T> t{T(0), T(0), T(0)};
    if (d->loaded()) t = mul(R, d->body_moment(R, T(time)));
    for (int i = 0; i < 3; ++i) dy[4 + i] = t[i];
  }
  static state_type from_body(const BodyState& b, const RigidBodyData<T>& d) {
    const Vec4 q = quat::from_matrix(b.R);
    state_type y{T(q[0]), T(q[1]), T(q[2]), T(q[3]), T(0), T(0), T(0)};
    A3<T> Pi = mul(d.J, cast3<T>(b.W));
    for (int i = 0; i < 3; ++i) Pi[i] += d.h[i];
    const A3<T> pi = mul(rotation(y.data()), Pi);
    for (int i = 0; i < 3; ++i) y[4 + i] = pi[i];
    return y;
  }
  static void to_body(const state_type& y, BodyState& b, const RigidBodyData<T>& d) {
    const A33<T> R = rotation(y.data());
    A3<T> Pi = mul_transpose(R, A3<T>{y[4], y[5], y[6]});
    for (int i = 0; i < 3; ++i) Pi[i] -= d.h[i];
    const A3<T> W = mul(d.Jinv, Pi);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) b.R(i, j) = static_cast<double>(R[i][j]);
      b.W[i] = static_cast<double>(W[i]);
    }
  }
};

}  // namespace rigidbench::formulations
