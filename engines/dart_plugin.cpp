// The DART plugin (dart_plugin.h says why DART is a module of its own): DART 6 (J. Lee, M. X. Grey,
// S. Ha et al., "DART: Dynamic Animation and Robotics Toolkit", JOSS 3(22) 500 (2018); [LGH18]), as
// Debian ships it (libdart-dev), one world holding the body a DART user writes for these problems.
//
// A Skeleton with one BodyNode on a FreeJoint (a torque-free body) or a BallJoint at the pivot (a
// top), or a chain of BodyNodes each on a BallJoint at its inboard joint in its parent (link 0 on a
// BallJoint at the pivot, or free); each body's Inertia(mass, centre of mass, moment about the centre of mass); gravity as the
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
#include <memory>
#include <string>
#include <exception>
#include <vector>

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
  std::vector<BodyNode*> bodies;  // link i's
  bool pivot = false;
};

namespace {

/// The link's Inertia, or false where DART refuses it (Inertia::verify).
bool set_inertia(BodyNode* body, const rigidbench_dart_link& l) {
  Eigen::Matrix3d Jc;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Jc(i, j) = l.central_inertia[i][j];
  const dart::dynamics::Inertia inertia(l.mass, Eigen::Vector3d(l.centre[0], l.centre[1], l.centre[2]), Jc);
  if (!inertia.verify(false)) return false;
  body->setInertia(inertia);
  return true;
}

rigidbench_dart_world* create(const rigidbench_dart_body* b, char* err, int n) {
  try {
    auto w = std::make_unique<rigidbench_dart_world>();
    w->pivot = b->pivot != 0;
    w->skeleton = dart::dynamics::Skeleton::create("body");
    for (int i = 0; i < b->links; ++i) {
      const rigidbench_dart_link& l = b->link[i];
      // The joint sits at the link's origin, at l.joint in its parent's frame (or the world's).
      Eigen::Isometry3d to_joint = Eigen::Isometry3d::Identity();
      to_joint.translation() = Eigen::Vector3d(l.joint[0], l.joint[1], l.joint[2]);
      BodyNode* parent = i > 0 ? w->bodies.back() : nullptr;
      BodyNode* body;
      // Names of their own: DART renames a duplicate with a message on standard output.
      BodyNode::Properties bp;
      bp.mName = "link " + std::to_string(i);
      if (i > 0 || w->pivot) {
        BallJoint::Properties jp;
        jp.mName = "joint " + std::to_string(i);
        jp.mT_ParentBodyToJoint = to_joint;
        body = w->skeleton->createJointAndBodyNodePair<BallJoint>(parent, jp, bp).second;
      } else {
        FreeJoint::Properties jp;
        jp.mName = "joint 0";
        body = w->skeleton->createJointAndBodyNodePair<FreeJoint>(parent, jp, bp).second;
      }
      if (!set_inertia(body, l)) {
        message(err, n, "DART refuses the inertia (Inertia::verify)");
        return nullptr;
      }
      w->bodies.push_back(body);
    }
    w->world = dart::simulation::World::create("rigidbench");
    w->world->setGravity(Eigen::Vector3d(b->gravity[0], b->gravity[1], b->gravity[2]));
    w->world->addSkeleton(w->skeleton);
    return w.release();
  } catch (const std::exception& e) {
    message(err, n, e.what());
    return nullptr;
  }
}

void destroy(rigidbench_dart_world* w) { delete w; }

// The joints' generalized coordinates, set through DART's own conversions: a BallJoint's positions are
// the logarithm of the child's rotation relative to its parent (R_parent^T R_link: the joint's
// transforms are translations) and its velocities the child's angular velocity relative to its parent,
// in child components, W_i - R_i^T R_parent W_parent; a FreeJoint's are the pose (rotation's logarithm,
// translation) and the spatial velocity in body components [W; R^T v] (DART's FreeJoint and BallJoint
// documentation). The conventions and chain tests read them back through BodyNode's world frame and velocities.
void reset(rigidbench_dart_world* w, const double* R, const double* omega, const double x[3], const double v[3], double t) {
  Eigen::Matrix3d parent = Eigen::Matrix3d::Identity();
  Eigen::Vector3d W_parent = Eigen::Vector3d::Zero();  // the parent's angular velocity, its own components
  for (std::size_t k = 0; k < w->bodies.size(); ++k) {
    Eigen::Matrix3d Rm;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Rm(i, j) = R[9 * k + std::size_t(3 * i + j)];
    const Eigen::Vector3d W = Rm.transpose() * Eigen::Vector3d(omega[3 * k], omega[3 * k + 1], omega[3 * k + 2]);
    const Eigen::Matrix3d rel = parent.transpose() * Rm;
    auto* joint = w->bodies[k]->getParentJoint();
    if (k > 0 || w->pivot) {
      joint->setPositions(BallJoint::convertToPositions(rel));
      joint->setVelocities(Eigen::Vector3d(W - rel.transpose() * W_parent));
    } else {
      Eigen::Isometry3d tf = Eigen::Isometry3d::Identity();
      tf.linear() = Rm;
      tf.translation() = Eigen::Vector3d(x[0], x[1], x[2]);
      joint->setPositions(FreeJoint::convertToPositions(tf));
      Eigen::Vector6d V;
      V.head<3>() = W;
      V.tail<3>() = Rm.transpose() * Eigen::Vector3d(v[0], v[1], v[2]);
      joint->setVelocities(V);
    }
    parent = Rm;
    W_parent = W;
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

// Each body's own frame after the step (BodyNode::getWorldTransform), not a pose cached before it.
void read(const rigidbench_dart_world* w, double* R, double* omega, double x[3], double v[3]) {
  for (std::size_t k = 0; k < w->bodies.size(); ++k) {
    const Eigen::Matrix3d Rm = w->bodies[k]->getWorldTransform().linear();
    const Eigen::Vector3d o = w->bodies[k]->getAngularVelocity();  // relative to and in the world frame
    for (int i = 0; i < 3; ++i) {
      omega[3 * k + std::size_t(i)] = o[i];
      for (int j = 0; j < 3; ++j) R[9 * k + std::size_t(3 * i + j)] = Rm(i, j);
    }
  }
  const Eigen::Vector3d p = w->bodies[0]->getWorldTransform().translation(), u = w->bodies[0]->getLinearVelocity();
  for (int i = 0; i < 3; ++i) x[i] = p[i], v[i] = u[i];
}

const rigidbench_dart_api kApi{RIGIDBENCH_DART_PLUGIN_ABI, DART_VERSION, create, destroy, reset, step, read};

}  // namespace

extern "C" __attribute__((visibility("default"))) const rigidbench_dart_api* rigidbench_dart_plugin(void) {
  return &kApi;
}
