// MuJoCo 3 through its official WebAssembly build (npm @mujoco/mujoco, Google DeepMind's canonical
// JavaScript bindings), run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines of
// today"). The model is the one the Debian engine builds (engines/mujoco.cpp): one body with
// <inertial> (mass, centre of mass, full central inertia) on a free joint (a torque-free body) or a
// ball joint at the pivot (a top), gravity as the problem's field, contacts and constraints off, no
// damping or armature; nothing but mj_step advances it. The body comes with the request ("body":
// rigidbench's engines/engine_body.hpp, the same for every engine).
//
//   node mujoco.mjs INTEGRATOR        (Euler | RK4 | implicit | implicitfast | discrete)
import loadMujoco from '@mujoco/mujoco';
import {serve} from './program.mjs';

const integrator = process.argv[2];
if (!['Euler', 'RK4', 'implicit', 'implicitfast', 'discrete'].includes(integrator)) {
  process.stderr.write(`mujoco.mjs: unknown integrator '${integrator}'\n`);
  process.exit(2);
}
const mj = await loadMujoco();
const num = (x) => x.toPrecision(17);

function mjcf(b, free) {
  const I = b.central_inertia;
  return `<mujoco model='rigidbench'><option timestep='0.001' integrator='${integrator}' ` +
    `gravity='${b.gravity.map(num).join(' ')}'><flag contact='disable' constraint='disable' limit='disable'/></option>` +
    `<worldbody><body name='body' pos='0 0 0'>${free ? '<freejoint/>' : "<joint type='ball' pos='0 0 0'/>"}` +
    `<inertial pos='${b.centre.map(num).join(' ')}' mass='${num(b.mass)}' fullinertia='` +
    `${[I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]].map(num).join(' ')}'/></body></worldbody></mujoco>`;
}

// mj_checkPos, mj_checkVel and mj_checkAcc reset the state to the model's initial one on a bad number
// (and count mjWARN_BADQPOS, _BADQVEL or _BADQACC); a reset also sets d.time to 0. A step after which the
// clock is not where the step took it is a breakdown, with the warning that rose: never a silently
// reset state. (Reading the clock costs one property per step; the warning table, eight.)
const WATCHED = ['mjWARN_INERTIA', 'mjWARN_BADQPOS', 'mjWARN_BADQVEL', 'mjWARN_BADQACC'];

function make(req) {
  if (!req.body) throw new Error('no "body" in the request (declare "physical_body": true)');
  const b = req.body;
  const free = !b.pivot && (req.settings.ball_joint ?? 0) === 0;
  const m = mj.MjModel.from_xml_string(mjcf(b, free));
  const d = new mj.MjData(m);
  const a = free ? 3 : 0;  // a free joint's qpos is (position, quaternion), its qvel (linear, angular)
  const loaded = b.gravity.some((g) => g !== 0);
  const stages = integrator === 'RK4' ? 4 : 1;
  let loads = 0, timestep = 0;
  return {
    reset(q, W) {
      mj.mj_resetData(m, d);
      d.qpos.set(q, a);
      d.qvel.set(W, a);  // a ball or free joint's angular velocity is in body (local) components, as W
    },
    step(h) {
      if (h !== timestep) m.opt.timestep = timestep = h;
      const t = d.time;
      mj.mj_step(m, d);
      if (d.time !== t + h) {
        const rose = WATCHED.filter((w) => d.warning.get(mj.mjtWarning[w].value).number > 0);
        return `MuJoCo: ${rose.join(', ') || 'the clock went back'} (mj_step reset the state to the model's initial state)`;
      }
      for (let i = 0; i < 4; ++i) if (!Number.isFinite(d.qpos[a + i])) return 'MuJoCo: a non-finite quaternion';
      if (loaded) loads += stages;
      return null;
    },
    read() {
      return {q: Array.from(d.qpos.subarray(a, a + 4)), W: Array.from(d.qvel.subarray(a, a + 3))};
    },
    counters() {
      return {load_evaluations: loads};
    },
    dispose() {
      d.delete();
      m.delete();
    },
  };
}

if (process.argv[3] === '--version') {
  process.stdout.write(`${mj.mj_versionString()}\n`);
  process.exit(0);
}
await serve(make);
