#include "card_report.hpp"

#include "../core/json_schema.hpp"
#include "field_json.hpp"
#include "report.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

template <>
struct Fields<CardReport> {
  static constexpr auto list() {
    return std::tuple{field("schema_version", RIGIDBENCH_WRITES(kSchemaVersion)), field("kind", RIGIDBENCH_WRITES("card")),
                      RIGIDBENCH_FIELD(tool), RIGIDBENCH_FIELD(machine), RIGIDBENCH_FIELD(started), RIGIDBENCH_FIELD(duration_s),
                      RIGIDBENCH_FIELD(command), RIGIDBENCH_FIELD(cards)};
  }
};

CardReport CardReport::of(std::vector<ConformanceCard> cards, const std::vector<std::string>& command, const std::string& started) {
  CardReport r;
  r.tool = ToolInfo::current();
  r.machine = MachineInfo::current();
  r.started = started;
  for (const ConformanceCard& c : cards) r.duration_s += c.seconds;
  r.command = command;
  r.cards = std::move(cards);
  return r;
}

CardReport CardReport::read(const json& j, const std::string& origin) {
  validate_document(j, DocumentSchema::card, origin);
  return field_json::read_as<CardReport>(j);
}

ordered_json CardReport::to_json() const { return field_json::write(*this); }
ordered_json CardReport::declared_shape() { return field_json::declared_shape<CardReport>(); }

}  // namespace rigidbench
