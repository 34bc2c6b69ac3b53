// Kalah (mancala) with three pits a side served over nullwindow's line protocol, with its own
// search: a game where a side may move twice in a row, so the engine answers `mover`.
//
//   nullwindow solve --engine 'node examples/protocol/kalah.mjs'
//   nullwindow fuzz --engine 'node examples/protocol/kalah.mjs --bug extra-turn'
//   nullwindow fuzz --engine 'node examples/protocol/kalah.mjs --solver' --to-end
//
// Each side has three pits of two seeds and a store. A move takes every seed of one of the mover's
// pits and sows them one by one counter-clockwise, into the pits and the mover's own store but not
// the other's. A last seed in the mover's store gives it another move; a last seed in an empty pit
// of its own takes it and the seeds of the pit opposite into its store, if there are any. The game
// ends when a side's pits are empty, and each side's remaining seeds go to its own store.
//
// A position token is `A1,A2,A3,STORE_A,B1,B2,B3,STORE_B,SIDE`: a's pits and store, b's pits and
// store, then the side to move, `a` or `b` (the start is `2,2,2,0,2,2,2,0,a`). A move is the
// number of the mover's pit, 1 to 3, and `mover POS` answers `a` or `b`. The evaluation, from the
// side to move, is its store minus the other's: at the end, the final score.
//
// `search POS DEPTH [FILE]` is the engine's own search: a fail-soft negamax alpha-beta with a
// table keyed by the position and the depth left (an entry answers only a search to its own depth,
// so the engine is exact), writing one record per node to FILE as the node returns. After a move
// that keeps the mover, the child's value and window stay the mover's: they are not negated.
// Usage: kalah.mjs [--solver] [--bug NAME], with one of the planted bugs of BUGS.
//
// With --solver it is a solver, as many engines for small games are: it announces `end` and
// answers `search POS end` with the position's value at the end of the game (its search with no
// depth to run out: a thousand plies, far more than a game of twelve seeds lasts), and declines
// every search to a depth (`skip`).
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const INF = 1_000_000;
// ANCHOR: bugs
const BUGS = {
  none: "no bug: the engine is exact",
  "extra-turn": "after a move that keeps the mover, the child's value and window are negated as if sides alternated",
  "table-flag": "a result at or below alpha goes into the table as exact",
};
// ANCHOR_END: bugs

const parse = (token) => {
  const words = token.split(",");
  return [words.slice(0, 8).map(Number), words[8]];
};
const sideOf = (token) => token.slice(-1);

function children(token) {
  const [board, side] = parse(token);
  const own = side === "a" ? 0 : 4;
  const moves = [];
  for (let pit = 1; pit <= 3; pit++) {
    if (board[own + pit - 1] > 0) moves.push([String(pit), sow(board, side, own + pit - 1)]);
  }
  return moves;
}

// The position after side sows the pit at index from (pits 0-2 and store 3 are a's, 4-7 b's).
function sow(before, side, from) {
  const board = [...before];
  const [store, skipped] = side === "a" ? [3, 7] : [7, 3];
  let seeds = board[from], at = from;
  board[from] = 0;
  while (seeds > 0) {
    at = (at + 1) % 8;
    if (at === skipped) continue;
    board[at]++;
    seeds--;
  }
  const ownPit = at >= store - 3 && at < store;
  if (ownPit && board[at] === 1 && board[6 - at] > 0) {
    board[store] += 1 + board[6 - at];
    board[at] = board[6 - at] = 0;
  }
  const sum = (first) => board[first] + board[first + 1] + board[first + 2];
  if (sum(0) === 0 || sum(4) === 0) {
    [board[3], board[7]] = [board[3] + sum(0), board[7] + sum(4)];
    board.fill(0, 0, 3);
    board.fill(0, 4, 7);
  }
  const next = at === store ? side : side === "a" ? "b" : "a";
  return `${board.join(",")},${next}`;
}

function evaluate(token) {
  const [board, side] = parse(token);
  return side === "a" ? board[3] - board[7] : board[7] - board[3];
}

// One search: fail-soft negamax alpha-beta over a table of (position, depth left).
class Search {
  constructor(bug, depth) {
    Object.assign(this, { bug, depth, table: new Map(), records: [], bestMove: null });
  }

  negamax(token, depth, alpha, beta) {
    const window = [alpha, beta];
    const entry = this.table.get(`${token} ${depth}`);
    if (entry) {
      const [value, flag] = entry;
      if (flag === "exact" || (flag === "lower" && value >= beta) || (flag === "upper" && value <= alpha)) {
        return this.record(token, depth, window, value, null, "cutoff");
      }
    }
    const moves = children(token);
    if (depth === 0 || moves.length === 0) return this.record(token, depth, window, evaluate(token));
    let best = -INF;
    for (const [move, child] of moves) {
      const floor = Math.max(alpha, best);
      // ANCHOR: extra_turn
      // After an extra turn the same side moves: its value and window stay as they are.
      const again = sideOf(child) === sideOf(token) && this.bug !== "extra-turn";
      const value = again
        ? this.negamax(child, depth - 1, floor, beta)
        : -this.negamax(child, depth - 1, -beta, -floor);
      // ANCHOR_END: extra_turn
      if (value > best) {
        best = value;
        if (depth === this.depth) this.bestMove = move; // the root: the only node searched this deep
      }
      if (best >= beta) break;
    }
    let flag;
    if (best <= alpha) flag = this.bug === "table-flag" ? "exact" : "upper";
    else flag = best >= beta ? "lower" : "exact";
    this.table.set(`${token} ${depth}`, [best, flag]);
    return this.record(token, depth, window, best, flag);
  }

  record(node, depth, [alpha, beta], result, stored = null, probe = null) {
    const line = { node, depth, alpha, beta, result };
    if (stored) line.stored = stored;
    if (probe) line.probe = probe;
    this.records.push(JSON.stringify(line) + "\n");
    return result;
  }
}

// The answer to `search POS DEPTH [FILE]`: the value, and a best move below the root.
function search(token, depth, file, bug) {
  const engine = new Search(bug, depth);
  const value = engine.negamax(token, depth, -INF, INF);
  if (file) writeFileSync(file, engine.records.join(""));
  return engine.bestMove === null ? String(value) : `${value} ${engine.bestMove}`;
}

const args = process.argv.slice(2);
const bug = args.includes("--bug") ? args[args.indexOf("--bug") + 1] : "none";
const solver = args.includes("--solver");
if (!(bug in BUGS)) {
  process.stderr.write(`usage: kalah.mjs [--solver] [--bug ${Object.keys(BUGS).join("|")}]\n`);
  process.exit(2);
}

// ANCHOR: solver
// A solver's `search`: to the end of the game, and nothing shallower.
function solve(token, depth, file) {
  if (depth !== "end") return "skip";
  return search(token, 1000, file, bug);
}
// ANCHOR_END: solver

function answer([request, token, depth, file]) {
  if (request === "protocol") {
    return solver ? "protocol 1 search mover end" : "protocol 1 search records mover new horizon";
  }
  if (request === "search" && solver) return solve(token, depth, file);
  // Each search builds its own table, so nothing is kept between searches to forget.
  if (request === "new") return "ok";
  if (request === "root") return "2,2,2,0,2,2,2,0,a";
  if (request === "children") return children(token).map(([move, child]) => `${move} ${child}`).join(" ");
  if (request === "mover") return sideOf(token);
  if (request === "search") return search(token, Number(depth), file, bug);
  // Where the depth runs out the search scores a position by `evaluate`, finished or not: the
  // store difference, which at the end of the game is its result too.
  if (request === "horizon") return String(evaluate(token));
  return String(evaluate(token));
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = line.trim().split(/\s+/);
  if (request[0] === "quit") process.exit(0);
  process.stdout.write(answer(request) + "\n");
});
