// Rapier 0.21 (npm @dimforge/rapier3d-compat and its deterministic build
// @dimforge/rapier3d-deterministic-compat: Rapier compiled to WebAssembly, the wasm embedded in the
// package; single precision), run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines
// of today"). One dynamic rigid body without colliders, given its mass, centre of mass and principal
// moments (setAdditionalMassProperties; a body whose central inertia is not diagonal in its own frame
// is refused), no damping, no sleeping, stepped by World.step() with world.timestep = h; a top hangs on
// a spherical impulse joint to a fixed body at the pivot. Rapier's rigid body has no gyroscopic switch
// in this version: what it does is judged.
//
//   node rapier.mjs [default|deterministic]
import {diagonalBody, fromWorld, serve, toWorld} from './program.mjs';

// The build is the argument: the default one (SIMD, "locally deterministic, on the same machine") or
// the deterministic one, "a less optimized build but with a guarantee of a cross-platform
// deterministic execution" (the packages' README).
const build = {default: '@dimforge/rapier3d-compat', deterministic: '@dimforge/rapier3d-deterministic-compat'}[process.argv[2] ?? 'default'];
if (!build) throw new Error('rapier.mjs [default|deterministic]');
const RAPIER = (await import(build)).default;
await RAPIER.init();

const vec = (a) => ({x: a[0], y: a[1], z: a[2]});

function make(req) {
  const {b, moments: J} = diagonalBody(req, 'Rapier');
  const world = new RAPIER.World(vec(b.gravity));
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setCanSleep(false)
      .setAdditionalMassProperties(b.mass, vec(b.centre), vec(J), {x: 0, y: 0, z: 0, w: 1}));
  if (b.pivot) {
    const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    world.createImpulseJoint(RAPIER.JointData.spherical({x: 0, y: 0, z: 0}, {x: 0, y: 0, z: 0}), ground, body, true);
  }
  let loads = 0, timestep = 0;
  return {
    reset(q, W) {
      body.setTranslation({x: 0, y: 0, z: 0}, true);
      body.setRotation({x: q[1], y: q[2], z: q[3], w: q[0]}, true);
      const {w, v} = toWorld(q, W, b.centre);  // Rapier's velocities are in world components
      body.setAngvel(vec(w), true);
      body.setLinvel(vec(v), true);  // the centre of mass's, about the pivot
    },
    step(h) {
      if (h !== timestep) world.timestep = timestep = h;
      world.step();
      const r = body.rotation();
      if (![r.x, r.y, r.z, r.w].every(Number.isFinite)) return 'Rapier: a non-finite rotation';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const r = body.rotation(), a = body.angvel();
      return fromWorld([r.w, r.x, r.y, r.z], [a.x, a.y, a.z]);
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      world.free();
    },
  };
}

await serve(make);
