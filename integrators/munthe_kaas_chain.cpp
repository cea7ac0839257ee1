// The RKMK methods on a chain of bodies (MuntheKaasChain, munthe_kaas.hpp), instantiated here for the
// Lie-Euler and RKMK4 tableaux and nowhere else: compiled beside the one-body step, the chain's code
// changed what GCC inlined there (rkmk4's one-body step took 18 % more instructions, the gate's count).
#include "lie_euler.hpp"
#include "rkmk4.hpp"

namespace rigidbench {

template <const auto& T>
MuntheKaasChain<T>::MuntheKaasChain(const Problem& p, std::uint64_t* load_evaluations)
    : f_(&p, load_evaluations), n_(p.bodies.size()), R_(n_), W_(n_), Rs_(n_), Ws_(n_) {
  for (auto& v : du_) v.resize(n_);
  for (auto& v : dW_) v.resize(n_);
}

template <const auto& T>
void MuntheKaasChain<T>::reset(const State& x0) {
  for (std::size_t b = 0; b < n_; ++b) R_[b] = x0.bodies[b].R, W_[b] = x0.bodies[b].W;
  x0_ = x0.bodies[0].x;
  v0_ = x0.bodies[0].v;
}

template <const auto& T>
void MuntheKaasChain<T>::read(State& x) const {
  x.bodies.resize(n_);
  for (std::size_t b = 0; b < n_; ++b) x.bodies[b].R = R_[b], x.bodies[b].W = W_[b];
  if (f_.free) x.bodies[0].x = x0_, x.bodies[0].v = v0_;
  place_chain(*f_.d, x);
}

template <const auto& T>
void MuntheKaasChain<T>::step(double /*t*/, double h) {
  for (std::size_t b = 0; b < n_; ++b) du_[0][b] = W_[b];
  accelerations(0, R_, W_);
  dx_[0] = v0_;
  rkmk::unroll<1, T.stages>([&](auto i) {
    for (std::size_t b = 0; b < n_; ++b) {
      const rkmk::BodyColumn<T.stages> du{&du_, b}, dW{&dW_, b};
      const Vec3 u = rkmk::scaled_sum<i>(h, nullptr, du, rkmk::Row<T, i>{});
      Ws_[b] = rkmk::scaled_sum<i>(h, &W_[b], dW, rkmk::Row<T, i>{});
      du_[i][b] = so3::dexp_right_inverse(u) * Ws_[b];
      Rs_[b] = R_[b] * so3::exp(u);
    }
    dx_[i] = rkmk::scaled_sum<i>(h, &v0_, dv_, rkmk::Row<T, i>{});
    accelerations(i, Rs_, Ws_);
  });
  const double hd = h / T.denominator;
  for (std::size_t b = 0; b < n_; ++b) {
    const rkmk::BodyColumn<T.stages> du{&du_, b}, dW{&dW_, b};
    R_[b] = R_[b] * so3::exp(hd * rkmk::weighted_sum<T>(du));
    W_[b] += hd * rkmk::weighted_sum<T>(dW);
  }
  if (f_.free) {
    x0_ += hd * rkmk::weighted_sum<T>(dx_);
    v0_ += hd * rkmk::weighted_sum<T>(dv_);
  }
}

template <const auto& T>
void MuntheKaasChain<T>::accelerations(int i, const std::vector<Mat3>& R, const std::vector<Vec3>& W) {
  const Eigen::VectorXd& a = f_.solve(R, W);
  for (std::size_t b = 0; b < n_; ++b) dW_[i][b] = a.segment<3>(3 * b);
  dv_[i] = f_.free ? Vec3(a.tail<3>()) : Vec3::Zero();
}

template class MuntheKaasChain<kLieEulerTableau>;
template class MuntheKaasChain<kRkmk4Tableau>;

}  // namespace rigidbench
