#pragma once
// What a report writes of each result, declared once (core/fields.hpp; docs/architecture.md, "One
// result model"): the names and order of the fields of reports/schema/report-1.0.schema.json's
// sections, each bound to the member of the result type the verification layer computes. The
// writer and the reader (reports/field_json.hpp) follow from these lists; a field that is not one
// member says how it is written and read back beside it.
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "../core/fields.hpp"
#include "../verification/anatomy.hpp"
#include "../verification/long_time.hpp"
#include "../verification/runner.hpp"
#include "../verification/structure.hpp"
#include "../verification/tolerance_ladder.hpp"

namespace rigidbench {

constexpr std::array<Verdict, 3> enum_values(Verdict) { return {Verdict::pass, Verdict::fail, Verdict::undefined}; }
constexpr std::array<Claim, 3> enum_values(Claim) { return {Claim::none, Claim::bounded, Claim::exact}; }
constexpr std::array<Observed, 4> enum_values(Observed) {
  return {Observed::preserved, Observed::broken, Observed::undecided, Observed::not_checked};
}

/// The bounded rule's growth exponent of the running maximum deviation at the judged level.
struct BoundedGrowth {
  double exponent = kNaN, stderr_exponent = kNaN;
};

template <>
struct Fields<BoundedGrowth> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(exponent), field("stderr", RIGIDBENCH_AT(stderr_exponent)),
                      field("limit", RIGIDBENCH_WRITES(kBoundedGrowth))};
  }
};

template <>
struct Fields<InvariantResult> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(kind), RIGIDBENCH_FIELD(description), RIGIDBENCH_FIELD(claim), RIGIDBENCH_FIELD(initial),
        RIGIDBENCH_FIELD(scale), RIGIDBENCH_FIELD(roundoff_scale), RIGIDBENCH_FIELD(drift), RIGIDBENCH_FIELD(drift_by_level),
        RIGIDBENCH_FIELD(first_half), RIGIDBENCH_FIELD(second_half),
        computed("judged_level",
                 [](const InvariantResult& i) { return i.judged_level >= 0 ? std::optional(i.judged_level) : std::nullopt; },
                 [](InvariantResult& i, std::optional<int> k) { i.judged_level = k.value_or(-1); }),
        // The bounded rule's measure at the judged level (null for any other claim).
        computed("growth",
                 [](const InvariantResult& i) {
                   const auto k = std::size_t(i.judged_level);
                   return i.claim == Claim::bounded && i.judged_level >= 0 && k < i.growth_by_level.size()
                              ? std::optional(BoundedGrowth{i.growth_by_level[k].slope, i.growth_by_level[k].stderr_slope})
                              : std::nullopt;
                 },
                 [](InvariantResult& i, const std::optional<BoundedGrowth>& g) {
                   if (!g || i.judged_level < 0) return;
                   i.growth_by_level.resize(std::size_t(i.judged_level) + 1);
                   i.growth_by_level.back().slope = g->exponent;
                   i.growth_by_level.back().stderr_slope = g->stderr_exponent;
                 }),
        RIGIDBENCH_FIELD(threshold), RIGIDBENCH_FIELD(verdict), RIGIDBENCH_FIELD(note)};
  }
};

template <>
struct Fields<Convergence> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(error), field("slope", RIGIDBENCH_AT(fit.slope)),
                      field("stderr", RIGIDBENCH_AT(fit.stderr_slope)), field("r2", RIGIDBENCH_AT(fit.r2)),
                      RIGIDBENCH_FIELD(local_slopes), RIGIDBENCH_FIELD(expected),
                      field("expected_is_lower_bound", RIGIDBENCH_AT(at_least)), RIGIDBENCH_FIELD(verdict),
                      RIGIDBENCH_FIELD(asymptotic), RIGIDBENCH_FIELD(floor),
                      RIGIDBENCH_FIELD(rounding, Written::if_set), RIGIDBENCH_FIELD(gating), RIGIDBENCH_FIELD(note)};
  }
};

/// Q_II at one of the problem's sample times (QiiLevel::sample_t, sample_value).
struct QiiSample {
  double t = kNaN, value = kNaN;
};
template <>
struct Fields<QiiSample> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(t), RIGIDBENCH_FIELD(value)}; }
};

template <>
struct Fields<QiiLevel> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(h),
        computed(
            "samples",
            [](const QiiLevel& q) {
              std::vector<QiiSample> s;
              for (std::size_t i = 0; i < q.sample_t.size(); ++i) s.push_back({q.sample_t[i], q.sample_value[i]});
              return s;
            },
            [](QiiLevel& q, const std::vector<QiiSample>& s) {
              for (const QiiSample& x : s) q.sample_t.push_back(x.t), q.sample_value.push_back(x.value);
            }),
        RIGIDBENCH_FIELD(median),
        RIGIDBENCH_FIELD(min),
        RIGIDBENCH_FIELD(max),
        RIGIDBENCH_FIELD(defined_points),
        RIGIDBENCH_FIELD(undefined_points),
        RIGIDBENCH_FIELD(verdict),
        RIGIDBENCH_FIELD(note)};
  }
};

/// Q_II's section: the primary level's fields at the top (written by hand: PairReport), then these.
template <>
struct Fields<QiiResult> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(expected), RIGIDBENCH_FIELD(components),
                      RIGIDBENCH_FIELD(selection), RIGIDBENCH_FIELD(levels)};
  }
};

template <>
struct Fields<LevelBreakdown> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(t), RIGIDBENCH_FIELD(reason)}; }
};

template <>
struct Fields<LevelOutcome> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(steps, Written::if_set),
                      RIGIDBENCH_FIELD(status), RIGIDBENCH_FIELD(seconds, Written::if_set),
                                      RIGIDBENCH_FIELD(breakdown, Written::if_set)};
  }
};

template <>
struct Fields<ReferenceSummary> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(kind), RIGIDBENCH_FIELD(formulation), RIGIDBENCH_FIELD(stepper),
                      RIGIDBENCH_FIELD(tolerance),
                      // The largest of the estimate's components, then two of them; what is not written
                      // apart (a body system's position and velocity) is read back as the position's, so
                      // that the largest written again is the one read.
                      computed("error_estimate", [](const ReferenceSummary& r) { return r.error_estimate.max(); },
                               [](ReferenceSummary& r, double largest) { r.error_estimate.position = largest; }),
                      field("error_estimate_attitude", RIGIDBENCH_AT(error_estimate.attitude)),
                      field("error_estimate_omega", RIGIDBENCH_AT(error_estimate.omega)), RIGIDBENCH_FIELD(steps),
                      RIGIDBENCH_FIELD(precision), RIGIDBENCH_FIELD(notes), RIGIDBENCH_FIELD(seconds),
                      RIGIDBENCH_FIELD(from_cache)};
  }
};

template <>
struct Fields<ErrorAnatomy> {
  static constexpr auto list() {
    return std::tuple{
        field("axis", RIGIDBENCH_AT(axis.description)),
        computed("axis_frame", [](const ErrorAnatomy& a) { return std::string(a.axis.body ? "body" : "space"); },
                 [](ErrorAnatomy& a, const std::string& frame) { a.axis.body = frame != "space"; }),
        computed("axis_components",
                 [](const ErrorAnatomy& a) { return std::vector<double>{a.axis.axis[0], a.axis.axis[1], a.axis.axis[2]}; },
                 [](ErrorAnatomy& a, const std::vector<double>& v) {
                   for (Eigen::Index k = 0; k < 3; ++k) a.axis.axis[k] = std::size_t(k) < v.size() ? v[std::size_t(k)] : kNaN;
                 }),
        RIGIDBENCH_FIELD(t),
        RIGIDBENCH_FIELD(h),
        RIGIDBENCH_FIELD(total),
        RIGIDBENCH_FIELD(phase),
        RIGIDBENCH_FIELD(shape),
        field("note", RIGIDBENCH_WRITES(
                          "final attitude error per level: delta = log(R_ref^T R) for a body axis, "
                          "log(R R_ref^T) for a spatial one; phase = delta . axis (rad, signed), shape = "
                          "|delta - phase axis|, total = |delta| (docs/metrics.md, Error anatomy)"))};
  }
};

template <>
struct Fields<StructureCheck> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(claimed),
        RIGIDBENCH_FIELD(observed),
        // A verdict only where a claim was checked (null otherwise).
        computed("verdict",
                 [](const StructureCheck& c) {
                   return c.claimed && c.observed != Observed::not_checked ? std::optional(c.verdict) : std::nullopt;
                 },
                 [](StructureCheck& c, std::optional<Verdict> v) { c.verdict = v.value_or(Verdict::undefined); }),
        RIGIDBENCH_FIELD(h),
        RIGIDBENCH_FIELD(defect),
        RIGIDBENCH_FIELD(allowance),
        RIGIDBENCH_FIELD(slope),
        RIGIDBENCH_FIELD(note)};
  }
};

template <>
struct Fields<StructureResult> {
  static constexpr auto list() {
    // Each check under its property's name (StructureCheck::property, not written again inside it).
    return std::tuple{computed("symmetric", [](const StructureResult& st) { return st.symmetric; },
                               [](StructureResult& st, StructureCheck c) {
                                 st.symmetric = std::move(c);
                                 st.symmetric.property = "symmetric";
                               }),
                      computed("symplectic", [](const StructureResult& st) { return st.symplectic; },
                               [](StructureResult& st, StructureCheck c) {
                                 st.symplectic = std::move(c);
                                 st.symplectic.property = "symplectic";
                               }),
                      RIGIDBENCH_FIELD(order_parity)};
  }
};

template <>
struct Fields<DeclaredCost> {
  static constexpr auto list() {
    return std::tuple{field("by", RIGIDBENCH_WRITES("the program that wrote the trajectories (not measured by rigidbench)")),
                      RIGIDBENCH_FIELD(machine), RIGIDBENCH_FIELD(method),
                      field("ns_per_step_by_level", RIGIDBENCH_AT(ns_per_step))};
  }
};

template <>
struct Fields<CostResult> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(ns_per_step),
        field("instructions_per_step", RIGIDBENCH_WRITES(nullptr)),  // bench reports count them
        RIGIDBENCH_FIELD(ratio_to_baseline),
        RIGIDBENCH_FIELD(baseline),
        RIGIDBENCH_FIELD(ratio_to_rk4),
        RIGIDBENCH_FIELD(rk4_baseline),
        RIGIDBENCH_FIELD(load_evaluations_per_step),
        RIGIDBENCH_FIELD(newton_iterations_per_step),
        computed("source",
                 [](const CostResult& c) {
                   return c.source.empty() ? std::string("wall clock, min of repetitions of a fixed-work run (informational)")
                                           : c.source;
                 },
                 [](CostResult& c, const std::string& s) { c.source = s; }),
        RIGIDBENCH_FIELD(h),
        RIGIDBENCH_FIELD(steps),
        RIGIDBENCH_FIELD(repetitions),
        RIGIDBENCH_FIELD(call_overhead_ns, Written::if_set),
        RIGIDBENCH_FIELD(exchange_ns_per_step, Written::if_set),
        RIGIDBENCH_FIELD(declared, Written::if_set),
        RIGIDBENCH_FIELD(breakdown, Written::if_set),
        RIGIDBENCH_FIELD(not_comparable, Written::if_set)};
  }
};

/// Q_II(t) of the history's primary level.
struct HistoryQii {
  double h = kNaN;
  std::vector<double> t, value;
};
template <>
struct Fields<HistoryQii> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(t), RIGIDBENCH_FIELD(value)};
  }
};

template <>
struct Fields<History> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(level),
        RIGIDBENCH_FIELD(h),
        field("note", RIGIDBENCH_WRITES("finest level that ran, observation grid thinned to <= ~256 points; invariants "
                                        "as (I - I0)/S_I; Q_II at its primary level")),
        RIGIDBENCH_FIELD(t),
        RIGIDBENCH_FIELD(attitude_error),
        RIGIDBENCH_FIELD(invariants),
        computed("q_ii", [](const History& H) { return HistoryQii{H.q_ii_h, H.q_ii_t, H.q_ii}; },
                 [](History& H, const HistoryQii& q) {
                   H.q_ii_h = q.h;
                   H.q_ii_t = q.t;
                   H.q_ii = q.value;
                 })};
  }
};

template <>
struct Fields<LongTimeEnergy> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(status), RIGIDBENCH_FIELD(reason), RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(steps),
                      RIGIDBENCH_FIELD(steps_run), RIGIDBENCH_FIELD(scale), RIGIDBENCH_FIELD(t),
                      RIGIDBENCH_FIELD(max_deviation), field("exponent", RIGIDBENCH_AT(fit.slope)),
                      field("exponent_stderr", RIGIDBENCH_AT(fit.stderr_slope)), RIGIDBENCH_FIELD(behaviour),
                      RIGIDBENCH_FIELD(uncertain), RIGIDBENCH_FIELD(seconds)};
  }
};

template <>
struct Fields<MeasureResult> {
  static constexpr auto list() { return std::tuple{RIGIDBENCH_FIELD(value), RIGIDBENCH_FIELD(verdict), RIGIDBENCH_FIELD(note)}; }
};

template <>
struct Fields<EstimatorOrder> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(h), RIGIDBENCH_FIELD(estimate), field("slope", RIGIDBENCH_AT(fit.slope)),
                      field("stderr", RIGIDBENCH_AT(fit.stderr_slope)), RIGIDBENCH_FIELD(points),
                      RIGIDBENCH_FIELD(expected), field("tolerance", RIGIDBENCH_WRITES(kEstimatorTolerance)),
                      RIGIDBENCH_FIELD(verdict), RIGIDBENCH_FIELD(note)};
  }
};

/// A dense-output scheme's second run of a tolerance, observed on the dense grid.
struct DenseRun {
  std::map<std::string, double, std::less<>> errors;
  std::uint64_t accepted_steps = 0;
};
template <>
struct Fields<DenseRun> {
  static constexpr auto list() {
    return std::tuple{RIGIDBENCH_FIELD(errors), RIGIDBENCH_FIELD(accepted_steps)};
  }
};

/// One of the four error metrics the first adaptive reports wrote under their own keys, kept for
/// their readers (`errors` holds every error metric); read back where `errors` is absent.
template <const char* Metric>
constexpr auto legacy_error(const char* key) {
  return computed(
      key, [](const ToleranceLevel& l) { return l.error(Metric); },
      [](ToleranceLevel& l, double e) {
        if (std::isfinite(e) && !l.errors.contains(Metric)) l.errors[Metric] = e;
      });
}
inline constexpr char kAttitudeMax[] = "attitude_error_max", kOmegaMax[] = "omega_error_max",
                      kAttitudeFinal[] = "attitude_error_final", kOmegaFinal[] = "omega_error_final";

/// A translating problem's position error (ToleranceLevel::translating): written there only.
template <double ToleranceLevel::*Member>
constexpr auto position_field(const char* key) {
  return computed(
      key, [](const ToleranceLevel& l) { return l.translating ? std::optional(l.*Member) : std::nullopt; },
      [](ToleranceLevel& l, std::optional<double> e) {
        l.translating = true;
        l.*Member = e.value_or(kNaN);
      },
      Written::if_set);
}

template <>
struct Fields<ToleranceLevel> {
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(tol),
        computed("status", [](const ToleranceLevel& l) { return std::string(l.ok ? "ok" : "breakdown"); },
                 [](ToleranceLevel& l, const std::string& s) { l.ok = s == "ok"; }),
        RIGIDBENCH_FIELD(reason),
        legacy_error<kAttitudeMax>("attitude_error"),
        legacy_error<kOmegaMax>("omega_error"),
        legacy_error<kAttitudeFinal>("attitude_error_final"),
        legacy_error<kOmegaFinal>("omega_error_final"),
        RIGIDBENCH_FIELD(errors),
        RIGIDBENCH_FIELD(floor),
        RIGIDBENCH_FIELD(above_floor),
        RIGIDBENCH_FIELD(grid_bound),
        field("accepted_steps", RIGIDBENCH_AT(counters.accepted_steps)),
        field("rejected_steps", RIGIDBENCH_AT(counters.rejected_steps)),
        field("shortened_steps", RIGIDBENCH_AT(counters.shortened_steps)),
        field("rhs_evaluations", RIGIDBENCH_AT(counters.rhs_evaluations)),
        field("load_evaluations", RIGIDBENCH_AT(counters.load_evaluations)),
        RIGIDBENCH_FIELD(rejected_fraction),
        RIGIDBENCH_FIELD(seconds),
        RIGIDBENCH_FIELD(invariant_drift),
        RIGIDBENCH_FIELD(seconds_max, Written::if_set),
        computed("dense",
                 [](const ToleranceLevel& l) {
                   return l.dense_errors.empty() ? std::nullopt : std::optional(DenseRun{l.dense_errors, l.dense_accepted_steps});
                 },
                 [](ToleranceLevel& l, const std::optional<DenseRun>& d) {
                   if (d) l.dense_errors = d->errors, l.dense_accepted_steps = d->accepted_steps;
                 },
                 Written::if_set),
        position_field<&ToleranceLevel::position_error>("position_error"),
        position_field<&ToleranceLevel::position_error_final>("position_error_final")};
  }
};

template <>
struct Fields<ToleranceStudy> {
  /// A body system's levels carry their position errors (ToleranceLevel::translating).
  static void after_read(ToleranceStudy& T) {
    for (const ToleranceLevel& l : T.levels) T.translating = T.translating || l.translating;
  }
  static constexpr auto list() {
    return std::tuple{
        RIGIDBENCH_FIELD(tol0),
        RIGIDBENCH_FIELD(span),
        RIGIDBENCH_FIELD(output_intervals),
        RIGIDBENCH_FIELD(dense_intervals),
        field("timing_repetitions", RIGIDBENCH_AT(repetitions)),
        RIGIDBENCH_FIELD(levels),
        group("proportionality", field("slope", RIGIDBENCH_AT(proportionality.slope)),
              field("stderr", RIGIDBENCH_AT(proportionality.stderr_slope)), field("expected", RIGIDBENCH_AT(expected_slope)),
              field("tolerance", RIGIDBENCH_WRITES(kProportionalityTolerance)),
              field("verdict", RIGIDBENCH_AT(proportionality_verdict)), field("note", RIGIDBENCH_AT(proportionality_note))),
        field("omega_slope", RIGIDBENCH_AT(omega_proportionality.slope)),
        field("omega_slope_stderr", RIGIDBENCH_AT(omega_proportionality.stderr_slope)),
        group("error_over_tolerance", field("min", RIGIDBENCH_AT(ratio_min)), field("max", RIGIDBENCH_AT(ratio_max))),
        RIGIDBENCH_FIELD(effective_order),
        group("rejected_fraction", field("max", RIGIDBENCH_AT(rejected_fraction)),
              field("allowed", RIGIDBENCH_WRITES(kMaxRejectedFraction)),
              field("verdict", RIGIDBENCH_AT(rejection_verdict)), field("note", RIGIDBENCH_AT(rejection_note))),
        RIGIDBENCH_FIELD(estimator, Written::if_set)};
  }
};

}  // namespace rigidbench
