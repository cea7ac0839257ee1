// DART (J. Lee, M. X. Grey, S. Ha et al., "DART: Dynamic Animation and Robotics Toolkit", JOSS 3(22)
// 500 (2018); [LGH18]), as Debian ships it (libdart-dev), judged as one scheme: World::step, DART's
// one integrator, a semi-implicit Euler step (docs/engines.md, "DART").
//
// DART lives in a plugin (engine_plugin.hpp says why), loaded the first time a DART scheme is made;
// listing the scheme, or running any other, never loads it. Its Debian build has its assertions on,
// and a non-finite joint position aborts the process inside World::step: the scheme is marked
// `isolate`, so that the integration driver runs it in a child process and reports the abort as the
// pair's breakdown (integrators/integrate.hpp, "Isolated schemes").
#include <memory>
#include <string>

#include "dart_plugin.h"
#include "engine_plugin.hpp"
#include "engine_body.hpp"
#include "engines.hpp"
#include "../integrators/registry.hpp"

namespace rigidbench::engines {

namespace {

/// The plugin's functions (engine_plugin.hpp); InputError naming every place tried if it cannot be loaded.
const rigidbench_dart_api& plugin() {
  return engine_plugin<decltype(&rigidbench_dart_plugin)>(
      {.engine = "DART", .name = "dart", .note = RIGIDBENCH_DART_PLUGIN_NOTE, .abi = RIGIDBENCH_DART_PLUGIN_ABI,
       .from_bindir = RIGIDBENCH_DART_PLUGIN_FROM_BINDIR, .built = RIGIDBENCH_DART_PLUGIN_BUILT});
}

class DartStep final : public AnyIntegrator {
 public:
  DartStep(const Problem& p, const SchemeInfo& info) : api_(&plugin()), info_(&info) {
    const EngineBody b = body_of(p);
    rigidbench_dart_body d{};
    d.mass = b.mass;
    for (int i = 0; i < 3; ++i) {
      d.centre[i] = b.centre[i];
      d.gravity[i] = b.gravity[i];
      for (int j = 0; j < 3; ++j) d.central_inertia[i][j] = b.central_inertia(i, j);
    }
    d.pivot = b.pivot ? 1 : 0;
    char err[256] = "";
    world_ = api_->create(&d, err, int(sizeof err));
    if (!world_) throw InputError(cat("DART: ", err));
  }
  ~DartStep() override { api_->destroy(world_); }
  DartStep(const DartStep&) = delete;
  DartStep& operator=(const DartStep&) = delete;

  const SchemeInfo& info() const override { return *info_; }

  void reset(const State& x0, double t0) override {
    const Mat3& R = x0.body().R;
    const Vec3 w = R * x0.body().W;  // omega = R W, world components
    double r[9], o[3] = {w.x(), w.y(), w.z()};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r[3 * i + j] = R(i, j);
    api_->reset(world_, r, o, t0);
  }

  StepStatus step(double, double h) override {
    char err[256] = "";
    return api_->step(world_, h, err, int(sizeof err)) == 0 ? StepStatus::success()
                                                            : StepStatus::breakdown(cat("DART: ", err));
  }

  void read(State& x) const override {
    double r[9], o[3];
    api_->read(world_, r, o);
    Mat3 R;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j) = r[3 * i + j];
    x.body().R = R;
    x.body().W = R.transpose() * Vec3(o[0], o[1], o[2]);
  }

  Counters counters() const override { return {}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  const rigidbench_dart_api* api_;
  const SchemeInfo* info_;
  rigidbench_dart_world* world_ = nullptr;
};

}  // namespace

// The version the plugin was configured against (find_package(DART)); the plugin itself reports
// DART_VERSION of the headers it was compiled with, the same package.
std::string dart_version() { return RIGIDBENCH_DART_VERSION; }

void register_dart() {
  SchemeInfo info{
      .name = "dart_step",
      .title = keep(cat("DART ", dart_version(), ", World::step")),
      .source = keep(cat("DART ", dart_version(),
                         " (Debian libdart-dev; [LGH18]): World::step, forward dynamics by the articulated-body "
                         "algorithm, velocities integrated, then the joint positions with the new velocities "
                         "(Joint::integratePositions: the exponential map of h W for a ball or free joint)")),
      .representation = "DART's Skeleton: a FreeJoint's or BallJoint's positions (rotation logarithm) and body-frame "
                        "velocities",
      .order = 1,
      .kind = SchemeKind::semi_implicit,
      .applies = {.families = {"rigid_body"}, .refuses = refusal},
      // The rotation is advanced by R exp(h W): on SO(3) to rounding.
      .claims = {.constraint = Claim::exact},
      .notes = "Physics engine, one World::step per step of the grid (setTimeStep to the grid's h); DART documents "
               "no order: 1 is the semi-implicit Euler update its World::step performs. Runs in a child process "
               "(its Debian build aborts on a non-finite joint position); on request only (docs/engines.md, "
               "\"DART\")",
      .isolate = true,
      .version = keep(cat("DART ", dart_version()))};
  register_variant(
      std::move(info),
      [](const Problem& p, const SchemeSettings&, const SchemeInfo& i) -> std::unique_ptr<AnyIntegrator> {
        return std::make_unique<DartStep>(p, i);
      },
      false);
}

}  // namespace rigidbench::engines
