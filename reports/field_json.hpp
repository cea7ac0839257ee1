#pragma once
// The JSON writer and reader that follow from a result type's declared fields (core/fields.hpp;
// docs/architecture.md, "One result model"). Numbers that could not be computed are written as null
// and read back as NaN (core/json_numbers.hpp); an enumeration by its name; an optional as its value
// or null; a list of named values (`std::vector<std::pair<std::string, V>>`, `std::map`) as an
// object. Reading follows the reports' rule (core/json_fields.hpp): a field is taken where it is
// present and of its type, and keeps the type's default otherwise - reports of earlier versions lack
// fields, and the schema has already admitted the document.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/fields.hpp"
#include "../core/json_numbers.hpp"

namespace rigidbench::field_json {

using nlohmann::ordered_json;

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_named_list : std::false_type {};
template <class V>
struct is_named_list<std::vector<std::pair<std::string, V>>> : std::true_type {};
template <class T>
struct is_map : std::false_type {};
template <class V, class C, class A>
struct is_map<std::map<std::string, V, C, A>> : std::true_type {};

/// A type with its own serialiser and reader (the provenance: ToolInfo, MachineInfo).
template <class V>
concept SelfSerialised = requires(const V& v, const nlohmann::json& j) {
  { v.to_json() } -> std::convertible_to<ordered_json>;
  { V::read(j) } -> std::same_as<V>;
};

template <class V>
ordered_json write(const V& v);
template <class J, class V>
void read(const J& j, V& v);

/// Whether a value holds something (Written::if_set).
template <class V>
bool is_set(const V& v) {
  if constexpr (is_optional<V>::value) return v.has_value();
  else if constexpr (std::is_floating_point_v<V>) return std::isfinite(v);
  else if constexpr (is_vector<V>::value || is_map<V>::value || std::is_same_v<V, std::string>) return !v.empty();
  else if constexpr (std::is_same_v<V, bool>) return v;
  else return true;
}

template <class T, class F>
decltype(auto) field_value(const T& o, const F& f) {
  if constexpr (requires { f.at.get; }) return f.at.get(o);
  else return f.at(o);
}

template <class T, class... Fs>
ordered_json write_list(const T& o, const std::tuple<Fs...>& fields) {
  ordered_json j = ordered_json::object();
  std::apply([&](const auto&... f) {
    const auto one = [&](const auto& fd) {
      if constexpr (requires { fd.at.fields; }) {
        j[fd.name] = write_list(o, fd.at.fields);
      } else {
        if constexpr (std::is_same_v<std::decay_t<decltype(fd.when)>, Written>) {
          const auto& v = field_value(o, fd);
          if (fd.when == Written::if_set && !is_set(v)) return;
          j[fd.name] = write(v);
        } else if (fd.when(o)) {
          j[fd.name] = write(field_value(o, fd));
        }
      }
    };
    (one(f), ...);
  }, fields);
  return j;
}

template <class J, class T, class... Fs>
void read_list(const J& j, T& o, const std::tuple<Fs...>& fields) {
  if (!j.is_object()) return;
  std::apply([&](const auto&... f) {
    const auto one = [&](const auto& fd) {
      if (!j.contains(fd.name)) return;
      if constexpr (requires { fd.at.fields; }) {
        read_list(j.at(fd.name), o, fd.at.fields);
      } else if constexpr (requires { fd.at.set; }) {
        std::decay_t<decltype(fd.at.get(o))> v{};
        read(j.at(fd.name), v);
        fd.at.set(o, std::move(v));
      } else if constexpr (std::is_lvalue_reference_v<decltype(fd.at(o))> &&
                           !std::is_const_v<std::remove_reference_t<decltype(fd.at(o))>>) {
        read(j.at(fd.name), fd.at(o));
      }
    };
    (one(f), ...);
  }, fields);
}

/// T's declared fields as one JSON object, in their declared order.
template <Described T>
ordered_json write_fields(const T& o) {
  return write_list(o, Fields<T>::list());
}

/// Reads T's declared fields from an object (fields that are written only are skipped).
/// Fields<T>::after_read(o), where declared, restores what follows from the fields read (a value
/// not written because it is implied by others).
template <class J, Described T>
void read_fields(const J& j, T& o) {
  read_list(j, o, Fields<T>::list());
  if constexpr (requires { Fields<T>::after_read(o); }) Fields<T>::after_read(o);
}

template <Described T, class J>
T read_as(const J& j) {
  T o{};
  read_fields(j, o);
  return o;
}

template <class V>
ordered_json write(const V& v) {
  if constexpr (Described<V>) return write_fields(v);
  else if constexpr (SelfSerialised<V>) return v.to_json();
  else if constexpr (std::is_same_v<V, ordered_json>) return v;
  else if constexpr (std::is_same_v<V, std::nullptr_t>) return nullptr;
  else if constexpr (std::is_same_v<V, bool>) return v;
  else if constexpr (std::is_floating_point_v<V>) return json_numbers::num(double(v));
  else if constexpr (std::is_integral_v<V>) return v;
  else if constexpr (NamedEnum<V>) return std::string(to_string(v));
  else if constexpr (std::is_convertible_v<V, std::string_view>) return std::string(std::string_view(v));
  else if constexpr (is_optional<V>::value) return v ? write(*v) : ordered_json(nullptr);
  else if constexpr (is_named_list<V>::value || is_map<V>::value) {
    ordered_json o = ordered_json::object();
    for (const auto& [name, x] : v) o[name] = write(x);
    return o;
  } else if constexpr (is_vector<V>::value) {
    ordered_json a = ordered_json::array();
    for (const auto& x : v) {
      if constexpr (std::is_same_v<typename V::value_type, bool>) a.push_back(bool(x));  // vector<bool>'s proxies
      else a.push_back(write(x));
    }
    return a;
  } else {
    static_assert(sizeof(V) == 0, "field_json::write: a type without declared fields");
  }
}

template <class J, class V>
void read(const J& j, V& v) {
  if constexpr (Described<V>) read_fields(j, v);
  else if constexpr (SelfSerialised<V>) {
    if constexpr (requires { V::read(j); }) v = V::read(j);  // in the document's own key order
    else v = V::read(nlohmann::json::parse(j.dump()));
  } else if constexpr (std::is_same_v<V, ordered_json>) v = ordered_json::parse(j.dump());
  else if constexpr (std::is_same_v<V, bool>) {
    if (j.is_boolean()) v = j.template get<bool>();
  } else if constexpr (std::is_floating_point_v<V>) v = V(json_numbers::as_num(j));
  else if constexpr (std::is_integral_v<V>) {
    if (!j.is_number_integer()) return;
    const std::int64_t x = j.template get<std::int64_t>();
    v = std::is_unsigned_v<V> && x < 0 ? V(0) : V(x);  // a count read as unsigned: never negative
  } else if constexpr (NamedEnum<V>) {
    if (!j.is_string()) return;
    for (V e : enum_values(v))
      if (j.template get<std::string>() == to_string(e)) v = e;
  } else if constexpr (std::is_same_v<V, std::string>) {
    if (j.is_string()) v = j.template get<std::string>();
  } else if constexpr (is_optional<V>::value) {
    if (j.is_null()) return;
    typename V::value_type x{};
    read(j, x);
    v = std::move(x);
  } else if constexpr (is_named_list<V>::value) {
    if (!j.is_object()) return;
    for (auto it = j.begin(); it != j.end(); ++it) {
      typename V::value_type::second_type x{};
      read(it.value(), x);
      v.emplace_back(it.key(), std::move(x));
    }
  } else if constexpr (is_map<V>::value) {
    if (!j.is_object()) return;
    for (auto it = j.begin(); it != j.end(); ++it) read(it.value(), v[it.key()]);
  } else if constexpr (is_vector<V>::value) {
    if (!j.is_array()) return;
    for (const auto& e : j) {
      typename V::value_type x{};
      read(e, x);
      v.push_back(std::move(x));
    }
  } else {
    static_assert(sizeof(V) == 0, "field_json::read: a type without declared fields");
  }
}

// ---- what the declarations write, for the schema check ------------------------------------------

/// The shape of what `write(V)` writes, as JSON: {"kind": object | array | map | number | integer |
/// string | boolean | enum | null | any, "fields" | "items" | "values" | "enum": ...}; an optional written
/// as null when empty says "null": true. The declarations' side of the check that each schema
/// describes exactly the fields its report's declarations write (tests/test_schema_declarations.cpp;
/// docs/architecture.md, "One result model"). `any` is JSON built by hand (a field's own writer).
template <class V>
ordered_json shape();

template <class T, class... Fs>
ordered_json shape_list(const std::tuple<Fs...>& fields) {
  ordered_json out = ordered_json::object();
  std::apply([&](const auto&... f) {
    const auto one = [&](const auto& fd) {
      if constexpr (requires { fd.at.fields; }) {
        out[fd.name] = {{"kind", "object"}, {"fields", shape_list<T>(fd.at.fields)}};
      } else {
        using V = std::decay_t<decltype(field_value(std::declval<const T&>(), fd))>;
        ordered_json s = shape<V>();
        // An empty optional is written as null only where the field is always written.
        if constexpr (is_optional<V>::value && std::is_same_v<std::decay_t<decltype(fd.when)>, Written>)
          if (fd.when == Written::always) s["null"] = true;
        out[fd.name] = std::move(s);
      }
    };
    (one(f), ...);
  }, fields);
  return out;
}

/// T's own declaration's shape (what T::declared_shape returns, where Fields<T> is seen by one unit only).
template <Described T>
ordered_json declared_shape() {
  return {{"kind", "object"}, {"fields", shape_list<T>(Fields<T>::list())}};
}

template <class V>
ordered_json shape() {
  if constexpr (requires { V::declared_shape(); }) return V::declared_shape();  // declared in its own unit
  else if constexpr (Described<V>) return declared_shape<V>();
  else if constexpr (SelfSerialised<V> || std::is_same_v<V, ordered_json> || std::is_same_v<V, nlohmann::json>)
    return {{"kind", "any"}};
  else if constexpr (std::is_same_v<V, std::nullptr_t>) return {{"kind", "null"}};
  else if constexpr (std::is_same_v<V, bool>) return {{"kind", "boolean"}};
  else if constexpr (std::is_floating_point_v<V>) return {{"kind", "number"}};
  else if constexpr (std::is_integral_v<V>) return {{"kind", "integer"}};
  else if constexpr (NamedEnum<V>) {
    ordered_json names = ordered_json::array();
    for (V e : enum_values(V{})) names.push_back(std::string(to_string(e)));
    return {{"kind", "enum"}, {"enum", names}};
  } else if constexpr (std::is_convertible_v<V, std::string_view>) return {{"kind", "string"}};
  else if constexpr (is_optional<V>::value) return shape<typename V::value_type>();
  else if constexpr (is_named_list<V>::value) return {{"kind", "map"}, {"values", shape<typename V::value_type::second_type>()}};
  else if constexpr (is_map<V>::value) return {{"kind", "map"}, {"values", shape<typename V::mapped_type>()}};
  else if constexpr (is_vector<V>::value) return {{"kind", "array"}, {"items", shape<typename V::value_type>()}};
  else static_assert(sizeof(V) == 0, "field_json::shape: a type without declared fields");
}

}  // namespace rigidbench::field_json
