// The program side of rigidbench's protocol under Node.js (docs/programs.md): one JSON request per line
// on stdin, one answer per line on stdout, answered by protocol.mjs (shared with the engines run in a
// browser page, physx.mjs). The engines' scripts import everything from here.
import readline from 'node:readline';
import {answerer} from './protocol.mjs';

export {absolute, chainJoints, chainOf, cross, diagonalBody, diagonalMoments, fromWorld, placeChain, relative, rotate, toWorld} from './protocol.mjs';

/// Serves requests with engines made by make(request) until stdin ends.
export async function serve(make) {
  const answer = answerer(make);
  const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  for await (const line of lines) process.stdout.write(JSON.stringify(await answer(line)) + '\n');
}
