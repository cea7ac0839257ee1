// The Simbody plugin (simbody_plugin.h; engine_plugin.hpp says why Simbody is a module of its own):
// Simbody (docs/engines.md, "Simbody"), the model a Simbody user writes - a Body::Rigid with its mass
// properties about the body origin, on a MobilizedBody::Free (a torque-free body) or a
// MobilizedBody::Ball at the pivot (a top), or a chain of them, each link on a MobilizedBody::Ball at
// its inboard joint in its parent (link 0 on a Ball at the pivot or Free), Force::UniformGravity - stepped by one of its integrators
// at a fixed step with the quaternion projected every step. Compiled as C++17 (simbody_plugin.h).
#include "simbody_plugin.h"

#include <Simbody.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

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
  std::vector<SimTK::MobilizedBody> mobods;  // link i's
  std::unique_ptr<SimTK::Force::UniformGravity> gravity;
  SimTK::State initial, state;
  std::unique_ptr<SimTK::Integrator> integ;
  double h = 0;  // 0: not started since the last reset
  int base = 0;
};

namespace {

/// Builds the model in s (make_integrator throws for an unknown method; Simbody for a body it refuses).
void build(rigidbench_simbody_model& s, const rigidbench_simbody_body& b, int m) {
  for (int i = 0; i < b.links; ++i) {
    const rigidbench_simbody_link& l = b.link[i];
    const auto& J = l.inertia;
    const SimTK::Body::Rigid body(SimTK::MassProperties(
        l.mass, SimTK::Vec3(l.centre[0], l.centre[1], l.centre[2]),
        SimTK::Inertia(J[0][0], J[1][1], J[2][2], J[0][1], J[0][2], J[1][2])));
    // F: the parent's frame moved to the joint; M: the link's own frame (its origin is the joint).
    SimTK::MobilizedBody parent = i == 0 ? SimTK::MobilizedBody(s.matter.Ground()) : s.mobods[std::size_t(i - 1)];  // handles
    const SimTK::Transform X_PF(SimTK::Vec3(l.joint[0], l.joint[1], l.joint[2]));  // no rotation
    if (i > 0 || b.pivot)
      s.mobods.push_back(SimTK::MobilizedBody::Ball(parent, X_PF, body, SimTK::Transform()));
    else
      s.mobods.push_back(SimTK::MobilizedBody::Free(parent, X_PF, body, SimTK::Transform()));
  }
  if (b.gravity[0] != 0 || b.gravity[1] != 0 || b.gravity[2] != 0)
    s.gravity = std::make_unique<SimTK::Force::UniformGravity>(
        s.forces, s.matter, SimTK::Vec3(b.gravity[0], b.gravity[1], b.gravity[2]));
  s.initial = s.system.realizeTopology();
  s.integ = make_integrator(m, s.system);
  s.integ->setProjectEveryStep(true);  // the quaternion normalised after every step
  s.integ->setAllowInterpolation(false);
}

// Through Simbody's own setters and getters, so that no convention of the mobilizers' q and u is
// assumed: each mobilizer's rotation R_FM = R_parent^T R_link and angular velocity w_FM, expressed in
// F, R_parent^T (omega_link - omega_parent) (the parent of link 0: the ground, at rest); a free link 0
// also its origin and the origin's velocity. (The products are formed here on plain arrays: Simbody's
// transposed-rotation views trip GCC 12's -Warray-bounds inside its headers.)
void reset(rigidbench_simbody_model& s, const double* R, const double* omega, const double x[3], const double v[3],
           double t0) {
  s.state = s.initial;
  s.system.realizeModel(s.state);
  s.state.setTime(t0);
  static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, rest[3] = {0, 0, 0};
  for (std::size_t i = 0; i < s.mobods.size(); ++i) {
    const double *P = i > 0 ? R + 9 * (i - 1) : identity, *B = R + 9 * i;
    const double *wp = i > 0 ? omega + 3 * (i - 1) : rest, *wb = omega + 3 * i;
    SimTK::Mat33 M;
    SimTK::Vec3 w;
    for (int r = 0; r < 3; ++r) {
      w[r] = 0;
      for (int c = 0; c < 3; ++c) {
        M(r, c) = 0;
        for (int k = 0; k < 3; ++k) M(r, c) += P[3 * k + r] * B[3 * k + c];
        w[r] += P[3 * c + r] * (wb[c] - wp[c]);
      }
    }
    const SimTK::Rotation R_FM(M, true);  // orthonormal as given
    if (s.mobods[i].getNumU(s.state) == 6) {  // Free: F is the ground at link[0].joint = 0
      s.mobods[i].setQToFitTransform(s.state, SimTK::Transform(R_FM, SimTK::Vec3(x[0], x[1], x[2])));
      s.mobods[i].setUToFitVelocity(s.state, SimTK::SpatialVec(w, SimTK::Vec3(v[0], v[1], v[2])));
    } else {
      s.mobods[i].setQToFitRotation(s.state, R_FM);
      s.mobods[i].setUToFitAngularVelocity(s.state, w);
    }
  }
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

void read(const rigidbench_simbody_model& s, double* R, double* omega, double x[3], double v[3]) {
  const SimTK::State& st = s.h == 0 ? s.state : s.integ->getState();
  s.system.realize(st, SimTK::Stage::Velocity);
  for (std::size_t k = 0; k < s.mobods.size(); ++k) {
    const SimTK::Mat33 M = s.mobods[k].getBodyRotation(st).asMat33();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R[9 * k + std::size_t(3 * i + j)] = M(i, j);
    const SimTK::Vec3 w = s.mobods[k].getBodyAngularVelocity(st);
    for (int i = 0; i < 3; ++i) omega[3 * k + std::size_t(i)] = w[i];
  }
  const SimTK::Vec3 o = s.mobods[0].getBodyOriginLocation(st), u = s.mobods[0].getBodyOriginVelocity(st);
  for (int i = 0; i < 3; ++i) x[i] = o[i], v[i] = u[i];
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
      [](rigidbench_simbody_model* m, const double* R, const double* omega, const double x[3], const double v[3],
         double t0, char* err, int n) { return guarded(err, n, [&] { reset(*m, R, omega, x, v, t0); }); },
      [](rigidbench_simbody_model* m, double t, double h, char* err, int n) {
        std::string why;
        if (guarded(err, n, [&] { why = step(*m, t, h); }) != 0) return 1;
        if (why.empty()) return 0;
        message(err, n, why.c_str());
        return 1;
      },
      [](rigidbench_simbody_model* m, double* R, double* omega, double x[3], double v[3], char* err, int n) {
        return guarded(err, n, [&] { read(*m, R, omega, x, v); });
      },
      [](const rigidbench_simbody_model* m) -> unsigned long long {
        return m->h == 0 ? 0 : static_cast<unsigned long long>(m->integ->getNumRealizations() - m->base);
      }};
  return &api;
}

}  // extern "C"
