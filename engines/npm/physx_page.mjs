// PhysX 5.6.1 as physx-js-webidl builds it (fabmax's WebIDL bindings, PhysX compiled to WebAssembly,
// single precision), in a browser page: the module physx.mjs loads into headless Chromium, since the
// build is compiled for the web only and refuses Node ("not compiled for this environment").
// One PxRigidDynamic without shapes, its mass, centre of mass (setCMassLocalPose) and principal moments
// (setMassSpaceInertiaTensor; a body whose central inertia is not diagonal in its own frame is
// refused) given, no damping, no sleeping, the velocity limits raised so that they never act, in a
// scene stepped by simulate(h) and fetchResults(true); a top hangs on a PxSphericalJoint to the world
// at the pivot. A chain (spherical_chain) is one such body per link at its centre of mass, joined by
// PxSphericalJoints at the links' anchors (maximal coordinates: the scene's solver holds the joints with
// its position iterations as shipped, so their separation is what rigidbench measures). The bindings
// do not expose PxRigidBodyFlag::eENABLE_GYROSCOPIC_FORCES, so the body has PhysX's default (no
// gyroscopic force): what it does is judged.
import PhysXModule from './physx-js-webidl/physx-js-webidl.mjs';
import {answerer, chainJoints, chainOf, diagonalBody, diagonalMoments, fromWorld, rotate, toWorld} from './protocol.mjs';

const PhysX = await PhysXModule();
const version = PhysX.PHYSICS_VERSION;
const foundation = PhysX.CreateFoundation(version, new PhysX.PxDefaultAllocator(), new PhysX.PxDefaultErrorCallback());
const tolerances = new PhysX.PxTolerancesScale();
const physics = PhysX.CreatePhysics(version, foundation, tolerances);
const v3 = (a) => new PhysX.PxVec3(a[0], a[1], a[2]);
const identity = () => new PhysX.PxTransform(v3([0, 0, 0]), new PhysX.PxQuat(0, 0, 0, 1));

const frame = (p) => new PhysX.PxTransform(v3(p), new PhysX.PxQuat(0, 0, 0, 1));

function makeScene(gravity) {
  const desc = new PhysX.PxSceneDesc(tolerances);
  desc.gravity = v3(gravity);
  desc.cpuDispatcher = PhysX.DefaultCpuDispatcherCreate(0);
  desc.filterShader = PhysX.DefaultFilterShader();
  return physics.createScene(desc);
}

/// A dynamic body without shapes in the scene: mass, principal moments J, centre of mass at c from its
/// origin, no damping, no sleeping, velocity limits that never act.
function createBody(scene, mass, J, c) {
  const body = physics.createRigidDynamic(identity());
  body.setMass(mass);
  body.setMassSpaceInertiaTensor(v3(J));
  body.setCMassLocalPose(frame(c));
  body.setLinearDamping(0);
  body.setAngularDamping(0);
  body.setMaxAngularVelocity(1e6);
  body.setMaxLinearVelocity(1e6);
  body.setSleepThreshold(0);
  scene.addActor(body);
  return body;
}

function make(req) {
  if (req.chain) return makeChain(req);
  const {b, moments: J} = diagonalBody(req, 'PhysX');
  const scene = makeScene(b.gravity);
  // The body's origin is the pivot (a top) or the centre of mass (c = 0): its centre of mass at c.
  const body = createBody(scene, b.mass, J, b.centre);
  if (b.pivot) PhysX.SphericalJointCreate(physics, null, identity(), body, identity());
  let loads = 0;
  return {
    reset([{q, W}]) {
      body.setGlobalPose(new PhysX.PxTransform(v3([0, 0, 0]), new PhysX.PxQuat(q[1], q[2], q[3], q[0])), true);
      const {w, v} = toWorld(q, W, b.centre);  // PhysX's velocities are in world components
      body.setAngularVelocity(v3(w), true);
      body.setLinearVelocity(v3(v), true);  // the centre of mass's
    },
    step(h) {
      scene.simulate(h);
      scene.fetchResults(true);
      const r = body.getGlobalPose().q;
      if (![r.x, r.y, r.z, r.w].every(Number.isFinite)) return 'PhysX: a non-finite rotation';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const r = body.getGlobalPose().q, a = body.getAngularVelocity();
      return [fromWorld([r.w, r.x, r.y, r.z], [a.x, a.y, a.z])];
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      scene.release();
    },
  };
}

/// A chain: link i's body at its centre of mass, joined at chainJoints' points (the pivot's joint to the
/// world).
function makeChain(req) {
  const chain = chainOf(req, 'PhysX');
  const scene = makeScene(chain.gravity);
  const links = chain.links.map((l, i) => createBody(scene, l.mass, diagonalMoments(l.central_inertia, 'PhysX', `link ${i}`), [0, 0, 0]));
  for (const j of chainJoints(chain))
    PhysX.SphericalJointCreate(physics, j.parent < 0 ? null : links[j.parent], frame(j.parentPoint), links[j.child], frame(j.childPoint));
  const loaded = chain.gravity.some((g) => g !== 0);
  let loads = 0;
  return {
    reset(state) {
      state.forEach(({q, W, x, v}, i) => {
        links[i].setGlobalPose(new PhysX.PxTransform(v3(x), new PhysX.PxQuat(q[1], q[2], q[3], q[0])), true);
        links[i].setAngularVelocity(v3(rotate(q, W)), true);
        links[i].setLinearVelocity(v3(v), true);
      });
    },
    step(h) {
      scene.simulate(h);
      scene.fetchResults(true);
      for (const body of links) {
        const {p, q} = body.getGlobalPose();
        if (![q.x, q.y, q.z, q.w, p.x, p.y, p.z].every(Number.isFinite)) return 'PhysX: a non-finite pose';
      }
      if (loaded) loads += 1;
      return null;
    },
    read() {
      return links.map((body) => {
        const pose = body.getGlobalPose(), r = pose.q, x = pose.p, a = body.getAngularVelocity(), v = body.getLinearVelocity();
        return {...fromWorld([r.w, r.x, r.y, r.z], [a.x, a.y, a.z]), x: [x.x, x.y, x.z], v: [v.x, v.y, v.z]};
      });
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      scene.release();
    },
  };
}

// What physx.mjs calls, one request line at a time.
globalThis.rigidbench = answerer(make);
