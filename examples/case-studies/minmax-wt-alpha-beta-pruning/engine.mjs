// minmax-wt-alpha-beta-pruning 1.0.5 on the oracle's cases: `nullwindow fuzz --values
// side-to-move --command 'node engine.mjs {} {depth}'`, or `node engine.mjs --persistent` for
// `fuzz --persistent`. A case's tree is the package's game: a state is a node, a move a child index.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';

const { minmax } = createRequire(import.meta.url)('minmax-wt-alpha-beta-pruning');

// ANCHOR: glue
// The case as nodes [evaluation from MAX's side, MAX to move, children], and its root.
function readTree(text, gtree) {
  const nodes = [];
  if (!gtree) {
    const tokens = text.replace(/#.*/g, '').replace(/[()]/g, ' $& ').split(/\s+/).filter(Boolean);
    let at = 0;
    const parse = (maxToMove) => {
      const node = nodes.push([0, maxToMove, []]) - 1;
      if (tokens[at] !== '(') {
        nodes[node][0] = Number(tokens[at++]);
        return node;
      }
      for (at++; tokens[at] !== ')';) nodes[node][2].push(parse(!maxToMove));
      at++;
      return node;
    };
    return [nodes, parse(true)];
  }
  const lines = text.split('\n').map((line) => line.split(/\s+/).filter(Boolean)).filter((w) => w.length);
  const byId = new Map(lines.map((words) => [words[0], words]));
  const named = new Set(lines.flatMap((words) => words.slice(2).filter((w) => w !== 'W' && w !== 'B')));
  const ids = new Map();
  const visit = (id, maxToMove) => {
    if (ids.has(id)) return ids.get(id);
    const words = byId.get(id);
    const colour = words[2] === 'W' || words[2] === 'B' ? words[2] : null;
    const max = colour === null ? maxToMove : colour === 'W';
    const node = nodes.push([Number(words[1]), max, []]) - 1;
    ids.set(id, node);
    for (const child of words.slice(colour === null ? 2 : 3)) nodes[node][2].push(visit(child, !max));
    return node;
  };
  return [nodes, visit(lines.find((words) => !named.has(words[0]))[0], true)];
}

function answer(path, depth) {
  const [nodes, root] = readTree(readFileSync(path, 'utf8'), path.endsWith('.gtree'));
  // Every value the package asks for is from the side to move at the state.
  const forMover = (node) => (nodes[node][1] ? nodes[node][0] : -nodes[node][0]);
  const rules = {
    terminalStateEval: (node) => (nodes[node][2].length === 0 ? forMover(node) : null),
    listMoves: (node) => nodes[node][2].map((_, index) => index),
    nextState: (node, move) => nodes[node][2][move],
  };
  const { bestMove, evaluation } = minmax(root, rules, forMover, depth);
  return bestMove === null || bestMove === undefined ? `${evaluation}` : `${evaluation} ${bestMove}`;
}
// ANCHOR_END: glue

if (process.argv[2] === '--persistent') {
  for await (const line of createInterface({ input: process.stdin })) {
    const [word, path, depth] = line.split(' ');
    if (word === 'quit') break;
    console.log(answer(path, Number(depth)));
  }
} else {
  console.log(answer(process.argv[2], Number(process.argv[3])));
}
