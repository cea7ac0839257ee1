#pragma once
// Who wrote a report and where (every report's `tool` and `machine`, reports/schema/): typed, with
// one reader and one serialiser each, for the documents that are read back (bench reports, docs/reports.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace rigidbench {

/// The build: name, version, git revision, compiler, flags and build type.
struct ToolInfo {
  std::string name, version, git_revision, compiler, flags, build_type;
  static ToolInfo current();  ///< this build's (tool_info(), reports/report.hpp)
  /// From a report's `tool` (a field that is not a string is kept as its JSON text, one that is absent as "").
  static ToolInfo read(const nlohmann::json& tool);
  nlohmann::ordered_json to_json() const;
  bool operator==(const ToolInfo&) const = default;
};

/// The machine, as found on it; what could not be found is absent (os and arch without uname) or
/// "unknown" (a /proc line).
struct MachineInfo {
  std::string hostname = "unknown";
  std::optional<std::string> os, arch;
  std::string cpu = "unknown";
  std::int64_t hardware_threads = 0;
  std::string memory = "unknown";
  static MachineInfo current();  ///< this machine's (machine_info(), reports/report.hpp)
  /// From a report's `machine` (an object; a field it lacks keeps its default).
  static MachineInfo read(const nlohmann::json& machine);
  nlohmann::ordered_json to_json() const;
  bool operator==(const MachineInfo&) const = default;
};

/// The identity of the code a scheme compiled into an outside program runs (docs/history.md,
/// "Outside schemes"): $RIGIDBENCH_SCHEME_REVISION when set (the user's own revision), else "build "
/// and a 64-bit FNV-1a hash of this program's executable, so that a rebuilt scheme is a new identity.
std::string program_identity();

}  // namespace rigidbench
