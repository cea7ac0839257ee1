#pragma once
// Built-in problems of docs/problems.md. Each is also expressible as a problem file (problem_file.hpp).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "problem.hpp"

namespace rigidbench {

/// Built-in problems first, then the ones the program registered (register_problem), in order.
std::vector<std::string> catalogue_names();
/// The problems of the `quick` suite: the catalogue without the body systems -- the 80-particle
/// torus (P5), whose high-accuracy reference alone takes over a minute on 2 cores (quick <= 60 s),
/// and the granular gas (P7). They are verified by `verify --problem torus_free torus_impact
/// particle_gas`; the paper suite reproduces the torus.
std::vector<std::string> quick_problem_names();
/// The finalized catalogue entry; throws InputError for an unknown name (listing the known ones).
/// A scalable problem also answers to NAME_N, its size-N variant: `particle_gas_640` is the gas of
/// 640 spheres (the scaling study, `bench --sizes`).
Problem catalogue_problem(const std::string& name);
/// Whether catalogue_problem(name) makes a problem (without making it): a built-in or registered
/// name, or NAME_N of a scalable problem at a size it takes.
bool catalogue_has(const std::string& name);
/// NAME_N of a scalable catalogue problem (N written without leading zeros): N, with base = NAME;
/// empty for any other name.
std::optional<std::size_t> sized_problem(const std::string& name, std::string& base);
/// The catalogue problems that have a size (NAME_N): particle_gas.
std::vector<std::string> scalable_problem_names();
/// P7 (docs/problems.md): the granular gas of n spheres in a box; named particle_gas at the
/// catalogue's size, particle_gas_N otherwise. Throws InputError outside 2 <= n <= 1000000.
inline constexpr std::size_t kParticleGasDefault = 2000;
Problem particle_gas(std::size_t n);
/// False for a problem registered by the program (or an unknown name).
bool builtin_problem(const std::string& name);
/// Adds a catalogue problem: `make` builds it (unfinalized, named `name`) whenever it is asked
/// for, and every command finds it by name (`verify --problem NAME`, `problem export NAME`...).
/// `quick`: part of the quick suite, the default of `verify`, `compare` and the gate. Throws
/// InputError for a name that is taken or not [a-z0-9_]{1,64}, or a problem that is named otherwise or
/// fails validation (it is made once here). Register before running a command.
void register_problem(const std::string& name, std::function<Problem()> make, bool quick = true);

}  // namespace rigidbench
