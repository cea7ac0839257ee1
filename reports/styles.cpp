#include "styles.hpp"

#include <array>
#include <initializer_list>

#include "../integrators/registry.hpp"

namespace rigidbench {
namespace {

// The built-in schemes' styles, keyed by name (docs/reports.md, "One style per scheme"). Twenty colours
// (matplotlib's tab10 and ten dark or saturated ones) went first to the thirteen schemes of the
// rigid-body problems, which share most figures, the dark ones to the SE(3) maps of paper 001, shown
// mostly among themselves; the adaptive schemes' colours were chosen greedily (step 0x33 grid, L* < 75)
// to be far from those twenty (each at least ΔE 30 from every other built-in) and at least ΔE 38 from
// every outside colour below, so that the outside palette keeps its distance.
struct NamedStyle {
  std::string_view name;
  const char* color;
  const char* marker;
};
constexpr std::array<NamedStyle, 24> kBuiltinStyles{{
    {"odeint_rk4_quat", "#1f77b4", "o"},
    {"rk4_quat", "#ff7f0e", "s"},
    {"lie_euler", "#2ca02c", "^"},
    {"terze", "#d62728", "v"},
    {"rig_pos", "#9467bd", "D"},
    {"rig_neg", "#8c564b", "<"},
    {"rig_imp", "#e377c2", ">"},
    {"bg_body", "#008080", "p"},
    {"bg_spatial", "#000080", "P"},
    {"bg_newmark", "#800000", "h"},
    {"campello_symplectic_euler", "#006400", "X"},
    {"campello_implicit", "#c49a00", "*"},
    {"dlm_splitting", "#000000", "d"},
    {"rkmk4", "#17becf", "H"},
    {"gr_energy_momentum", "#ff00ff", "8"},
    {"gr_nonholonomic", "#00c000", "1"},
    {"simo_wong", "#bcbd22", "2"},
    {"akw_midpoint", "#7f7f7f", "3"},
    {"lgvi", "#4b0082", "4"},
    {"odeint_dopri5", "#ff4500", "+"},
    {"odeint_cash_karp54", "#00cc99", "o"},
    {"odeint_fehlberg78", "#333300", "s"},
    {"odeint_bulirsch_stoer", "#cc66ff", "^"},
    {"rkmk_dopri5", "#000033", "v"},
}};
// For a built-in without a row above: colours no row uses (each chosen as the adaptive schemes' were).
constexpr std::array<const char*, 2> kSparePalette{"#669966", "#ff33cc"};
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
  const std::uint32_t h = crc32(name);
  const SchemeEntry* e = nullptr;
  for (const SchemeEntry& r : registry())
    if (r.info->name == name) e = &r;
  if (e == nullptr || !e->builtin)
    return {kOutsidePalette[h % kOutsidePalette.size()], kMarkers[(h / kOutsidePalette.size()) % kMarkers.size()], ":"};
  const std::string line = e == &baseline_scheme() ? "--" : "-";
  for (const NamedStyle& s : kBuiltinStyles)
    if (s.name == name) return {s.color, s.marker, line};
  // A built-in without its row: a spare colour and a marker from its name; the test of styles
  // (test_registry.cpp) fails if two built-ins then look alike, and the scheme gets its row.
  return {kSparePalette[h % kSparePalette.size()], kMarkers[(h / kSparePalette.size()) % kMarkers.size()], line};
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

}  // namespace rigidbench
