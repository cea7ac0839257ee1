// The Simbody plugin (simbody_plugin.h; engine_plugin.hpp says why Simbody is a module of its own):
// Simbody (docs/engines.md, "Simbody"), the model a Simbody user writes - a Body::Rigid with its mass
// properties about the body origin, on a MobilizedBody::Free (a torque-free body) or a
// MobilizedBody::Ball at the pivot (a top), Force::UniformGravity - stepped by one of its integrators
// at a fixed step with the quaternion projected every step. Compiled as C++17 (simbody_plugin.h).
#include "simbody_plugin.h"

#include <Simbody.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "../core/plugin_file.hpp"

RIGIDBENCH_PLUGIN_NOTE(RIGIDBENCH_SIMBODY_PLUGIN_NOTE);

namespace {

void message(char* err, int n, const char* what) {
  if (n > 0) std::snprintf(err, std::size_t(n), "%s", what);
}

std::unique_ptr<SimTK::Integrator> make_integrator(int m, const SimTK::System& s) {
  switch (m) {
    case RIGIDBENCH_SIMBODY_EXPLICIT_EULER: return std::make_unique<SimTK::ExplicitEulerIntegrator>(s);
    case RIGIDBENCH_SIMBODY_SEMI_EXPLICIT_EULER: return std::make_unique<SimTK::SemiExplicitEulerIntegrator>(s, 1.0);
    case RIGIDBENCH_SIMBODY_SEMI_EXPLICIT_EULER2: return std::make_unique<SimTK::SemiExplicitEuler2Integrator>(s);
    case RIGIDBENCH_SIMBODY_RK2: return std::make_unique<SimTK::RungeKutta2Integrator>(s);
    case RIGIDBENCH_SIMBODY_RK3: return std::make_unique<SimTK::RungeKutta3Integrator>(s);
    case RIGIDBENCH_SIMBODY_MERSON: return std::make_unique<SimTK::RungeKuttaMersonIntegrator>(s);
    case RIGIDBENCH_SIMBODY_FELDBERG: return std::make_unique<SimTK::RungeKuttaFeldbergIntegrator>(s);
    case RIGIDBENCH_SIMBODY_VERLET: return std::make_unique<SimTK::VerletIntegrator>(s);
  }
  throw std::invalid_argument("unknown integrator");
}

}  // namespace

struct rigidbench_simbody_model {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::MobilizedBody mobod;
  std::unique_ptr<SimTK::Force::UniformGravity> gravity;
  SimTK::State initial, state;
  std::unique_ptr<SimTK::Integrator> integ;
  double h = 0;  // 0: not started since the last reset
  int base = 0;
};

namespace {

/// Builds the model in s (make_integrator throws for an unknown method; Simbody for a body it refuses).
void build(rigidbench_simbody_model& s, const rigidbench_simbody_body& b, int m) {
  const auto& J = b.inertia;
  const SimTK::Body::Rigid body(SimTK::MassProperties(
      b.mass, SimTK::Vec3(b.centre[0], b.centre[1], b.centre[2]),
      SimTK::Inertia(J[0][0], J[1][1], J[2][2], J[0][1], J[0][2], J[1][2])));
  if (b.pivot)
    s.mobod = SimTK::MobilizedBody::Ball(s.matter.Ground(), SimTK::Transform(), body, SimTK::Transform());
  else
    s.mobod = SimTK::MobilizedBody::Free(s.matter.Ground(), SimTK::Transform(), body, SimTK::Transform());
  if (b.gravity[0] != 0 || b.gravity[1] != 0 || b.gravity[2] != 0)
    s.gravity = std::make_unique<SimTK::Force::UniformGravity>(
        s.forces, s.matter, SimTK::Vec3(b.gravity[0], b.gravity[1], b.gravity[2]));
  s.initial = s.system.realizeTopology();
  s.integ = make_integrator(m, s.system);
  s.integ->setProjectEveryStep(true);  // the quaternion normalised after every step
  s.integ->setAllowInterpolation(false);
}

// Through Simbody's own setters and getters, so that no convention of the mobilizers' q and u is
// assumed: the rotation and the angular velocity in ground (world) components.
void reset(rigidbench_simbody_model& s, const double R[9], const double omega[3], double t0) {
  s.state = s.initial;
  s.system.realizeModel(s.state);
  s.state.setTime(t0);
  const SimTK::Mat33 M(R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8]);
  s.mobod.setQToFitRotation(s.state, SimTK::Rotation(M, true));  // true: M is orthonormal as given
  s.mobod.setUToFitAngularVelocity(s.state, SimTK::Vec3(omega[0], omega[1], omega[2]));
  s.h = 0;
  s.base = 0;
}

std::string step(rigidbench_simbody_model& s, double t, double h) {
  try {
    if (h != s.h) {  // the first step after a reset, or a new step size: set before initialize
      s.integ->setFixedStepSize(h);
      s.integ->initialize(s.h == 0 ? s.state : s.integ->getState());
      if (s.h == 0) s.base = s.integ->getNumRealizations();
      s.h = h;
    }
    // To the grid's next time, t_n + h, not stepBy(h): stepBy's target is taken from the integrator's
    // own time, and Debian's Simbody (built with its assertions) aborts the process in stepTo when
    // that target is found behind the state. With interpolation off, the step ends exactly there.
    // The first call after initialize() returns at once, at the start (StartOfContinuousInterval,
    // Simbody's report of the initial state), so it is called again until the state is at t + h: a
    // single step from the start was otherwise no step at all.
    for (int call = 0; call < 4 && s.integ->getTime() < t + h - 1e-13 * std::max(1.0, std::abs(t + h)); ++call)
      s.integ->stepTo(t + h);
    if (s.integ->getTime() < t + h - 1e-13 * std::max(1.0, std::abs(t + h)))
      return "the integrator did not reach t + h (" + std::to_string(s.integ->getTime()) + ")";
  } catch (const std::exception& e) {
    return e.what();
  }
  const SimTK::State& x = s.integ->getState();
  for (int i = 0; i < x.getNQ(); ++i)
    if (!std::isfinite(x.getQ()[i])) return "a non-finite state";
  for (int i = 0; i < x.getNU(); ++i)
    if (!std::isfinite(x.getU()[i])) return "a non-finite state";
  return {};
}

void read(const rigidbench_simbody_model& s, double R[9], double omega[3]) {
  const SimTK::State& x = s.h == 0 ? s.state : s.integ->getState();
  s.system.realize(x, SimTK::Stage::Velocity);
  const SimTK::Mat33 M = s.mobod.getBodyRotation(x).asMat33();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[3 * i + j] = M(i, j);
  const SimTK::Vec3 w = s.mobod.getBodyAngularVelocity(x);
  for (int i = 0; i < 3; ++i) omega[i] = w[i];
}

std::string version() {
  int major = 0, minor = 0, build = 0;
  SimTK_version_simbody(&major, &minor, &build);
  return std::to_string(major) + "." + std::to_string(minor);
}

/// Runs f; 0, or 1 with the exception's message in err (no exception crosses the C interface).
template <class F>
int guarded(char* err, int n, F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    message(err, n, e.what());
  } catch (...) {
    message(err, n, "an exception that is not a std::exception");
  }
  return 1;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) const rigidbench_simbody_api* rigidbench_simbody_plugin(void) {
  static const std::string v = version();
  static const rigidbench_simbody_api api{
      RIGIDBENCH_SIMBODY_PLUGIN_ABI,
      v.c_str(),
      [](const rigidbench_simbody_body* body, int method, char* err, int n) -> rigidbench_simbody_model* {
        auto m = std::make_unique<rigidbench_simbody_model>();
        if (guarded(err, n, [&] { build(*m, *body, method); }) != 0) return nullptr;
        return m.release();
      },
      [](rigidbench_simbody_model* m) { delete m; },
      [](rigidbench_simbody_model* m, const double R[9], const double omega[3], double t0, char* err, int n) {
        return guarded(err, n, [&] { reset(*m, R, omega, t0); });
      },
      [](rigidbench_simbody_model* m, double t, double h, char* err, int n) {
        std::string why;
        if (guarded(err, n, [&] { why = step(*m, t, h); }) != 0) return 1;
        if (why.empty()) return 0;
        message(err, n, why.c_str());
        return 1;
      },
      [](rigidbench_simbody_model* m, double R[9], double omega[3], char* err, int n) {
        return guarded(err, n, [&] { read(*m, R, omega); });
      },
      [](const rigidbench_simbody_model* m) -> unsigned long long {
        return m->h == 0 ? 0 : static_cast<unsigned long long>(m->integ->getNumRealizations() - m->base);
      }};
  return &api;
}

}  // extern "C"
