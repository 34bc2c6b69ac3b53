// Coins in a line, a scoring game the crate does not have, served over nullwindow's line protocol:
//
//   nullwindow solve --engine 'node examples/protocol/coins.mjs'
//
// A row of coins lies on the table; the players take turns to take one from either end, and the
// score is what the first player took minus what the second took. A position token is
// `LEFT,RIGHT,SCORE`: the coins from index LEFT to RIGHT (exclusive) are left, and SCORE is what
// the side to move has taken minus what the other has. Moves are `L` and `R`. Different orders
// of takes meet in one token when they leave the same coins and the same score: transpositions.
// ANCHOR: engine
import { createInterface } from "node:readline";

const COINS = [3, 9, 1, 2, 7, 5, 8, 4, 6];
const parse = (token) => token.split(",").map(Number);
// After a take the other side moves: its score is minus ours, less the coin we took.
const take = (left, right, score, coin) => `${left},${right},${-(score + coin)}`;

function answer([request, token]) {
  if (request === "protocol") return "protocol 1";
  if (request === "root") return `0,${COINS.length},0`;
  const [left, right, score] = parse(token);
  if (request === "eval") return String(score);
  if (left === right) return "";
  return `L ${take(left + 1, right, score, COINS[left])} R ${take(left, right - 1, score, COINS[right - 1])}`;
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = line.trim().split(/\s+/);
  if (request[0] === "quit") process.exit(0);
  process.stdout.write(answer(request) + "\n");
});
// ANCHOR_END: engine
