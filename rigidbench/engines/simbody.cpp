// Simbody (M. Sherman, A. Seth, S. Delp, "Simbody: multibody dynamics for biomedical research",
// Procedia IUTAM 2 (2011); [SSD11]), as Debian ships it (libsimbody-dev), judged as eight schemes:
// its integrators (SimTK::Integrator subclasses) at a fixed step, with the quaternion projected at
// every step (docs/engines.md, "Simbody").
//
// The model is what a Simbody user writes: a Body::Rigid with its mass properties about the body
// origin, on a MobilizedBody::Free (a torque-free body) or a MobilizedBody::Ball at the pivot (a top),
// and Force::UniformGravity as the problem's field.
#include <memory>
#include <string>

#include "rigidbench/engines/engine_body.hpp"
#include "rigidbench/engines/engines.hpp"
#include "rigidbench/engines/simbody_model.hpp"
#include "rigidbench/integrators/registry.hpp"

namespace rigidbench::engines {

namespace {

using simbody::Method;

struct Variant {
  const char* name;
  Method method;
  int order;  // as Simbody's own documentation states it (the class's header comment)
  SchemeKind kind;
  const char* what;
};

constexpr Variant kVariants[] = {
    {"simbody_explicit_euler", Method::explicit_euler, 1, SchemeKind::explicit_, "ExplicitEulerIntegrator, 'first order explicit'"},
    {"simbody_semi_explicit_euler", Method::semi_explicit_euler, 1, SchemeKind::semi_implicit,
     "SemiExplicitEulerIntegrator, 'a first order method' (velocities, then positions with the new velocities)"},
    {"simbody_semi_explicit_euler2", Method::semi_explicit_euler2, 1, SchemeKind::semi_implicit,
     "SemiExplicitEuler2Integrator, 'first-order semi-explicit Euler', the result of two half-steps (the full "
     "step serves the error estimate only)"},
    {"simbody_rk2", Method::rk2, 2, SchemeKind::explicit_, "RungeKutta2Integrator, 'second order, two stage explicit'"},
    {"simbody_rk3", Method::rk3, 3, SchemeKind::explicit_,
     "RungeKutta3Integrator, 'third order, three stage explicit' (Butcher 1987)"},
    {"simbody_rk_merson", Method::merson, 4, SchemeKind::explicit_,
     "RungeKuttaMersonIntegrator, 'fourth order explicit'"},
    {"simbody_rk_feldberg", Method::feldberg, 5, SchemeKind::explicit_,
     "RungeKuttaFeldbergIntegrator, 'fifth order explicit'"},
    {"simbody_verlet", Method::verlet, 3, SchemeKind::semi_implicit,
     "VerletIntegrator, velocity Verlet, 'a third order, semi-explicit integrator'"},
};

class Simbody final : public AnyIntegrator {
 public:
  Simbody(const Problem& p, const Variant& v, const SchemeInfo& info)
      : info_(&info), torque_free_(p.fields().empty()), model_(data(p, body_of(p)), v.method) {}

  const SchemeInfo& info() const override { return *info_; }

  // The rotation and the angular velocity in world components, omega = R W (the model sets them
  // through Simbody's own setters: no convention of the mobilizers' q and u is assumed).
  void reset(const State& x0, double t0) override {
    const Mat3& R = x0.body().R;
    const Vec3 w = R * x0.body().W;
    double r[9], o[3] = {w.x(), w.y(), w.z()};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r[3 * i + j] = R(i, j);
    model_.reset(r, o, t0);
  }

  StepStatus step(double t, double h) override {
    std::string why = model_.step(t, h);
    return why.empty() ? StepStatus::success() : StepStatus::breakdown(cat("Simbody: ", why));
  }

  void read(State& x) const override {
    double r[9], o[3];
    model_.read(r, o);
    Mat3 R;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j) = r[3 * i + j];
    x.body().R = R;
    x.body().W = R.transpose() * Vec3(o[0], o[1], o[2]);
  }

  // Simbody's realizations through the acceleration stage: its force evaluations.
  Counters counters() const override { return {.load_evaluations = torque_free_ ? 0 : model_.realizations()}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  // Simbody takes the inertia about the body origin (the pivot of a top): the problem's own J, with
  // the body's mass, centre and gravity (engine_body.hpp; body_of has checked that it is a body).
  static simbody::BodyData data(const Problem& p, const EngineBody& b) {
    simbody::BodyData d{};
    const Mat3& J = p.inertia();
    d.mass = b.mass;
    for (int i = 0; i < 3; ++i) {
      d.centre[i] = b.centre[i];
      d.gravity[i] = b.gravity[i];
      for (int j = 0; j < 3; ++j) d.inertia[i][j] = J(i, j);
    }
    d.pivot = b.pivot;
    return d;
  }

  const SchemeInfo* info_;
  bool torque_free_;
  mutable simbody::Model model_;  // read() realizes Simbody's cache
};

/// The integrator's class name, the first word of its description.
std::string class_name(const Variant& v) {
  const std::string w = v.what;
  return w.substr(0, w.find(','));
}

}  // namespace

std::string simbody_version() { return simbody::version(); }

void register_simbody() {
  for (const Variant& v : kVariants) {
    SchemeInfo info{
        .name = v.name,
        .title = keep(cat("Simbody ", simbody_version(), ", ", class_name(v))),
        .source = keep(cat("Simbody ", simbody_version(), " (Debian libsimbody-dev; [SSD11]): ", v.what, " (simmath/",
                           class_name(v), ".h); fixed step, quaternion projected every step")),
        .representation = "Simbody's State: a Free or Ball mobilizer's quaternion q and generalized speeds u",
        .order = v.order,
        .kind = v.kind,
        .applies = {.families = {"rigid_body"}, .refuses = refusal},
        // setProjectEveryStep(true): the quaternion is normalised after every step.
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
