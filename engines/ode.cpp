// The Open Dynamics Engine (R. Smith, ODE, https://www.ode.org; [Smith]), as Debian ships it
// (libode-dev, double precision), judged as two schemes: its steppers dWorldStep (a direct solve of
// the constraint forces) and dWorldQuickStep (iterative, SOR), each with ODE's per-body switches as
// settings: the gyroscopic term and the finite rotation mode (docs/engines.md, "ODE").
//
// The model is what an ODE user writes for these problems: one body with its mass and inertia about
// the centre of mass (ODE requires the centre of mass at the body's origin), free, or on a ball
// joint at the pivot (a top), gravity as the problem's field; auto-disabling, damping and the angular
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

#include "../core/quaternion.hpp"
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
                            "error reduction of a top's pivot (dParamERP): 0 (no correction force, the default) "
                            "to 1; ODE's own default is 0.2",
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
      : info_(&info), v_(&v), body_(body_of(p)) {
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
    body_id_ = dBodyCreate(world_);
    dMass m;
    const Mat3& I = body_.central_inertia;
    dMassSetParameters(&m, body_.mass, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
    dBodySetMass(body_id_, &m);
    dBodySetGyroscopicMode(body_id_, set.get(kGyroscopic) != 0);
    dBodySetFiniteRotationMode(body_id_, set.get(kFiniteRotation) != 0);
    dBodySetFiniteRotationAxis(body_id_, 0, 0, 0);
    if (body_.pivot) {
      joint_ = dJointCreateBall(world_, nullptr);
      erp_ = set.get(kJointErp);
    }
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
    if (joint_) {
      // Attached after the body is placed: the anchor is then the pivot in both frames.
      dJointAttach(joint_, nullptr, nullptr);
      dJointAttach(joint_, body_id_, nullptr);
      dJointSetBallAnchor(joint_, 0, 0, 0);
      dJointSetBallParam(joint_, dParamERP, erp_);
      dJointSetBallParam(joint_, dParamCFM, 0);
    }
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
    const dReal* q = dBodyGetQuaternion(body_id_);
    const dReal* w = dBodyGetAngularVel(body_id_);
    for (int i = 0; i < 4; ++i)
      if (!std::isfinite(q[i])) return non_finite();
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(w[i])) return non_finite();
    if (!body_.gravity.isZero()) ++loads_;
    return StepStatus::success();
  }

  void read(State& x) const override {
    const dReal* q = dBodyGetQuaternion(body_id_);
    const dReal* w = dBodyGetAngularVel(body_id_);
    const Mat3 R = quat::to_matrix(Vec4(q[0], q[1], q[2], q[3]));
    x.body().R = R;
    x.body().W = R.transpose() * Vec3(w[0], w[1], w[2]);
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  StepStatus non_finite() const {
    return StepStatus::breakdown(cat("ODE: ", v_->stepper, " gave a non-finite state",
                                     last_message.empty() ? std::string() : cat(" (", last_message, ")")));
  }

  const SchemeInfo* info_;
  const Variant* v_;
  EngineBody body_;
  dWorldID world_ = nullptr;
  dThreadingImplementationID threading_ = nullptr;
  dBodyID body_id_ = nullptr;
  dJointID joint_ = nullptr;
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
        .applies = {.families = {"rigid_body"}, .refuses = refusal},
        // Both orientation updates normalise the quaternion: R stays on SO(3).
        .claims = {.constraint = Claim::exact},
        .notes = "Physics engine, stepped by dWorldStep / dWorldQuickStep; no collision, auto-disable, damping or "
                 "speed limit; a top's pivot without error reduction unless joint_erp is set (docs/engines.md)",
        .settings = {kGyroscopic, kFiniteRotation, kJointErp},
        .version = keep(cat("ODE ", ode_version()))},
        [&v](const Problem& p, const SchemeSettings& set, const SchemeInfo& info) {
          return std::make_unique<Ode>(p, set, v, info);
        });
  }
}

}  // namespace rigidbench::engines
