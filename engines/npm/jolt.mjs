// Jolt Physics 5 as JoltPhysics.js 1.1.0 (npm jolt-physics: Jolt compiled to WebAssembly, single
// precision, one thread), run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines of
// today"). One dynamic body with a small sphere shape in a layer that collides with nothing, its mass
// and central inertia given (EOverrideMassProperties_MassAndInertiaProvided: Jolt keeps a full inertia,
// so any body is taken), no damping, no sleeping, stepped by JoltInterface.Step(h, 1); a top hangs on
// a PointConstraint to the fixed-to-world body at the pivot. A chain (spherical_chain) is one such
// body per link at its centre of mass, joined by PointConstraints at the links' anchors (maximal
// coordinates: Jolt's solver holds the joints with its own position correction as shipped -
// PhysicsSettings' Baumgarte factor and position iterations at their defaults - so their separation is
// what rigidbench measures).
//
// The variant's argument is the body's gyroscopic switch (BodyCreationSettings::mApplyGyroscopicForce,
// off by default in Jolt: "off" is the engine as shipped). Jolt clamps the angular speed to
// mMaxAngularVelocity, 0.25 pi 60 ~ 47 rad/s by default; the clamp is raised to 1e6 rad/s here so that
// it never acts on the problems (said in the variant's notes), since a clamp is not an integrator.
//
//   node jolt.mjs off|on
import initJolt from 'jolt-physics';
import {chainJoints, chainOf, fromWorld, rotate, serve, toWorld} from './program.mjs';

const Jolt = await initJolt();
const gyroscopic = process.argv[2] === 'on';
if (!['on', 'off'].includes(process.argv[2])) throw new Error('jolt.mjs off|on');

const LAYER = 0;  // one object layer that collides with nothing

function makeSystem() {
  const settings = new Jolt.JoltSettings();
  settings.mMaxWorkerThreads = 0;
  const pairs = new Jolt.ObjectLayerPairFilterTable(1);
  const layers = new Jolt.BroadPhaseLayerInterfaceTable(1, 1);
  layers.MapObjectToBroadPhaseLayer(LAYER, new Jolt.BroadPhaseLayer(0));
  settings.mObjectLayerPairFilter = pairs;
  settings.mBroadPhaseLayerInterface = layers;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(layers, 1, pairs, 1);
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  return jolt;
}

const v3 = (a) => new Jolt.Vec3(a[0], a[1], a[2]);
const r3 = (a) => new Jolt.RVec3(a[0], a[1], a[2]);

/// A dynamic body of mass m and central inertia I (rows) in the system, at the origin: a small sphere
/// (its centre of mass at the body's origin) in the layer that collides with nothing.
function createBody(bodies, m, I) {
  const shape = new Jolt.SphereShape(0.01, null);
  const bcs = new Jolt.BodyCreationSettings(shape, r3([0, 0, 0]), new Jolt.Quat(0, 0, 0, 1),
                                            Jolt.EMotionType_Dynamic, LAYER);
  bcs.mOverrideMassProperties = Jolt.EOverrideMassProperties_MassAndInertiaProvided;
  bcs.mMassPropertiesOverride.mMass = m;
  const inertia = Jolt.Mat44.prototype.sIdentity();
  for (let j = 0; j < 3; ++j) inertia.SetColumn3(j, v3([I[0][j], I[1][j], I[2][j]]));
  bcs.mMassPropertiesOverride.mInertia = inertia;
  bcs.mLinearDamping = 0;
  bcs.mAngularDamping = 0;
  bcs.mAllowSleeping = false;
  bcs.mApplyGyroscopicForce = gyroscopic;
  bcs.mMaxAngularVelocity = 1e6;
  bcs.mMaxLinearVelocity = 1e6;
  const body = bodies.CreateBody(bcs);
  bodies.AddBody(body.GetID(), Jolt.EActivation_Activate);
  return body;
}

/// A ball joint between a and b at the points pa and pb of their centre-of-mass frames (so that the
/// pose the bodies are created in does not matter).
function pointConstraint(system, a, pa, b, pb) {
  const ps = new Jolt.PointConstraintSettings();
  ps.mSpace = Jolt.EConstraintSpace_LocalToBodyCOM;
  ps.mPoint1 = r3(pa);
  ps.mPoint2 = r3(pb);
  system.AddConstraint(ps.Create(a, b));
}

function make(req) {
  if (req.chain) return makeChain(req);
  if (!req.body) throw new Error('no "body" in the request (declare "physical_body": true)');
  const b = req.body;
  const jolt = makeSystem();
  const system = jolt.GetPhysicsSystem();
  const bodies = system.GetBodyInterface();
  system.SetGravity(v3(b.gravity));
  const body = createBody(bodies, b.mass, b.central_inertia);
  const id = body.GetID();
  // The fixed world body's origin, and the pivot at -c from the body's centre of mass.
  if (b.pivot) pointConstraint(system, Jolt.JoltInterface.prototype.sGetFixedToWorldBody(), [0, 0, 0], body, b.centre.map((x) => -x));
  let loads = 0;
  return {
    reset([{q, W}]) {
      const {w, x, v} = toWorld(q, W, b.centre);  // Jolt's velocities are in world components
      bodies.SetPositionAndRotation(id, r3(x), new Jolt.Quat(q[1], q[2], q[3], q[0]), Jolt.EActivation_Activate);
      bodies.SetLinearAndAngularVelocity(id, v3(v), v3(w));
    },
    step(h) {
      jolt.Step(h, 1);
      const r = body.GetRotation();
      if (![r.GetX(), r.GetY(), r.GetZ(), r.GetW()].every(Number.isFinite)) return 'Jolt: a non-finite rotation';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const r = body.GetRotation(), a = body.GetAngularVelocity();
      return [fromWorld([r.GetW(), r.GetX(), r.GetY(), r.GetZ()], [a.GetX(), a.GetY(), a.GetZ()])];
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      Jolt.destroy(jolt);
    },
  };
}

/// A chain: link i's body at its centre of mass, joined at chainJoints' points (the pivot's joint to the
/// fixed world body).
function makeChain(req) {
  const chain = chainOf(req, 'Jolt');
  const jolt = makeSystem();
  const system = jolt.GetPhysicsSystem();
  const bodies = system.GetBodyInterface();
  system.SetGravity(v3(chain.gravity));
  const links = chain.links.map((l) => createBody(bodies, l.mass, l.central_inertia));
  const world = Jolt.JoltInterface.prototype.sGetFixedToWorldBody();
  for (const j of chainJoints(chain))
    pointConstraint(system, j.parent < 0 ? world : links[j.parent], j.parentPoint, links[j.child], j.childPoint);
  const loaded = chain.gravity.some((g) => g !== 0);
  let loads = 0;
  return {
    reset(state) {
      state.forEach(({q, W, x, v}, i) => {
        const id = links[i].GetID();
        bodies.SetPositionAndRotation(id, r3(x), new Jolt.Quat(q[1], q[2], q[3], q[0]), Jolt.EActivation_Activate);
        bodies.SetLinearAndAngularVelocity(id, v3(v), v3(rotate(q, W)));
      });
    },
    step(h) {
      jolt.Step(h, 1);
      for (const body of links) {
        const r = body.GetRotation(), x = body.GetPosition();
        if (![r.GetX(), r.GetY(), r.GetZ(), r.GetW(), x.GetX(), x.GetY(), x.GetZ()].every(Number.isFinite))
          return 'Jolt: a non-finite pose';
      }
      if (loaded) loads += 1;
      return null;
    },
    read() {
      return links.map((body) => {
        const r = body.GetRotation(), a = body.GetAngularVelocity(), x = body.GetPosition(), v = body.GetLinearVelocity();
        return {...fromWorld([r.GetW(), r.GetX(), r.GetY(), r.GetZ()], [a.GetX(), a.GetY(), a.GetZ()]),
          x: [x.GetX(), x.GetY(), x.GetZ()], v: [v.GetX(), v.GetY(), v.GetZ()]};
      });
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      Jolt.destroy(jolt);
    },
  };
}

await serve(make);
