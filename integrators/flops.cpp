#include "flops.hpp"

namespace rigidbench {

std::optional<LoadShape> load_shape(const Problem& p) {
  // The derivations follow the single-body code paths of these two families; a gyrostat's rotor, a
  // body system's interactions and an outside family's equations are not among them.
  if (p.bodies.size() != 1 || p.translating()) return std::nullopt;
  if (!p.of_family("rigid_body") && !p.of_family("non_twisting")) return std::nullopt;
  return LoadShape{int(p.fields().size()), int(p.followers().size())};
}

std::optional<double> uniform_fields(const Problem& p) {
  const auto s = load_shape(p);
  if (!s || s->followers > 0) return std::nullopt;
  return double(s->fields);
}

}  // namespace rigidbench
