#pragma once
// "Did you mean ...?" for a mistyped name: a scheme, a problem, a command or an option.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rigidbench {

/// Edits (insertions, deletions, substitutions, swaps of two neighbours) between a and b: the
/// optimal string alignment distance, which counts the commonest typo, two letters swapped, as one.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `given` when it is near enough to be a typo of it: at most two edits, or
/// a third of the name's length for longer names ("trez" is two from "terze", "integrtor" one from
/// "integrator"). Ties go to the earlier candidate. Empty when none is that near or when `given` is
/// itself a candidate.
std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& candidates);

/// " - did you mean 'x'?" for nearest_name, or "" (for the end of an error message).
std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates);

}  // namespace rigidbench
