#pragma once
// A short list of names (model families, features): fixed capacity and no allocation, so that it can
// sit in the static SchemeInfo of every scheme (GCC 12 reports false maybe-uninitialized uses for a
// std::vector there) and in a family's declaration.
#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string_view>

namespace rigidbench {

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
