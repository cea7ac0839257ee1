// Rapier 0.21 (npm @dimforge/rapier3d-compat and its deterministic build
// @dimforge/rapier3d-deterministic-compat: Rapier compiled to WebAssembly, the wasm embedded in the
// package; single precision), run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines
// of today"). One dynamic rigid body without colliders, given its mass, centre of mass and principal
// moments (setAdditionalMassProperties; a body whose central inertia is not diagonal in its own frame
// is refused), no damping, no sleeping, stepped by World.step() with world.timestep = h; a top hangs on
// a spherical impulse joint to a fixed body at the pivot. A chain (spherical_chain) is one such body
// per link, its origin at the link's centre of mass, joined by spherical impulse joints at the links'
// anchors (maximal coordinates: the joints are constraints the solver holds, with Rapier's own
// stabilisation as shipped, so their separation is what rigidbench measures). Rapier's rigid body has
// no gyroscopic switch in this version: what it does is judged.
//
//   node rapier.mjs [default|deterministic]
import {chainJoints, chainOf, diagonalBody, diagonalMoments, fromWorld, rotate, serve, toWorld} from './program.mjs';

// The build is the argument: the default one (SIMD, "locally deterministic, on the same machine") or
// the deterministic one, "a less optimized build but with a guarantee of a cross-platform
// deterministic execution" (the packages' README).
const build = {default: '@dimforge/rapier3d-compat', deterministic: '@dimforge/rapier3d-deterministic-compat'}[process.argv[2] ?? 'default'];
if (!build) throw new Error('rapier.mjs [default|deterministic]');
const RAPIER = (await import(build)).default;
await RAPIER.init();

const vec = (a) => ({x: a[0], y: a[1], z: a[2]});

const ORIGIN = {x: 0, y: 0, z: 0};
const IDENTITY = {x: 0, y: 0, z: 0, w: 1};

function make(req) {
  return req.chain ? makeChain(req) : makeBody(req);
}

function makeBody(req) {
  const {b, moments: J} = diagonalBody(req, 'Rapier');
  const world = new RAPIER.World(vec(b.gravity));
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setCanSleep(false)
      .setAdditionalMassProperties(b.mass, vec(b.centre), vec(J), IDENTITY));
  if (b.pivot) {
    const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    world.createImpulseJoint(RAPIER.JointData.spherical(ORIGIN, ORIGIN), ground, body, true);
  }
  let loads = 0, timestep = 0;
  return {
    reset([{q, W}]) {
      body.setTranslation(ORIGIN, true);
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
      return [fromWorld([r.w, r.x, r.y, r.z], [a.x, a.y, a.z])];
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      world.free();
    },
  };
}

/// A chain: link i's body at its centre of mass, joined at chainJoints' points (the pivot's joint to a
/// fixed body at the origin).
function makeChain(req) {
  const chain = chainOf(req, 'Rapier');
  const world = new RAPIER.World(vec(chain.gravity));
  const bodies = chain.links.map((l, i) => world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setCanSleep(false)
      .setAdditionalMassProperties(l.mass, ORIGIN, vec(diagonalMoments(l.central_inertia, 'Rapier', `link ${i}`)), IDENTITY)));
  const ground = chain.pivot ? world.createRigidBody(RAPIER.RigidBodyDesc.fixed()) : null;  // at the origin
  for (const j of chainJoints(chain))
    world.createImpulseJoint(RAPIER.JointData.spherical(vec(j.parentPoint), vec(j.childPoint)),
                             j.parent < 0 ? ground : bodies[j.parent], bodies[j.child], true);
  const loaded = chain.gravity.some((g) => g !== 0);
  let loads = 0, timestep = 0;
  return {
    reset(state) {
      state.forEach(({q, W, x, v}, i) => {
        bodies[i].setTranslation(vec(x), true);
        bodies[i].setRotation({x: q[1], y: q[2], z: q[3], w: q[0]}, true);
        bodies[i].setAngvel(vec(rotate(q, W)), true);
        bodies[i].setLinvel(vec(v), true);
      });
    },
    step(h) {
      if (h !== timestep) world.timestep = timestep = h;
      world.step();
      for (const body of bodies) {
        const r = body.rotation(), x = body.translation();
        if (![r.x, r.y, r.z, r.w, x.x, x.y, x.z].every(Number.isFinite)) return 'Rapier: a non-finite pose';
      }
      if (loaded) loads += 1;
      return null;
    },
    read() {
      return bodies.map((body) => {
        const r = body.rotation(), a = body.angvel(), x = body.translation(), v = body.linvel();
        return {...fromWorld([r.w, r.x, r.y, r.z], [a.x, a.y, a.z]), x: [x.x, x.y, x.z], v: [v.x, v.y, v.z]};
      });
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
