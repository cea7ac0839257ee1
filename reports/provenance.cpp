#include "provenance.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <vector>

#include "../core/hash.hpp"
#include "../core/text_escape.hpp"
#include "report.hpp"

namespace rigidbench {

ToolInfo ToolInfo::current() { return read(nlohmann::json::parse(tool_info().dump())); }

ToolInfo ToolInfo::read(const nlohmann::json& t) {
  // The bench schema requires the fields but not their type: a field that is not a string is kept
  // as its JSON text (never an exception the input did not earn).
  auto s = [&](const char* k) {
    if (!t.is_object() || !t.contains(k)) return std::string();
    return t.at(k).is_string() ? t.at(k).get<std::string>() : t.at(k).dump();
  };
  return {s("name"), s("version"), s("git_revision"), s("compiler"), s("flags"), s("build_type")};
}

nlohmann::ordered_json ToolInfo::to_json() const {
  return {{"name", name}, {"version", version},  {"git_revision", git_revision},
          {"compiler", compiler}, {"flags", flags}, {"build_type", build_type}};
}

MachineInfo MachineInfo::current() { return read(nlohmann::json::parse(machine_info().dump())); }

MachineInfo MachineInfo::read(const nlohmann::json& m) {
  MachineInfo out;
  auto text = [&](const char* k, std::string& to) {
    if (m.contains(k) && m.at(k).is_string()) to = m.at(k).get<std::string>();
  };
  text("hostname", out.hostname);
  text("cpu", out.cpu);
  text("memory", out.memory);
  if (m.contains("os") && m.at("os").is_string()) out.os = m.at("os").get<std::string>();
  if (m.contains("arch") && m.at("arch").is_string()) out.arch = m.at("arch").get<std::string>();
  if (m.contains("hardware_threads") && m.at("hardware_threads").is_number_integer())
    out.hardware_threads = m.at("hardware_threads").get<std::int64_t>();
  return out;
}

nlohmann::ordered_json MachineInfo::to_json() const {
  nlohmann::ordered_json m;
  m["hostname"] = hostname;
  if (os) m["os"] = *os;
  if (arch) m["arch"] = *arch;
  m["cpu"] = cpu;
  m["hardware_threads"] = hardware_threads;
  m["memory"] = memory;
  return m;
}

std::string program_identity() {
  static const std::string identity = [] {
    if (const char* given = std::getenv("RIGIDBENCH_SCHEME_REVISION"); given != nullptr && *given != '\0')
      return line_text(given);  // one line in the history's keys, whatever the variable holds
    std::ifstream exe("/proc/self/exe", std::ios::binary);
    if (!exe) return std::string("build unknown (/proc/self/exe unreadable)");
    std::uint64_t h = kFnv1aOffset;
    std::vector<char> buf(1 << 16);
    while (exe.read(buf.data(), std::streamsize(buf.size())) || exe.gcount() > 0) {
      h = fnv1a(std::string_view(buf.data(), std::size_t(exe.gcount())), h);
      if (!exe) break;
    }
    std::ostringstream os;
    os << "build " << std::hex << std::setw(16) << std::setfill('0') << h;
    return os.str();
  }();
  return identity;
}

}  // namespace rigidbench
