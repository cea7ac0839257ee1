#pragma once
// A result's fields declared once (docs/architecture.md, "One result model"): each result type T
// that a report writes has a specialisation `Fields<T>` whose `list()` names its fields in the order
// they are written, each with how to reach it in T. The JSON writer and reader
// (reports/field_json.hpp) follow from that declaration; nothing here knows JSON, so the
// declaration sits beside the type, in the layer that computes it.
//
// A field's accessor is a generic lambda: called on a T& it returns a reference to the member (the
// field is then read back too), called on a const T& the same member read-only. An accessor that
// returns a value instead (a constant of a rule, a note, something computed from other members) makes
// a field that is written and not read back. RIGIDBENCH_AT(path) writes the first kind:
//
//   template <> struct Fields<LineFit> {
//     static constexpr auto list() { return std::tuple{field("slope", RIGIDBENCH_AT(slope)), ...}; }
//   };
#include <array>
#include <tuple>
#include <type_traits>

namespace rigidbench {

/// When a field is written: always (an empty optional as null), or only when it holds something
/// (an optional that is set, a finite number, a list or object that is not empty). A field may
/// instead take a predicate on the whole object (`[](const T& o) { return !o.skipped(); }`): it is
/// written where that holds.
enum class Written { always, if_set };

template <class Access, class When = Written>
struct Field {
  const char* name;
  Access at;
  When when{};
};

template <class Access, class When = Written>
constexpr Field<Access, When> field(const char* name, Access at, When when = Written::always) {
  return {name, at, when};
}

/// A field that is not one member: written from `get(const T&)` and read back by `set(T&, value)`
/// (the value's type is get's result, or what set takes when get returns something else to write).
template <class Get, class Set>
struct Computed {
  Get get;
  Set set;
};
template <class Get, class Set, class When = Written>
constexpr Field<Computed<Get, Set>, When> computed(const char* name, Get get, Set set, When when = Written::always) {
  return {name, Computed<Get, Set>{get, set}, when};
}

/// Fields of the same T written as one nested object: `group("proportionality", field(...), ...)`.
template <class... Fs>
struct Group {
  std::tuple<Fs...> fields;
};
template <class... Fs>
constexpr Field<Group<Fs...>> group(const char* name, Fs... fields) {
  return {name, Group<Fs...>{std::tuple<Fs...>{fields...}}, Written::always};
}

/// The member a field stands for, reachable for writing and reading: `RIGIDBENCH_AT(fit.slope)`.
#define RIGIDBENCH_AT(path) [](auto& rigidbench_object_) -> auto& { return rigidbench_object_.path; }

/// A field named as its member: `RIGIDBENCH_FIELD(note)` is `field("note", RIGIDBENCH_AT(note))`.
#define RIGIDBENCH_FIELD(member, ...) ::rigidbench::field(#member, RIGIDBENCH_AT(member) __VA_OPT__(, ) __VA_ARGS__)

/// A fixed value written beside the numbers (a rule's constant, a note, a document's kind), not read back.
#define RIGIDBENCH_WRITES(value) [](const auto&) { return value; }

/// Fields<T>::list(): T's fields in the order they are written. Specialised beside each result type.
template <class T>
struct Fields;

template <class T>
concept Described = requires { Fields<T>::list(); };

/// An enumeration written by its name: `to_string(e)` and `enum_values(E{})` (every value), both
/// found beside the enumeration.
template <class E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) {
  to_string(e);
  enum_values(e);
};

}  // namespace rigidbench
