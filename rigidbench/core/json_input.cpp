#include "rigidbench/core/json_input.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include "rigidbench/core/types.hpp"

namespace rigidbench {

namespace {

template <class J>
J parse_bounded(std::string_view text, const std::string& origin, const JsonLimits& limits) {
  // The parser itself is iterative; the depth bound protects whatever walks the value afterwards
  // (schema validation, dump, messages).
  // A key given twice in one object is refused: the parser would keep the last copy, so a file could
  // show a reviewer one value and give rigidbench another (a gate baseline's pair listed twice, the
  // regression in the copy that wins). One set of keys per open object, along the current path only.
  using Event = typename J::parse_event_t;
  std::vector<std::set<std::string>> open;
  auto bound = [&](int depth, Event event, J& parsed) {
    if (depth > limits.max_depth)
      throw InputError(cat(origin, ": JSON nested deeper than ", std::to_string(limits.max_depth), " levels"));
    switch (event) {
      case Event::object_start:
      case Event::array_start: open.emplace_back(); break;
      case Event::object_end:
      case Event::array_end:
        if (!open.empty()) open.pop_back();
        break;
      case Event::key:
        if (!open.empty() && !open.back().insert(parsed.template get<std::string>()).second)
          throw InputError(cat(origin, ": the key ", json_brief(nlohmann::json(parsed.template get<std::string>())),
                               " appears twice in one object"));
        break;
      case Event::value: break;
    }
    return true;
  };
  try {
    return J::parse(text.begin(), text.end(), bound);
  } catch (const nlohmann::json::exception& e) {
    // parse_error (syntax) and out_of_range (a number that overflows a double) alike: bad input.
    throw InputError(cat(origin, ": not valid JSON: ", e.what()));
  }
}

/// The file's text, read within the limits.
std::string read_bounded(const std::string& path, const std::string& origin, const JsonLimits& limits) {
  // stat before open: opening a FIFO for reading blocks until a writer comes.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(cat("cannot open ", origin, ": ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw InputError(cat(origin, " is not a regular file"));
  if (std::uintmax_t(st.st_size) > limits.max_bytes)
    throw InputError(cat(origin, " is larger than the limit of ", std::to_string(limits.max_bytes >> 20), " MiB"));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(cat("cannot open ", origin, ": ", std::strerror(errno)));
  std::string text;
  text.reserve(std::size_t(st.st_size));
  // Bounded read: the file may have grown since stat.
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, std::size_t(in.gcount()));
    if (text.size() > limits.max_bytes)
      throw InputError(cat(origin, " is larger than the limit of ", std::to_string(limits.max_bytes >> 20), " MiB"));
  }
  if (in.bad()) throw InputError(cat("cannot read ", origin, ": ", std::strerror(errno)));
  return text;
}

std::string origin_of(const std::string& path, std::string what) {
  while (!what.empty() && what.back() == ' ') what.pop_back();
  return cat(what, what.empty() ? "'" : " '", path, "'");
}

}  // namespace

nlohmann::json parse_json_input(std::string_view text, const std::string& origin, const JsonLimits& limits) {
  return parse_bounded<nlohmann::json>(text, origin, limits);
}

nlohmann::json read_json_input(const std::string& path, const std::string& what, const JsonLimits& limits) {
  const std::string origin = origin_of(path, what);
  return parse_bounded<nlohmann::json>(read_bounded(path, origin, limits), origin, limits);
}

nlohmann::ordered_json read_ordered_json_input(const std::string& path, const std::string& what, const JsonLimits& limits) {
  const std::string origin = origin_of(path, what);
  return parse_bounded<nlohmann::ordered_json>(read_bounded(path, origin, limits), origin, limits);
}

std::string json_brief(const nlohmann::json& j) {
  if (j.is_array()) return cat("an array of ", std::to_string(j.size()), j.size() == 1 ? " element" : " elements");
  if (j.is_object()) return cat("an object of ", std::to_string(j.size()), j.size() == 1 ? " field" : " fields");
  std::string s = j.dump();  // a scalar: no recursion
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

}  // namespace rigidbench
