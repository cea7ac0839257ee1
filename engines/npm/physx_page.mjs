// PhysX 5.6.1 as physx-js-webidl builds it (fabmax's WebIDL bindings, PhysX compiled to WebAssembly,
// single precision), in a browser page: the module physx.mjs loads into headless Chromium, since the
// build is compiled for the web only and refuses Node ("not compiled for this environment").
// One PxRigidDynamic without shapes, its mass, centre of mass (setCMassLocalPose) and principal moments
// (setMassSpaceInertiaTensor; a body whose central inertia is not diagonal in its own frame is
// refused) given, no damping, no sleeping, the velocity limits raised so that they never act, in a
// scene stepped by simulate(h) and fetchResults(true); a top hangs on a PxSphericalJoint to the world
// at the pivot. The bindings do not expose PxRigidBodyFlag::eENABLE_GYROSCOPIC_FORCES, so the body
// has PhysX's default (no gyroscopic force): what it does is judged.
import PhysXModule from './physx-js-webidl/physx-js-webidl.mjs';
import {answerer, diagonalBody, fromWorld, toWorld} from './protocol.mjs';

const PhysX = await PhysXModule();
const version = PhysX.PHYSICS_VERSION;
const foundation = PhysX.CreateFoundation(version, new PhysX.PxDefaultAllocator(), new PhysX.PxDefaultErrorCallback());
const tolerances = new PhysX.PxTolerancesScale();
const physics = PhysX.CreatePhysics(version, foundation, tolerances);
const v3 = (a) => new PhysX.PxVec3(a[0], a[1], a[2]);
const identity = () => new PhysX.PxTransform(v3([0, 0, 0]), new PhysX.PxQuat(0, 0, 0, 1));

function make(req) {
  const {b, moments: J} = diagonalBody(req, 'PhysX');
  const desc = new PhysX.PxSceneDesc(tolerances);
  desc.gravity = v3(b.gravity);
  desc.cpuDispatcher = PhysX.DefaultCpuDispatcherCreate(0);
  desc.filterShader = PhysX.DefaultFilterShader();
  const scene = physics.createScene(desc);
  // The body's origin is the pivot (a top) or the centre of mass (c = 0): its centre of mass at c.
  const body = physics.createRigidDynamic(identity());
  body.setMass(b.mass);
  body.setMassSpaceInertiaTensor(v3(J));
  body.setCMassLocalPose(new PhysX.PxTransform(v3(b.centre), new PhysX.PxQuat(0, 0, 0, 1)));
  body.setLinearDamping(0);
  body.setAngularDamping(0);
  body.setMaxAngularVelocity(1e6);
  body.setMaxLinearVelocity(1e6);
  body.setSleepThreshold(0);
  scene.addActor(body);
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

// What physx.mjs calls, one request line at a time.
globalThis.rigidbench = answerer(make);
