// MuJoCo 3 through its official WebAssembly build (npm @mujoco/mujoco, Google DeepMind's canonical
// JavaScript bindings), run by Node.js as a program (docs/programs.md; docs/engines.md, "Engines of
// today"). The model is the one the Debian engine builds (engines/mujoco.cpp): one body with
// <inertial> (mass, centre of mass, full central inertia) on a free joint (a torque-free body) or a
// ball joint at the pivot (a top), or a chain of such bodies nested on ball joints (a spherical_chain:
// minimal coordinates, body 0 of a free chain on a free joint), gravity as the problem's field,
// contacts and constraints off, no damping or armature; nothing but mj_step advances it. The body or
// chain comes with the request ("body" or "chain": rigidbench's engines/engine_body.hpp, the same for
// every engine).
//
//   node mujoco.mjs INTEGRATOR        (Euler | RK4 | implicit | implicitfast | discrete)
import loadMujoco from '@mujoco/mujoco';
import {absolute, chainOf, placeChain, relative, serve} from './program.mjs';

const integrator = process.argv[2];
if (!['Euler', 'RK4', 'implicit', 'implicitfast', 'discrete'].includes(integrator)) {
  process.stderr.write(`mujoco.mjs: unknown integrator '${integrator}'\n`);
  process.exit(2);
}
const mj = await loadMujoco();
const num = (x) => x.toPrecision(17);

/// The MJCF text of a chain of links (one link: a rigid_body's body, its frame origin at the body
/// origin): nested bodies, each on a ball joint at its frame origin (body 0 on a free joint when
/// `free`), each body's frame with the problem's body axes, so that a ball joint's quaternion is the
/// attitude relative to the parent (engines/mujoco.cpp writes the same model).
function mjcf(links, base, gravity, free) {
  const v3 = (v) => v.map(num).join(' ');
  let pos = base, x = `<mujoco model='rigidbench'><option timestep='0.001' integrator='${integrator}' ` +
    `gravity='${v3(gravity)}'><flag contact='disable' constraint='disable' limit='disable'/></option><worldbody>`;
  links.forEach((l, i) => {
    const I = l.central_inertia;
    x += `<body name='body${i}' pos='${v3(pos)}'>${free && i === 0 ? '<freejoint/>' : "<joint type='ball' pos='0 0 0'/>"}` +
      `<inertial pos='${v3(l.centre)}' mass='${num(l.mass)}' fullinertia='` +
      `${[I[0][0], I[1][1], I[2][2], I[0][1], I[0][2], I[1][2]].map(num).join(' ')}'/>`;
    pos = l.child;
  });
  return x + '</body>'.repeat(links.length) + '</worldbody></mujoco>';
}

// mj_checkPos, mj_checkVel and mj_checkAcc reset the state to the model's initial one on a bad number
// (and count mjWARN_BADQPOS, _BADQVEL or _BADQACC); a reset also sets d.time to 0. A step after which the
// clock is not where the step took it is a breakdown, with the warning that rose: never a silently
// reset state. (Reading the clock costs one property per step; the warning table, eight.)
const WATCHED = ['mjWARN_INERTIA', 'mjWARN_BADQPOS', 'mjWARN_BADQVEL', 'mjWARN_BADQACC'];

function make(req) {
  const chain = req.chain ? chainOf(req, 'MuJoCo') : null;
  if (!chain && !req.body) throw new Error('no "body" in the request (declare "physical_body": true)');
  const b = req.body;
  const links = chain ? chain.links : [{mass: b.mass, central_inertia: b.central_inertia, centre: b.centre, child: [0, 0, 0]}];
  const gravity = chain ? chain.gravity : b.gravity;
  const free = chain ? !chain.pivot : !b.pivot && (req.settings.ball_joint ?? 0) === 0;
  const m = mj.MjModel.from_xml_string(mjcf(links, chain?.pivot ?? [0, 0, 0], gravity, free));
  const d = new mj.MjData(m);
  // Body i's quaternion in qpos and angular velocity in qvel: a free joint's come after its position
  // and linear velocity (3 each); every ball joint after it has 4 and 3.
  const a = free ? 3 : 0;
  const loaded = gravity.some((g) => g !== 0);
  const stages = integrator === 'RK4' ? 4 : 1;
  let loads = 0, timestep = 0;
  return {
    reset(bodies) {
      mj.mj_resetData(m, d);
      // A ball joint's quaternion rotates body into parent components and its angular velocity is the
      // body's relative to its parent in body (local) components (relative(): W_i - R_i^T R_{i-1} W_{i-1}).
      relative(bodies).forEach(({r, u}, i) => {
        d.qpos.set(r, a + 4 * i);
        d.qvel.set(u, a + 3 * i);
      });
      if (free && chain) {  // a free joint's position and linear velocity: the frame origin's, the centre of mass
        d.qpos.set(bodies[0].x, 0);
        d.qvel.set(bodies[0].v, 0);
      }
    },
    step(h) {
      if (h !== timestep) m.opt.timestep = timestep = h;
      const t = d.time;
      mj.mj_step(m, d);
      if (d.time !== t + h) {
        const rose = WATCHED.filter((w) => d.warning.get(mj.mjtWarning[w].value).number > 0);
        return `MuJoCo: ${rose.join(', ') || 'the clock went back'} (mj_step reset the state to the model's initial state)`;
      }
      for (let i = 0; i < m.nq; ++i) if (!Number.isFinite(d.qpos[i])) return 'MuJoCo: a non-finite qpos';
      if (loaded) loads += stages;
      return null;
    },
    // The state after mj_step is qpos and qvel (mjData's poses were computed from the start of the step).
    read() {
      const bodies = absolute(links.map((_, i) => ({r: Array.from(d.qpos.subarray(a + 4 * i, a + 4 * i + 4)),
        u: Array.from(d.qvel.subarray(a + 3 * i, a + 3 * i + 3))})));
      if (!chain) return bodies;
      return placeChain(chain, bodies, free ? {x: Array.from(d.qpos.subarray(0, 3)), v: Array.from(d.qvel.subarray(0, 3))} : null);
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
