// Bullet as ammo.js builds it (npm ammojs-typed 1.1.0: kripken's ammo.js, Bullet compiled to WebAssembly
// in single precision - btScalar is float there), run by Node.js as a program (docs/programs.md;
// docs/engines.md, "Engines of today"). Its module is handed its .wasm (wasmBinary), as it cannot fetch
// one under Node. One btRigidBody with a btEmptyShape, its mass and principal moments given (Bullet
// keeps a diagonal inertia in the body frame: a body whose central inertia is not diagonal in its own
// frame is refused), no damping, no deactivation, in a btDiscreteDynamicsWorld stepped by
// stepSimulation(h, 0) (one step of exactly h); a top hangs on a btPoint2PointConstraint at the pivot.
//
// The variant's argument is the body's flags (btRigidBody::setFlags): 0 as shipped (no gyroscopic
// term), 2 (BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT, in Bullet 2.82 BT_ENABLE_GYROPSCOPIC_FORCE), 8
// (BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY, from Bullet 2.83: an older Bullet ignores it).
//
//   node ammo.mjs FLAGS
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {diagonalBody, fromWorld, serve, toWorld} from './program.mjs';

const require = createRequire(import.meta.url);
const dir = path.dirname(require.resolve('ammojs-typed/package.json'));
const A = await require(path.join(dir, 'ammo', 'ammo.wasm.js'))({
  wasmBinary: fs.readFileSync(path.join(dir, 'ammo', 'ammo.wasm.wasm')),
});
const flags = Number(process.argv[2]);
if (![0, 2, 8].includes(flags)) throw new Error('ammo.mjs 0|2|8');

const v3 = (a) => new A.btVector3(a[0], a[1], a[2]);

function make(req) {
  const {b, moments: J} = diagonalBody(req, 'ammo.js (Bullet)');
  const config = new A.btDefaultCollisionConfiguration();
  const world = new A.btDiscreteDynamicsWorld(new A.btCollisionDispatcher(config), new A.btDbvtBroadphase(),
                                              new A.btSequentialImpulseConstraintSolver(), config);
  world.setGravity(v3(b.gravity));
  const info = new A.btRigidBodyConstructionInfo(b.mass, new A.btDefaultMotionState(), new A.btEmptyShape(), v3(J));
  const body = new A.btRigidBody(info);
  body.setDamping(0, 0);
  body.setActivationState(4);  // DISABLE_DEACTIVATION
  body.setFlags(flags);
  world.addRigidBody(body);
  // The pivot: -c from the centre of mass in the body's frame, and the world origin (set explicitly:
  // the one-body constructor would take it from the pose the body has when the constraint is made).
  const joint = b.pivot ? new A.btPoint2PointConstraint(body, v3(b.centre.map((x) => -x))) : null;
  if (joint) {
    joint.setPivotB(v3([0, 0, 0]));
    world.addConstraint(joint);
  }
  const t = new A.btTransform();
  let loads = 0;
  return {
    reset([{q, W}]) {
      t.setIdentity();
      t.setRotation(new A.btQuaternion(q[1], q[2], q[3], q[0]));
      const {w, x, v} = toWorld(q, W, b.centre);  // Bullet's velocities are in world components
      t.setOrigin(v3(x));
      body.setCenterOfMassTransform(t);
      body.setAngularVelocity(v3(w));
      body.setLinearVelocity(v3(v));
      body.clearForces();
    },
    step(h) {
      world.stepSimulation(h, 0);
      const r = body.getCenterOfMassTransform().getRotation();
      if (![r.x(), r.y(), r.z(), r.w()].every(Number.isFinite)) return 'ammo.js: a non-finite rotation';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const r = body.getCenterOfMassTransform().getRotation(), a = body.getAngularVelocity();
      return [fromWorld([r.w(), r.x(), r.y(), r.z()], [a.x(), a.y(), a.z()])];
    },
    counters() {
      return {load_evaluations: loads};
    },
  };
}

await serve(make);
