#pragma once
// One colour, marker and line style per scheme, the same in every figure of every report
// (docs/reports.md, "Figures"). Reports carry them (`styles`), so the renderer draws what the
// registry says: a built-in scheme takes the style of its name's row in styles.cpp (a new built-in
// without a row takes a spare colour by its name until it gets one; never a style from its place in
// the built-in list, which would move when a scheme is added or reordered); any other scheme
// takes one drawn from its name (CRC-32, stable across runs and machines) with a dotted line, so that
// an outside scheme never looks like a built-in.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rigidbench {

struct SchemeStyle {
  std::string color, marker, line;
};

/// The style of the scheme `name` (registered or not).
SchemeStyle scheme_style(std::string_view name);
/// {"name": {"color", "marker", "line"}} for the names given (each once, in the order given).
nlohmann::ordered_json styles_json(const std::vector<std::string>& names);
/// CRC-32 (the zlib/PNG polynomial, reflected 0xEDB88320), as Python's zlib.crc32.
std::uint32_t crc32(std::string_view bytes);

}  // namespace rigidbench
