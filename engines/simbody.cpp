// Simbody (M. Sherman, A. Seth, S. Delp, "Simbody: multibody dynamics for biomedical research",
// Procedia IUTAM 2 (2011); [SSD11]), as Debian ships it (libsimbody-dev), judged as eight schemes:
// its integrators (SimTK::Integrator subclasses) at a fixed step, with the quaternion projected at
// every step (docs/engines.md, "Simbody").
//
// The model is what a Simbody user writes: a Body::Rigid with its mass properties about the body
// origin, on a MobilizedBody::Free (a torque-free body) or a MobilizedBody::Ball at the pivot (a top),
// or a chain of links each on a MobilizedBody::Ball at its inboard joint in its parent (minimal
// coordinates: the joints cannot come apart), and Force::UniformGravity as the problem's field.
//
// Simbody lives in a plugin (engine_plugin.hpp says why), loaded the first time a Simbody scheme is
// made; listing the schemes, or running any other, never loads it.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../problems/families/spherical_chain.hpp"
#include "engine_body.hpp"
#include "engine_plugin.hpp"
#include "engines.hpp"
#include "simbody_plugin.h"
#include "../integrators/registry.hpp"

namespace rigidbench::engines {

namespace {

/// The plugin's functions (engine_plugin.hpp); InputError naming every place tried if it cannot be loaded.
const rigidbench_simbody_api& plugin() {
  return engine_plugin<decltype(&rigidbench_simbody_plugin)>(
      {.engine = "Simbody", .name = "simbody", .note = RIGIDBENCH_SIMBODY_PLUGIN_NOTE, .abi = RIGIDBENCH_SIMBODY_PLUGIN_ABI,
       .from_bindir = RIGIDBENCH_SIMBODY_PLUGIN_FROM_BINDIR, .built = RIGIDBENCH_SIMBODY_PLUGIN_BUILT});
}

struct Variant {
  const char* name;
  rigidbench_simbody_method method;
  int order;  // as Simbody's own documentation states it (the class's header comment)
  SchemeKind kind;
  const char* what;
};

constexpr Variant kVariants[] = {
    {"simbody_explicit_euler", RIGIDBENCH_SIMBODY_EXPLICIT_EULER, 1, SchemeKind::explicit_, "ExplicitEulerIntegrator, 'first order explicit'"},
    {"simbody_semi_explicit_euler", RIGIDBENCH_SIMBODY_SEMI_EXPLICIT_EULER, 1, SchemeKind::semi_implicit,
     "SemiExplicitEulerIntegrator, 'a first order method' (velocities, then positions with the new velocities)"},
    {"simbody_semi_explicit_euler2", RIGIDBENCH_SIMBODY_SEMI_EXPLICIT_EULER2, 1, SchemeKind::semi_implicit,
     "SemiExplicitEuler2Integrator, 'first-order semi-explicit Euler', the result of two half-steps (the full "
     "step serves the error estimate only)"},
    {"simbody_rk2", RIGIDBENCH_SIMBODY_RK2, 2, SchemeKind::explicit_, "RungeKutta2Integrator, 'second order, two stage explicit'"},
    {"simbody_rk3", RIGIDBENCH_SIMBODY_RK3, 3, SchemeKind::explicit_,
     "RungeKutta3Integrator, 'third order, three stage explicit' (Butcher 1987)"},
    {"simbody_rk_merson", RIGIDBENCH_SIMBODY_MERSON, 4, SchemeKind::explicit_,
     "RungeKuttaMersonIntegrator, 'fourth order explicit'"},
    {"simbody_rk_feldberg", RIGIDBENCH_SIMBODY_FELDBERG, 5, SchemeKind::explicit_,
     "RungeKuttaFeldbergIntegrator, 'fifth order explicit'"},
    {"simbody_verlet", RIGIDBENCH_SIMBODY_VERLET, 3, SchemeKind::semi_implicit,
     "VerletIntegrator, velocity Verlet, 'a third order, semi-explicit integrator'"},
};

class Simbody final : public AnyIntegrator {
 public:
  Simbody(const Problem& p, const Variant& v, const SchemeInfo& info)
      : api_(&plugin()), info_(&info), torque_free_(p.fields().empty()) {
    rigidbench_simbody_body d{};
    if (p.of_family("spherical_chain")) {
      chain_ = &chain_data(p);
      const EngineChain c = chain_of(p);
      for (std::size_t i = 0; i < c.links.size(); ++i) {
        const EngineLink& l = c.links[i];
        // About the link's origin, its inboard joint (parallel axes), and the joint in its parent's frame.
        const Mat3 J = l.central_inertia + l.mass * (l.centre.squaredNorm() * Mat3::Identity() - l.centre * l.centre.transpose());
        const Vec3 joint = i > 0 ? c.links[i - 1].child : c.pivot.value_or(Vec3::Zero());
        links_.push_back(link(l.mass, l.centre, J, joint));
      }
      set(d.gravity, c.gravity);
      d.pivot = c.pivot ? 1 : 0;
      torque_free_ = c.gravity.isZero();
    } else {
      // One body: the problem's own J, about the body origin (the pivot of a top), with the body's
      // mass, centre and gravity (engine_body.hpp; body_of has checked that it is a body).
      const EngineBody b = body_of(p);
      links_.push_back(link(b.mass, b.centre, p.inertia(), Vec3::Zero()));
      set(d.gravity, b.gravity);
      d.pivot = b.pivot ? 1 : 0;
    }
    d.links = int(links_.size());
    d.link = links_.data();
    char err[512] = "";
    model_ = api_->create(&d, v.method, err, sizeof err);
    if (!model_) throw std::runtime_error(cat("Simbody refused the model: ", err));
  }
  ~Simbody() override { api_->destroy(model_); }
  Simbody(const Simbody&) = delete;
  Simbody& operator=(const Simbody&) = delete;

  const SchemeInfo& info() const override { return *info_; }

  // Each link's rotation and angular velocity in world components, omega = R W, and a free chain's
  // link 0 origin (its centre of mass) and velocity (the model sets them through Simbody's own
  // setters: no convention of the mobilizers' q and u is assumed).
  void reset(const State& x0, double t0) override {
    std::vector<double> r, o;
    pack_attitudes(x0, r, o);
    double x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
    if (chain_) set(x, x0.bodies[0].x), set(v, x0.bodies[0].v);
    char err[512] = "";
    if (api_->reset(model_, r.data(), o.data(), x, v, t0, err, sizeof err) != 0)
      throw std::runtime_error(cat("Simbody: ", err));
  }

  StepStatus step(double t, double h) override {
    char err[512] = "";
    return api_->step(model_, t, h, err, sizeof err) == 0 ? StepStatus::success()
                                                          : StepStatus::breakdown(cat("Simbody: ", err));
  }

  // An exception of Simbody's here (a state it cannot realize) is thrown on as the scheme's: the
  // driver makes it the pair's breakdown (integrators/integrate.hpp). A chain's positions and their
  // velocities are placed by its joints from the attitudes read (and link 0's centre of mass).
  void read(State& x) const override {
    std::vector<double> r(9 * links_.size()), o(3 * links_.size());
    double p[3], v[3];
    char err[512] = "";
    if (api_->read(model_, r.data(), o.data(), p, v, err, sizeof err) != 0) throw std::runtime_error(cat("Simbody: ", err));
    unpack_attitudes(r, o, x);
    if (!chain_) return;
    x.bodies[0].x = Vec3(p[0], p[1], p[2]);
    x.bodies[0].v = Vec3(v[0], v[1], v[2]);
    place_chain(*chain_, x);
  }

  // Simbody's realizations through the acceleration stage: its force evaluations.
  Counters counters() const override {
    return {.load_evaluations = torque_free_ ? 0 : std::uint64_t(api_->realizations(model_))};
  }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  static void set(double (&to)[3], const Vec3& v) {
    for (int i = 0; i < 3; ++i) to[i] = v[i];
  }
  static rigidbench_simbody_link link(double mass, const Vec3& centre, const Mat3& J, const Vec3& joint) {
    rigidbench_simbody_link l{};
    l.mass = mass;
    set(l.centre, centre);
    set(l.joint, joint);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) l.inertia[i][j] = J(i, j);
    return l;
  }

  const rigidbench_simbody_api* api_;
  const SchemeInfo* info_;
  bool torque_free_;
  const ChainData* chain_ = nullptr;  // a spherical_chain's joints (x and v are placed by them)
  std::vector<rigidbench_simbody_link> links_;
  rigidbench_simbody_model* model_ = nullptr;  // read() realizes Simbody's cache
};

/// The integrator's class name, the first word of its description.
std::string class_name(const Variant& v) {
  const std::string w = v.what;
  return w.substr(0, w.find(','));
}

}  // namespace

// The version the plugin was configured against (find_package(Simbody)); the plugin itself reports
// the version of the library it runs, the same package.
std::string simbody_version() { return RIGIDBENCH_SIMBODY_VERSION; }

void register_simbody() {
  for (const Variant& v : kVariants) {
    SchemeInfo info{
        .name = v.name,
        .title = keep(cat("Simbody ", simbody_version(), ", ", class_name(v))),
        .source = keep(cat("Simbody ", simbody_version(), " (Debian libsimbody-dev; [SSD11]): ", v.what, " (simmath/",
                           class_name(v), ".h); fixed step, quaternion projected every step")),
        .representation = "Simbody's State: a Free or Ball mobilizer's quaternion q and generalized speeds u; a "
                          "chain: a Ball mobilizer per link (minimal coordinates)",
        .order = v.order,
        .kind = v.kind,
        .applies = {.families = {"rigid_body", "spherical_chain"}, .refuses = refusal},
        // setProjectEveryStep(true): the quaternion is normalised after every step. On a chain,
        // minimal coordinates: the joints are kept by construction.
        .claims = {.constraint = Claim::exact},
        .notes = "Physics engine, stepped by Integrator::stepTo to the grid's next time at a fixed step "
                 "(setFixedStepSize), projection every step, no interpolation; the order is the one in Simbody's "
                 "own header comment (docs/engines.md, \"Simbody\"); on request only (20-90 us a step)",
        .version = keep(cat("Simbody ", simbody_version()))};
    // 20-90 us a step: on request (by name or glob), not in "all" - a quick-suite ladder of an
    // order-1 variant on dzhanibekov would take minutes (docs/engines.md, "Simbody").
    register_variant(
        std::move(info), [&v](const Problem& p, const SchemeSettings&, const SchemeInfo& i) -> std::unique_ptr<AnyIntegrator> {
          return std::make_unique<Simbody>(p, v, i);
        },
        false);
  }
}

}  // namespace rigidbench::engines
