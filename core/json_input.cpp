#include "json_input.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include "atomic_file.hpp"
#include "types.hpp"

namespace rigidbench {

namespace {

/// The first of two passes over untrusted JSON (docs/decisions.md, "Input limits"): an event
/// reader that builds nothing and enforces the limits - depth (which protects whatever walks the
/// value afterwards: schema validation, dump, messages), the number of values (the memory of the
/// tree the second pass builds), and each key once per object (the parser would keep the last copy,
/// so a file could show a reviewer one value and give rigidbench another: a gate baseline's pair
/// listed twice, the regression in the copy that wins). One set of keys per open object, along the
/// current path only. Both passes are linear in the text: nlohmann's callback parser, used before,
/// rescans the enclosing array at the end of every object (quadratic: an array of 8 M empty objects
/// ran for hours).
struct LimitsCheck : nlohmann::json_sax<nlohmann::json> {
  const std::string& origin;
  const JsonLimits& limits;
  std::vector<std::set<std::string>> open;  // per open container (arrays: an unused empty set)
  std::uint64_t values = 0;

  LimitsCheck(const std::string& o, const JsonLimits& l) : origin(o), limits(l) {}

  bool value() {
    if (++values > limits.max_values)
      throw InputError(cat(origin, ": more than ", std::to_string(limits.max_values),
                           " JSON values (the memory bound of a parsed document; a trajectory this long goes in CSV)"));
    return true;
  }
  bool enter() {
    open.emplace_back();
    if (open.size() > std::size_t(limits.max_depth))
      throw InputError(cat(origin, ": JSON nested deeper than ", std::to_string(limits.max_depth), " levels"));
    return value();
  }
  bool leave() {
    if (!open.empty()) open.pop_back();
    return true;
  }
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return enter(); }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override { return enter(); }
  bool end_array() override { return leave(); }
  bool key(string_t& k) override {
    if (!open.empty() && !open.back().insert(k).second)
      throw InputError(cat(origin, ": the key ", json_brief(nlohmann::json(k)), " appears twice in one object"));
    return value();
  }
  bool parse_error(std::size_t, const std::string& last, const nlohmann::detail::exception& e) override {
    // parse_error (syntax) and out_of_range (a number that overflows a double) alike: bad input.
    // Python's json.dumps writes NaN and Infinity, which JSON does not have: say so.
    const bool nonfinite = !last.empty() && (last.back() == 'N' || last.back() == 'I' || last == "-I");
    throw InputError(cat(origin, ": not valid JSON: ", e.what(),
                         nonfinite ? " (NaN and Infinity are not JSON: write null for a number that is not finite)" : ""));
  }
};

template <class J>
J parse_bounded(std::string_view text, const std::string& origin, const JsonLimits& limits) {
  LimitsCheck check(origin, limits);
  nlohmann::json::sax_parse(text.begin(), text.end(), &check);
  try {
    return J::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(cat(origin, ": not valid JSON: ", e.what()));
  }
}

/// The file's text, read within the limits.
std::string read_bounded(const std::string& path, const std::string& origin, const JsonLimits& limits) {
  // stat before open: opening a FIFO for reading blocks until a writer comes.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(cat("cannot open ", origin, ": ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw InputError(cat(origin, " is not a regular file"));
  note_input(path, origin);  // never replaced by this command's outputs (atomic_file.hpp)
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
