// Jolt Physics 5 as JoltPhysics.js 1.1.0 (npm jolt-physics: Jolt compiled to WebAssembly, single
// precision, one thread), run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines of
// today"). One dynamic body with a small sphere shape in a layer that collides with nothing, its mass
// and central inertia given (EOverrideMassProperties_MassAndInertiaProvided: Jolt keeps a full inertia,
// so any body is taken), no damping, no sleeping, stepped by JoltInterface.Step(h, 1); a top hangs on
// a PointConstraint to the fixed-to-world body at the pivot.
//
// The variant's argument is the body's gyroscopic switch (BodyCreationSettings::mApplyGyroscopicForce,
// off by default in Jolt: "off" is the engine as shipped). Jolt clamps the angular speed to
// mMaxAngularVelocity, 0.25 pi 60 ~ 47 rad/s by default; the clamp is raised to 1e6 rad/s here so that
// it never acts on the problems (said in the variant's notes), since a clamp is not an integrator.
//
//   node jolt.mjs off|on
import initJolt from 'jolt-physics';
import {fromWorld, serve, toWorld} from './program.mjs';

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

function make(req) {
  if (!req.body) throw new Error('no "body" in the request (declare "physical_body": true)');
  const b = req.body;
  const jolt = makeSystem();
  const system = jolt.GetPhysicsSystem();
  const bodies = system.GetBodyInterface();
  system.SetGravity(v3(b.gravity));
  const shape = new Jolt.SphereShape(0.01, null);
  const bcs = new Jolt.BodyCreationSettings(shape, r3([0, 0, 0]), new Jolt.Quat(0, 0, 0, 1),
                                            Jolt.EMotionType_Dynamic, LAYER);
  bcs.mOverrideMassProperties = Jolt.EOverrideMassProperties_MassAndInertiaProvided;
  bcs.mMassPropertiesOverride.mMass = b.mass;
  const inertia = Jolt.Mat44.prototype.sIdentity();
  for (let j = 0; j < 3; ++j)
    inertia.SetColumn3(j, v3([b.central_inertia[0][j], b.central_inertia[1][j], b.central_inertia[2][j]]));
  bcs.mMassPropertiesOverride.mInertia = inertia;
  bcs.mLinearDamping = 0;
  bcs.mAngularDamping = 0;
  bcs.mAllowSleeping = false;
  bcs.mApplyGyroscopicForce = gyroscopic;
  bcs.mMaxAngularVelocity = 1e6;
  bcs.mMaxLinearVelocity = 1e6;
  const body = bodies.CreateBody(bcs);
  const id = body.GetID();
  bodies.AddBody(id, Jolt.EActivation_Activate);
  if (b.pivot) {
    // In each body's centre-of-mass frame, so that the pose the body is created in does not matter:
    // the fixed world body's origin, and the pivot at -c from the body's centre of mass.
    const ps = new Jolt.PointConstraintSettings();
    ps.mSpace = Jolt.EConstraintSpace_LocalToBodyCOM;
    ps.mPoint1 = r3([0, 0, 0]);
    ps.mPoint2 = r3(b.centre.map((x) => -x));
    system.AddConstraint(ps.Create(Jolt.JoltInterface.prototype.sGetFixedToWorldBody(), body));
  }
  let loads = 0;
  return {
    reset(q, W) {
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
      return fromWorld([r.GetW(), r.GetX(), r.GetY(), r.GetZ()], [a.GetX(), a.GetY(), a.GetZ()]);
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
