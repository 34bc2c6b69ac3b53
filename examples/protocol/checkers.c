/* Checkers on a 6x6 board served over nullwindow's line protocol, with a fast search of its own:
 * the engine the oracle's cost is measured against (nullwindow fuzz --engine ... --cpu).
 *
 *   cc -O2 -o checkers examples/protocol/checkers.c
 *   nullwindow fuzz --engine ./checkers --height 5..8 --cpu
 *   nullwindow fuzz --engine './checkers --bug hash-ignores-kings'
 *
 * The board has 18 dark squares, numbered 1 to 18 row by row from black's side; black's six men
 * start on 1-6 and move first, toward 13-18, white's on 13-18. A man moves one square diagonally
 * forward, a king either way; a capture jumps an adjacent enemy piece to the empty square beyond,
 * and goes on jumping while it can (a man only forward, a king either way, no piece jumped twice);
 * capturing is compulsory, and a man that reaches the far row is crowned, which ends its move. A
 * side with no move has lost.
 *
 * A position token is the 18 squares (. empty, b w men, B W kings) and the side to move:
 * "bbbbbb......wwwwww:b" is the start. A move is named by its squares: 5-8 for a step, 13x6x1 for
 * a capture of two pieces. The evaluation, from the side to move, is material (a man 100, a
 * king 160) and how far the men have come; a side with no move is worth -10000 to itself.
 *
 * `search POS DEPTH` is the engine's own search: fail-soft negamax alpha-beta over a table keyed
 * by the position's Zobrist hash and the depth left (an entry answers only a search to its own
 * depth, so the engine is exact), iterative deepening for the order of its moves, captures and
 * the table's move first. The table is kept from one search to the next, as in a real engine.
 *
 * Usage: checkers [--bug NAME], one of the planted bugs:
 *   hash-ignores-kings  the hash does not tell a king from a man, and the table's entries do not
 *                       tell the two apart: once the table is warm, a king takes a man's value
 */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SQUARES = 18, MAX_MOVES = 64, MAX_PATH = 12, INF = 1000000, LOSS = 10000 };

typedef struct {
    char board[SQUARES];
    char side; /* 'b' or 'w' */
} Position;

typedef struct {
    int path[MAX_PATH]; /* squares visited, the first the piece's own */
    int length;         /* squares in path */
    int captured[MAX_PATH];
    int captures;
} Move;

static int hash_ignores_kings = 0;

/* Neighbours: step[s][d] is the square one step in direction d from s, -1 off the board. Directions
 * 0 and 1 go toward row 5 (black's forward), 2 and 3 toward row 0 (white's forward). */
static int step[SQUARES][4];

static int row_of(int s) { return s / 3; }
static int col_of(int s) { int r = s / 3; return (s % 3) * 2 + ((r % 2 == 0) ? 1 : 0); }
static int square_at(int r, int c) {
    if (r < 0 || r > 5 || c < 0 || c > 5 || (r + c) % 2 == 0) return -1;
    return r * 3 + c / 2;
}

static void init_board(void) {
    static const int dr[4] = {1, 1, -1, -1}, dc[4] = {-1, 1, -1, 1};
    for (int s = 0; s < SQUARES; s++)
        for (int d = 0; d < 4; d++) step[s][d] = square_at(row_of(s) + dr[d], col_of(s) + dc[d]);
}

static int is_mine(char piece, char side) { return piece == side || piece == side - 32; }
static int is_king(char piece) { return piece == 'B' || piece == 'W'; }
static char other(char side) { return side == 'b' ? 'w' : 'b'; }

static int forward(char piece, int d) {
    if (is_king(piece)) return 1;
    return piece == 'b' ? d < 2 : d >= 2;
}

static int crowns(char piece, int s) {
    return (piece == 'b' && row_of(s) == 5) || (piece == 'w' && row_of(s) == 0);
}

/* Every capture sequence from the move so far (its piece at the path's end). */
static void jumps(const Position *p, char piece, Move *m, Move *moves, int *count) {
    int at = m->path[m->length - 1], extended = 0;
    for (int d = 0; d < 4 && m->length < MAX_PATH; d++) {
        int over = step[at][d];
        if (over < 0 || !forward(piece, d)) continue;
        int to = step[over][d];
        if (to < 0 || !is_mine(p->board[over], other(p->side))) continue;
        if (p->board[to] != '.' && to != m->path[0]) continue;
        int seen = 0;
        for (int k = 0; k < m->captures; k++) seen |= m->captured[k] == over;
        if (seen) continue;
        Move next = *m;
        next.path[next.length++] = to;
        next.captured[next.captures++] = over;
        extended = 1;
        if (crowns(piece, to)) {
            if (*count < MAX_MOVES) moves[(*count)++] = next;
        } else {
            jumps(p, piece, &next, moves, count);
        }
    }
    if (!extended && m->captures > 0 && *count < MAX_MOVES) moves[(*count)++] = *m;
}

static int generate(const Position *p, Move *moves) {
    int count = 0;
    for (int s = 0; s < SQUARES; s++) {
        if (!is_mine(p->board[s], p->side)) continue;
        Move m = {{s}, 1, {0}, 0};
        jumps(p, p->board[s], &m, moves, &count);
    }
    if (count > 0) return count;
    for (int s = 0; s < SQUARES; s++) {
        if (!is_mine(p->board[s], p->side)) continue;
        for (int d = 0; d < 4; d++) {
            int to = step[s][d];
            if (to < 0 || !forward(p->board[s], d) || p->board[to] != '.') continue;
            if (count < MAX_MOVES) moves[count++] = (Move){{s, to}, 2, {0}, 0};
        }
    }
    return count;
}

static Position play(const Position *p, const Move *m) {
    Position next = *p;
    int from = m->path[0], to = m->path[m->length - 1];
    char piece = p->board[from];
    next.board[from] = '.';
    for (int k = 0; k < m->captures; k++) next.board[m->captured[k]] = '.';
    next.board[to] = crowns(piece, to) ? piece - 32 : piece;
    next.side = other(p->side);
    return next;
}

static int evaluate(const Position *p) {
    Move moves[MAX_MOVES];
    if (generate(p, moves) == 0) return -LOSS;
    int score = 0;
    for (int s = 0; s < SQUARES; s++) {
        char c = p->board[s];
        if (c == '.') continue;
        int value = is_king(c) ? 160 : 100 + 4 * (c == 'b' ? row_of(s) : 5 - row_of(s));
        score += is_mine(c, p->side) ? value : -value;
    }
    return score;
}

/* ---- tokens and names ---- */

static int parse_token(const char *token, Position *p) {
    if (strlen(token) != SQUARES + 2 || token[SQUARES] != ':') return 0;
    for (int s = 0; s < SQUARES; s++) {
        if (!strchr(".bwBW", token[s])) return 0;
        p->board[s] = token[s];
    }
    p->side = token[SQUARES + 1];
    return p->side == 'b' || p->side == 'w';
}

static void write_token(const Position *p, char *out) {
    memcpy(out, p->board, SQUARES);
    out[SQUARES] = ':';
    out[SQUARES + 1] = p->side;
    out[SQUARES + 2] = 0;
}

static void write_name(const Move *m, char *out) {
    int n = 0;
    for (int k = 0; k < m->length; k++)
        n += sprintf(out + n, k == 0 ? "%d" : (m->captures ? "x%d" : "-%d"), m->path[k] + 1);
}

/* ---- the search ---- */

static uint64_t zobrist[SQUARES][4], zobrist_white;

static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t hash(const Position *p) {
    uint64_t h = p->side == 'w' ? zobrist_white : 0;
    for (int s = 0; s < SQUARES; s++) {
        int kind;
        switch (p->board[s]) {
        case 'b': kind = 0; break;
        case 'w': kind = 1; break;
        case 'B': kind = hash_ignores_kings ? 0 : 2; break;
        case 'W': kind = hash_ignores_kings ? 1 : 3; break;
        default: continue;
        }
        h ^= zobrist[s][kind];
    }
    return h;
}

enum { TABLE = 1 << 20 };
typedef struct {
    uint64_t key;
    int depth, lower, upper, move; /* move: index in the generated order, -1 none */
} Entry;
static Entry table[TABLE];

static int search(const Position *p, int depth, int alpha, int beta) {
    Move moves[MAX_MOVES];
    int count = generate(p, moves);
    if (depth == 0 || count == 0) return evaluate(p);
    uint64_t key = hash(p);
    Entry *e = &table[key & (TABLE - 1)];
    int table_move = -1;
    if (e->key == key) {
        table_move = e->move;
        if (e->depth == depth) {
            if (e->lower >= beta || e->lower == e->upper) return e->lower;
            if (e->upper <= alpha) return e->upper;
            if (e->lower > alpha) alpha = e->lower;
            if (e->upper < beta) beta = e->upper;
        }
    }
    int order[MAX_MOVES], n = 0;
    if (table_move >= 0 && table_move < count) order[n++] = table_move;
    for (int i = 0; i < count; i++)
        if (i != table_move) order[n++] = i;
    int g = -INF, best = -1, a = alpha;
    for (int k = 0; k < n && g < beta; k++) {
        Position child = play(p, &moves[order[k]]);
        int value = -search(&child, depth - 1, -beta, -a);
        if (value > g) { g = value; best = order[k]; }
        if (g > a) a = g;
    }
    if (e->key != key || e->depth != depth) *e = (Entry){key, depth, -INF, INF, best};
    if (g <= alpha) e->upper = g;
    else if (g >= beta) e->lower = g;
    else e->lower = e->upper = g;
    e->move = best;
    return g;
}

/* The value of p to depth, from the side to move, and the index of its best move (-1 at depth 0 or
 * with no move). */
static int search_root(const Position *p, int depth, int *best) {
    Move moves[MAX_MOVES];
    int count = generate(p, moves), value = evaluate(p);
    *best = -1;
    if (depth == 0 || count == 0) return value;
    for (int d = 1; d <= depth; d++) {
        int g = -INF;
        for (int i = 0; i < count; i++) {
            Position child = play(p, &moves[i]);
            int v = -search(&child, d - 1, -INF, -g);
            if (v > g) { g = v; *best = i; }
        }
        value = g;
    }
    return value;
}

/* ---- the protocol ---- */

static char input[1 << 16];
static size_t in_start = 0, in_end = 0;

/* The next line of input, without its newline; NULL at the end. Output is flushed whenever no more
 * input is waiting, so that a batch of requests is answered in one write. */
static char *read_request(void) {
    static char line[1 << 12];
    size_t n = 0;
    for (;;) {
        if (in_start == in_end) {
            struct pollfd fd = {0, POLLIN, 0};
            if (poll(&fd, 1, 0) <= 0) fflush(stdout);
            ssize_t got = read(0, input, sizeof input);
            if (got <= 0) return n ? (line[n] = 0, line) : NULL;
            in_start = 0;
            in_end = (size_t)got;
        }
        char c = input[in_start++];
        if (c == '\n') { line[n] = 0; return line; }
        if (n + 1 < sizeof line) line[n++] = c;
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bug") && i + 1 < argc && !strcmp(argv[i + 1], "hash-ignores-kings")) {
            hash_ignores_kings = 1;
            i++;
        } else {
            fprintf(stderr, "usage: checkers [--bug hash-ignores-kings]\n");
            return 2;
        }
    }
    init_board();
    uint64_t state = 7;
    for (int s = 0; s < SQUARES; s++)
        for (int k = 0; k < 4; k++) zobrist[s][k] = next_random(&state);
    zobrist_white = next_random(&state);
    static char out[1 << 14];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    char *line;
    while ((line = read_request())) {
        char *request = strtok(line, " ");
        char *token = strtok(NULL, " ");
        Position p;
        if (!request) continue;
        if (!strcmp(request, "quit")) break;
        if (!strcmp(request, "protocol")) {
            puts("protocol 1 search new");
        } else if (!strcmp(request, "new")) {
            /* The table is kept from one search to the next, as a real engine keeps it between
               moves; a new game forgets it, as UCI's ucinewgame asks. */
            memset(table, 0, sizeof table);
            puts("ok");
        } else if (!strcmp(request, "root")) {
            puts("bbbbbb......wwwwww:b");
        } else if (!token || !parse_token(token, &p)) {
            printf("unknown request %s\n", request);
        } else if (!strcmp(request, "children")) {
            Move moves[MAX_MOVES];
            int count = generate(&p, moves);
            for (int i = 0; i < count; i++) {
                char name[64], child_token[SQUARES + 3];
                Position child = play(&p, &moves[i]);
                write_name(&moves[i], name);
                write_token(&child, child_token);
                printf(i ? " %s %s" : "%s %s", name, child_token);
            }
            putchar('\n');
        } else if (!strcmp(request, "eval")) {
            printf("%d\n", evaluate(&p));
        } else if (!strcmp(request, "search")) {
            char *depth_word = strtok(NULL, " ");
            int depth = depth_word ? atoi(depth_word) : -1, best;
            if (depth < 0) { printf("unknown request search\n"); continue; }
            int value = search_root(&p, depth, &best);
            if (best >= 0) {
                Move moves[MAX_MOVES];
                char name[64];
                generate(&p, moves);
                write_name(&moves[best], name);
                printf("%d %s\n", value, name);
            } else {
                printf("%d\n", value);
            }
        } else {
            printf("unknown request %s\n", request);
        }
    }
    fflush(stdout);
    return 0;
}
