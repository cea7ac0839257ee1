#pragma once
// What a name is (is_name), and a short list of names (model families, features): fixed capacity and no allocation, so that it can
// sit in the static SchemeInfo of every scheme (GCC 12 reports false maybe-uninitialized uses for a
// std::vector there) and in a family's declaration.
#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string_view>

namespace rigidbench {

/// The one alphabet of every name a user gives or a file carries - schemes, problems, families,
/// formulations, report keys: one to 64 of a-z, 0-9 and _. Names become command-line words, glob
/// subjects, JSON keys ('integrator/problem'), file names (report pages, history pages, trajectory
/// folders), LaTeX, CSV and Markdown cells; in this alphabet none of them needs escaping, and no name
/// can be a path ('/', '..'), a formula ('=...'), a TeX command ('\\', '^^') or a control character.
/// The schemas say the same: "pattern": "^[a-z0-9_]{1,64}$".
inline constexpr std::size_t kMaxNameLength = 64;
inline constexpr const char* kNameRule = "one to 64 of a-z, 0-9 and _";
constexpr bool is_name(std::string_view n) {
  if (n.empty() || n.size() > kMaxNameLength) return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

class NameList {
 public:
  static constexpr std::size_t kCapacity = 8;
  constexpr NameList() = default;
  constexpr NameList(std::initializer_list<std::string_view> names) {
    if (names.size() > kCapacity) throw std::logic_error("NameList: more than 8 names");
    for (std::string_view n : names) items_[size_++] = n;
  }
  constexpr void push_back(std::string_view n) {
    if (size_ == kCapacity) throw std::logic_error("NameList: more than 8 names");
    items_[size_++] = n;
  }
  constexpr const std::string_view* begin() const { return items_.data(); }
  constexpr const std::string_view* end() const { return items_.data() + size_; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool contains(std::string_view n) const { return std::find(begin(), end(), n) != end(); }

 private:
  std::array<std::string_view, kCapacity> items_{};
  std::size_t size_ = 0;
};

}  // namespace rigidbench
