// Bullet Physics (E. Coumans, https://pybullet.org; [Coumans]), as Debian ships it in double precision
// (libbullet-dev's -float64 libraries, BT_USE_DOUBLE_PRECISION), judged as four schemes: a
// btDiscreteDynamicsWorld stepping one btRigidBody under each of its gyroscopic modes (none,
// explicit, implicit in world components, implicit in body components; docs/engines.md, "Bullet").
//
// The model is what a Bullet user writes: a rigid body with its mass and principal moments (Bullet's
// body frame is the principal frame at the centre of mass), free, or held at the pivot by a
// btPoint2PointConstraint (a top); gravity as the problem's field; no collision shape to collide
// with, deactivation (sleeping) and damping off, the explicit gyroscopic force unclamped.
#include <btBulletDynamicsCommon.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

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

class Bullet final : public AnyIntegrator {
 public:
  Bullet(const Problem& p, const SchemeSettings&, const Variant& v, const SchemeInfo& info)
      : info_(&info), body_(body_of(p)) {
    // Bullet's body frame is the principal frame at the centre of mass: J_c = P diag(l) P^T with P
    // a rotation, so Bullet's attitude is R P and its body components are P^T's.
    const Eigen::SelfAdjointEigenSolver<Mat3> es(body_.central_inertia);
    P_ = es.eigenvectors();
    if (P_.determinant() < 0) P_.col(2) *= -1;
    const Vec3 l = es.eigenvalues();
    world_ = std::make_unique<btDiscreteDynamicsWorld>(&dispatcher_, &broadphase_, &solver_, &config_);
    world_->setGravity(bt(body_.gravity));
    btRigidBody::btRigidBodyConstructionInfo ci(body_.mass, nullptr, &shape_, bt(l));
    ci.m_linearDamping = ci.m_angularDamping = 0;
    ci.m_friction = ci.m_rollingFriction = ci.m_spinningFriction = 0;
    rb_ = std::make_unique<btRigidBody>(ci);
    rb_->setFlags(v.flags);
    rb_->setActivationState(DISABLE_DEACTIVATION);
    world_->getSolverInfo().m_maxGyroscopicForce = BT_LARGE_FLOAT;  // the explicit force is clamped at 100 by default
    world_->addRigidBody(rb_.get());
    if (body_.pivot) {
      // The pivot is -c from the centre of mass: -P^T c in Bullet's body frame; fixed to the world
      // there. No error reduction, no mixing: the constraint forces only.
      joint_ = std::make_unique<btPoint2PointConstraint>(*rb_, bt(Vec3(-P_.transpose() * body_.centre)));
      joint_->setParam(BT_CONSTRAINT_ERP, 0);
      joint_->setParam(BT_CONSTRAINT_CFM, 0);
      world_->addConstraint(joint_.get());
    }
  }
  ~Bullet() override {
    if (joint_) world_->removeConstraint(joint_.get());
    world_->removeRigidBody(rb_.get());
  }
  Bullet(const Bullet&) = delete;
  Bullet& operator=(const Bullet&) = delete;

  const SchemeInfo& info() const override { return *info_; }

  // Bullet's transform is the centre of mass's: origin R c from the pivot (the world origin), basis
  // R P; its angular velocity is in world components, omega = R W; the centre of mass moves with
  // v = omega x (R c).
  void reset(const State& x0, double) override {
    const Mat3& R = x0.body().R;
    const Vec3 r = R * body_.centre, w = R * x0.body().W;
    rb_->setCenterOfMassTransform(btTransform(bt(Mat3(R * P_)), bt(r)));
    rb_->setAngularVelocity(bt(w));
    rb_->setLinearVelocity(bt(Vec3(w.cross(r))));
    rb_->clearForces();
    loads_ = 0;
  }

  StepStatus step(double, double h) override {
    const double angle = eig(rb_->getAngularVelocity()).norm() * h;
    if (!(angle <= kBulletMaxAngle))
      return StepStatus::breakdown(cat("Bullet: |omega| h = ", message_number(angle),
                                       " exceeds the pi/4 a step may rotate (ANGULAR_MOTION_THRESHOLD): Bullet "
                                       "would slow the body silently"));
    world_->stepSimulation(h, 0);  // maxSubSteps = 0: one step of exactly h
    const Vec3 w = eig(rb_->getAngularVelocity());
    const Mat3 B = eig(rb_->getCenterOfMassTransform().getBasis());
    if (!w.allFinite() || !B.allFinite()) return StepStatus::breakdown("Bullet: a non-finite state");
    if (!body_.gravity.isZero()) ++loads_;
    return StepStatus::success();
  }

  void read(State& x) const override {
    // Bullet keeps the basis as a matrix; a rotation is read through its quaternion (as every
    // quaternion-based scheme is read), which projects a basis Bullet let drift from SO(3).
    const btQuaternion q = rb_->getCenterOfMassTransform().getRotation();
    const Mat3 RP = Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()).normalized().toRotationMatrix();
    const Mat3 R = RP * P_.transpose();
    x.body().R = R;
    x.body().W = R.transpose() * eig(rb_->getAngularVelocity());
  }

  Counters counters() const override { return {.load_evaluations = loads_}; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  const SchemeInfo* info_;
  EngineBody body_;
  Mat3 P_ = Mat3::Identity();
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btEmptyShape shape_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::unique_ptr<btRigidBody> rb_;
  std::unique_ptr<btPoint2PointConstraint> joint_;
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
        .representation = "Bullet's rigid body: centre-of-mass transform (principal basis) and world angular velocity",
        .order = 1,
        .kind = v.flags == BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD || v.flags == BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY
                    ? SchemeKind::semi_implicit
                    : SchemeKind::explicit_,
        .applies = {.families = {"rigid_body"}, .refuses = refusal},
        // integrateTransform sets the basis from a normalised quaternion every step: R stays on SO(3).
        .claims = {.constraint = Claim::exact},
        .notes = "Physics engine, stepped by btDiscreteDynamicsWorld::stepSimulation(h, 0); no collision, "
                 "deactivation or damping, the explicit gyroscopic force unclamped; a step that would rotate by "
                 "more than pi/4 is a breakdown, never Bullet's silent clamp (docs/engines.md)",
        .version = keep(cat("Bullet ", bullet_version()))},
        [&v](const Problem& p, const SchemeSettings& set, const SchemeInfo& info) {
          return std::make_unique<Bullet>(p, set, v, info);
        });
  }
}

}  // namespace rigidbench::engines
