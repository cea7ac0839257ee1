#pragma once
#include "any_integrator.hpp"
#include "munthe_kaas.hpp"

namespace rigidbench {

/// Runge-Kutta-Munthe-Kaas of order 4 on SO(3) x R^3 (Munthe-Kaas, BIT 38, 1998; Iserles et al.,
/// Acta Numerica 2000, sec. 4): R(t) = R_n exp(u(t)) with u' = dexp_r(u)^{-1} W, and classical RK4
/// on (u, W) from u = 0 (munthe_kaas.hpp). The exact dexp inverse is used (its truncation at second
/// commutators would already keep order 4).
inline constexpr rkmk::Tableau<4> kRkmk4Tableau{.c = {0, 0.5, 0.5, 1},
                                              .a = {{{}, {0.5}, {0, 0.5}, {0, 0, 1}}},
                                              .weight = {1, 2, 2, 1},
                                              .denominator = 6};

class Rkmk4 final : public MuntheKaas<kRkmk4Tableau> {
 public:
  static const SchemeInfo& info();
  explicit Rkmk4(const Problem& p) : MuntheKaas(p) {}
};

// Its chain path is compiled once, in munthe_kaas_chain.cpp, apart from the one-body step.
extern template class MuntheKaasChain<kRkmk4Tableau>;

// The type-erased wrapper that verify, simulate and bench step is instantiated once, in rkmk4.cpp
// (integrators/builtin.hpp says why).
extern template class Erased<Rkmk4>;

}  // namespace rigidbench
