// cannon-es (npm cannon-es, the maintained fork of cannon.js; plain JavaScript, double precision), run
// by Node.js as a program (docs/programs.md; docs/engines.md, "Engines of today"). One CANNON.Body
// without shapes, given the body's mass and principal moments (cannon keeps a diagonal inertia in the
// body frame: a body whose central inertia is not diagonal in its own frame is refused), no damping
// (cannon's default 0.01 per second, linear and angular, is set to 0 as every engine's model has none),
// stepped by World.step(h) (one internal step, no substeps). A top hangs on a PointToPointConstraint to
// a static body at the pivot, solved by cannon's default GSSolver (10 iterations).
//
//   node cannon.mjs
import * as CANNON from 'cannon-es';
import {diagonalBody, serve} from './program.mjs';

function make(req) {
  const {b, moments: J} = diagonalBody(req, 'cannon-es');
  const world = new CANNON.World({gravity: new CANNON.Vec3(...b.gravity)});
  world.allowSleep = false;
  const body = new CANNON.Body({mass: b.mass, linearDamping: 0, angularDamping: 0});
  body.inertia.set(...J);
  body.invInertia.set(1 / J[0], 1 / J[1], 1 / J[2]);
  world.addBody(body);
  const c = new CANNON.Vec3(...b.centre);  // the centre of mass from the body origin (the pivot), body frame
  if (b.pivot) {
    const ground = new CANNON.Body({mass: 0});
    world.addBody(ground);
    // The pivot is the body origin: -c from the centre of mass in body coordinates.
    world.addConstraint(new CANNON.PointToPointConstraint(body, c.negate(), ground, new CANNON.Vec3(0, 0, 0)));
  }
  let loads = 0;
  return {
    reset([{q, W}]) {
      body.quaternion.set(q[1], q[2], q[3], q[0]);
      body.updateInertiaWorld(true);
      const w = body.quaternion.vmult(new CANNON.Vec3(...W));  // world angular velocity w = R W
      body.angularVelocity.copy(w);
      const x = body.quaternion.vmult(c);  // the centre of mass: R c from the pivot at the origin
      body.position.copy(x);
      body.velocity.copy(w.cross(x));
      body.force.setZero();
      body.torque.setZero();
    },
    step(h) {
      world.step(h);
      const q = body.quaternion;
      if (![q.x, q.y, q.z, q.w].every(Number.isFinite)) return 'cannon-es: a non-finite quaternion';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const q = body.quaternion;
      const W = q.conjugate().vmult(body.angularVelocity);  // body components W = R^T w
      return [{q: [q.w, q.x, q.y, q.z], W: [W.x, W.y, W.z]}];
    },
    counters() {
      return {load_evaluations: loads};
    },
  };
}

await serve(make);
