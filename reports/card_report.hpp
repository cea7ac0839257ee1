#pragma once
// The conformance cards as a document (reports/schema/card-1.0.schema.json, docs/card.md): one card
// per scheme or engine variant (verification/card.hpp) with the build and machine that measured
// them. One serialiser and one reader, both from the declarations below; the Markdown and the HTML
// page are rendered from the JSON alone (reports/render/render_cards.py).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "../core/fields.hpp"
#include "../verification/card.hpp"
#include "provenance.hpp"
#include "result_fields.hpp"

namespace rigidbench {

struct CardReport {
  ToolInfo tool;
  MachineInfo machine;
  std::string started;
  double duration_s = 0;
  std::vector<std::string> command;
  std::vector<ConformanceCard> cards;

  static CardReport of(std::vector<ConformanceCard> cards, const std::vector<std::string>& command, const std::string& started);
  /// Validated against the card schema first (InputError naming `origin`).
  static CardReport read(const nlohmann::json& j, const std::string& origin);
  nlohmann::ordered_json to_json() const;
  static nlohmann::ordered_json declared_shape();
};

// ---- what a card writes (core/fields.hpp) ----

template <>
struct Fields<GyroscopicProbe> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(verdict), RIGIDBENCH_FIELD(evidence), RIGIDBENCH_FIELD(separation),
                      RIGIDBENCH_FIELD(slope_exact), RIGIDBENCH_FIELD(slope_constant), RIGIDBENCH_FIELD(h),
                      RIGIDBENCH_FIELD(error_exact), RIGIDBENCH_FIELD(error_constant)};
  }
};
template <>
struct Fields<InvariantGrowth> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(name), RIGIDBENCH_FIELD(scale), RIGIDBENCH_FIELD(behaviour), RIGIDBENCH_FIELD(uncertain),
                      field("exponent", RIGIDBENCH_AT(fit.slope)), field("exponent_stderr", RIGIDBENCH_AT(fit.stderr_slope)),
                      RIGIDBENCH_FIELD(drift_rate), RIGIDBENCH_FIELD(final_mean), RIGIDBENCH_FIELD(t), RIGIDBENCH_FIELD(max_deviation)};
  }
};
template <>
struct Fields<SweepPoint> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h_omega), RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(steps), RIGIDBENCH_FIELD(status),
                      RIGIDBENCH_FIELD(reason), RIGIDBENCH_FIELD(energy), RIGIDBENCH_FIELD(energy_amplitude),
                      RIGIDBENCH_FIELD(energy_rate), RIGIDBENCH_FIELD(sigma_start), RIGIDBENCH_FIELD(sigma_end),
                      RIGIDBENCH_FIELD(toward_intermediate), RIGIDBENCH_FIELD(invariants)};
  }
};
template <>
struct Fields<EnergySweep> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(omega), RIGIDBENCH_FIELD(t_span), RIGIDBENCH_FIELD(summary),
                      RIGIDBENCH_FIELD(summary_h_omega), RIGIDBENCH_FIELD(summary_amplitude), RIGIDBENCH_FIELD(toward_from_h_omega),
                      RIGIDBENCH_FIELD(breakdown_from_h_omega), RIGIDBENCH_FIELD(points)};
  }
};
template <>
struct Fields<FlipPoint> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h_omega), RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(status), RIGIDBENCH_FIELD(reason),
                      RIGIDBENCH_FIELD(flips_expected), RIGIDBENCH_FIELD(flips_seen), RIGIDBENCH_FIELD(interval),
                      RIGIDBENCH_FIELD(interval_error)};
  }
};
template <>
struct Fields<FlipStudy> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(exact_interval), RIGIDBENCH_FIELD(t_span), RIGIDBENCH_FIELD(points)};
  }
};
template <>
struct Fields<SafeStep> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(omega), RIGIDBENCH_FIELD(t_span), RIGIDBENCH_FIELD(safe_h_omega),
                      RIGIDBENCH_FIELD(unsafe_h_omega), RIGIDBENCH_FIELD(limited_by), RIGIDBENCH_FIELD(runs)};
  }
};
template <>
struct Fields<Determinism> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(same_process), RIGIDBENCH_FIELD(across_threads), RIGIDBENCH_FIELD(across_processes),
                      RIGIDBENCH_FIELD(across_ranks), RIGIDBENCH_FIELD(fingerprint), RIGIDBENCH_FIELD(note)};
  }
};
template <>
struct Fields<CardOrder> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(metric), RIGIDBENCH_FIELD(expected), RIGIDBENCH_FIELD(slope),
                      field("stderr", RIGIDBENCH_AT(stderr_slope)), RIGIDBENCH_FIELD(verdict), RIGIDBENCH_FIELD(h_min),
                      RIGIDBENCH_FIELD(h_max)};
  }
};
template <>
struct Fields<CardQii> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(expected), RIGIDBENCH_FIELD(median), RIGIDBENCH_FIELD(h),
                      RIGIDBENCH_FIELD(verdict)};
  }
};
template <>
struct Fields<CardClaim> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(problem), RIGIDBENCH_FIELD(check), RIGIDBENCH_FIELD(verdict), RIGIDBENCH_FIELD(evidence),
                      RIGIDBENCH_FIELD(known)};
  }
};
template <>
struct Fields<CardCost> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(runtime), RIGIDBENCH_FIELD(ns_per_step), RIGIDBENCH_FIELD(ratio_to_rk4),
                      RIGIDBENCH_FIELD(ns_per_time_at_1e6), RIGIDBENCH_FIELD(note)};
  }
};
template <>
struct Fields<ConformanceCard> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(scheme), RIGIDBENCH_FIELD(title), RIGIDBENCH_FIELD(source), RIGIDBENCH_FIELD(kind),
                      RIGIDBENCH_FIELD(order), RIGIDBENCH_FIELD(settings), RIGIDBENCH_FIELD(status), RIGIDBENCH_FIELD(reason), RIGIDBENCH_FIELD(gyroscopic),
                      RIGIDBENCH_FIELD(orders), RIGIDBENCH_FIELD(q_ii), RIGIDBENCH_FIELD(energy), RIGIDBENCH_FIELD(flip),
                      RIGIDBENCH_FIELD(safe_step), RIGIDBENCH_FIELD(determinism), RIGIDBENCH_FIELD(cost),
                      RIGIDBENCH_FIELD(claims), RIGIDBENCH_FIELD(beyond_claims), RIGIDBENCH_FIELD(seconds)};
  }
};

}  // namespace rigidbench
