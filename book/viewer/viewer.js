// The book's search viewer: steps through a trace that `nullwindow trace` wrote, on a drawing of the
// tree it searched. No framework and no network: the tree and the trace are embedded in the page.
//
// A viewer is an element with class `nw-viewer` holding two scripts, the tree in the parenthesis
// format and the trace as JSON lines:
//
//   <div class="nw-viewer" data-trace="mtdf" data-title="MTD(f) on the teaching tree">
//   <script type="text/plain" data-tree>((3 17) (2 12) (15 (25 0)))</script>
//   <script type="application/jsonl" data-trace>{"event":"enter",...}</script>
//   </div>
//
// An element with class `nw-own` becomes a form where a reader pastes a tree and its trace. On a page
// with neither, this script does nothing.
(function () {
    "use strict";

    // The crate's infinity: values at or beyond it print as ∞.
    const INFINITY = 1000000000;
    const SVG = "http://www.w3.org/2000/svg";

    class InputError extends Error {}

    /// A value as the book's figures print it: a real minus sign, ∞ for the crate's infinity (±1e9),
    /// ∞−1 and −∞+1 next to it, ∞/2 for bisection's first midpoints.
    function formatValue(value) {
        const signed = (offset) => (offset === 0 ? "" : offset < 0 ? "−" + -offset : "+" + offset);
        if (value >= INFINITY) {
            return "∞";
        }
        if (value <= -INFINITY) {
            return "−∞";
        }
        if (value === INFINITY - 1) {
            return "∞−1";
        }
        if (value === -INFINITY + 1) {
            return "−∞+1";
        }
        if (Math.abs(value - INFINITY / 2) <= 1000) {
            return "∞/2" + signed(value - INFINITY / 2);
        }
        if (Math.abs(value + INFINITY / 2) <= 1000) {
            return "−∞/2" + signed(value + INFINITY / 2);
        }
        return value < 0 ? "−" + -value : String(value);
    }

    function formatWindow(alpha, beta) {
        return "(" + formatValue(alpha) + ", " + formatValue(beta) + ")";
    }

    function formatPath(path) {
        return path.length === 0 ? "the root" : "path " + path.join(".");
    }

    /// Whether a result is a fail low, a fail high or exact, for the window it was searched with
    /// (all from MAX's side).
    function resultKind(record) {
        if (record.result >= record.beta) {
            return "fail-high";
        }
        if (record.result <= record.alpha) {
            return "fail-low";
        }
        return "exact";
    }

    const KIND_TEXT = {
        "fail-high": (r) =>
            "fail high: " + formatValue(r.result) + " ≥ β, so the value is at least " + formatValue(r.result),
        "fail-low": (r) =>
            "fail low: " + formatValue(r.result) + " ≤ α, so the value is at most " + formatValue(r.result),
        exact: (r) => "exact: α < " + formatValue(r.result) + " < β, so the value is " + formatValue(r.result),
    };

    const PROBE_TEXT = {
        none: "a leaf: evaluated",
        miss: "no entry in the table (miss)",
        hit: "table hit: the entry ordered the children or narrowed the window",
        cutoff: "answered by the table: a stored bound decided the window, no child searched",
        etc: "answered by an enhanced transposition cutoff: a child's entry refuted the window",
        bounds: "answered by the game's value bounds",
    };
    const ANSWERED = new Set(["cutoff", "etc", "bounds"]);

    // ---------------------------------------------------------------------------------------------
    // The tree: `tree := INTEGER | '(' tree+ ')'`, `#` to the end of a line is a comment. Nodes are
    // numbered in preorder from 0 at the root, as the crate numbers them.

    function parseTree(text) {
        const nodes = [];
        const stack = [];
        let root = null;
        let line = 1;
        let column = 1;
        let i = 0;
        const fail = (l, c, message) => {
            throw new InputError("tree line " + l + ", column " + c + ": " + message);
        };
        const add = (node, l, c) => {
            if (root !== null && stack.length === 0) {
                fail(l, c, "more than one tree");
            }
            node.id = nodes.length;
            node.parent = stack.length > 0 ? stack[stack.length - 1] : null;
            node.path = node.parent ? node.parent.path.concat([node.parent.children.length]) : [];
            node.ply = node.path.length;
            if (node.parent) {
                node.parent.children.push(node);
            } else {
                root = node;
            }
            nodes.push(node);
        };
        while (i < text.length) {
            const ch = text[i];
            if (ch === "\n") {
                line += 1;
                column = 1;
                i += 1;
            } else if (/\s/.test(ch)) {
                column += 1;
                i += 1;
            } else if (ch === "#") {
                while (i < text.length && text[i] !== "\n") {
                    i += 1;
                }
            } else if (ch === "(") {
                const node = { children: [], value: null, line, column };
                add(node, line, column);
                stack.push(node);
                column += 1;
                i += 1;
            } else if (ch === ")") {
                const open = stack.pop();
                if (!open) {
                    fail(line, column, "')' closes nothing");
                }
                if (open.children.length === 0) {
                    fail(open.line, open.column, "an empty node '()'");
                }
                column += 1;
                i += 1;
            } else {
                let end = i;
                while (end < text.length && !/[\s()#]/.test(text[end])) {
                    end += 1;
                }
                const token = text.slice(i, end);
                if (!/^[+-]?[0-9]+$/.test(token)) {
                    fail(line, column, "'" + token + "' is not an integer");
                }
                const value = Number(token);
                if (Math.abs(value) >= INFINITY) {
                    fail(line, column, "the leaf value " + token + " is outside the admissible range");
                }
                add({ children: [], value, line, column }, line, column);
                column += end - i;
                i = end;
            }
        }
        if (stack.length > 0) {
            const open = stack[stack.length - 1];
            fail(open.line, open.column, "this '(' is never closed");
        }
        if (root === null) {
            throw new InputError("the tree is empty");
        }
        return { root, nodes };
    }

    // ---------------------------------------------------------------------------------------------
    // The trace: one JSON object per line, as `nullwindow trace` writes it. Every record's path must
    // lead to a node of the tree, and name the node the record names.

    function parseTrace(text, tree) {
        const records = [];
        const lines = text.split("\n");
        for (let n = 0; n < lines.length; n += 1) {
            const source = lines[n].trim();
            if (source === "") {
                continue;
            }
            const where = "trace line " + (n + 1) + ": ";
            let record;
            try {
                record = JSON.parse(source);
            } catch (error) {
                const hint = /^[a-z]/i.test(source)
                    ? " (the viewer reads JSON lines, the default --output of nullwindow trace)"
                    : "";
                throw new InputError(where + "not JSON (" + error.message + ")" + hint);
            }
            if (record === null || typeof record !== "object" || Array.isArray(record)) {
                throw new InputError(where + "not a JSON object");
            }
            const number = (name) => {
                if (typeof record[name] !== "number") {
                    throw new InputError(where + "'" + name + "' is missing or not a number");
                }
            };
            number("alpha");
            number("beta");
            if (!Array.isArray(record.path) || !record.path.every((i) => Number.isInteger(i) && i >= 0)) {
                throw new InputError(where + "'path' is missing or not a list of child indices");
            }
            if (record.event !== undefined && record.event !== "enter" && record.event !== "return") {
                throw new InputError(where + "'event' is neither \"enter\" nor \"return\"");
            }
            if (record.event !== "enter") {
                number("result");
            }
            if (record.pass === undefined) {
                record.pass = 1;
            }
            number("pass");
            let node = tree.root;
            for (let depth = 0; depth < record.path.length; depth += 1) {
                const index = record.path[depth];
                if (index >= node.children.length) {
                    const at = formatPath(record.path.slice(0, depth));
                    const has =
                        node.children.length === 0 ? "is a leaf" : "has " + node.children.length + " children";
                    throw new InputError(
                        where + "[" + record.path.join(",") + "] leaves the tree: the node at " + at + " " + has,
                    );
                }
                node = node.children[index];
            }
            if (record.node !== undefined && record.node !== null && String(record.node) !== String(node.id)) {
                throw new InputError(
                    where +
                        formatPath(record.path) +
                        " is node " +
                        node.id +
                        " of this tree, but the record names node " +
                        record.node +
                        ": is this the tree the trace was written for?",
                );
            }
            record.line = n + 1;
            record.treeNode = node;
            record.kind = record.event === "enter" ? "enter" : record.event === "return" ? "return" : "visit";
            records.push(record);
        }
        if (records.length === 0) {
            throw new InputError(
                "the trace is empty: paste what `nullwindow trace TREE --algo NAME --on both` prints",
            );
        }
        const withEvents = records.filter((r) => r.kind !== "visit").length;
        if (withEvents !== 0 && withEvents !== records.length) {
            const line = records.find((r) => r.kind === "visit").line;
            throw new InputError("trace line " + line + ": no 'event', unlike the other records");
        }
        linkCalls(records);
        return records;
    }

    const samePath = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
    const isPrefix = (a, b) => a.length < b.length && a.every((x, i) => x === b[i]);

    /// Gives each record its call: the records of one node's search and the calls it made to its
    /// children. With `--on both` the calls nest as enter and return records; without it the records
    /// come children first (`--on completion`, the default) or parents first (`--on entry`).
    function linkCalls(records) {
        const newCall = (record) => ({ path: record.path, children: [], result: record.result });
        if (records[0].kind !== "visit") {
            const open = [];
            for (const record of records) {
                if (record.kind === "enter") {
                    const call = newCall(record);
                    if (open.length > 0) {
                        open[open.length - 1].children.push(call);
                    }
                    open.push(call);
                    record.call = call;
                } else {
                    const call = open.pop();
                    if (!call || !samePath(call.path, record.path)) {
                        const expected = call ? " while the open call is at " + formatPath(call.path) : "";
                        throw new InputError(
                            "trace line " + record.line + ": returns from " + formatPath(record.path) + expected,
                        );
                    }
                    call.result = record.result;
                    record.call = call;
                }
            }
            if (open.length > 0) {
                const call = open[open.length - 1];
                throw new InputError("the trace ends before the call at " + formatPath(call.path) + " returns");
            }
        } else if (records.length > 1 && records[0].path.length === 0) {
            const open = [];
            for (const record of records) {
                while (open.length > 0 && !isPrefix(open[open.length - 1].path, record.path)) {
                    open.pop();
                }
                record.call = newCall(record);
                if (open.length > 0) {
                    open[open.length - 1].children.push(record.call);
                }
                open.push(record.call);
            }
        } else {
            const done = [];
            for (const record of records) {
                record.call = newCall(record);
                while (done.length > 0 && isPrefix(record.path, done[done.length - 1].path)) {
                    record.call.children.unshift(done.pop());
                }
                done.push(record.call);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // What the search has done up to a step.

    function stateAt(records, step) {
        const current = records[step - 1];
        const pass = current.pass;
        const state = {
            current,
            visited: 0,
            evaluated: 0,
            visitedInPass: 0,
            evaluatedInPass: 0,
            nodes: new Map(), // tree node id -> { seen, inPass, evaluated, table, result }
            passes: [], // root results: { pass, alpha, beta, result, kind, lower, upper }
        };
        const of = (id) => {
            let s = state.nodes.get(id);
            if (!s) {
                s = { seen: false, inPass: false, evaluated: false, table: false, result: null };
                state.nodes.set(id, s);
            }
            return s;
        };
        let lower = -INFINITY;
        let upper = INFINITY;
        for (let i = 0; i < step; i += 1) {
            const r = records[i];
            const s = of(r.treeNode.id);
            const here = r.pass === pass;
            if (r.kind !== "return") {
                state.visited += 1;
                s.seen = true;
                if (here) {
                    state.visitedInPass += 1;
                    s.inPass = true;
                }
            }
            if (r.kind === "enter") {
                continue;
            }
            const leaf = r.treeNode.children.length === 0 || r.depth === 0;
            const answered = ANSWERED.has(r.probe);
            if (leaf && !answered) {
                state.evaluated += 1;
                if (here) {
                    state.evaluatedInPass += 1;
                    s.evaluated = true;
                }
            }
            if (here) {
                s.result = r.result;
                if (answered) {
                    s.table = true;
                }
            }
            if (r.path.length === 0) {
                const kind = resultKind(r);
                if (kind === "fail-high") {
                    lower = Math.max(lower, r.result);
                } else if (kind === "fail-low") {
                    upper = Math.min(upper, r.result);
                } else {
                    lower = upper = r.result;
                }
                state.passes.push({ pass: r.pass, alpha: r.alpha, beta: r.beta, result: r.result, kind, lower, upper });
            }
        }
        state.lower = lower;
        state.upper = upper;
        return state;
    }

    /// The cut-off a record reports: the child whose value reached β (α at a MIN node, from MAX's
    /// side) and the children the call never searched.
    function cutoffOf(record) {
        if (record.cutoff === null || record.cutoff === undefined || record.kind === "enter") {
            return null;
        }
        const searched = new Set(record.call.children.map((c) => c.path[c.path.length - 1]));
        const child = record.call.children.filter((c) => c.path[c.path.length - 1] === record.cutoff).pop();
        const skipped = record.treeNode.children.filter((_, index) => !searched.has(index));
        return { index: record.cutoff, child, skipped };
    }

    // ---------------------------------------------------------------------------------------------
    // Drawing.

    function el(name, attributes, text) {
        const node = document.createElement(name);
        for (const [key, value] of Object.entries(attributes || {})) {
            node.setAttribute(key, value);
        }
        if (text !== undefined) {
            node.textContent = text;
        }
        return node;
    }

    function svg(name, attributes, text) {
        const node = document.createElementNS(SVG, name);
        for (const [key, value] of Object.entries(attributes || {})) {
            node.setAttribute(key, value);
        }
        if (text !== undefined) {
            node.textContent = text;
        }
        return node;
    }

    const LEAF_GAP = 26;
    const LEVEL_GAP = 58;
    const RADIUS = 11;
    const LEFT = 46;
    const TOP = 24;

    function drawTree(tree) {
        let leaves = 0;
        let height = 0;
        // Leaves evenly spaced in the file's order, each parent over the middle of its children.
        const place = (node) => {
            node.y = TOP + node.ply * LEVEL_GAP;
            height = Math.max(height, node.ply);
            if (node.children.length === 0) {
                node.x = LEFT + RADIUS + 6 + leaves * LEAF_GAP;
                leaves += 1;
            } else {
                node.children.forEach(place);
                node.x = (node.children[0].x + node.children[node.children.length - 1].x) / 2;
            }
        };
        // Deep trees would overflow the call stack of a recursive walk only far beyond what a page can
        // draw usefully; the viewer is for small trees.
        place(tree.root);
        const width = LEFT + 2 * RADIUS + 12 + leaves * LEAF_GAP;
        const full = TOP + height * LEVEL_GAP + RADIUS + 22;
        const picture = svg("svg", {
            class: "nw-tree",
            viewBox: "0 0 " + width + " " + full,
            width: String(width),
            role: "img",
            "aria-label": "The searched tree: " + tree.nodes.length + " nodes, " + leaves + " leaves",
        });
        // Scaled to the column, but never below four fifths of its size: on a narrow screen the
        // picture scrolls instead, and its numbers stay readable.
        picture.style.minWidth = Math.round(width * 0.8) + "px";
        for (let ply = 0; ply <= height; ply += 1) {
            picture.append(
                svg(
                    "text",
                    { x: 4, y: TOP + ply * LEVEL_GAP + 4, class: "nw-ply", "data-ply": String(ply) },
                    // The bottom row holds only leaves, whoever would move there.
                    ply === height ? "leaves" : ply % 2 === 0 ? "MAX" : "MIN",
                ),
            );
        }
        const edges = svg("g", { class: "nw-edges" });
        const circles = svg("g", { class: "nw-nodes" });
        for (const node of tree.nodes) {
            if (node.parent) {
                node.edge = svg("line", {
                    class: "nw-edge",
                    "data-edge": node.id,
                    x1: node.parent.x,
                    y1: node.parent.y + RADIUS,
                    x2: node.x,
                    y2: node.y - RADIUS,
                });
                edges.append(node.edge);
            }
            const group = svg("g", {
                class: "nw-node " + (node.children.length === 0 ? "nw-leaf" : node.ply % 2 === 0 ? "nw-max" : "nw-min"),
                "data-node": node.id,
                "data-path": node.path.join("."),
            });
            group.append(svg("title", {}, "node " + node.id + ", " + formatPath(node.path)));
            group.append(
                node.children.length === 0
                    ? svg("rect", {
                          x: node.x - RADIUS,
                          y: node.y - RADIUS,
                          width: 2 * RADIUS,
                          height: 2 * RADIUS,
                          rx: 3,
                      })
                    : svg("circle", { cx: node.x, cy: node.y, r: RADIUS }),
            );
            node.label = svg("text", { x: node.x, y: node.y + 4, class: "nw-value" });
            if (node.value !== null) {
                node.label.textContent = formatValue(node.value);
            }
            group.append(node.label);
            node.group = group;
            circles.append(group);
        }
        picture.append(edges, circles);
        const windowLabel = svg("text", { class: "nw-window-label", "data-field": "window-label" });
        picture.append(windowLabel);
        return { picture, windowLabel, width };
    }

    // ---------------------------------------------------------------------------------------------
    // A viewer.

    function fact(list, term, field) {
        const dd = el("dd", { "data-field": field });
        list.append(el("dt", {}, term), dd);
        return dd;
    }

    function buildViewer(container, tree, records) {
        container.textContent = "";
        const title = container.dataset.title || "the trace";
        container.setAttribute("role", "group");
        container.setAttribute("aria-label", title + ": a step-by-step search viewer (arrow keys step)");
        container.setAttribute("tabindex", "0");
        container.dataset.steps = String(records.length);
        const showBounds = records.some((r) => r.path.length === 0 && r.beta - r.alpha === 1);

        const toolbar = el("div", { class: "nw-toolbar", role: "toolbar", "aria-label": "Step through " + title });
        const button = (action, label, text) => {
            const b = el("button", { type: "button", "data-action": action, "aria-label": label, title: label }, text);
            toolbar.append(b);
            return b;
        };
        const buttons = {
            first: button("first", "First step", "« First"),
            back: button("back", "Previous step", "‹ Back"),
            next: button("next", "Next step", "Next ›"),
            last: button("last", "Last step", "Last »"),
        };
        const counter = el("span", { class: "nw-counter", "data-field": "step" });
        toolbar.append(counter);

        const drawing = drawTree(tree);
        const frame = el("div", { class: "nw-picture" });
        frame.append(drawing.picture);

        const status = el("p", { class: "nw-status", "aria-live": "polite", "data-field": "status" });
        const facts = el("dl", { class: "nw-facts" });
        const nodeField = fact(facts, "Node", "node");
        const windowField = fact(facts, "Window (α, β)", "window");
        const resultDd = fact(facts, "Result", "result-line");
        const resultField = el("span", { "data-field": "result" });
        const kindField = el("span", { "data-field": "kind" });
        resultDd.append(resultField, " ", kindField);
        const probeField = fact(facts, "Table", "probe");
        const cutoffField = fact(facts, "Cut-off", "cutoff");
        const countsDd = fact(facts, "So far", "counts");
        const visitedField = el("span", { "data-field": "visited" });
        const evaluatedField = el("span", { "data-field": "evaluated" });
        const inPassField = el("span", { "data-field": "in-pass" });
        countsDd.append(visitedField, " nodes visited, ", evaluatedField, " leaves evaluated", inPassField);
        let boundsField = null;
        let passList = null;
        if (showBounds) {
            boundsField = fact(facts, "Root value", "bounds");
            passList = el("ol", { class: "nw-passes", "data-field": "passes", "aria-label": "Passes so far" });
        }

        const legend = el("p", { class: "nw-legend" });
        for (const [kind, text] of [
            ["current", "current node"],
            ["open", "its callers"],
            ["visited", "visited in this pass"],
            ["evaluated", "leaf evaluated"],
            ["table", "answered by the table"],
            ["earlier", "visited in an earlier pass only"],
            ["skipped", "skipped by this cut-off"],
        ]) {
            const item = el("span", { class: "nw-key" });
            item.append(el("span", { class: "nw-swatch nw-swatch-" + kind, "aria-hidden": "true" }), " " + text);
            legend.append(item);
        }

        container.append(toolbar, frame, status, facts);
        if (passList) {
            container.append(passList);
        }
        container.append(legend);

        let step = 1;
        const show = (next) => {
            step = Math.max(1, Math.min(records.length, next));
            const state = stateAt(records, step);
            const r = state.current;
            const cut = cutoffOf(r);
            const skipped = new Set(cut ? cut.skipped.map((n) => n.id) : []);
            const open = new Set();
            for (let n = r.treeNode.parent; n; n = n.parent) {
                open.add(n.id);
            }

            container.dataset.step = String(step);
            counter.textContent = "Step " + step + " of " + records.length;
            buttons.first.disabled = buttons.back.disabled = step === 1;
            buttons.next.disabled = buttons.last.disabled = step === records.length;

            for (const node of tree.nodes) {
                const s = state.nodes.get(node.id);
                const classes = node.group.classList;
                classes.toggle("nw-visited", Boolean(s && s.inPass));
                classes.toggle("nw-earlier", Boolean(s && s.seen && !s.inPass));
                classes.toggle("nw-evaluated", Boolean(s && s.evaluated));
                classes.toggle("nw-table", Boolean(s && s.table));
                classes.toggle("nw-open", open.has(node.id));
                classes.toggle("nw-skipped", skipped.has(node.id));
                const current = node === r.treeNode;
                classes.toggle("nw-current", current);
                if (current) {
                    node.group.setAttribute("data-current", "true");
                } else {
                    node.group.removeAttribute("data-current");
                }
                if (node.value === null) {
                    node.label.textContent = s && s.inPass && s.result !== null ? formatValue(s.result) : "";
                }
                if (node.edge) {
                    node.edge.classList.toggle("nw-edge-visited", Boolean(s && s.inPass));
                    node.edge.classList.toggle("nw-edge-open", open.has(node.id) || current);
                }
            }
            // The current node on top, so that its outline is never under a neighbour's.
            r.treeNode.group.parentNode.append(r.treeNode.group);
            const label = drawing.windowLabel;
            const right = r.treeNode.x > drawing.width / 2;
            if (r.treeNode.children.length === 0) {
                // A leaf's neighbours stand close beside it: its window goes below, where nothing is.
                label.setAttribute("x", r.treeNode.x + (right ? RADIUS : -RADIUS));
                label.setAttribute("y", r.treeNode.y + RADIUS + 14);
            } else if (r.treeNode.ply === 0) {
                // The root stands alone in its row: to its right, within the picture.
                label.setAttribute("x", r.treeNode.x + RADIUS + 4);
                label.setAttribute("y", r.treeNode.y + 4);
                label.setAttribute("text-anchor", "start");
            } else {
                // High enough that its descenders clear the row's circles.
                label.setAttribute("x", r.treeNode.x + (right ? -RADIUS - 4 : RADIUS + 4));
                label.setAttribute("y", r.treeNode.y - RADIUS - 6);
            }
            if (r.treeNode.ply !== 0 || r.treeNode.children.length === 0) {
                label.setAttribute("text-anchor", right ? "end" : "start");
            }
            label.textContent = formatWindow(r.alpha, r.beta);

            const node = r.treeNode;
            const role = node.children.length === 0 ? "a leaf" : node.ply % 2 === 0 ? "MAX to move" : "MIN to move";
            nodeField.textContent = "node " + node.id + " (" + formatPath(r.path) + ", " + role + ")";
            nodeField.dataset.node = String(node.id);
            windowField.textContent = formatWindow(r.alpha, r.beta);
            const returned = r.kind !== "enter";
            resultField.textContent = returned ? formatValue(r.result) : "";
            const kind = returned ? resultKind(r) : "";
            kindField.dataset.kind = kind;
            kindField.textContent = returned ? "— " + KIND_TEXT[kind](r) : "not returned yet: the node is entered";

            const probe = [];
            if (returned && r.probe && PROBE_TEXT[r.probe]) {
                probe.push(PROBE_TEXT[r.probe]);
            }
            if (returned && r.stored) {
                probe.push("stored as " + ({ exact: "an exact value", lower: "a lower bound", upper: "an upper bound" }[r.stored] || r.stored));
            }
            probeField.textContent = probe.length > 0 ? probe.join("; ") : "—";
            probeField.dataset.probe = returned && r.probe ? r.probe : "";

            if (cut) {
                const max = node.ply % 2 === 0;
                const value = cut.child && cut.child.result !== null ? formatValue(cut.child.result) : "?";
                const reached = max ? " ≥ β = " + formatValue(r.beta) : " ≤ α = " + formatValue(r.alpha);
                const rest =
                    cut.skipped.length === 0
                        ? "no child left unsearched"
                        : "not searched: " +
                          cut.skipped.map((n) => "child " + n.path[n.path.length - 1] + " (node " + n.id + ")").join(", ");
                cutoffField.textContent =
                    "child " + cut.index + " returned " + value + reached + ", " + (max ? "MAX" : "MIN") + " stops; " + rest;
                cutoffField.dataset.cutoff = String(cut.index);
                cutoffField.dataset.skipped = cut.skipped.map((n) => n.id).join(" ");
            } else {
                cutoffField.textContent = "—";
                cutoffField.dataset.cutoff = "";
                cutoffField.dataset.skipped = "";
            }

            visitedField.textContent = String(state.visited);
            evaluatedField.textContent = String(state.evaluated);
            inPassField.textContent =
                state.visited === state.visitedInPass
                    ? ""
                    : "; in pass " + r.pass + " alone, " + state.visitedInPass + " nodes visited and " +
                      state.evaluatedInPass + " leaves evaluated";

            if (boundsField) {
                const bounds = "[" + formatValue(state.lower) + ", " + formatValue(state.upper) + "]";
                boundsField.dataset.bounds = bounds;
                boundsField.textContent =
                    state.lower === state.upper
                        ? bounds + ": the value is " + formatValue(state.lower)
                        : bounds + " after " + state.passes.length + " pass" + (state.passes.length === 1 ? "" : "es");
                passList.textContent = "";
                for (const p of state.passes) {
                    const side = { "fail-high": "fails high", "fail-low": "fails low", exact: "is exact" }[p.kind];
                    passList.append(
                        el(
                            "li",
                            { "data-pass": p.pass },
                            "pass " +
                                p.pass +
                                ": window " +
                                formatWindow(p.alpha, p.beta) +
                                " returns " +
                                formatValue(p.result) +
                                ", " +
                                side +
                                "; value in [" +
                                formatValue(p.lower) +
                                ", " +
                                formatValue(p.upper) +
                                "]",
                        ),
                    );
                }
            }

            const verb = r.kind === "enter" ? "enters" : r.kind === "return" ? "returns from" : "visits";
            let sentence =
                "Step " +
                step +
                " of " +
                records.length +
                ", pass " +
                r.pass +
                ": " +
                verb +
                " node " +
                node.id +
                " (" +
                formatPath(r.path) +
                ") with window " +
                formatWindow(r.alpha, r.beta);
            if (returned) {
                sentence += "; result " + formatValue(r.result) + ", " + kind.replace("-", " ");
                if (ANSWERED.has(r.probe)) {
                    sentence += ", answered by the table";
                }
                if (cut) {
                    sentence += ", cut-off at child " + cut.index;
                }
            }
            status.textContent = sentence + ".";
        };

        buttons.first.addEventListener("click", () => show(1));
        buttons.back.addEventListener("click", () => show(step - 1));
        buttons.next.addEventListener("click", () => show(step + 1));
        buttons.last.addEventListener("click", () => show(records.length));
        container.addEventListener("keydown", (event) => {
            if (event.altKey || event.ctrlKey || event.metaKey || /^(input|textarea|select)$/i.test(event.target.nodeName)) {
                return;
            }
            const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 1, End: records.length }[event.key];
            if (to === undefined) {
                return;
            }
            // The book's own keys turn the page on the arrows: here they step the search instead.
            event.preventDefault();
            event.stopPropagation();
            show(to);
        });
        show(1);
    }

    function showError(container, message) {
        container.textContent = "";
        container.append(el("p", { class: "nw-error", role: "alert", "data-field": "error" }, message));
    }

    function setupEmbedded(container) {
        const treeScript = container.querySelector("script[data-tree]");
        const traceScript = container.querySelector("script[data-trace]");
        if (!treeScript || !traceScript) {
            showError(container, "This viewer has no tree or no trace to show.");
            return;
        }
        try {
            const tree = parseTree(treeScript.textContent);
            buildViewer(container, tree, parseTrace(traceScript.textContent, tree));
        } catch (error) {
            showError(container, error instanceof InputError ? error.message : String(error));
        }
    }

    function setupOwn(container) {
        const form = el("form", { class: "nw-own-form" });
        const treeLabel = el("label", {}, "Tree, in the parenthesis format");
        const treeInput = el("textarea", { "data-input": "tree", rows: "4", spellcheck: "false" });
        treeInput.value = container.dataset.tree || "";
        treeLabel.append(treeInput);
        const traceLabel = el("label", {}, "Its trace: what nullwindow trace printed (JSON lines)");
        const traceInput = el("textarea", {
            "data-input": "trace",
            rows: "8",
            spellcheck: "false",
            wrap: "off",
            placeholder: '{"event":"enter","visit":1,"pass":1,"path":[],"node":0,…}',
        });
        // The page may give an example trace to start with.
        const example = container.querySelector("script[data-own-trace]");
        if (example) {
            traceInput.value = example.textContent.trim();
        }
        traceLabel.append(traceInput);
        const load = el("button", { type: "submit", "data-action": "load" }, "Step through it");
        const error = el("p", { class: "nw-error", role: "alert", "data-field": "error" });
        error.hidden = true;
        const viewer = el("div", { class: "nw-viewer nw-viewer-own", "data-title": "Your trace" });
        viewer.hidden = true;
        form.append(treeLabel, traceLabel, load, error);
        container.append(form, viewer);
        form.addEventListener("submit", (event) => {
            event.preventDefault();
            try {
                const tree = parseTree(treeInput.value);
                const records = parseTrace(traceInput.value, tree);
                error.hidden = true;
                error.textContent = "";
                viewer.hidden = false;
                buildViewer(viewer, tree, records);
            } catch (failure) {
                if (!(failure instanceof InputError)) {
                    throw failure;
                }
                viewer.hidden = true;
                viewer.textContent = "";
                error.hidden = false;
                error.textContent = failure.message;
            }
        });
    }

    function init() {
        document.querySelectorAll(".nw-viewer").forEach(setupEmbedded);
        document.querySelectorAll(".nw-own").forEach(setupOwn);
    }

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", init);
    } else {
        init();
    }
})();
