// The DART plugin (dart_plugin.h says why DART is a module of its own): DART 6 (J. Lee, M. X. Grey,
// S. Ha et al., "DART: Dynamic Animation and Robotics Toolkit", JOSS 3(22) 500 (2018); [LGH18]), as
// Debian ships it (libdart-dev), one world holding the body a DART user writes for these problems.
//
// A Skeleton with one BodyNode on a FreeJoint (a torque-free body) or a BallJoint at the pivot (a
// top); the body's Inertia(mass, centre of mass, moment about the centre of mass); gravity as the
// problem's field. Nothing else is on: no shape nodes (so no collision), joint damping, spring
// stiffness, Coulomb friction and position limits are DART's defaults, 0 and off.
//
// Only narrow headers: dart/dart.hpp includes dart/external/ikfast/ikfast.h, which Debian's package
// does not install.
#include <dart/config.hpp>
#include <dart/dynamics/BallJoint.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/Inertia.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/simulation/World.hpp>

#include <cstdio>
#include <exception>

#include "../core/plugin_file.hpp"
#include "dart_plugin.h"

RIGIDBENCH_PLUGIN_NOTE(RIGIDBENCH_DART_PLUGIN_NOTE);

namespace {

using dart::dynamics::BallJoint;
using dart::dynamics::BodyNode;
using dart::dynamics::FreeJoint;

void message(char* err, int n, const char* what) {
  if (n > 0) std::snprintf(err, std::size_t(n), "%s", what);
}

}  // namespace

struct rigidbench_dart_world {
  dart::simulation::WorldPtr world;
  dart::dynamics::SkeletonPtr skeleton;
  BodyNode* body = nullptr;
  bool pivot = false;
};

namespace {

rigidbench_dart_world* create(const rigidbench_dart_body* b, char* err, int n) {
  try {
    auto w = new rigidbench_dart_world;
    w->pivot = b->pivot != 0;
    w->skeleton = dart::dynamics::Skeleton::create("body");
    w->body = w->pivot ? w->skeleton->createJointAndBodyNodePair<BallJoint>().second
                       : w->skeleton->createJointAndBodyNodePair<FreeJoint>().second;
    Eigen::Matrix3d Jc;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Jc(i, j) = b->central_inertia[i][j];
    const dart::dynamics::Inertia inertia(b->mass, Eigen::Vector3d(b->centre[0], b->centre[1], b->centre[2]), Jc);
    if (!inertia.verify(false)) {
      delete w;
      message(err, n, "DART refuses the inertia (Inertia::verify)");
      return nullptr;
    }
    w->body->setInertia(inertia);
    w->world = dart::simulation::World::create("rigidbench");
    w->world->setGravity(Eigen::Vector3d(b->gravity[0], b->gravity[1], b->gravity[2]));
    w->world->addSkeleton(w->skeleton);
    return w;
  } catch (const std::exception& e) {
    message(err, n, e.what());
    return nullptr;
  }
}

void destroy(rigidbench_dart_world* w) { delete w; }

// The joint's generalized coordinates, set through DART's own conversions: a BallJoint's positions
// are the rotation's logarithm and its velocities the body's angular velocity in body components;
// a FreeJoint's are the pose (rotation's logarithm, translation) and the spatial velocity in body
// components [W; v] (DART's FreeJoint and BallJoint documentation). The conventions test reads the
// angular velocity back in world components through BodyNode::getAngularVelocity.
void reset(rigidbench_dart_world* w, const double R[9], const double omega[3], double t) {
  Eigen::Matrix3d Rm;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Rm(i, j) = R[3 * i + j];
  const Eigen::Vector3d W = Rm.transpose() * Eigen::Vector3d(omega[0], omega[1], omega[2]);
  auto* joint = w->body->getParentJoint();
  if (w->pivot) {
    joint->setPositions(BallJoint::convertToPositions(Rm));
    joint->setVelocities(W);
  } else {
    Eigen::Isometry3d tf = Eigen::Isometry3d::Identity();
    tf.linear() = Rm;
    joint->setPositions(FreeJoint::convertToPositions(tf));
    Eigen::Vector6d V = Eigen::Vector6d::Zero();
    V.head<3>() = W;
    joint->setVelocities(V);
  }
  w->world->setTime(t);
}

int step(rigidbench_dart_world* w, double h, char* err, int n) {
  try {
    if (w->world->getTimeStep() != h) w->world->setTimeStep(h);
    w->world->step();
    return 0;
  } catch (const std::exception& e) {
    message(err, n, e.what());
    return 1;
  }
}

// The body's own frame after the step (BodyNode::getWorldTransform), not a pose cached before it.
void read(const rigidbench_dart_world* w, double R[9], double omega[3]) {
  const Eigen::Matrix3d Rm = w->body->getWorldTransform().linear();
  const Eigen::Vector3d o = w->body->getAngularVelocity();  // relative to and in the world frame
  for (int i = 0; i < 3; ++i) {
    omega[i] = o[i];
    for (int j = 0; j < 3; ++j) R[3 * i + j] = Rm(i, j);
  }
}

const rigidbench_dart_api kApi{RIGIDBENCH_DART_PLUGIN_ABI, DART_VERSION, create, destroy, reset, step, read};

}  // namespace

extern "C" __attribute__((visibility("default"))) const rigidbench_dart_api* rigidbench_dart_plugin(void) {
  return &kApi;
}
