// Oimo.js 1.0.9 (npm oimo, Saharan's OimoPhysics ported to JavaScript by lo-th; double precision),
// run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines of today"). One dynamic body
// with a small sphere shape that collides with nothing, its mass and central inertia then set on the
// body (Oimo keeps a full local inertia and its inverse, so any body is taken), no sleeping, the
// constraint solver's randomiser off (`random: false`, so that a run is repeatable), stepped by
// World.step() with world.timeStep = h; a top hangs on a ball-and-socket joint to a static body at the
// pivot. Oimo has no damping and no gyroscopic switch: what it does is judged.
//
//   node oimo.mjs
import OIMO from 'oimo';  // a CommonJS build: its exports are the default
import {serve} from './program.mjs';

function make(req) {
  if (!req.body) throw new Error('no "body" in the request (declare "physical_body": true)');
  const b = req.body;
  const world = new OIMO.World({timestep: 0.01, iterations: 8, broadphase: 2, worldscale: 1, random: false,
                                info: false, gravity: b.gravity});
  const body = world.add({type: 'sphere', size: [0.01], pos: [0, 0, 0], move: true, density: 1,
                          belongsTo: 1, collidesWith: 0, name: 'body'});
  body.allowSleep = false;
  body.mass = b.mass;
  body.inverseMass = 1 / b.mass;
  const I = b.central_inertia;
  body.localInertia.set(I[0][0], I[0][1], I[0][2], I[1][0], I[1][1], I[1][2], I[2][0], I[2][1], I[2][2]);
  body.inverseLocalInertia.invert(body.localInertia);
  if (b.pivot) {
    world.add({type: 'sphere', size: [0.01], pos: [0, 0, 0], move: false, belongsTo: 1, collidesWith: 0, name: 'ground'});
    // The pivot: the static body's origin, and -c from the body's centre of mass in its own frame.
    world.add({type: 'jointBall', body1: 'ground', body2: 'body', pos1: [0, 0, 0], pos2: b.centre.map((x) => -x),
               collision: false});
  }
  let loads = 0;
  return {
    reset([{q, W}]) {
      body.orientation = new OIMO.Quat(q[1], q[2], q[3], q[0]);
      const R = new OIMO.Mat33().setQuat(body.orientation);
      const w = new OIMO.Vec3(...W).applyMatrix3(R);  // world angular velocity w = R W
      const x = new OIMO.Vec3(...b.centre).applyMatrix3(R);  // the centre of mass: R c from the pivot
      body.position.copy(x);
      body.angularVelocity.copy(w);
      body.linearVelocity.crossVectors(w, x);
      body.syncShapes();
      body.awake();
    },
    step(h) {
      world.timeStep = h;
      world.step();
      const o = body.orientation;
      if (![o.x, o.y, o.z, o.w].every(Number.isFinite)) return 'Oimo: a non-finite quaternion';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const o = body.orientation;
      const R = new OIMO.Mat33().setQuat(o);
      const W = body.angularVelocity.clone().applyMatrix3(R, true);  // body components W = R^T w
      return [{q: [o.w, o.x, o.y, o.z], W: [W.x, W.y, W.z]}];
    },
    counters() {
      return {load_evaluations: loads};
    },
  };
}

await serve(make);
