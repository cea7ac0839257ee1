// libFuzzer target: the readers of verify and bench reports (`compare`, `merge`, `gate --current`,
// `gate --against`; tracking/compare.hpp, tracking/gate.hpp) on arbitrary bytes. Each reader gets the
// same document; each may reject it (InputError) independently.
#include "fuzz.hpp"
#include "rigidbench/core/json_input.hpp"
#include "rigidbench/tracking/compare.hpp"
#include "rigidbench/tracking/gate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  nlohmann::json j;
  try {
    j = parse_json_input(fuzz::text(data, size), "fuzz input");
  } catch (const InputError&) {
    return 0;
  }
  fuzz::reject_or_accept([&] { (void)compare_markdown(compare_reports(j, nullptr, CompareOptions{})); });
  fuzz::reject_or_accept([&] { (void)merge_verify_reports({j}, {"fuzz input"}); });
  fuzz::reject_or_accept([&] { (void)GateSnapshot::of_reports(VerifyReport::read(j, "fuzz input")); });
  // As a bench report: beside the verify report it is compared with, and as gate --against reads it.
  fuzz::reject_or_accept([&] { (void)GateSnapshot::of_benches({BenchReport::read(j, "fuzz input")}); });
  return 0;
}
