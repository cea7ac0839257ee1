// The Open Dynamics Engine (R. Smith, ODE, https://www.ode.org; [Smith]), as Debian ships it
// (libode-dev, double precision), judged as two schemes: its steppers dWorldStep (a direct solve of
// the constraint forces) and dWorldQuickStep (iterative, SOR), each with ODE's per-body switches as
// settings: the gyroscopic term and the finite rotation mode (docs/engines.md, "ODE").
//
// The model is what an ODE user writes for these problems: one body with its mass and inertia about
// the centre of mass (ODE requires the centre of mass at the body's origin), free, or on a ball
// joint at the pivot (a top), or a chain of such bodies joined by ball joints (maximal coordinates:
// every body's pose, the joints as constraints), gravity as the problem's field; auto-disabling, damping and the angular
// speed limit off; no collision. The pivot's error reduction (ERP) and constraint force mixing (CFM)
// are 0 by default, so that no correction force enters the equations (setting joint_erp).
#include <ode/ode.h>

#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/quaternion.hpp"
#include "../problems/families/spherical_chain.hpp"
#include "engine_body.hpp"
#include "engines.hpp"
#include "../integrators/registry.hpp"

namespace rigidbench::engines {

namespace {

// ---- faults (docs/engines.md, "Faults") ----------------------------------------------------------
// ODE's dError and dDebug abort the process by default; here they throw, and the step that called
// ODE is a breakdown with ODE's message (ODE is C++: the exception unwinds through its frames).
// dMessage (warnings, e.g. LCP non-convergence) is kept as the next breakdown's context rather than
// printed to standard output.
struct OdeFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};
thread_local std::string last_message;

void format(char* out, std::size_t n, int num, const char* msg, va_list ap) {
  const int k = std::snprintf(out, n, "ODE %d: ", num);
  std::vsnprintf(out + k, n - std::size_t(k), msg, ap);
}
void on_error(int num, const char* msg, va_list ap) {
  char buf[512];
  format(buf, sizeof buf, num, msg, ap);
  throw OdeFault(buf);
}
void on_message(int num, const char* msg, va_list ap) {
  char buf[512];
  format(buf, sizeof buf, num, msg, ap);
  last_message = buf;
}

struct Variant {
  const char* name;
  const char* stepper;
  bool quick;
  const char* what;
};

// ODE's manual (ode.org wiki, "Manual: World", "Manual: Rigid Body Functions"): dWorldStep "uses a
// 'big matrix' method", dWorldQuickStep "uses an iterative method"; both integrate the velocities
// and then the positions with the new velocities, a first-order (semi-implicit Euler) update.
constexpr Variant kVariants[] = {
    {"ode_step", "dWorldStep", false,
     "dWorldStep: constraint forces by a direct (big-matrix LCP) solve, then v += h M^-1 f and the pose "
     "integrated with the new velocities, first order"},
    {"ode_quickstep", "dWorldQuickStep", true,
     "dWorldQuickStep: constraint forces by successive over-relaxation (20 iterations), then the same "
     "first-order update as dWorldStep"},
};

const SettingInfo kGyroscopic{"gyroscopic", "ODE's gyroscopic term (dBodySetGyroscopicMode): 1 (ODE's default) or 0",
                              1, 0, 1, true};
const SettingInfo kFiniteRotation{"finite_rotation",
                                  "ODE's orientation update (dBodySetFiniteRotationMode): 0 infinitesimal (ODE's "
                                  "default), 1 finite (exponential about the whole angular velocity)",
                                  0, 0, 1, true};
const SettingInfo kJointErp{"joint_erp",
                            "error reduction of the ball joints, a top's pivot or a chain's joints (dParamERP): 0 "
                            "(no correction force, the default) to 1; ODE's own default is 0.2",
                            0, 0, 1};

void initialise_ode() {
  static std::once_flag once;
  std::call_once(once, [] {
    dInitODE2(0);
    dSetErrorHandler(on_error);
    dSetDebugHandler(on_error);
    dSetMessageHandler(on_message);
  });
  dAllocateODEDataForThread(dAllocateMaskAll);  // per thread; a no-op once done
}

class Ode final : public AnyIntegrator {
 public:
  Ode(const Problem& p, const SchemeSettings& set, const Variant& v, const SchemeInfo& info)
      : info_(&info), v_(&v) {
    std::vector<EngineLink> links;
    if (p.of_family("spherical_chain")) {
      chain_ = &chain_data(p);
      const EngineChain c = chain_of(p);
      links = c.links;
      body_.gravity = c.gravity;
      body_.pivot = c.pivot.has_value();
    } else {
      body_ = body_of(p);
      links = {EngineLink{body_.mass, body_.central_inertia, body_.centre, Vec3::Zero()}};
    }
    initialise_ode();
    world_ = dWorldCreate();
    // ODE's default stepping "threading" is one self-threaded job list shared by every world, with
    // no locks (dxFakeMutex): two worlds stepped on two threads corrupt it (a crash found by running
    // levels in parallel). Each world gets its own.
    threading_ = dThreadingAllocateSelfThreadedImplementation();
    dWorldSetStepThreadingImplementation(world_, dThreadingImplementationGetFunctions(threading_), threading_);
    const Vec3& g = body_.gravity;
    dWorldSetGravity(world_, g.x(), g.y(), g.z());
    dWorldSetCFM(world_, 0);
    dWorldSetAutoDisableFlag(world_, 0);
    dWorldSetLinearDamping(world_, 0);
    dWorldSetAngularDamping(world_, 0);
    dWorldSetMaxAngularSpeed(world_, dInfinity);
    for (const EngineLink& l : links) {
      const dBodyID b = dBodyCreate(world_);
      dMass m;
      const Mat3& I = l.central_inertia;
      dMassSetParameters(&m, l.mass, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
      dBodySetMass(b, &m);
      dBodySetGyroscopicMode(b, set.get(kGyroscopic) != 0);
      dBodySetFiniteRotationMode(b, set.get(kFiniteRotation) != 0);
      dBodySetFiniteRotationAxis(b, 0, 0, 0);
      bodies_.push_back(b);
    }
    body_id_ = bodies_[0];
    // Joint 0 holds body 0 to the pivot (a top's, or a pivoted chain's); joint i >= 1 body i to i - 1.
    for (std::size_t i = body_.pivot ? 0 : 1; i < (chain_ ? bodies_.size() : std::size_t(body_.pivot)); ++i)
      joints_.push_back(dJointCreateBall(world_, nullptr));
    erp_ = set.get(kJointErp);
  }
  Ode(const Ode&) = delete;
  Ode& operator=(const Ode&) = delete;
  ~Ode() override {
    // A world whose step raised an ODE error is left as it is, its memory lost: ODE's own clean-up
    // asserts again on the state the error left (a job list still in use), inside a destructor.
    // (The sanitize preset's LeakSanitizer suppresses ODE's leaks for this: tests/lsan-suppressions.txt.)
    if (faulted_) return;
    dWorldSetStepThreadingImplementation(world_, nullptr, nullptr);
    dThreadingFreeImplementation(threading_);
    dWorldDestroy(world_);  // and the body and the joint
  }

  const SchemeInfo& info() const override { return *info_; }

  // ODE's body origin is the centre of mass, at x = R c from the pivot (the world origin); its
  // quaternion is (w, x, y, z), body -> world, as R; its angular velocity is in world components,
  // omega = R W, and the centre of mass moves with v = omega x (R c).
  void reset(const State& x0, double) override {
    if (faulted_) return;  // every step says why
    initialise_ode();
    if (chain_) return reset_chain(x0);
    const Mat3& R = x0.body().R;
    const Vec4 q = quat::from_matrix(R);
    const dQuaternion dq = {q[0], q[1], q[2], q[3]};
    dBodySetQuaternion(body_id_, dq);
    const Vec3 r = R * body_.centre, w = R * x0.body().W, v = w.cross(r);
    dBodySetPosition(body_id_, r.x(), r.y(), r.z());
    dBodySetAngularVel(body_id_, w.x(), w.y(), w.z());
    dBodySetLinearVel(body_id_, v.x(), v.y(), v.z());
    dBodySetForce(body_id_, 0, 0, 0);
    dBodySetTorque(body_id_, 0, 0, 0);
    if (!joints_.empty()) attach(joints_[0], body_id_, nullptr, Vec3::Zero());
    loads_ = 0;
    random_ = 0;  // ODE's own initial seed: every run starts the same sequence
  }

  StepStatus step(double, double h) override {
    if (faulted_) return StepStatus::breakdown(cat("ODE: an earlier step raised an error: ", fault_));
    last_message.clear();
    try {
      const int ok = v_->quick ? quick_step(h) : dWorldStep(world_, h);
      if (!ok) return StepStatus::breakdown(cat("ODE: ", v_->stepper, " failed (out of memory)"));
    } catch (const OdeFault& e) {
      // The world is not used again, not even reset: a new level makes a new one.
      faulted_ = true;
      fault_ = e.what();
      return StepStatus::breakdown(fault_);
    }
    for (const dBodyID b : bodies_) {
      const dReal* q = dBodyGetQuaternion(b);
      const dReal* w = dBodyGetAngularVel(b);
      for (int i = 0; i < 4; ++i)
        if (!std::isfinite(q[i])) return non_finite();
      for (int i = 0; i < 3; ++i)
        if (!std::isfinite(w[i])) return non_finite();
    }
    if (!body_.gravity.isZero()) ++loads_;
    return StepStatus::success();
  }

  void read(State& x) const override {
    if (chain_) {
      // Maximal coordinates: every body's pose and velocities as ODE holds them; the joints' drift is
      // the problem's joint_separation.
      x.bodies.resize(bodies_.size());
      for (std::size_t i = 0; i < bodies_.size(); ++i) {
        const dReal* q = dBodyGetQuaternion(bodies_[i]);
        const dReal *w = dBodyGetAngularVel(bodies_[i]), *r = dBodyGetPosition(bodies_[i]),
                    *v = dBodyGetLinearVel(bodies_[i]);
        BodyState& b = x.bodies[i];
        b.R = quat::to_matrix(Vec4(q[0], q[1], q[2], q[3]));
        b.W = b.R.transpose() * Vec3(w[0], w[1], w[2]);
        b.x = Vec3(r[0], r[1], r[2]);
        b.v = Vec3(v[0], v[1], v[2]);
      }
      return;
    }
    const dReal* q = dBodyGetQuaternion(body_id_);
    const dReal* w = dBodyGetAngularVel(body_id_);
    const Mat3 R = quat::to_matrix(Vec4(q[0], q[1], q[2], q[3]));
    x.body().R = R;
    x.body().W = R.transpose() * Vec3(w[0], w[1], w[2]);
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  /// Attaches joint j to bodies a and b (b null: the world) at the world point `anchor`, after the
  /// bodies are placed: the anchor is then the same point in both frames.
  void attach(dJointID j, dBodyID a, dBodyID b, const Vec3& anchor) const {
    dJointAttach(j, nullptr, nullptr);
    dJointAttach(j, a, b);
    dJointSetBallAnchor(j, anchor.x(), anchor.y(), anchor.z());
    dJointSetBallParam(j, dParamERP, erp_);
    dJointSetBallParam(j, dParamCFM, 0);
  }

  /// A chain's bodies at their centres of mass, world angular velocity omega = R W, and its joints
  /// at the world points of the inboard anchors x_i + R_i a_i.
  void reset_chain(const State& x0) {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const BodyState& s = x0.bodies[i];
      const Vec4 q = quat::from_matrix(s.R);
      const dQuaternion dq = {q[0], q[1], q[2], q[3]};
      dBodySetQuaternion(bodies_[i], dq);
      const Vec3 w = s.R * s.W;
      dBodySetPosition(bodies_[i], s.x.x(), s.x.y(), s.x.z());
      dBodySetAngularVel(bodies_[i], w.x(), w.y(), w.z());
      dBodySetLinearVel(bodies_[i], s.v.x(), s.v.y(), s.v.z());
      dBodySetForce(bodies_[i], 0, 0, 0);
      dBodySetTorque(bodies_[i], 0, 0, 0);
    }
    std::size_t k = 0;
    for (std::size_t i = body_.pivot ? 0 : 1; i < bodies_.size(); ++i, ++k)
      attach(joints_[k], bodies_[i], i > 0 ? bodies_[i - 1] : nullptr,
             x0.bodies[i].x + x0.bodies[i].R * chain_->inboard[i]);
    loads_ = 0;
    random_ = 0;
  }

  StepStatus non_finite() const {
    return StepStatus::breakdown(cat("ODE: ", v_->stepper, " gave a non-finite state",
                                     last_message.empty() ? std::string() : cat(" (", last_message, ")")));
  }

  const SchemeInfo* info_;
  const Variant* v_;
  EngineBody body_;
  dWorldID world_ = nullptr;
  dThreadingImplementationID threading_ = nullptr;
  dBodyID body_id_ = nullptr;  // bodies_[0]
  std::vector<dBodyID> bodies_;
  std::vector<dJointID> joints_;
  const ChainData* chain_ = nullptr;  // a spherical_chain's joints
  double erp_ = 0;
  std::uint64_t loads_ = 0;
  /// dWorldQuickStep orders the constraint rows of each sweep at random from ODE's one global
  /// generator (dRandInt), so a world's run depended on how many draws every other world had taken
  /// before it, on any thread: ode_quickstep's errors changed with --jobs and between processes
  /// (measured: 1e-8 relative on heavy_top_realisable). Each world keeps its own stream, set before
  /// and read back after its step under one lock.
  /// The lock is a spin lock: held for one step (~2 us), it costs a few instructions where a mutex
  /// cost 2 % of the step's (the gate's instruction count).
  int quick_step(double h) {
    static std::atomic_flag random_lock;
    while (random_lock.test_and_set(std::memory_order_acquire)) {
    }
    struct Release {
      ~Release() { random_lock.clear(std::memory_order_release); }
    } release;  // also when ODE's error handler throws out of the step
    dRandSetSeed(random_);
    const int ok = dWorldQuickStep(world_, h);
    random_ = dRandGetSeed();
    return ok;
  }
  unsigned long random_ = 0;  // this world's position in ODE's random sequence
  bool faulted_ = false;
  std::string fault_;
};


}  // namespace

std::string ode_version() { return dODE_VERSION; }

void register_ode() {
  initialise_ode();
  for (const Variant& v : kVariants) {
    register_variant(SchemeInfo{
        .name = v.name,
        .title = keep(cat("ODE ", ode_version(), ", ", v.stepper)),
        .source = keep(cat("ODE ", ode_version(), " (Debian libode-dev, double precision; [Smith] R. Smith, Open "
                           "Dynamics Engine): ", v.what, "; manual: World, Rigid Body Functions")),
        .representation = "ODE's body: quaternion (w, x, y, z) and world angular velocity, centre-of-mass position "
                          "and velocity, a ball joint at a top's pivot",
        .order = 1,
        .kind = SchemeKind::semi_implicit,
        .applies = {.families = {"rigid_body", "spherical_chain"}, .refuses = refusal},
        // Both orientation updates normalise the quaternion: R stays on SO(3). On a chain the joints
        // are constraints in maximal coordinates, held only to the stepper's accuracy (joint_erp pulls
        // them back): no constraint claim there, the joints' separation is measured.
        .claims = {.constraint = Claim::exact},
        .notes = "Physics engine, stepped by dWorldStep / dWorldQuickStep; no collision, auto-disable, damping or "
                 "speed limit; a top's pivot without error reduction unless joint_erp is set (docs/engines.md)",
        .settings = {kGyroscopic, kFiniteRotation, kJointErp},
        .version = keep(cat("ODE ", ode_version())),
        .family_claims = {{"spherical_chain", {}}}},
        [&v](const Problem& p, const SchemeSettings& set, const SchemeInfo& info) {
          return std::make_unique<Ode>(p, set, v, info);
        });
  }
}

}  // namespace rigidbench::engines
