// libFuzzer target: the readers of verify and bench reports (`compare`, `merge`, `gate --current`,
// `gate --against`; reports/verify_report.hpp, reports/bench_report.hpp, tracking/compare.hpp,
// tracking/gate.hpp) on arbitrary bytes. Each reader gets the same document; each may reject it
// (InputError) independently; what the report readers accept must be written and read back alike.
#include "fuzz.hpp"
#include "../core/json_input.hpp"
#include "../tracking/compare.hpp"
#include "../tracking/gate.hpp"

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
  // The report model: a document its reader accepts is written as a valid one, and that one reads
  // back to itself (the serialiser and the reader agree on every input the schema admits).
  // (A document written from a lenient read may hold a default the schema does not admit - an
  // earlier version's report lacking a field; merge refuses to write such a one: not a finding.)
  const auto reads_back = [](const auto& report, auto read) {
    const nlohmann::ordered_json once = report.to_json();
    try {
      if (read(once).to_json() != once)
        fuzz::finding("a report written from what was read does not read back to itself");
    } catch (const InputError&) {
    }
  };
  fuzz::reject_or_accept([&] {
    const VerifyReport r = VerifyReport::read(j, "fuzz input");
    reads_back(r, [](const nlohmann::ordered_json& x) { return VerifyReport::read(x, "again"); });
    (void)GateSnapshot::of_reports(r);
  });
  // As a bench report: beside the verify report it is compared with, and as gate --against reads it.
  fuzz::reject_or_accept([&] {
    const BenchReport b = BenchReport::read(j, "fuzz input");
    reads_back(b, [](const nlohmann::ordered_json& x) { return BenchReport::read(nlohmann::json::parse(x.dump()), "again"); });
    (void)GateSnapshot::of_benches({b});
  });
  return 0;
}
