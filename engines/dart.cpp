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
#include <vector>

#include "../problems/families/spherical_chain.hpp"
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

/// One body (a FreeJoint, or a BallJoint at a top's pivot) or a chain of links on BallJoints at their
/// inboard joints (minimal coordinates: the joints cannot come apart; x and v are placed by them).
class DartStep final : public AnyIntegrator {
 public:
  DartStep(const Problem& p, const SchemeInfo& info) : api_(&plugin()), info_(&info) {
    rigidbench_dart_body d{};
    if (p.of_family("spherical_chain")) {
      chain_ = &chain_data(p);
      const EngineChain c = chain_of(p);
      for (std::size_t i = 0; i < c.links.size(); ++i) {
        const EngineLink& l = c.links[i];
        links_.push_back(link(l.mass, l.centre, l.central_inertia, i > 0 ? c.links[i - 1].child : c.pivot.value_or(Vec3::Zero())));
      }
      set(d.gravity, c.gravity);
      d.pivot = c.pivot ? 1 : 0;
    } else {
      const EngineBody b = body_of(p);
      links_.push_back(link(b.mass, b.centre, b.central_inertia, Vec3::Zero()));
      set(d.gravity, b.gravity);
      d.pivot = b.pivot ? 1 : 0;
    }
    d.links = int(links_.size());
    d.link = links_.data();
    char err[256] = "";
    world_ = api_->create(&d, err, int(sizeof err));
    if (!world_) throw InputError(cat("DART: ", err));
  }
  ~DartStep() override { api_->destroy(world_); }
  DartStep(const DartStep&) = delete;
  DartStep& operator=(const DartStep&) = delete;

  const SchemeInfo& info() const override { return *info_; }

  // Each link's rotation and its angular velocity in world components, omega = R W, and a free chain's
  // link 0 origin (its centre of mass) and velocity.
  void reset(const State& x0, double t0) override {
    std::vector<double> r, o;
    pack_attitudes(x0, r, o);
    double x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
    if (chain_) set(x, x0.bodies[0].x), set(v, x0.bodies[0].v);
    api_->reset(world_, r.data(), o.data(), x, v, t0);
  }

  StepStatus step(double, double h) override {
    char err[256] = "";
    return api_->step(world_, h, err, int(sizeof err)) == 0 ? StepStatus::success()
                                                            : StepStatus::breakdown(cat("DART: ", err));
  }

  void read(State& x) const override {
    std::vector<double> r(9 * links_.size()), o(3 * links_.size());
    double p[3], v[3];
    api_->read(world_, r.data(), o.data(), p, v);
    unpack_attitudes(r, o, x);
    if (!chain_) return;
    x.bodies[0].x = Vec3(p[0], p[1], p[2]);
    x.bodies[0].v = Vec3(v[0], v[1], v[2]);
    place_chain(*chain_, x);
  }

  Counters counters() const override { return {}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  static void set(double (&to)[3], const Vec3& v) {
    for (int i = 0; i < 3; ++i) to[i] = v[i];
  }
  static rigidbench_dart_link link(double mass, const Vec3& centre, const Mat3& central_inertia, const Vec3& joint) {
    rigidbench_dart_link l{};
    l.mass = mass;
    set(l.centre, centre);
    set(l.joint, joint);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) l.central_inertia[i][j] = central_inertia(i, j);
    return l;
  }

  const rigidbench_dart_api* api_;
  const SchemeInfo* info_;
  const ChainData* chain_ = nullptr;  // a spherical_chain's joints
  std::vector<rigidbench_dart_link> links_;
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
                        "velocities; a chain: a BallJoint per link (minimal coordinates)",
      .order = 1,
      .kind = SchemeKind::semi_implicit,
      .applies = {.families = {"rigid_body", "spherical_chain"}, .refuses = refusal},
      // The rotation is advanced by R exp(h W): on SO(3) to rounding. On a chain, minimal coordinates:
      // the joints are kept by construction.
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
