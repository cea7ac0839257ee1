#pragma once
// The conformance card of a scheme (docs/card.md): the questions users ask of every engine and
// integrator - is the gyroscopic term there, does a spinning body gain energy or drift toward the
// intermediate axis, does the Dzhanibekov flip happen on time, which step is safe, is the run
// deterministic, what does a step cost - each answered by a measurement on the torque-free problems
// with its verdict rule (docs/card.md defines each field and its rule). The orders, Q_II, the
// documented claims and the cost come from a verification of the pairs (run_suite), the rest from
// the probes below, every invariant computed by the problem from the canonical state.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../integrators/registry.hpp"
#include "../problems/problem.hpp"
#include "expectations.hpp"
#include "long_time.hpp"
#include "metrics.hpp"

namespace rigidbench {

// ---- the gyroscopic term (docs/card.md, "Gyroscopic term") ----

/// A scheme without the term omega x J omega integrates J W' = 0 on a torque-free body: W (and the
/// spatial omega = R W) stays at its initial value. The probe runs the scheme at decreasing steps and
/// measures the final W against the exact flow's and against that constant.
struct GyroscopicProbe {
  std::vector<double> h;
  std::vector<double> error_exact;     // |W_h(T) - W(T)| / |W0|, W the exact torque-free flow
  std::vector<double> error_constant;  // |W_h(T) - W0| / |W0|: the flow without the term
  double separation = kNaN;            // |W(T) - W0| / |W0|: how far apart the two flows end
  double slope_exact = kNaN, slope_constant = kNaN;  // fitted on log-log axes
  std::string verdict = "undefined";   // present | absent | wrong | undefined
  std::string evidence;
  double eps = kEps;                   // the scheme's unit of rounding (unit_roundoff): not written
};
/// Verdict rule: present when the error against the exact flow falls with h (slope >= 1/2) and ends
/// below a tenth of the separation; absent when the error against the constant flow does (or is at
/// round-off) and the exact error stays near the separation; wrong otherwise (a term of the wrong sign
/// or size converges to neither). A breakdown at any step: undefined, with the reason. Round-off is
/// ~4 500 ulps of the scheme's arithmetic (`eps`): 1e-12 in double, 5.4e-4 in float32.
std::string gyroscopic_verdict(GyroscopicProbe& g);
GyroscopicProbe probe_gyroscopic(const Problem& p, const SchemeEntry& s, double t_span, double h0, int levels);

// ---- invariants against h|omega| (docs/card.md, "Energy and momentum") ----

/// The distance of a free body's motion from the separatrix through the intermediate axis, from E and
/// |L| alone: sigma = (L^2 / (2E) - J2) / (J3 - J2) while it circulates about the major axis,
/// (J2 - L^2 / (2E)) / (J2 - J1) about the minor one; 1 a pure spin about the axis, 0 the separatrix.
/// Principal moments from the body's inertia. NaN for a spherical or symmetric body (no intermediate axis).
double separatrix_distance(const Problem& p, const State& x);

struct SweepPoint {
  double h_omega = kNaN, h = kNaN;
  std::int64_t steps = 0;
  std::string status = "ok";  // ok | breakdown
  std::string reason;
  /// The energy, |L| (the body's momentum norm) and the spatial momentum, each (I - I0)/S_I.
  std::vector<InvariantGrowth> invariants;
  std::string energy = "undefined";  // exact | bounded | random_walk | gaining | losing | undefined
  double energy_amplitude = kNaN;    // max |E - E0| / S_E over the run
  double energy_rate = kNaN;         // per unit time, signed (gaining > 0)
  double sigma_start = kNaN, sigma_end = kNaN;  // separatrix_distance at the first and last state
  bool toward_intermediate = false;  // sigma fell by more than a tenth of its start and 1e-6
};
struct EnergySweep {
  std::string problem;
  double omega = kNaN;  // |omega_0|
  double t_span = kNaN;
  std::vector<SweepPoint> points;
  /// The worst behaviour over the sweep, louder first: gaining > losing > random_walk > bounded > exact.
  std::string summary = "undefined";
  double summary_h_omega = kNaN, summary_amplitude = kNaN;  // the point that set the summary
  double toward_from_h_omega = kNaN;  // the smallest h|omega| flagged toward the intermediate axis (NaN: none)
  double breakdown_from_h_omega = kNaN;  // the smallest h|omega| whose run broke down (NaN: none)
};
EnergySweep sweep_energy(const Problem& p, const SchemeEntry& s, const std::vector<double>& h_omega, double t_span);

// ---- the Dzhanibekov flip (docs/card.md, "Dzhanibekov flip") ----

// The exact interval between flips is the closed form's (torque_free_flip_interval,
// reference/analytic.hpp).
struct FlipPoint {
  double h_omega = kNaN, h = kNaN;
  std::string status = "ok";
  std::string reason;
  int flips_expected = 0, flips_seen = 0;
  double interval = kNaN;        // mean time between the flips seen
  double interval_error = kNaN;  // (interval - exact) / exact
};
struct FlipStudy {
  std::string problem;
  double exact_interval = kNaN, t_span = kNaN;
  std::vector<FlipPoint> points;
};
FlipStudy study_flips(const Problem& p, const SchemeEntry& s, const std::vector<double>& h_omega, int intervals);

// ---- the largest safe step (docs/card.md, "Largest safe step") ----

struct SafeStepLimits {
  double attitude = 1e-3;  // rad, max over the observation times
  double energy = 1e-3;    // relative, max over every step
  int observations = 20;   // the span split into this many intervals; N is a multiple of it
};
struct SafeStep {
  std::string problem;
  double omega = kNaN, t_span = kNaN;
  double safe_h_omega = kNaN;    // the largest h|omega_0| found safe (NaN: none at the smallest tried)
  double unsafe_h_omega = kNaN;  // the smallest found unsafe above it (NaN: none up to the largest)
  std::string limited_by;        // attitude | energy | breakdown (what failed at unsafe_h_omega)
  int runs = 0;
};
/// What a step of N = n * observations steps over [t0, t0 + t_span] gives: nullopt when it is safe,
/// else what failed. Exposed for the test of the search on a closed form.
using SafeStepTrial = std::function<std::optional<std::string>(std::int64_t n)>;
/// Halves n (doubling the step) from n0 while safe, then bisects between the last safe and the first
/// unsafe n until they are adjacent or within 3 %.
SafeStep search_safe_step(const SafeStepTrial& trial, std::int64_t n0, int observations, double omega, double t_span);
SafeStep find_safe_step(const Problem& p, const SchemeEntry& s, const SafeStepLimits& limits, double min_h_omega);

// ---- determinism (docs/card.md, "Determinism") ----

/// FNV-1a over the bits of every state of a fixed run (problem p, step h, `steps` steps, every step
/// observed): equal fingerprints mean bit-identical runs. Empty after a breakdown.
std::string run_fingerprint(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps);
struct Determinism {
  std::string same_process = "not_measured";   // identical | differs | not_measured
  std::string across_threads = "not_measured";  // the run repeated on two threads at once
  std::string across_processes = "not_measured";  // a second process of the same program (the command's)
  std::string across_ranks = "not_measured";  // every MPI rank of `mpirun rigidbench card` (the command's)
  std::string fingerprint;
  std::string note;
};
/// In this process: twice in a row, then twice concurrently on two threads.
Determinism check_determinism(const Problem& p, const SchemeEntry& s, double h, std::int64_t steps);

// ---- the card ----

/// An order fit of the verification (metric attitude_error_max or omega_error_max on one problem).
struct CardOrder {
  std::string problem, metric;
  double expected = kNaN, slope = kNaN, stderr_slope = kNaN;
  Verdict verdict = Verdict::undefined;
  double h_min = kNaN, h_max = kNaN;  // the asymptotic range the slope was fitted on
};
struct CardQii {
  std::string problem;
  double expected = kNaN, median = kNaN, h = kNaN;
  Verdict verdict = Verdict::undefined;
};
/// One gating check of the verification (a documented claim of the scheme, or what it is held to).
struct CardClaim {
  std::string problem, check;
  Verdict verdict = Verdict::undefined;
  std::string evidence;
  /// A failed check that is one of the project's known findings: their reason (docs/findings.md,
  /// the expected-findings file given to the card); empty otherwise.
  std::string known;
};
struct CardCost {
  std::string runtime;        // native | python | program | trajectories
  double ns_per_step = kNaN;  // on free_body at the ladder's finest step
  double ratio_to_rk4 = kNaN;
  /// ns of computing per unit of simulated time at a maximum attitude error of 1e-6 rad on free_body:
  /// ns_per_step / h at the h where the fitted error line crosses 1e-6 (interpolated inside the
  /// ladder, extrapolated with the fitted slope outside it: `note` says which).
  double ns_per_time_at_1e6 = kNaN;
  std::string note;
};
struct ConformanceCard {
  std::string scheme, title, source, kind;
  int order = 0;
  /// The settings the scheme ran with where they differ from its defaults (--set), by name.
  std::map<std::string, double> settings;
  /// ok | not_applicable (the probes did not run; the verification's parts may still be there) |
  /// breakdown (every run of the gyroscopic probe and of the sweep broke down: `reason` is the first).
  std::string status = "ok";
  std::string reason;
  GyroscopicProbe gyroscopic;
  std::vector<CardOrder> orders;
  std::vector<CardQii> q_ii;
  EnergySweep energy;
  FlipStudy flip;
  SafeStep safe_step;
  Determinism determinism;
  CardCost cost;
  std::vector<CardClaim> claims;
  /// What the scheme keeps beyond what it claims (an invariant claimed bounded that the sweep finds
  /// exact at every step size): the claim could be tighter.
  std::vector<std::string> beyond_claims;
  double seconds = 0;
};
struct CardRequest {
  /// h|omega_0| of the sweeps (energy and flips): half-decades from 1e-3 to 1.
  std::vector<double> h_omega = {1e-3, 3.16e-3, 1e-2, 3.16e-2, 1e-1, 3.16e-1, 1.0};
  double sweep_span = 100;   // of the energy sweep on free_body
  int flip_intervals = 4;    // exact flip intervals of the flip study on dzhanibekov
  /// The safe-step search starts here and doubles: small enough that a first-order scheme's safe step
  /// is found on free_body (Lie-Euler's is near 6e-4), not only bounded above.
  double safe_min_h_omega = 1e-4;
  int jobs = 0;              // of the verification (run_suite)
  bool measure_cost = true;
  std::int64_t determinism_steps = 2000;
  /// Known findings (an expected-findings file): a failed check listed there carries its reason.
  const Expectations* known = nullptr;
  /// false: the probes alone, without the verification's orders, Q_II, claims and cost (a quick card
  /// of a slow scheme: a Python class steps in microseconds, and its ladders take most of a minute).
  bool verification = true;
};
/// Throws InputError for a request that cannot be carded: an empty sweep, a step h|omega| not in (0, 2],
/// a span not in (0, 1e4] s, fewer than 2 or more than 100 flip intervals, a safe-step start not in
/// (0, 1]; sorts the sweep's steps and drops repeats.
void check_card_request(CardRequest& req);
/// The steps of a probe's run over `span` at h|omega0| = h_omega, N = round(span |omega0| / h_omega);
/// InputError when N is below `at_least` (the step would not be the h|omega| asked for to a few per
/// cent, or too few steps to see a trend) or above kMaxProbeSteps (a run of hours).
inline constexpr std::int64_t kMaxProbeSteps = 20'000'000;
std::int64_t probe_steps(double span, double omega, double h_omega, std::int64_t at_least, const char* probe);
/// The whole card of one scheme: the verification of free_body and dzhanibekov, then the probes.
ConformanceCard make_card(const SchemeEntry& s, CardRequest req);

}  // namespace rigidbench
