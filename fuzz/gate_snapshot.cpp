// libFuzzer target: the gate's snapshot reader (tracking/snapshot.hpp, docs/gate.md) on arbitrary bytes,
// the way `gate --current FILE` reads them: a snapshot, or a verify report turned into one; then
// compared (with itself: the reader runs for both the baseline and the current side) and written
// out as the table and the JUnit XML.
#include "fuzz.hpp"
#include "../core/json_input.hpp"
#include "../tracking/gate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  fuzz::reject_or_accept([&] {
    nlohmann::json current = parse_json_input(fuzz::text(data, size), "fuzz input");
    if (!current.is_object() || current.value("kind", "") != "rigidbench-gate-snapshot")
      current = GateSnapshot::of_reports(VerifyReport::read(current, "fuzz input")).to_json();
    const GateResult g = gate_compare(current, current);
    (void)gate_table(g);
    (void)gate_junit(g, "2026-01-01T00:00:00", "fuzz");
  });
  return 0;
}
