// The program side of rigidbench's protocol (docs/programs.md), shared by every engine in this folder
// and free of any runtime's API, so that it runs under Node.js (program.mjs: one JSON request per line
// on stdin, one answer per line on stdout) and in a browser page (physx.mjs drives headless Chromium).
// An engine module gives make(request) -> {reset(bodies), step(h) -> null | reason, read() -> bodies,
// counters()}, bodies an array of {q, W} (unit quaternion w, x, y, z and body angular velocity) with,
// for a chain, each body's centre of mass x and its velocity v (world components); this file does the
// rest once for all of them: the state's columns for one body or several, the steps t_n = t0 + n h (never
// accumulated; the last landing on land_on), the states asked for, the engine's own time per step,
// going on without a reset where the request says it continues the last run (so an engine keeps its
// internal state - float32 copies, warm starts - as in one run), and an "error" answer for a run the
// engine cannot make.

/// The answer's columns (docs/trajectory-files.md, the declared quaternion_wxyz and body W): per body,
/// suffixed _<b> when there are several, with x and v for a translating family (a chain).
function columnsOf(n, translating) {
  const cols = ['t'];
  for (let b = 0; b < n; ++b) {
    const sfx = n > 1 ? `_${b}` : '';
    for (const c of ['q1', 'q2', 'q3', 'q4', 'W1', 'W2', 'W3', ...(translating ? ['x1', 'x2', 'x3', 'v1', 'v2', 'v3'] : [])])
      cols.push(c + sfx);
  }
  return cols;
}

/// The unit quaternion (w, x, y, z) of a rotation matrix given by rows (Shepperd: the largest of
/// the four candidates is divided by, never a small one).
function quaternionOf(R) {
  const t = R[0][0] + R[1][1] + R[2][2];
  if (t > 0) {
    const s = 2 * Math.sqrt(1 + t);
    return [s / 4, (R[2][1] - R[1][2]) / s, (R[0][2] - R[2][0]) / s, (R[1][0] - R[0][1]) / s];
  }
  let i = 0;
  if (R[1][1] > R[i][i]) i = 1;
  if (R[2][2] > R[i][i]) i = 2;
  const j = (i + 1) % 3, k = (i + 2) % 3;
  const s = 2 * Math.sqrt(1 + R[i][i] - R[j][j] - R[k][k]);
  const q = [(R[k][j] - R[j][k]) / s, 0, 0, 0];
  q[1 + i] = s / 4;
  q[1 + j] = (R[j][i] + R[i][j]) / s;
  q[1 + k] = (R[k][i] + R[i][k]) / s;
  return q;
}

/// The vector v rotated by the unit quaternion q = [w, x, y, z] (body to world components), and a x b:
/// for the engines that keep world angular velocities (Rapier, Jolt).
export function rotate(q, v) {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/// For an engine that keeps world quantities, the motion of the state (q, W) with the centre of mass
/// at c in the body frame and the pivot (or the centre of mass) at the origin: w = R W, the centre of
/// mass x = R c and its velocity v = w x x.
export function toWorld(q, W, c) {
  const w = rotate(q, W), x = rotate(q, c);
  return {w, x, v: cross(w, x)};
}

/// The protocol's state from an engine's rotation q = [w, x, y, z] (normalised here: a float32
/// engine's is a unit quaternion within ~1e-7) and world angular velocity w: W = R^T w.
export function fromWorld(q, w) {
  const n = Math.hypot(...q);
  const u = q.map((c) => c / n);
  return {q: u, W: rotate(conjugate(u), w)};
}

const conjugate = (q) => [q[0], -q[1], -q[2], -q[3]];
const add = (a, b) => a.map((x, i) => x + b[i]);
/// The quaternion product a b ([w, x, y, z]): the rotation b, then a.
function multiply(a, b) {
  const [aw, ax, ay, az] = a, [bw, bx, by, bz] = b;
  return [aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw];
}

/// The chain of a request (rigidbench's EngineChain, engines/engine_body.hpp): links {mass,
/// central_inertia, centre, child} - each link's frame has the body's axes and its origin at the link's
/// inboard joint (body 0 of a free chain: at its centre of mass), centre the centre of mass and child
/// the next joint from that origin - with the pivot (null: a free chain) and gravity.
export function chainOf(req, engine) {
  if (!req.chain) throw new Error(`${engine}: no "chain" in the request (a spherical_chain problem, "physical_body": true)`);
  return req.chain;
}

/// The joints of a chain in maximal coordinates (one body per link at its centre of mass): joint 0 holds
/// body 0 at a_0 = -centre_0 to the pivot (parent -1: the world, the point in world components), joint
/// i body i - 1 at b_{i-1} = child_{i-1} - centre_{i-1} to body i at a_i = -centre_i, each point in its
/// body's frame from its centre of mass (rigidbench's EngineLink).
export function chainJoints(chain) {
  const a = (l) => l.centre.map((x) => 0 - x);  // 0 - x: a zero stays +0
  const joints = chain.pivot ? [{parent: -1, parentPoint: chain.pivot, child: 0, childPoint: a(chain.links[0])}] : [];
  for (let i = 1; i < chain.links.length; ++i) {
    const p = chain.links[i - 1];
    joints.push({parent: i - 1, parentPoint: p.child.map((c, k) => c - p.centre[k]), child: i, childPoint: a(chain.links[i])});
  }
  return joints;
}

/// A chain's bodies in minimal coordinates: each attitude relative to its parent's, q_i = q_{i-1} r_i,
/// and each angular velocity relative to its parent's in its own axes, W_i = R(r_i)^T W_{i-1} + u_i
/// (MuJoCo's ball joints). relative() gives every (r_i, u_i) of the absolute bodies, absolute() the inverse.
export function relative(bodies) {
  return bodies.map((b, i) => {
    if (i === 0) return {r: b.q, u: b.W};
    const p = bodies[i - 1], r = multiply(conjugate(p.q), b.q);
    return {r, u: b.W.map((w, k) => w - rotate(conjugate(r), p.W)[k])};
  });
}
export function absolute(joints) {
  const bodies = [];
  joints.forEach(({r, u}, i) => {
    if (i === 0) return bodies.push({q: r, W: u});
    const p = bodies[i - 1];
    bodies.push({q: multiply(p.q, r), W: add(rotate(conjugate(r), p.W), u)});
  });
  return bodies;
}

/// The centres of mass x and their velocities v of a chain's bodies (world components) placed by the
/// joints from the attitudes and angular velocities (rigidbench's place_chain): joint 0 at the pivot
/// (a free chain: body 0's x and v are given, its frame origin being its centre of mass), joint i + 1 at
/// joint i + R_i child_i, x_i = joint i + R_i centre_i, and the velocities likewise with w_i = R_i W_i.
export function placeChain(chain, bodies, base = null) {
  let o = chain.pivot ?? base.x, vo = chain.pivot ? [0, 0, 0] : base.v;
  bodies.forEach((b, i) => {
    const w = rotate(b.q, b.W), rc = rotate(b.q, chain.links[i].centre), rj = rotate(b.q, chain.links[i].child);
    b.x = add(o, rc);
    b.v = add(vo, cross(w, rc));
    o = add(o, rj);
    vo = add(vo, cross(w, rj));
  });
  return bodies;
}

/// The bodies of a request's state: R by rows and body W (and x, v for a chain) per body, the columns
/// suffixed _<b> when there are several.
function bodiesOf(s) {
  const n = Object.keys(s).filter((k) => /^R11(_\d+)?$/.test(k)).length;
  return Array.from({length: n}, (_, b) => {
    const g = (c) => s[c + (n > 1 ? `_${b}` : '')];
    const R = [[g('R11'), g('R12'), g('R13')], [g('R21'), g('R22'), g('R23')], [g('R31'), g('R32'), g('R33')]];
    const body = {q: quaternionOf(R), W: [g('W1'), g('W2'), g('W3')]};
    if (g('x1') !== undefined) Object.assign(body, {x: [g('x1'), g('x2'), g('x3')], v: [g('v1'), g('v2'), g('v3')]});
    return body;
  });
}

function run(engine, req, n, translating) {
  const {t0, h, from, steps} = req;
  const every = req.observe.every;
  const time = (k) => (req.land_on !== undefined && k === steps ? req.land_on : t0 + k * h);
  const columns = columnsOf(n, translating);
  const data = Object.fromEntries(columns.map((c) => [c, []]));
  const record = (k) => {
    const bodies = engine.read();
    const row = [time(k)];
    for (const b of bodies) row.push(...b.q, ...b.W, ...(translating ? [...b.x, ...b.v] : []));
    if (row.length !== columns.length) throw new Error(`the engine read ${bodies.length} bodies${translating ? ' (with x and v)' : ''}, not ${n}`);
    columns.forEach((c, i) => data[c].push(Number.isFinite(row[i]) ? row[i] : null));
  };
  const c0 = engine.counters();
  if (req.observe.initial) record(from);
  const start = performance.now();  // ms; Node's and a page's clock alike
  for (let k = from; k < steps; ++k) {
    const why = engine.step(time(k + 1) - time(k));
    if (why) return {data, steps: k, breakdown: {step: k, reason: why}};
    const done = k + 1;
    if ((every > 0 && done % every === 0) || (req.observe.last && done === steps)) record(done);
  }
  const ns = (performance.now() - start) * 1e6;
  const c1 = engine.counters();
  const counters = Object.fromEntries(Object.keys(c1).map((k) => [k, c1[k] - (c0[k] ?? 0)]));
  return {data, steps, counters, ...(steps > from ? {ns_per_step: ns / (steps - from)} : {})};
}

/// The answerer of one program: answer(line) is the answer object to one request line, with engines
/// made by make(request) (awaited) and kept while the scheme, problem and settings stay the same.
export function answerer(make) {
  let engine = null, key = '', continuing = false;
  return async (line) => {
    let answer;
    try {
      const req = JSON.parse(line);
      if (req.protocol !== 1) throw new Error(`protocol ${req.protocol} is not this program's (1)`);
      if (req.op && req.op !== 'run') throw new Error(`no '${req.op}' here`);
      const k = JSON.stringify([req.scheme, req.problem, req.settings]);
      if (k !== key) {
        engine?.dispose?.();
        engine = await make(req);
        key = k;
        continuing = false;
      }
      const bodies = bodiesOf(req.state);
      if (!(req.continues && continuing)) engine.reset(bodies);
      answer = run(engine, req, bodies.length, bodies[0].x !== undefined);
      continuing = !answer.breakdown;
    } catch (e) {
      answer = {error: String(e?.message ?? e)};
      engine = null;
      key = '';
      continuing = false;
    }
    return answer;
  };
}

/// The body of a request (rigidbench's EngineBody, "physical_body": true) and its principal moments, for
/// an engine that keeps a diagonal inertia in the body frame (cannon-es; Rapier as its adapter uses it):
/// a body whose central inertia is not diagonal in its own frame is refused, naming the engine.
export function diagonalBody(req, engine) {
  if (!req.body) throw new Error('no "body" in the request (declare "physical_body": true)');
  return {b: req.body, moments: diagonalMoments(req.body.central_inertia, engine, 'this body')};
}
/// The moments of a central inertia diagonal in its body frame (a chain's link), refused otherwise.
export function diagonalMoments(I, engine, what) {
  const off = Math.max(Math.abs(I[0][1]), Math.abs(I[0][2]), Math.abs(I[1][2]));
  if (off > 1e-12 * Math.max(I[0][0], I[1][1], I[2][2]))
    throw new Error(`${engine} is given a diagonal inertia in the body frame here: ${what}'s central inertia is not diagonal`);
  return [I[0][0], I[1][1], I[2][2]];
}
