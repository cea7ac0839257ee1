// MuJoCo (Todorov, Erez & Tassa, "MuJoCo: a physics engine for model-based control", IROS 2012), as
// Debian ships it (libmujoco-dev), judged as three schemes: its integrators mjINT_EULER, mjINT_RK4
// and mjINT_IMPLICIT, each stepping one body through mj_step (docs/engines.md, "MuJoCo").
//
// The model is what a MuJoCo user writes for these problems: one body with <inertial> (mass, centre
// of mass, full central inertia) on a <freejoint/> (a torque-free body) or a ball joint at the pivot
// (a top), gravity as the problem's field, contacts and constraints disabled, no damping or armature
// (MuJoCo's defaults are zero). Nothing but mj_step advances it.
#include <mujoco/mujoco.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>

#include "../core/quaternion.hpp"
#include "engine_body.hpp"
#include "engines.hpp"
#include "../integrators/registry.hpp"

namespace rigidbench::engines {

namespace {

// ---- faults (docs/engines.md, "Faults") ----------------------------------------------------------
// mj_step never stops on a bad number: mj_checkPos, mj_checkVel and mj_checkAcc reset mjData to the
// model's initial state, count a warning in mjData.warning[] and call mju_user_warning, which
// prints to stdout by default. A reset state read as a result would be a silently wrong trajectory,
// so every step compares the warning counters and is a breakdown with MuJoCo's own text when one
// rose; the text is kept here instead of being printed. mju_error (MuJoCo's fatal errors: its stack
// or memory exhausted) exits the process by default: here it jumps back to the step that called
// MuJoCo, through MuJoCo's C frames only, and that step is a breakdown.
thread_local std::string last_warning;
thread_local std::string last_error;
thread_local std::jmp_buf* error_target = nullptr;

void on_warning(const char* msg) { last_warning = msg; }

void on_error(const char* msg) {
  last_error = msg;
  if (error_target) std::longjmp(*error_target, 1);
  std::fprintf(stderr, "rigidbench: MuJoCo error outside a step: %s\n", msg);
  std::abort();
}

/// mj_step, or false when MuJoCo raised an error during it (last_error says which).
bool guarded_step(const mjModel* m, mjData* d) {
  std::jmp_buf env;
  std::jmp_buf* const outer = error_target;
  error_target = &env;
  if (setjmp(env) != 0) {
    error_target = outer;
    return false;
  }
  mj_step(m, d);
  error_target = outer;
  return true;
}

constexpr int kWatched[] = {mjWARN_INERTIA, mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC};
constexpr const char* kWatchedName[] = {"mjWARN_INERTIA", "mjWARN_BADQPOS", "mjWARN_BADQVEL", "mjWARN_BADQACC"};

// ---- the model -------------------------------------------------------------------------------------
std::string num(double x) { return format_number(x, 17); }

/// The MJCF text of p's body (docs/engines.md, "MuJoCo": the model, annotated).
std::string mjcf(const EngineBody& b, const char* integrator, bool free_joint) {
  const Mat3& I = b.central_inertia;
  std::ostringstream x;
  x << "<mujoco model='rigidbench'>"
    << "<option timestep='0.001' integrator='" << integrator << "' gravity='" << num(b.gravity.x()) << ' '
    << num(b.gravity.y()) << ' ' << num(b.gravity.z()) << "'>"
    << "<flag contact='disable' constraint='disable' limit='disable'/></option>"
    << "<worldbody><body name='body' pos='0 0 0'>" << (free_joint ? "<freejoint/>" : "<joint type='ball' pos='0 0 0'/>")
    << "<inertial pos='" << num(b.centre.x()) << ' ' << num(b.centre.y()) << ' ' << num(b.centre.z()) << "' mass='"
    << num(b.mass) << "' fullinertia='" << num(I(0, 0)) << ' ' << num(I(1, 1)) << ' ' << num(I(2, 2)) << ' '
    << num(I(0, 1)) << ' ' << num(I(0, 2)) << ' ' << num(I(1, 2)) << "'/>"
    << "</body></worldbody></mujoco>";
  return x.str();
}

/// Compiles MJCF text from memory (a virtual file system, so nothing touches the disk).
mjModel* compile(const std::string& xml) {
  static std::mutex mu;  // MuJoCo 2.2 does not document its XML compiler as thread-safe
  const std::lock_guard lock(mu);
  auto vfs = std::make_unique<mjVFS>();  // ~2 MB: not on the stack
  mj_defaultVFS(vfs.get());
  if (mj_makeEmptyFileVFS(vfs.get(), "rigidbench.xml", int(xml.size())) != 0)
    throw std::logic_error("MuJoCo: could not make the model's virtual file");
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), "rigidbench.xml")], xml.data(), xml.size());
  char err[1000] = "";
  mjModel* m = mj_loadXML("rigidbench.xml", vfs.get(), err, sizeof err);
  mj_deleteVFS(vfs.get());
  if (!m) throw InputError(cat("MuJoCo refused the model (", err, "): ", xml));
  return m;
}

struct Variant {
  const char* name;
  const char* integrator;  // MJCF's name of the mjtIntegrator
  int order;
  SchemeKind kind;
  int stages;  // force evaluations per step (mj_forward passes)
  const char* what;
};

// MuJoCo's own words for its integrators: mjmodel.h's mjtIntegrator ("semi-implicit Euler",
// "4th-order Runge Kutta", "implicit in velocity") and the documentation's Computation chapter,
// section "Numerical integration". The orders are the methods' textbook orders: the documentation
// states none, which is what rigidbench measures.
constexpr Variant kVariants[] = {
    {"mujoco_euler", "Euler", 1, SchemeKind::semi_implicit, 1,
     "mjINT_EULER, 'semi-implicit Euler' (mjmodel.h): qvel += h qacc(qpos, qvel), then qpos is integrated "
     "with the new qvel (the quaternion by the exponential of h times the body angular velocity, normalised)"},
    {"mujoco_rk4", "RK4", 4, SchemeKind::explicit_, 4,
     "mjINT_RK4, '4th-order Runge Kutta' (mjmodel.h): the classical tableau on (qpos, qvel); every stage's "
     "qpos and the new qpos are integrated from the step's start with the tableau's combination of stage "
     "velocities (mj_RungeKutta, mj_integratePos)"},
    {"mujoco_implicit", "implicit", 1, SchemeKind::implicit, 1,
     "mjINT_IMPLICIT, 'implicit in velocity' (mjmodel.h): qvel += h (M - h D)^-1 f, D the derivative of the "
     "smooth forces (here Coriolis and centripetal) with respect to qvel; one linear solve, no iteration"},
};

const SettingInfo kBallJoint{"ball_joint",
                             "1: a torque-free body on a ball joint at its centre of mass instead of a free joint "
                             "(a top is always on a ball joint at its pivot)",
                             0, 0, 1, true};

class Mujoco final : public AnyIntegrator {
 public:
  Mujoco(const Problem& p, const SchemeSettings& set, const Variant& v, const SchemeInfo& info)
      : info_(&info), v_(&v), torque_free_(p.fields().empty()) {
    const EngineBody b = body_of(p);
    free_ = !b.pivot && set.get(kBallJoint) == 0;
    m_ = compile(mjcf(b, v.integrator, free_));
    d_ = mj_makeData(m_);
    if (!d_) {
      mj_deleteModel(m_);
      throw std::bad_alloc();
    }
  }
  Mujoco(const Mujoco&) = delete;
  Mujoco& operator=(const Mujoco&) = delete;
  ~Mujoco() override {
    mj_deleteData(d_);
    mj_deleteModel(m_);
  }

  const SchemeInfo& info() const override { return *info_; }

  void reset(const State& x0, double t0) override {
    mj_resetData(m_, d_);
    // MuJoCo's quaternion is (w, x, y, z) and rotates body into world components, as R does; its
    // angular velocity of a ball or free joint is in body (local) components, as W is.
    const Vec4 q = quat::from_matrix(x0.body().R);
    for (int i = 0; i < 4; ++i) d_->qpos[qa() + i] = q[i];
    for (int i = 0; i < 3; ++i) d_->qvel[va() + i] = x0.body().W[i];
    d_->time = t0;
    loads_ = 0;
  }

  StepStatus step(double t, double h) override {
    m_->opt.timestep = h;
    d_->time = t;
    int before[std::size(kWatched)];
    for (std::size_t i = 0; i < std::size(kWatched); ++i) before[i] = d_->warning[kWatched[i]].number;
    if (!guarded_step(m_, d_)) return StepStatus::breakdown(cat("MuJoCo: ", last_error));
    for (std::size_t i = 0; i < std::size(kWatched); ++i)
      if (d_->warning[kWatched[i]].number != before[i])
        return StepStatus::breakdown(cat("MuJoCo: ", last_warning, " (", kWatchedName[i],
                                         "; mj_step reset the state to the model's initial state)"));
    for (int i = 0; i < 4; ++i)
      if (!std::isfinite(d_->qpos[qa() + i])) return StepStatus::breakdown("MuJoCo: a non-finite quaternion");
    if (!torque_free_) loads_ += std::uint64_t(v_->stages);
    return StepStatus::success();
  }

  // The state after mj_step is qpos and qvel; mjData's poses (xquat, xmat) were computed by the
  // step's mj_forward from the start of the step and are not read.
  void read(State& x) const override {
    const Vec4 q(d_->qpos[qa()], d_->qpos[qa() + 1], d_->qpos[qa() + 2], d_->qpos[qa() + 3]);
    x.body().R = quat::to_matrix(q);
    x.body().W = Vec3(d_->qvel[va()], d_->qvel[va() + 1], d_->qvel[va() + 2]);
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  int qa() const { return free_ ? 3 : 0; }  // the free joint's qpos is (position, quaternion)
  int va() const { return free_ ? 3 : 0; }  // and its qvel (linear velocity, angular velocity)

  const SchemeInfo* info_;
  const Variant* v_;
  bool torque_free_;
  bool free_ = false;
  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  std::uint64_t loads_ = 0;
};


}  // namespace

std::string mujoco_version() { return mj_versionString(); }

void register_mujoco() {
  static std::once_flag handlers;
  std::call_once(handlers, [] {
    mju_user_warning = on_warning;
    mju_user_error = on_error;
  });
  for (const Variant& v : kVariants) {
    register_variant(SchemeInfo{
        .name = v.name,
        .title = keep(cat("MuJoCo ", mujoco_version(), ", integrator ", v.integrator)),
        .source = keep(cat("MuJoCo ", mujoco_version(), " (Debian libmujoco-dev; [TET12] Todorov, Erez & Tassa, IROS 2012): ",
                           v.what, "; documentation: Computation, Numerical integration")),
        .representation = "MuJoCo's qpos (unit quaternion w, x, y, z) and qvel (body angular velocity) of a free "
                          "or ball joint",
        .order = v.order,
        .kind = v.kind,
        .applies = {.families = {"rigid_body"}, .refuses = refusal},
        // mj_integratePos normalises every quaternion it integrates: R stays on SO(3).
        .claims = {.constraint = Claim::exact},
        .notes = "Physics engine, stepped by mj_step; contacts and constraints off, no damping or armature; "
                 "a bad number is a breakdown, never MuJoCo's silent reset (docs/engines.md)",
        .settings = {kBallJoint},
        .version = keep(cat("MuJoCo ", mujoco_version()))},
        [&v](const Problem& p, const SchemeSettings& set, const SchemeInfo& info) {
          return std::make_unique<Mujoco>(p, set, v, info);
        });
  }
}

}  // namespace rigidbench::engines
