// The program side of rigidbench's protocol (docs/programs.md), shared by every engine in this folder
// and free of any runtime's API, so that it runs under Node.js (program.mjs: one JSON request per line
// on stdin, one answer per line on stdout) and in a browser page (physx.mjs drives headless Chromium).
// An engine module gives make(request) -> {reset(q, W), step(h) -> null | reason, read() -> {q, W},
// counters()}; this file does the rest once for all of them: the steps t_n = t0 + n h (never
// accumulated; the last landing on land_on), the states asked for, the engine's own time per step,
// going on without a reset where the request says it continues the last run (so an engine keeps its
// internal state - float32 copies, warm starts - as in one run), and an "error" answer for a run the
// engine cannot make.
const COLUMNS = ['t', 'q1', 'q2', 'q3', 'q4', 'W1', 'W2', 'W3'];

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
function rotate(q, v) {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

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
  return {q: u, W: rotate([u[0], -u[1], -u[2], -u[3]], w)};
}

function stateOf(s) {
  const R = [[s.R11, s.R12, s.R13], [s.R21, s.R22, s.R23], [s.R31, s.R32, s.R33]];
  return {q: quaternionOf(R), W: [s.W1, s.W2, s.W3]};
}

function run(engine, req) {
  const {t0, h, from, steps} = req;
  const every = req.observe.every;
  const time = (n) => (req.land_on !== undefined && n === steps ? req.land_on : t0 + n * h);
  const data = Object.fromEntries(COLUMNS.map((c) => [c, []]));
  const record = (n) => {
    const {q, W} = engine.read();
    const row = [time(n), ...q, ...W];
    COLUMNS.forEach((c, i) => data[c].push(Number.isFinite(row[i]) ? row[i] : null));
  };
  const c0 = engine.counters();
  if (req.observe.initial) record(from);
  const start = performance.now();  // ms; Node's and a page's clock alike
  for (let n = from; n < steps; ++n) {
    const why = engine.step(time(n + 1) - time(n));
    if (why) return {data, steps: n, breakdown: {step: n, reason: why}};
    const done = n + 1;
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
      if (!(req.continues && continuing)) {
        const {q, W} = stateOf(req.state);
        engine.reset(q, W);
      }
      answer = run(engine, req);
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
  const I = req.body.central_inertia;
  const off = Math.max(Math.abs(I[0][1]), Math.abs(I[0][2]), Math.abs(I[1][2]));
  if (off > 1e-12 * Math.max(I[0][0], I[1][1], I[2][2]))
    throw new Error(`${engine} is given a diagonal inertia in the body frame here: this body's central inertia is not diagonal`);
  return {b: req.body, moments: [I[0][0], I[1][1], I[2][2]]};
}
