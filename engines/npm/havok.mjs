// Havok for the web (npm @babylonjs/havok 1.3.14: the Havok physics engine compiled to WebAssembly by
// Babylon.js, a closed binary behind a C-style API, HavokPhysics.d.ts), run by Node.js as a program
// (docs/programs.md; docs/engines.md, "Engines of today"). Its module is handed its .wasm (wasmBinary),
// as it cannot fetch one under Node. One dynamic body without a shape, its mass, centre of mass and
// principal moments given (HP_Body_SetMassProperties takes the moments per unit mass in principal axes:
// a body whose central inertia is not diagonal in its own frame is refused), no damping, always
// active, stepped by HP_World_Step(h); a top hangs on a constraint whose three linear axes are locked
// (a ball-and-socket) to a static body at the pivot. The world's speed limit is raised so that it never
// acts (said in the notes); the solver's ideal step time stays Havok's default (1/60 s). Havok is a
// black box: what it does is judged.
//
//   node havok.mjs
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import HavokPhysics from '@babylonjs/havok';
import {diagonalBody, fromWorld, serve, toWorld} from './program.mjs';

const require = createRequire(import.meta.url);
const wasm = path.join(path.dirname(require.resolve('@babylonjs/havok')), '..', 'esm', 'HavokPhysics.wasm');
const HP = await HavokPhysics({wasmBinary: fs.readFileSync(wasm)});

/// A Havok call's result, checked: every HP_ function returns a Result first.
function ok(r, what) {
  const code = Array.isArray(r) ? r[0] : r;
  if (code !== HP.Result.RESULT_OK) throw new Error(`Havok: ${what} failed (result ${code?.value ?? code})`);
  return Array.isArray(r) ? r.slice(1) : [];
}

function make(req) {
  const {b, moments: J} = diagonalBody(req, 'Havok');
  const [world] = ok(HP.HP_World_Create(), 'HP_World_Create');
  ok(HP.HP_World_SetGravity(world, b.gravity), 'HP_World_SetGravity');
  ok(HP.HP_World_SetSpeedLimit(world, 1e6, 1e6), 'HP_World_SetSpeedLimit');
  const [body] = ok(HP.HP_Body_Create(), 'HP_Body_Create');
  ok(HP.HP_Body_SetMotionType(body, HP.MotionType.DYNAMIC), 'HP_Body_SetMotionType');
  ok(HP.HP_Body_SetMassProperties(body, [b.centre, b.mass, J.map((j) => j / b.mass), [0, 0, 0, 1]]),
     'HP_Body_SetMassProperties');
  ok(HP.HP_Body_SetLinearDamping(body, 0), 'HP_Body_SetLinearDamping');
  ok(HP.HP_Body_SetAngularDamping(body, 0), 'HP_Body_SetAngularDamping');
  ok(HP.HP_Body_SetActivationControl(body, HP.ActivationControl.ALWAYS_ACTIVE), 'HP_Body_SetActivationControl');
  ok(HP.HP_World_AddBody(world, body, false), 'HP_World_AddBody');
  if (b.pivot) {
    const [ground] = ok(HP.HP_Body_Create(), 'HP_Body_Create');
    ok(HP.HP_Body_SetMotionType(ground, HP.MotionType.STATIC), 'HP_Body_SetMotionType');
    ok(HP.HP_World_AddBody(world, ground, false), 'HP_World_AddBody');
    const [joint] = ok(HP.HP_Constraint_Create(), 'HP_Constraint_Create');
    ok(HP.HP_Constraint_SetParentBody(joint, ground), 'HP_Constraint_SetParentBody');
    ok(HP.HP_Constraint_SetChildBody(joint, body), 'HP_Constraint_SetChildBody');
    // The pivot: both bodies' origins (the body's origin is the pivot; its centre of mass is at c).
    ok(HP.HP_Constraint_SetAnchorInParent(joint, [0, 0, 0], [1, 0, 0], [0, 1, 0]), 'HP_Constraint_SetAnchorInParent');
    ok(HP.HP_Constraint_SetAnchorInChild(joint, [0, 0, 0], [1, 0, 0], [0, 1, 0]), 'HP_Constraint_SetAnchorInChild');
    for (const a of [HP.ConstraintAxis.LINEAR_X, HP.ConstraintAxis.LINEAR_Y, HP.ConstraintAxis.LINEAR_Z])
      ok(HP.HP_Constraint_SetAxisMode(joint, a, HP.ConstraintAxisLimitMode.LOCKED), 'HP_Constraint_SetAxisMode');
    ok(HP.HP_Constraint_SetEnabled(joint, 1), 'HP_Constraint_SetEnabled');
  }
  let loads = 0;
  return {
    reset([{q, W}]) {
      ok(HP.HP_Body_SetQTransform(body, [[0, 0, 0], [q[1], q[2], q[3], q[0]]]), 'HP_Body_SetQTransform');
      const {w, v} = toWorld(q, W, b.centre);  // Havok's velocities are in world components
      ok(HP.HP_Body_SetAngularVelocity(body, w), 'HP_Body_SetAngularVelocity');
      ok(HP.HP_Body_SetLinearVelocity(body, v), 'HP_Body_SetLinearVelocity');
    },
    step(h) {
      ok(HP.HP_World_Step(world, h), 'HP_World_Step');
      const [[, r]] = ok(HP.HP_Body_GetQTransform(body), 'HP_Body_GetQTransform');
      if (!r.every(Number.isFinite)) return 'Havok: a non-finite rotation';
      if (b.pivot) loads += 1;
      return null;
    },
    read() {
      const [[, r]] = ok(HP.HP_Body_GetQTransform(body), 'HP_Body_GetQTransform');
      const [a] = ok(HP.HP_Body_GetAngularVelocity(body), 'HP_Body_GetAngularVelocity');
      return [fromWorld([r[3], r[0], r[1], r[2]], a)];
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      HP.HP_World_Release(world);
    },
  };
}

await serve(make);
