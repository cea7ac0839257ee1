#include "text_escape.hpp"

#include <cstdio>

namespace rigidbench {

namespace {
std::string control_escaped(std::string_view s, bool keep_lines) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && !(keep_lines && (c == '\n' || c == '\t'))) || u == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", u);
      o += b;
    } else {
      o += c;
    }
  }
  return o;
}
}  // namespace

std::string terminal_text(std::string_view s) { return control_escaped(s, true); }
std::string line_text(std::string_view s) { return control_escaped(s, false); }

std::string markdown_text(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '|': o += "\\|"; break;
      case '`': o += "\\`"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '\n':
      case '\r':
      case '\t': o += ' '; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) o += c;
    }
  }
  return o;
}

std::string shell_text(std::string_view s) {
  constexpr std::string_view plain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%";
  if (!s.empty() && s.find_first_not_of(plain) == std::string_view::npos) return std::string(s);
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string xml_text(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      case '\n': o += "&#10;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') o += c;
    }
  }
  return o;
}

}  // namespace rigidbench
