// Bullet Physics (E. Coumans, https://pybullet.org; [Coumans]), as Debian ships it in double precision
// (libbullet-dev's -float64 libraries, BT_USE_DOUBLE_PRECISION), judged as four schemes: a
// btDiscreteDynamicsWorld stepping one btRigidBody under each of its gyroscopic modes (none,
// explicit, implicit in world components, implicit in body components; docs/engines.md, "Bullet").
//
// And a fifth scheme on chains only, `bullet_multibody`: Bullet's btMultiBody (Featherstone's
// articulated-body algorithm), the chain in minimal coordinates on spherical joints.
//
// The model is what a Bullet user writes: a rigid body with its mass and principal moments (Bullet's
// body frame is the principal frame at the centre of mass), free, or held at the pivot by a
// btPoint2PointConstraint (a top); a chain of such bodies, each joined to its parent by a
// btPoint2PointConstraint at their common joint (maximal coordinates: every body's pose, the joints as
// constraints, as a Bullet ragdoll is built); gravity as the problem's field; no collision shape to
// collide with, deactivation (sleeping) and damping off, the explicit gyroscopic force unclamped.
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../problems/families/spherical_chain.hpp"
#include "engine_body.hpp"
#include "engines.hpp"
#include "../integrators/registry.hpp"

namespace rigidbench::engines {

namespace {

struct Variant {
  const char* name;
  int flags;  // btRigidBody's gyroscopic flags
  const char* what;
};

// Bullet's words (btRigidBody.h, btRigidBodyFlags; the Bullet 2.83 release notes): the implicit
// gyroscopic modes are one Newton step of an implicit Euler update of the gyroscopic term, in world
// or body components; the explicit one adds the gyroscopic force to the others. Every mode then
// updates the velocities and, with them, the transform: first order.
constexpr Variant kVariants[] = {
    {"bullet_gyro_none", 0,
     "no gyroscopic term (flags 0): v += h M^-1 f without W x J W, then the transform by the exponential of "
     "the new angular velocity"},
    {"bullet_gyro_explicit", BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT,
     "BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT: the gyroscopic force -W x J W added explicitly to the torque"},
    {"bullet_gyro_implicit_world", BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD,
     "BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD: one Newton step of implicit Euler on the gyroscopic term, in "
     "world components"},
    {"bullet_gyro_implicit_body", BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY,
     "BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY (Bullet's default since 2.83): one Newton step of implicit "
     "Euler on the gyroscopic term, in body components"},
};

// btTransformUtil::integrateTransform limits a step's rotation to ANGULAR_MOTION_THRESHOLD = pi/4
// (and btRigidBody::integrateVelocities |omega| h to pi/2): beyond it Bullet silently slows the body.
constexpr double kBulletMaxAngle = 0.25 * std::numbers::pi;

// The point-to-point constraints' error reduction (btPoint2PointConstraint::setParam(BT_CONSTRAINT_ERP)):
// 0 by default, so that only the constraint impulses enter the equations, as for ODE (docs/engines.md);
// Bullet's own default is the solver's erp, 0.2. And the sequential-impulse solver's iterations
// (btContactSolverInfo::m_numIterations, Bullet's default 10): on a chain its Gauss-Seidel sweeps solve the
// joints' impulses only approximately, and how far is what the setting measures.
const SettingInfo kJointErp{"joint_erp",
                            "error reduction of the point-to-point constraints, a top's pivot or a chain's joints "
                            "(BT_CONSTRAINT_ERP): 0 (no correction, the default) to 1; Bullet's own default is 0.2",
                            0, 0, 1};
const SettingInfo kIterations{"iterations",
                              "iterations of the sequential-impulse constraint solver (m_numIterations; Bullet's "
                              "default 10)",
                              10, 1, 10000, true};

btVector3 bt(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
Vec3 eig(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
btMatrix3x3 bt(const Mat3& R) {
  return {R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)};
}
Mat3 eig(const btMatrix3x3& m) {
  Mat3 R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = m[i][j];
  return R;
}

/// The principal frame P of a central inertia J_c = P diag(l) P^T (P a rotation) and its moments l.
std::pair<Mat3, Vec3> principal(const Mat3& central_inertia) {
  const Eigen::SelfAdjointEigenSolver<Mat3> es(central_inertia);
  Mat3 P = es.eigenvectors();
  if (P.determinant() < 0) P.col(2) *= -1;
  return {P, es.eigenvalues()};
}
Mat3 eig(const btQuaternion& q) { return eig(btMatrix3x3(q)); }  // btMatrix3x3(q) scales by 2 / |q|^2
btQuaternion bt_quat(const Mat3& R) {
  const Eigen::Quaterniond q(R);
  return {q.x(), q.y(), q.z(), q.w()};
}

/// One btRigidBody of the model: the body's principal frame P (Bullet's body frame is the principal frame
/// at the centre of mass: J_c = P diag(l) P^T with P a rotation, so Bullet's attitude is R P and its body
/// components are P^T's).
struct BulletBody {
  Mat3 P = Mat3::Identity();
  std::unique_ptr<btRigidBody> rb;
};

class Bullet final : public AnyIntegrator {
 public:
  Bullet(const Problem& p, const SchemeSettings& set, const Variant& v, const SchemeInfo& info) : info_(&info) {
    world_ = std::make_unique<btDiscreteDynamicsWorld>(&dispatcher_, &broadphase_, &solver_, &config_);
    world_->getSolverInfo().m_maxGyroscopicForce = BT_LARGE_FLOAT;  // the explicit force is clamped at 100 by default
    world_->getSolverInfo().m_numIterations = int(set.get(kIterations));
    erp_ = set.get(kJointErp);
    if (p.of_family("spherical_chain")) {
      chain_ = &chain_data(p);
      const EngineChain c = chain_of(p);
      gravity_ = c.gravity;
      world_->setGravity(bt(gravity_));
      for (const EngineLink& l : c.links) add_body(l.mass, l.central_inertia, v.flags);
      // Joint 0 holds body 0 to the pivot (its inboard anchor a_0); joint i >= 1 body i's inboard
      // anchor a_i to its parent's outboard anchor b_{i-1} (both from the centre of mass, body axes).
      if (chain_->pivot) add_joint(0, std::nullopt, chain_->inboard[0], Vec3::Zero());
      for (std::size_t i = 1; i < bodies_.size(); ++i) add_joint(i, i - 1, chain_->inboard[i], chain_->outboard[i - 1]);
    } else {
      const EngineBody b = body_of(p);
      gravity_ = b.gravity;
      centre_ = b.centre;
      world_->setGravity(bt(gravity_));
      add_body(b.mass, b.central_inertia, v.flags);
      // The pivot is -c from the centre of mass, fixed to the world at the origin.
      if (b.pivot) add_joint(0, std::nullopt, -b.centre, Vec3::Zero());
    }
  }
  ~Bullet() override {
    for (const auto& j : joints_) world_->removeConstraint(j.get());
    for (const BulletBody& b : bodies_) world_->removeRigidBody(b.rb.get());
  }
  Bullet(const Bullet&) = delete;
  Bullet& operator=(const Bullet&) = delete;

  const SchemeInfo& info() const override { return *info_; }

  // Bullet's transform is the centre of mass's, its basis R P; its angular velocity is in world
  // components, omega = R W. One body: the centre of mass at R c from the pivot (the world origin),
  // moving with v = omega x (R c); a chain: every body where the state places it.
  void reset(const State& x0, double) override {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const BodyState& s = x0.bodies[i];
      const Vec3 w = s.R * s.W;
      const Vec3 r = chain_ ? s.x : Vec3(s.R * centre_), v = chain_ ? s.v : Vec3(w.cross(r));
      btRigidBody& rb = *bodies_[i].rb;
      rb.setCenterOfMassTransform(btTransform(bt(Mat3(s.R * bodies_[i].P)), bt(r)));
      rb.setAngularVelocity(bt(w));
      rb.setLinearVelocity(bt(v));
      rb.clearForces();
    }
    loads_ = 0;
  }

  StepStatus step(double, double h) override {
    for (const BulletBody& b : bodies_) {
      const double angle = eig(b.rb->getAngularVelocity()).norm() * h;
      if (!(angle <= kBulletMaxAngle))
        return StepStatus::breakdown(cat("Bullet: |omega| h = ", message_number(angle),
                                         " exceeds the pi/4 a step may rotate (ANGULAR_MOTION_THRESHOLD): Bullet "
                                         "would slow the body silently"));
    }
    world_->stepSimulation(h, 0);  // maxSubSteps = 0: one step of exactly h
    for (const BulletBody& b : bodies_) {
      const btTransform& T = b.rb->getCenterOfMassTransform();
      if (!eig(b.rb->getAngularVelocity()).allFinite() || !eig(b.rb->getLinearVelocity()).allFinite() ||
          !eig(T.getBasis()).allFinite() || !eig(T.getOrigin()).allFinite())
        return StepStatus::breakdown("Bullet: a non-finite state");
    }
    if (!gravity_.isZero()) ++loads_;
    return StepStatus::success();
  }

  void read(State& x) const override {
    // Bullet keeps the basis as a matrix; a rotation is read through its quaternion (as every
    // quaternion-based scheme is read), which projects a basis Bullet let drift from SO(3). A chain is
    // read in maximal coordinates: every body's pose and velocities as Bullet holds them; the joints'
    // drift is the problem's joint_separation.
    if (chain_) x.bodies.resize(bodies_.size());
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const btRigidBody& rb = *bodies_[i].rb;
      const btQuaternion q = rb.getCenterOfMassTransform().getRotation();
      const Mat3 RP = Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()).normalized().toRotationMatrix();
      BodyState& s = x.bodies[i];
      s.R = RP * bodies_[i].P.transpose();
      s.W = s.R.transpose() * eig(rb.getAngularVelocity());
      if (!chain_) continue;
      s.x = eig(rb.getCenterOfMassTransform().getOrigin());
      s.v = eig(rb.getLinearVelocity());
    }
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  void add_body(double mass, const Mat3& central_inertia, int flags) {
    BulletBody b;
    Vec3 moments;
    std::tie(b.P, moments) = principal(central_inertia);
    btRigidBody::btRigidBodyConstructionInfo ci(mass, nullptr, &shape_, bt(moments));
    ci.m_linearDamping = ci.m_angularDamping = 0;
    ci.m_friction = ci.m_rollingFriction = ci.m_spinningFriction = 0;
    b.rb = std::make_unique<btRigidBody>(ci);
    b.rb->setFlags(flags);
    b.rb->setActivationState(DISABLE_DEACTIVATION);
    world_->addRigidBody(b.rb.get());  // after setGravity: the body takes the world's
    bodies_.push_back(std::move(b));
  }

  /// A point-to-point constraint holding body a's point `at_a` (from its centre of mass, body axes) to
  /// body b's point `at_b`, or to the world point `at_b` when b is none. No mixing (CFM 0), error
  /// reduction joint_erp: the constraint impulses only, unless asked.
  void add_joint(std::size_t a, std::optional<std::size_t> b, const Vec3& at_a, const Vec3& at_b) {
    const BulletBody& A = bodies_[a];
    const Vec3 pa = A.P.transpose() * at_a;
    auto j = b ? std::make_unique<btPoint2PointConstraint>(*A.rb, *bodies_[*b].rb, bt(pa),
                                                            bt(Vec3(bodies_[*b].P.transpose() * at_b)))
               : std::make_unique<btPoint2PointConstraint>(*A.rb, bt(pa));
    if (!b) j->setPivotB(bt(at_b));  // the world point (the constructor takes the body's current one)
    j->setParam(BT_CONSTRAINT_ERP, erp_);
    j->setParam(BT_CONSTRAINT_CFM, 0);
    world_->addConstraint(j.get(), true);  // no collision between the joined bodies (they have no shape)
    joints_.push_back(std::move(j));
  }

  const SchemeInfo* info_;
  const ChainData* chain_ = nullptr;  // a spherical_chain's joints
  Vec3 centre_ = Vec3::Zero();        // one body: its centre of mass from the pivot, body components
  Vec3 gravity_ = Vec3::Zero();
  double erp_ = 0;
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btEmptyShape shape_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<BulletBody> bodies_;
  std::vector<std::unique_ptr<btPoint2PointConstraint>> joints_;
  std::uint64_t loads_ = 0;
};



// ---- Bullet's multibody on a chain (minimal coordinates) --------------------------------------------
// btMultiBody, stepped by btMultiBodyDynamicsWorld: the joint accelerations by Featherstone's
// articulated-body algorithm, the velocities updated with them, then the positions with the new
// velocities (a spherical joint's quaternion by the exponential of its velocity): first order. The model
// is what pybullet builds from a URDF by default (useMaximalCoordinates = 0): a pivoted chain is a fixed
// base at the pivot with link 0 on a spherical joint to it and link i to link i - 1; a free chain has
// body 0 as its floating base. Bullet's link frame is the link's principal frame at its centre of mass
// (its inertia is "assumed diagonal"), so a link's attitude is R_i P_i.
//
// Bullet's conventions (btMultiBody.h, btMultiBodyLink.h): a spherical joint's position is a quaternion
// (x, y, z, w) that rotates the child's frame into the parent's, (R_p P_p)^T R_i P_i, at
// rotParentToThis = identity; its velocity is the child's angular velocity relative to its parent, in the
// child's frame (the joint's motion axes are the child's frame axes). The base's pose is its position
// and the rotation world -> base; its angular and linear velocities are in world components.
class BulletMultibody final : public AnyIntegrator {
 public:
  BulletMultibody(const Problem& p, const SchemeInfo& info) : info_(&info), chain_(&chain_data(p)) {
    const EngineChain c = chain_of(p);
    for (const EngineLink& l : c.links) frames_.push_back(principal(l.central_inertia));
    free_ = !c.pivot;
    gravity_ = c.gravity;
    const int links = int(c.links.size()) - (free_ ? 1 : 0);
    mb_ = std::make_unique<btMultiBody>(links, free_ ? c.links[0].mass : 0.0,
                                        bt(free_ ? frames_[0].second : Vec3(Vec3::Zero())), !free_, false);
    if (c.pivot) mb_->setBasePos(bt(*c.pivot));
    for (int k = 0; k < links; ++k) {
      // Link k is body i; its parent is link k - 1 (-1: the base). The joint from the parent's centre of
      // mass in the parent's frame (the fixed base's origin is the pivot), and the child's centre of
      // mass from the joint in its own: P_{i-1}^T b_{i-1} and -P_i^T a_i.
      const std::size_t i = std::size_t(k) + (free_ ? 1 : 0);
      const Vec3 e = i == 0 ? Vec3(Vec3::Zero()) : Vec3(P(i - 1).transpose() * chain_->outboard[i - 1]);
      const Vec3 d = -(P(i).transpose() * chain_->inboard[i]);
      mb_->setupSpherical(k, c.links[i].mass, bt(frames_[i].second), k - 1, btQuaternion::getIdentity(), bt(e),
                          bt(d), true);
    }
    mb_->finalizeMultiDof();
    // Bullet's defaults damp every link (0.04 linear and angular) and clamp every coordinate velocity
    // at 100 without a word: off, as damping is for every engine here.
    mb_->setLinearDamping(0);
    mb_->setAngularDamping(0);
    mb_->setMaxCoordinateVelocity(BT_LARGE_FLOAT);
    mb_->setUseGyroTerm(true);
    world_ = std::make_unique<btMultiBodyDynamicsWorld>(&dispatcher_, &broadphase_, &solver_, &config_);
    world_->setGravity(bt(gravity_));  // applied as m_i g at every centre of mass
    world_->addMultiBody(mb_.get());
  }
  ~BulletMultibody() override { world_->removeMultiBody(mb_.get()); }
  BulletMultibody(const BulletMultibody&) = delete;
  BulletMultibody& operator=(const BulletMultibody&) = delete;

  const SchemeInfo& info() const override { return *info_; }

  void reset(const State& x0, double) override {
    const std::size_t first = free_ ? 1 : 0;
    if (free_) {
      const BodyState& b = x0.bodies[0];
      mb_->setBasePos(bt(b.x));
      mb_->setWorldToBaseRot(bt_quat(Mat3((b.R * P(0)).transpose())));
      mb_->setBaseOmega(bt(Vec3(b.R * b.W)));
      mb_->setBaseVel(bt(b.v));
    }
    for (std::size_t i = first; i < x0.bodies.size(); ++i) {
      // The joint's rotation child -> parent and the child's angular velocity relative to its parent,
      // in the child's frame: P_i^T W_i - (R_i P_i)^T R_{i-1} W_{i-1} (the fixed base: at rest).
      const BodyState& b = x0.bodies[i];
      const Mat3 child = b.R * P(i), parent = i > 0 ? Mat3(x0.bodies[i - 1].R * P(i - 1)) : Mat3(Mat3::Identity());
      const btQuaternion q = bt_quat(Mat3(parent.transpose() * child));
      const double pos[4] = {q.x(), q.y(), q.z(), q.w()};
      const Vec3 w = P(i).transpose() * b.W -
                     (i > 0 ? Vec3(child.transpose() * (x0.bodies[i - 1].R * x0.bodies[i - 1].W)) : Vec3(Vec3::Zero()));
      const double vel[3] = {w.x(), w.y(), w.z()};
      mb_->setJointPosMultiDof(int(i - first), pos);
      mb_->setJointVelMultiDof(int(i - first), vel);
    }
    mb_->clearForcesAndTorques();
    loads_ = 0;
  }

  StepStatus step(double, double h) override {
    world_->stepSimulation(h, 0);  // maxSubSteps = 0: one step of exactly h
    for (int k = 0; k < 6 + mb_->getNumDofs(); ++k)
      if (!std::isfinite(mb_->getVelocityVector()[k])) return StepStatus::breakdown("Bullet multibody: a non-finite velocity");
    for (int k = 0; k < mb_->getNumLinks(); ++k)
      for (int j = 0; j < 4; ++j)
        if (!std::isfinite(mb_->getJointPosMultiDof(k)[j]))
          return StepStatus::breakdown("Bullet multibody: a non-finite joint position");
    if (!gravity_.isZero()) ++loads_;
    return StepStatus::success();
  }

  // Each link's frame and angular velocity down the chain from the base; x and v placed by the joints
  // (minimal coordinates: the joints cannot come apart).
  void read(State& x) const override {
    const std::size_t first = free_ ? 1 : 0, n = first + std::size_t(mb_->getNumLinks());
    x.bodies.resize(n);
    Mat3 frame = Mat3::Identity();  // the parent's frame, world components
    Vec3 w = Vec3::Zero();          // the parent's angular velocity, its frame's components
    if (free_) {
      frame = eig(mb_->getWorldToBaseRot()).transpose();
      w = frame.transpose() * eig(mb_->getBaseOmega());
      x.bodies[0].x = eig(mb_->getBasePos());
      x.bodies[0].v = eig(mb_->getBaseVel());
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i >= first) {
        const Mat3 to_child = eig(mb_->getParentToLocalRot(int(i - first)));
        const btScalar* qd = mb_->getJointVelMultiDof(int(i - first));
        frame = frame * to_child.transpose();
        w = to_child * w + Vec3(qd[0], qd[1], qd[2]);
      }
      x.bodies[i].R = frame * P(i).transpose();
      x.bodies[i].W = P(i) * w;
    }
    place_chain(*chain_, x);
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  const Mat3& P(std::size_t i) const { return frames_[i].first; }

  const SchemeInfo* info_;
  const ChainData* chain_;
  std::vector<std::pair<Mat3, Vec3>> frames_;  // each body's principal frame P_i and moments
  bool free_ = false;
  Vec3 gravity_ = Vec3::Zero();
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  btMultiBodyConstraintSolver solver_;
  std::unique_ptr<btMultiBody> mb_;
  std::unique_ptr<btMultiBodyDynamicsWorld> world_;
  std::uint64_t loads_ = 0;
};

}  // namespace

std::string bullet_version() {
  const int v = btGetVersion();
  return cat(std::to_string(v / 100), ".", std::to_string(v % 100));
}

void register_bullet() {
  for (const Variant& v : kVariants) {
    register_variant(SchemeInfo{
        .name = v.name,
        .title = keep(cat("Bullet ", bullet_version(), " (double), ", v.name + 7)),
        .source = keep(cat("Bullet ", bullet_version(), " (Debian libbullet-dev, -float64 libraries; [Coumans]): ",
                           v.what, "; btRigidBody.h, btRigidBodyFlags")),
        .representation = "Bullet's rigid body: centre-of-mass transform (principal basis) and world angular velocity; "
                          "a chain's bodies joined by point-to-point constraints",
        .order = 1,
        .kind = v.flags == BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD || v.flags == BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY
                    ? SchemeKind::semi_implicit
                    : SchemeKind::explicit_,
        .applies = {.families = {"rigid_body", "spherical_chain"}, .refuses = refusal},
        // integrateTransform sets the basis from a normalised quaternion every step: R stays on SO(3).
        // On a chain the joints are constraints in maximal coordinates, held only as far as the
        // solver's iterations and the step's accuracy hold them: no constraint claim there, the
        // joints' separation is measured.
        .claims = {.constraint = Claim::exact},
        .notes = "Physics engine, stepped by btDiscreteDynamicsWorld::stepSimulation(h, 0); no collision, "
                 "deactivation or damping, the explicit gyroscopic force unclamped; a step that would rotate by "
                 "more than pi/4 is a breakdown, never Bullet's silent clamp; point-to-point constraints without "
                 "error reduction unless joint_erp is set (docs/engines.md)",
        .settings = {kJointErp, kIterations},
        .version = keep(cat("Bullet ", bullet_version())),
        .family_claims = {{"spherical_chain", {}}}},
        [&v](const Problem& p, const SchemeSettings& set, const SchemeInfo& info) {
          return std::make_unique<Bullet>(p, set, v, info);
        });
  }
  register_variant(
      SchemeInfo{
          .name = "bullet_multibody",
          .title = keep(cat("Bullet ", bullet_version(), " (double), multibody")),
          .source = keep(cat("Bullet ", bullet_version(), " (Debian libbullet-dev, -float64 libraries; [Coumans]): "
                             "btMultiBody stepped by btMultiBodyDynamicsWorld, joint accelerations by Featherstone's "
                             "articulated-body algorithm, then v += h a and the joint positions integrated with the "
                             "new velocities; btMultiBody.h, setupSpherical")),
          .representation = "Bullet's multibody: a fixed base at the pivot (or body 0 as a floating base) and a "
                            "spherical joint per link, quaternion (x, y, z, w) and relative angular velocity "
                            "(minimal coordinates)",
          .order = 1,
          .kind = SchemeKind::semi_implicit,
          .applies = {.families = {"spherical_chain"}, .refuses = refusal},
          // Every attitude is read through a joint quaternion (btMatrix3x3(q) scales by 2 / |q|^2): R
          // stays on SO(3); minimal coordinates: the joints are kept by construction.
          .claims = {.constraint = Claim::exact},
          .notes = "Physics engine, stepped by btMultiBodyDynamicsWorld::stepSimulation(h, 0); chains only; no "
                   "collision, sleeping or damping, the coordinate velocities unclamped (docs/engines.md)",
          .version = keep(cat("Bullet ", bullet_version()))},
      [](const Problem& p, const SchemeSettings&, const SchemeInfo& info) {
        return std::make_unique<BulletMultibody>(p, info);
      });
}

}  // namespace rigidbench::engines
