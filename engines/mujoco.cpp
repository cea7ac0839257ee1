// MuJoCo (Todorov, Erez & Tassa, "MuJoCo: a physics engine for model-based control", IROS 2012), as
// Debian ships it (libmujoco-dev), judged as three schemes: its integrators mjINT_EULER, mjINT_RK4
// and mjINT_IMPLICIT, each stepping one body through mj_step (docs/engines.md, "MuJoCo").
//
// The model is what a MuJoCo user writes for these problems: one body with <inertial> (mass, centre
// of mass, full central inertia) on a <freejoint/> (a torque-free body) or a ball joint at the pivot
// (a top), or a chain of such bodies nested on ball joints (a spherical_chain), gravity as the
// problem's field, contacts and constraints disabled, no damping or armature (MuJoCo's defaults are
// zero). Nothing but mj_step advances it.
#include <mujoco/mujoco.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>

#include "../core/quaternion.hpp"
#include "../problems/families/spherical_chain.hpp"
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

/// The MJCF text of a chain of links (one link: the problem's body): nested bodies, each on a ball
/// joint at its frame origin, body 0 on a free joint instead when `free_joint` (docs/engines.md, "MuJoCo":
/// the model, annotated). Each body's frame has the problem's body axes (a body's reference orientation
/// is its parent's), so a ball joint's quaternion is the attitude relative to the parent.
std::string mjcf(const std::vector<EngineLink>& links, const Vec3& base, const Vec3& gravity, const char* integrator,
                 bool free_joint) {
  auto v3 = [](const Vec3& v) { return cat(num(v.x()), " ", num(v.y()), " ", num(v.z())); };
  std::ostringstream x;
  x << "<mujoco model='rigidbench'>"
    << "<option timestep='0.001' integrator='" << integrator << "' gravity='" << v3(gravity) << "'>"
    << "<flag contact='disable' constraint='disable' limit='disable'/></option><worldbody>";
  Vec3 pos = base;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const EngineLink& l = links[i];
    const Mat3& I = l.central_inertia;
    x << "<body name='body" << i << "' pos='" << v3(pos) << "'>"
      << (free_joint && i == 0 ? "<freejoint/>" : "<joint type='ball' pos='0 0 0'/>") << "<inertial pos='"
      << v3(l.centre) << "' mass='" << num(l.mass) << "' fullinertia='" << num(I(0, 0)) << ' ' << num(I(1, 1)) << ' '
      << num(I(2, 2)) << ' ' << num(I(0, 1)) << ' ' << num(I(0, 2)) << ' ' << num(I(1, 2)) << "'/>";
    pos = l.child;
  }
  for (std::size_t i = 0; i < links.size(); ++i) x << "</body>";
  x << "</worldbody></mujoco>";
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

/// One body (a rigid_body problem: a top on its pivot's ball joint, or free) or a chain of links on
/// ball joints (a spherical_chain), stepped in MuJoCo's minimal coordinates: its joints cannot come
/// apart, and the canonical x and v are placed by the joints from the attitudes read.
class Mujoco final : public AnyIntegrator {
 public:
  Mujoco(const Problem& p, const SchemeSettings& set, const Variant& v, const SchemeInfo& info)
      : info_(&info), v_(&v), loaded_(!p.fields().empty()) {
    std::vector<EngineLink> links;
    Vec3 base = Vec3::Zero(), gravity = Vec3::Zero();
    if (p.of_family("spherical_chain")) {
      const EngineChain c = chain_of(p);
      links = c.links;
      base = c.pivot.value_or(Vec3::Zero());
      gravity = c.gravity;
      free_ = !c.pivot;
      loaded_ = gravity.squaredNorm() > 0;
      chain_ = &chain_data(p);
    } else {
      const EngineBody b = body_of(p);
      free_ = !b.pivot && set.get(kBallJoint) == 0;
      links = {EngineLink{b.mass, b.central_inertia, b.centre, Vec3::Zero()}};
      gravity = b.gravity;
    }
    n_ = links.size();
    m_ = compile(mjcf(links, base, gravity, v.integrator, free_));
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
    // MuJoCo's quaternion is (w, x, y, z) and rotates body into parent components, as R_{i-1}^T R_i
    // does; the angular velocity of a ball or free joint is the body's relative to its parent, in
    // body (local) components: W_i - R_i^T R_{i-1} W_{i-1} (W_0 for the first). A free joint's
    // position and linear velocity are the frame origin's (the centre of mass) in world components.
    for (std::size_t i = 0; i < n_; ++i) {
      const BodyState& b = x0.bodies[i];
      const Mat3 Q = i > 0 ? Mat3(x0.bodies[i - 1].R.transpose() * b.R) : b.R;
      const Vec3 w = i > 0 ? Vec3(b.W - Q.transpose() * x0.bodies[i - 1].W) : b.W;
      const Vec4 q = quat::from_matrix(Q);
      for (int k = 0; k < 4; ++k) d_->qpos[qa(i) + k] = q[k];
      for (int k = 0; k < 3; ++k) d_->qvel[va(i) + k] = w[k];
    }
    if (free_ && chain_)
      for (int k = 0; k < 3; ++k) d_->qpos[k] = x0.bodies[0].x[k], d_->qvel[k] = x0.bodies[0].v[k];
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
    for (int i = 0; i < m_->nq; ++i)
      if (!std::isfinite(d_->qpos[i])) return StepStatus::breakdown("MuJoCo: a non-finite qpos");
    if (loaded_) loads_ += std::uint64_t(v_->stages);
    return StepStatus::success();
  }

  // The state after mj_step is qpos and qvel; mjData's poses (xquat, xmat) were computed by the
  // step's mj_forward from the start of the step and are not read.
  void read(State& x) const override {
    x.bodies.resize(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      const Mat3 Q = quat::to_matrix(Vec4(d_->qpos[qa(i)], d_->qpos[qa(i) + 1], d_->qpos[qa(i) + 2], d_->qpos[qa(i) + 3]));
      const Vec3 w(d_->qvel[va(i)], d_->qvel[va(i) + 1], d_->qvel[va(i) + 2]);
      BodyState& b = x.bodies[i];
      b.R = i > 0 ? Mat3(x.bodies[i - 1].R * Q) : Q;
      b.W = i > 0 ? Vec3(Q.transpose() * x.bodies[i - 1].W + w) : w;
    }
    if (!chain_) return;
    if (free_) x.bodies[0].x = Vec3(d_->qpos[0], d_->qpos[1], d_->qpos[2]), x.bodies[0].v = Vec3(d_->qvel[0], d_->qvel[1], d_->qvel[2]);
    place_chain(*chain_, x);
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  // Body i's quaternion in qpos and angular velocity in qvel: a free joint's come after its position
  // and linear velocity (3 each); every ball joint after it has 4 and 3.
  int qa(std::size_t i) const { return (free_ ? 3 : 0) + 4 * int(i); }
  int va(std::size_t i) const { return (free_ ? 3 : 0) + 3 * int(i); }

  const SchemeInfo* info_;
  const Variant* v_;
  bool loaded_;
  bool free_ = false;
  std::size_t n_ = 1;
  const ChainData* chain_ = nullptr;  // a spherical_chain's joints (x and v are placed by them)
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
                          "or ball joint; a chain: nested bodies on ball joints (minimal coordinates)",
        .order = v.order,
        .kind = v.kind,
        .applies = {.families = {"rigid_body", "spherical_chain"}, .refuses = refusal},
        // mj_integratePos normalises every quaternion it integrates: R stays on SO(3). On a chain,
        // minimal coordinates: the joints are kept by construction.
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
