// libFuzzer target: the problem-file reader (problems/problem_file.hpp, docs/problem-files.md) on
// arbitrary bytes, through the same bounded JSON door as `--problem-file` (core/json_input.hpp).
// Besides "InputError or a valid problem", it checks the format's promise that a problem written by
// problem_to_json reads back equal, and evaluates the family's energy and invariants at the initial
// state (numerics on hostile parameters: UBSan reports what a NaN or an overflow would hide).
#include <vector>

#include "fuzz.hpp"
#include "../core/json_input.hpp"
#include "../problems/problem_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  fuzz::reject_or_accept([&] {
    const Problem p = problem_from_json(parse_json_input(fuzz::text(data, size), "fuzz input"), "fuzz input");
    const nlohmann::json written = nlohmann::json::parse(problem_to_json(p).dump());
    try {
      if (!(problem_from_json(written, "round trip") == p))
        fuzz::finding("a problem read back from problem_to_json differs from the problem written");
    } catch (const InputError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      fuzz::finding("a problem written by problem_to_json does not read back");
    }
    std::vector<double> inv(p.invariants().size());
    p.evaluate_invariants(p.initial, inv.data());
    (void)p.energy(p.initial);
  });
  return 0;
}
