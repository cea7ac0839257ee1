#pragma once
// Simbody behind a plain interface. Simbody 3.7's headers do not compile as C++20 (GCC 12 finds
// its ContactGeometryTypeId comparisons ambiguous under C++20's rewritten operator==), so the one
// file that includes them, simbody_model.cpp, is compiled as C++17, and this header - included by
// the C++20 scheme, simbody.cpp - holds only standard types (docs/engines.md, "Building").
#include <cstdint>
#include <memory>
#include <string>

namespace rigidbench::engines::simbody {

enum class Method { explicit_euler, semi_explicit_euler, semi_explicit_euler2, rk2, rk3, merson, feldberg, verlet };

struct BodyData {
  double mass;
  double centre[3];      // centre of mass, body components, from the body origin
  double inertia[3][3];  // about the body origin, body components
  double gravity[3];     // world components
  bool pivot;            // a ball joint at the body origin; else a free body
};

class Model {
 public:
  Model(const BodyData& b, Method m);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  /// R (body -> world, row-major) and omega in world components; time t0.
  void reset(const double R[9], const double omega[3], double t0);
  /// One step of h from t (the grid's t_n); empty, or why it failed.
  std::string step(double t, double h);
  void read(double R[9], double omega[3]) const;
  /// Realizations through the acceleration stage since the last reset (force evaluations).
  std::uint64_t realizations() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string version();

}  // namespace rigidbench::engines::simbody
