#pragma once
#include "any_integrator.hpp"
#include "munthe_kaas.hpp"

namespace rigidbench {

/// Explicit Lie-Euler: R_{n+1} = R_n exp(h W_n), W_{n+1} = W_n + h J^{-1}(Pi_n x W_n + T_n),
/// Pi_n = J W_n + h_B (the body's internal momentum, zero but for the gyrostat), T_n = R_n^T t(t_n, R_n).
/// The first-order baseline (Iserles et al., Acta Numerica 2000, sec. 3): the RKMK method of the
/// explicit Euler tableau (munthe_kaas.hpp).
inline constexpr rkmk::Tableau<1> kLieEulerTableau{.c = {0}, .a = {{{0}}}, .weight = {1}, .denominator = 1};

class LieEuler final : public MuntheKaas<kLieEulerTableau> {
 public:
  static const SchemeInfo& info();
  explicit LieEuler(const Problem& p) : MuntheKaas(p) {}
};

// Its chain path is compiled once, in munthe_kaas_chain.cpp, apart from the one-body step.
extern template class MuntheKaasChain<kLieEulerTableau>;

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in lie_euler.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<LieEuler>;

}  // namespace rigidbench
