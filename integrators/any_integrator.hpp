#pragma once
// Type erasure of the contract for the command line and the verification suites. It wraps (does
// not copy or re-implement) the concrete scheme, so the update that is verified is the update
// that is benchmarked.
#include <cstdint>
#include <memory>
#include <optional>

#include "integrator.hpp"

namespace rigidbench {

class AnyIntegrator {
 public:
  virtual ~AnyIntegrator() = default;
  virtual const SchemeInfo& info() const = 0;
  virtual void reset(const State& x0, double t0) = 0;
  virtual StepStatus step(double t, double h) = 0;
  virtual void read(State& x) const = 0;
  virtual Counters counters() const = 0;
  /// The Newton system of the step from the current state, for schemes that have one (HasNewtonSystem).
  virtual std::optional<NewtonSystem> newton_system(double t, double h) = 0;
  /// How often, in steps of h, the runner reads the state for the invariants, given the observation
  /// stride (docs/metrics.md, Invariants): a divisor of `stride`. A compiled scheme is read on the
  /// observation grid alone (reading out and evaluating at every step would cost as much as a cheap
  /// step); a recorded trajectory that holds every step returns 1, so that every row it holds enters
  /// the drifts (verification/scoring.hpp).
  virtual std::int64_t read_every(double h, std::int64_t stride) const {
    (void)h;
    return stride;
  }
  /// The error estimate of one uncontrolled step, for adaptive schemes that expose it (HasErrorEstimate).
  virtual std::optional<double> error_estimate(double t, double h) {
    (void)t, (void)h;
    return std::nullopt;
  }
};

template <Integrator S>
class Erased final : public AnyIntegrator {
 public:
  Erased(const Problem& p, const SchemeSettings& set) : s_(construct(p, set)) {}
  const SchemeInfo& info() const override { return S::info(); }
  void reset(const State& x0, double t0) override { s_.reset(x0, t0); }
  StepStatus step(double t, double h) override { return s_.step(t, h); }
  void read(State& x) const override { s_.read(x); }
  Counters counters() const override { return s_.counters(); }
  std::optional<NewtonSystem> newton_system([[maybe_unused]] double t, [[maybe_unused]] double h) override {
    if constexpr (HasNewtonSystem<S>) return s_.newton_system(t, h);
    else return std::nullopt;
  }
  std::optional<double> error_estimate([[maybe_unused]] double t, [[maybe_unused]] double h) override {
    if constexpr (HasErrorEstimate<S>) return s_.error_estimate(t, h);
    else return std::nullopt;
  }

 private:
  static S construct(const Problem& p, const SchemeSettings& set) {
    if constexpr (std::constructible_from<S, const Problem&, const SchemeSettings&>)
      return S(p, set);
    else
      return S(p);  // a scheme without settings (configure_schemes has refused any given to it)
  }
  S s_;
};

}  // namespace rigidbench
