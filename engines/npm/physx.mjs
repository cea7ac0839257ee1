// PhysX 5.6.1 (npm physx-js-webidl, compiled for the web only) as a program (docs/programs.md;
// docs/engines.md, "Engines of today"): this Node.js script is the program rigidbench speaks to, and
// the engine runs in a page of Debian's headless Chromium (physx_page.mjs), driven over the DevTools
// protocol by playwright-core (its npm package drives an installed browser; it downloads none). A
// local HTTP server on 127.0.0.1 serves the page, protocol.mjs and the PhysX module with its .wasm;
// each request line is handed to the page, which runs the whole run there and returns the answer
// (one round trip a run, not one a step). Chromium is found as $RIGIDBENCH_CHROMIUM or `chromium` on
// PATH.
//
//   node physx.mjs
import fs from 'node:fs';
import http from 'node:http';
import {createRequire} from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import {fileURLToPath} from 'node:url';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const physxDir = path.dirname(require.resolve('physx-js-webidl/physx-js-webidl.mjs'));
const files = {
  '/': ['text/html', Buffer.from('<!doctype html><meta charset="utf-8"><script type="module" src="/physx_page.mjs"></script>')],
  '/physx_page.mjs': ['text/javascript', path.join(here, 'physx_page.mjs')],
  '/protocol.mjs': ['text/javascript', path.join(here, 'protocol.mjs')],
  '/physx-js-webidl/physx-js-webidl.mjs': ['text/javascript', path.join(physxDir, 'physx-js-webidl.mjs')],
  '/physx-js-webidl/physx-js-webidl.wasm': ['application/wasm', path.join(physxDir, 'physx-js-webidl.wasm')],
};
const server = http.createServer((req, res) => {
  const f = files[new URL(req.url, 'http://x').pathname];
  if (!f) {
    res.writeHead(404).end();
    return;
  }
  // Cross-origin isolated, so that the page's clock (performance.now, the engine's ns_per_step) has
  // Chromium's fine resolution (5 us) rather than 100 us.
  res.writeHead(200, {'content-type': f[0], 'cross-origin-opener-policy': 'same-origin',
                      'cross-origin-embedder-policy': 'require-corp'})
      .end(Buffer.isBuffer(f[1]) ? f[1] : fs.readFileSync(f[1]));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));

function chromiumPath() {
  if (process.env.RIGIDBENCH_CHROMIUM) return process.env.RIGIDBENCH_CHROMIUM;
  for (const d of (process.env.PATH ?? '').split(':'))
    for (const name of ['chromium', 'chromium-browser'])
      if (d && fs.existsSync(path.join(d, name))) return path.join(d, name);
  throw new Error('Chromium is not on PATH (Debian: apt-get install chromium; scripts/install-deps.sh does)');
}

// The flags a closed network needs (no background connections, no component updates) and a root
// user (no sandbox); a new empty profile per run.
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e?.message ?? e)));
await page.goto(`http://127.0.0.1:${server.address().port}/`);
await page.waitForFunction(() => typeof globalThis.rigidbench === 'function' || globalThis.rigidbenchFailed, null,
                           {timeout: 120000}).catch(() => {});
if (!(await page.evaluate(() => typeof globalThis.rigidbench === 'function')))
  throw new Error(`PhysX did not load in Chromium: ${pageErrors.join('; ') || 'no answer from the page'}`);

const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of lines) {
  const answer = await page.evaluate((l) => globalThis.rigidbench(l), line);
  process.stdout.write(JSON.stringify(answer) + '\n');
}
await browser.close();
server.close();
