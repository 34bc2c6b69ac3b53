// An engine as authors write one, in JavaScript for node, for `nullwindow fuzz` to check: MTD(f) in
// iterative deepening over a fail-soft negamax alpha-beta with a transposition table. The same
// engine as examples/python/mtdf_engine.py, with the same planted bugs.
//
//   nullwindow fuzz --values side-to-move \
//       --command 'node examples/javascript/mtdf_engine.mjs {} {depth} --trace {trace}'
//
// Usage: mtdf_engine.mjs TREE DEPTH [--trace FILE] [--bug NAME], or mtdf_engine.mjs --persistent
// [--bug NAME] for `nullwindow fuzz --persistent` (one process, a `case FILE DEPTH TRACE` line a
// case, records always written to TRACE). Prints the root's value from the side to move and the
// index of the child it would play; with --trace, one record per node as it returns. Bugs: sign,
// table-flag, shallower-entry, driver-loop, reported-move (see the Python one).
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const INF = 1_000_000;
const BUGS = ["none", "sign", "table-flag", "shallower-entry", "driver-loop", "reported-move"];

// Nodes as id -> [evaluation from MAX's side, MAX to move, child ids], and the root's id.
function readTree(text, gtree) {
  const nodes = new Map();
  if (gtree) {
    for (const line of text.split("\n")) {
      const words = line.split("#")[0].trim().split(/\s+/).filter(Boolean);
      if (words.length) nodes.set(words[0], [Number(words[1]), words[2] === "W", words.slice(3)]);
    }
    return [nodes, text.trim().split(/\s+/)[0]];
  }
  const stack = [];
  for (const token of text.replace(/#.*/g, "").match(/\(|\)|-?\d+/g)) {
    if (token === ")") { stack.pop(); continue; }
    const node = String(nodes.size);
    if (stack.length) nodes.get(stack.at(-1))[2].push(node);
    nodes.set(node, [token === "(" ? 0 : Number(token), stack.length % 2 === 0, []]);
    if (token === "(") stack.push(node);
  }
  return [nodes, "0"];
}

class Engine {
  constructor(nodes, bug, trace) {
    Object.assign(this, { nodes, bug, trace, table: new Map(), bestMove: null });
  }

  negamax(node, depth, alpha, beta, path) {
    const window = [alpha, beta];
    const entry = this.table.get(node);
    if (entry && (entry[0] === depth || (this.bug === "shallower-entry" && entry[0] < depth))) {
      const [, value, flag] = entry;
      if (flag === "exact") return this.record(path, depth, window, value, null, "cutoff");
      if (flag === "lower") alpha = Math.max(alpha, value);
      else beta = Math.min(beta, value);
      if (alpha >= beta) return this.record(path, depth, window, value, null, "cutoff");
    }
    const [evaluation, maxToMove, children] = this.nodes.get(node);
    if (depth === 0 || children.length === 0) {
      const mover = maxToMove ? evaluation : -evaluation;
      const horizonBug = this.bug === "sign" && depth === 0;
      return this.record(path, depth, window, horizonBug ? evaluation : mover, null);
    }
    let [best, bestIndex] = [-INF, 0];
    for (const [index, child] of children.entries()) {
      const value = -this.negamax(child, depth - 1, -beta, -Math.max(alpha, best), [...path, index]);
      if (value > best) [best, bestIndex] = [value, index];
      if (best >= beta) break;
    }
    let flag = best >= beta ? "lower" : "exact";
    if (best <= alpha) flag = this.bug === "table-flag" ? "exact" : "upper";
    if (path.length === 0 && best > alpha && (this.bestMove === null || this.bug !== "reported-move")) {
      this.bestMove = bestIndex;
    }
    this.table.set(node, [depth, best, flag]);
    return this.record(path, depth, window, best, flag);
  }

  record(path, depth, [alpha, beta], result, stored, probe = null) {
    if (this.trace) {
      const line = { path, depth, alpha, beta, result };
      if (stored) line.stored = stored;
      if (probe) line.probe = probe;
      this.trace.push(JSON.stringify(line));
    }
    return result;
  }

  mtdf(root, depth, guess) {
    let [lower, upper, passes] = [-INF, INF, 0];
    while (lower < upper) {
      passes += 1;
      if (this.bug === "driver-loop" && passes > 2) break;
      const beta = Math.max(guess, lower + 1);
      guess = this.negamax(root, depth, beta - 1, beta, []);
      if (guess < beta) upper = guess;
      else lower = guess;
    }
    return guess;
  }
}

// The answer line for one case: the value, and the move when the root has one.
function answer(path, depth, tracePath, bug) {
  const [nodes, root] = readTree(readFileSync(path, "utf8"), path.endsWith(".gtree"));
  const engine = new Engine(nodes, bug, tracePath ? [] : null);
  let guess = 0;
  for (let iteration = Math.min(1, depth); iteration <= depth; iteration++) {
    guess = engine.mtdf(root, iteration, guess);
  }
  if (tracePath) writeFileSync(tracePath, engine.trace.map((line) => line + "\n").join(""));
  return engine.bestMove === null ? `${guess}` : `${guess} ${engine.bestMove}`;
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args.splice(at, 2)[1];
};
const tracePath = option("--trace", null);
const bug = option("--bug", "none");
const persistent = args.includes("--persistent");
if (persistent) args.splice(args.indexOf("--persistent"), 1);
if (args.length !== (persistent ? 0 : 2) || !BUGS.includes(bug)) {
  console.error(`usage: mtdf_engine.mjs (TREE DEPTH [--trace FILE] | --persistent) [--bug ${BUGS.join("|")}]`);
  process.exit(2);
}
if (!persistent) {
  console.log(answer(args[0], Number(args[1]), tracePath, bug));
} else {
  // One process for a whole run: a line `case FILE DEPTH TRACE` per case, one answer line each,
  // until `quit`.
  for await (const line of createInterface({ input: process.stdin })) {
    const request = line.split(/\s+/).filter(Boolean);
    if (!request.length || request[0] === "quit") break;
    process.stdout.write(answer(request[1], Number(request[2]), request[3], bug) + "\n");
  }
  process.exit(0);
}
