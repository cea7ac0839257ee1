#include "rigidbench/reports/styles.hpp"

#include <array>
#include <initializer_list>

#include "rigidbench/integrators/registry.hpp"

namespace rigidbench {
namespace {

// Twenty colours (matplotlib's tab10 and ten dark or saturated ones), ordered so that the thirteen
// schemes of the rigid-body problems, which share most figures, get the most distinct ones; the
// SE(3) maps of paper 001, shown mostly among themselves, get the dark ones.
constexpr std::array<const char*, 26> kPalette{
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",  // RK4s, Lie-Euler, Terze, RIGs
    "#008080", "#000080", "#800000", "#006400", "#c49a00",                        // BG maps, Campello's
    "#000000", "#17becf", "#ff00ff", "#00c000", "#bcbd22", "#7f7f7f", "#4b0082",  // DLM ... LGVI
    "#ff4500",
    // The adaptive schemes and room for more: chosen greedily (step 0x33 grid, L* < 75) to be far from
    // the twenty above (each at least ΔE 30 from every other built-in) and at least ΔE 38 from every
    // outside colour below, so that the outside palette keeps its distance.
    "#00cc99", "#333300", "#cc66ff", "#000033", "#669966", "#ff33cc"};
// Colours for schemes that are not built in (outside C++, Python, files, engines), none of them a
// built-in's: chosen greedily to maximise the smallest CIELAB distance (CIE76 ΔE) to the first twenty above
// and to each other, among colours dark enough for a white page (L* < 75). Each is at least ΔE 38
// from every built-in colour, where the closest two built-ins are ΔE 14 apart (docs/reports.md, "Figures").
constexpr std::array<const char*, 5> kOutsidePalette{"#0000ff", "#ff0077", "#660044", "#0066ff", "#ff9977"};
constexpr std::array<const char*, 20> kMarkers{"o", "s", "^", "v", "D", "<", ">", "p", "P", "h",
                                               "X", "*", "d", "H", "8", "1", "2", "3", "4", "+"};

}  // namespace

std::uint32_t crc32(std::string_view bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (const char ch : bytes) {
    c ^= std::uint8_t(ch);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

SchemeStyle scheme_style(std::string_view name) {
  std::size_t i = 0;
  for (const SchemeEntry& e : registry()) {
    if (!e.builtin) break;  // built-ins come first, in the order of builtin.hpp
    if (e.info->name == name) {
      // Past twenty-six built-ins the markers shift, so that colour and marker together stay unique.
      return {kPalette[i % kPalette.size()], kMarkers[(i + i / kPalette.size()) % kMarkers.size()],
              &e == &baseline_scheme() ? "--" : "-"};
    }
    ++i;
  }
  const std::uint32_t h = crc32(name);
  return {kOutsidePalette[h % kOutsidePalette.size()], kMarkers[(h / kOutsidePalette.size()) % kMarkers.size()], ":"};
}

nlohmann::ordered_json styles_json(const std::vector<std::string>& names) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const std::string& n : names) {
    if (j.contains(n)) continue;
    const SchemeStyle s = scheme_style(n);
    j[n] = {{"color", s.color}, {"marker", s.marker}, {"line", s.line}};
  }
  return j;
}

void add_styles(nlohmann::ordered_json& report) {
  std::vector<std::string> names;
  const auto collect = [&](const nlohmann::ordered_json* rows) {
    if (rows == nullptr || !rows->is_array()) return;
    for (const auto& r : *rows)
      if (r.is_object() && r.contains("integrator") && r["integrator"].is_string()) names.push_back(r["integrator"]);
  };
  const auto at = [&](std::initializer_list<const char*> path) -> const nlohmann::ordered_json* {
    const nlohmann::ordered_json* j = &report;
    for (const char* k : path) {
      if (!j->is_object() || !j->contains(k)) return nullptr;
      j = &(*j)[k];
    }
    return j;
  };
  collect(at({"results"}));
  collect(at({"paper_reproductions"}));
  collect(at({"work_precision", "series"}));
  collect(at({"scaling"}));
  report["styles"] = styles_json(names);
}

}  // namespace rigidbench
