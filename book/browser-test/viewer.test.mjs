// Steps through every search viewer of the built book in headless Chromium and checks each step
// against the trace file the viewer embeds, read from disk: the highlighted node is the record's
// node, and the window, result, fail low/high, table probe, cut-off, counts and root bounds shown are
// the record's. Then checks Back, First, Last and the keys, the paste-your-own-trace form with good
// and bad input, and that a page without a viewer runs no viewer code and throws nothing.
//
//   mdbook build book && node book/browser-test/viewer.test.mjs [BUILT_BOOK_DIR]
//
// The browser is Chromium at $CHROMIUM (default /usr/bin/chromium), driven by playwright-core; the
// book is served from BUILT_BOOK_DIR (default book/book) on 127.0.0.1, and no other host is reached.
// Exits non-zero with a message naming the viewer, the step and what differed on any failure.

import { launchChromium, serveBook } from "./book.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bookDir = path.resolve(process.argv[2] ?? path.join(here, "..", "book"));
const tracesDir = path.join(here, "..", "src", "traces");
const teachingTree = fs.readFileSync(path.join(here, "..", "..", "testdata", "trees", "teaching.tree"), "utf8");
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
// The MTD(f) viewer's screenshots: its first step, the table answering a node in pass 2, its last.
const SCREENSHOTS = { trace: "mtdf", steps: [1, 26, 90] };

const INFINITY = 1000000000;

/// A value as the book's figures print it (examples/figures/draw/labels.rs).
function show(value) {
    const offset = (o) => (o === 0 ? "" : o < 0 ? "−" + -o : "+" + o);
    if (value >= INFINITY) return "∞";
    if (value <= -INFINITY) return "−∞";
    if (value === INFINITY - 1) return "∞−1";
    if (value === -INFINITY + 1) return "−∞+1";
    if (Math.abs(value - INFINITY / 2) <= 1000) return "∞/2" + offset(value - INFINITY / 2);
    if (Math.abs(value + INFINITY / 2) <= 1000) return "−∞/2" + offset(value + INFINITY / 2);
    return value < 0 ? "−" + -value : String(value);
}

const showWindow = (r) => "(" + show(r.alpha) + ", " + show(r.beta) + ")";

function expectedKind(r) {
    if (r.event === "enter") return "";
    if (r.result >= r.beta) return "fail-high";
    if (r.result <= r.alpha) return "fail-low";
    return "exact";
}

/// The tree's nodes by path ("0.1.2", "" for the root): their preorder number and child count, as
/// the crate numbers a parenthesis tree.
function treeNodes(text) {
    const tokens = text.replace(/#.*$/gm, "").match(/[()]|[^\s()]+/g);
    const nodes = new Map();
    const open = [];
    let id = 0;
    for (const token of tokens) {
        if (token === ")") {
            open.pop();
            continue;
        }
        const parent = open[open.length - 1];
        const key = parent ? (parent.key === "" ? "" : parent.key + ".") + parent.children : "";
        const node = { id: id++, key, children: 0 };
        if (parent) parent.children += 1;
        nodes.set(key, node);
        if (token === "(") open.push(node);
    }
    return nodes;
}

const TREE = treeNodes(teachingTree);

function readTrace(name) {
    const file = path.join(tracesDir, name + ".jsonl");
    const text = fs.readFileSync(file, "utf8");
    return { file, text, records: text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l)) };
}

class Failure extends Error {}

function check(condition, message) {
    if (!condition) {
        throw new Failure(message);
    }
}

function equal(actual, expected, what) {
    check(
        JSON.stringify(actual) === JSON.stringify(expected),
        what + ": shows " + JSON.stringify(actual) + ", expected " + JSON.stringify(expected),
    );
}

// ---------------------------------------------------------------------------------------------------
// The built book, served as a web server would (book.mjs).

const missing = [];
const serve = () => serveBook(bookDir, missing);

// ---------------------------------------------------------------------------------------------------
// What a viewer shows, read in one go.

function readViewer(viewer) {
    return viewer.evaluate((element) => {
        const field = (name) => element.querySelector('[data-field="' + name + '"]');
        const bounds = field("bounds");
        return {
            step: Number(element.dataset.step),
            steps: Number(element.dataset.steps),
            counter: field("step").textContent,
            current: [...element.querySelectorAll("[data-current]")].map((n) => n.dataset.node),
            currentClass: [...element.querySelectorAll(".nw-current")].map((n) => n.dataset.node),
            window: field("window").textContent,
            windowLabel: field("window-label").textContent,
            // The nodes, the current one among them, that the window label covers.
            labelOverlaps: (() => {
                const label = field("window-label").getBoundingClientRect();
                return [...element.querySelectorAll(".nw-node circle, .nw-node rect")]
                    .map((shape) => shape.getBoundingClientRect())
                    .filter((box) => box.left < label.right && label.left < box.right && box.top < label.bottom && label.top < box.bottom)
                    .length;
            })(),
            inPass: field("in-pass").textContent,
            // Whether the window label lies wholly within the picture.
            labelInside: (() => {
                const label = field("window-label").getBoundingClientRect();
                const picture = element.querySelector("svg.nw-tree").getBoundingClientRect();
                return label.top >= picture.top && label.bottom <= picture.bottom && label.left >= picture.left && label.right <= picture.right;
            })(),
            bottomRow: [...element.querySelectorAll(".nw-ply")].pop().textContent,
            result: field("result").textContent,
            kind: field("kind").dataset.kind,
            probe: field("probe").dataset.probe,
            cutoff: field("cutoff").dataset.cutoff,
            skipped: field("cutoff").dataset.skipped,
            visited: Number(field("visited").textContent),
            evaluated: Number(field("evaluated").textContent),
            bounds: bounds ? bounds.dataset.bounds : null,
            status: field("status").textContent,
            first: element.querySelector('[data-action="first"]').disabled,
            back: element.querySelector('[data-action="back"]').disabled,
            next: element.querySelector('[data-action="next"]').disabled,
            last: element.querySelector('[data-action="last"]').disabled,
        };
    });
}

/// What the viewer must show at each step, computed from the records alone.
function expectations(records) {
    const nullWindowRoot = records.some((r) => r.path.length === 0 && r.beta - r.alpha === 1);
    let visited = 0;
    let evaluated = 0;
    let lower = -INFINITY;
    let upper = INFINITY;
    // The open calls, each with the child indices it searched.
    const open = [];
    return records.map((r, index) => {
        let skipped = "";
        if (r.event === "enter") {
            visited += 1;
            if (open.length > 0) open[open.length - 1].searched.add(r.path[r.path.length - 1]);
            open.push({ searched: new Set() });
        } else {
            const call = open.pop();
            if (r.cutoff !== null) {
                const key = r.path.join(".");
                const all = [...Array(TREE.get(key).children).keys()];
                skipped = all
                    .filter((i) => !call.searched.has(i))
                    .map((i) => TREE.get(key === "" ? String(i) : key + "." + i).id)
                    .join(" ");
            }
            if (r.depth === 0 && !["cutoff", "etc", "bounds"].includes(r.probe)) {
                evaluated += 1;
            }
            if (r.path.length === 0) {
                const kind = expectedKind(r);
                if (kind === "fail-high") lower = Math.max(lower, r.result);
                else if (kind === "fail-low") upper = Math.min(upper, r.result);
                else lower = upper = r.result;
            }
        }
        const returned = r.event !== "enter";
        return {
            line: index + 1,
            node: String(r.node),
            window: showWindow(r),
            result: returned ? show(r.result) : "",
            kind: expectedKind(r),
            probe: returned && r.probe ? r.probe : "",
            cutoff: returned && r.cutoff !== null ? String(r.cutoff) : "",
            skipped,
            visited,
            evaluated,
            bounds: nullWindowRoot ? "[" + show(lower) + ", " + show(upper) + "]" : null,
        };
    });
}

function checkStep(name, shown, expected, step, total) {
    const at = name + ", step " + step + " (trace line " + expected.line + ")";
    equal(shown.step, step, at + ": data-step");
    equal(shown.counter, "Step " + step + " of " + total, at + ": the step counter");
    equal(shown.current, [expected.node], at + ": the highlighted node (data-current)");
    equal(shown.currentClass, [expected.node], at + ": the node with class nw-current");
    equal(shown.window, expected.window, at + ": the window");
    equal(shown.windowLabel, expected.window, at + ": the window beside the node");
    equal(shown.labelOverlaps, 0, at + ": node circles under the window label");
    equal(shown.labelInside, true, at + ": the window label within the picture");
    equal(shown.bottomRow, "leaves", at + ": the label of the bottom row");
    check(
        shown.inPass === "" || /^; in pass \d+ alone, \d+ nodes visited and \d+ leaves evaluated$/.test(shown.inPass),
        at + ": the counts of the pass say " + shown.inPass,
    );
    equal(shown.result, expected.result, at + ": the result");
    equal(shown.kind, expected.kind, at + ": fail low / fail high / exact");
    equal(shown.probe, expected.probe, at + ": the table probe");
    equal(shown.cutoff, expected.cutoff, at + ": the cut-off child");
    equal(shown.skipped, expected.skipped, at + ": the children the cut-off skipped");
    equal(shown.visited, expected.visited, at + ": nodes visited so far");
    equal(shown.evaluated, expected.evaluated, at + ": leaves evaluated so far");
    equal(shown.bounds, expected.bounds, at + ": the bounds on the root's value");
    check(shown.status.startsWith("Step " + step + " of " + total), at + ": the status line says " + shown.status);
    equal([shown.first, shown.back], [step === 1, step === 1], at + ": First and Back disabled only at step 1");
    equal([shown.next, shown.last], [step === total, step === total], at + ": Next and Last disabled only at the end");
}

async function stepThrough(page, name, shots) {
    const { file, records } = readTrace(name);
    const viewer = page.locator('.nw-viewer[data-trace="' + name + '"]');
    const expected = expectations(records);
    const total = records.length;
    equal((await readViewer(viewer)).steps, total, name + ": the number of steps (records in " + file + ")");
    const next = viewer.locator('button[data-action="next"]');
    for (let step = 1; step <= total; step += 1) {
        checkStep(name, await readViewer(viewer), expected[step - 1], step, total);
        if (shots && shots.steps.includes(step)) {
            const shot = path.join(shots.dir, name + "-step-" + String(step).padStart(3, "0") + ".png");
            await viewer.screenshot({ path: shot });
            shots.taken.push(shot);
        }
        if (step < total) {
            await next.click();
        }
    }
    const back = viewer.locator('button[data-action="back"]');
    await back.click();
    checkStep(name, await readViewer(viewer), expected[total - 2], total - 1, total);
    await viewer.locator('button[data-action="first"]').click();
    checkStep(name, await readViewer(viewer), expected[0], 1, total);
    await viewer.locator('button[data-action="last"]').click();
    checkStep(name, await readViewer(viewer), expected[total - 1], total, total);
    await back.click();
    await back.click();
    checkStep(name, await readViewer(viewer), expected[total - 3], total - 2, total);

    // The keys: the arrows step here instead of turning the book's page.
    const url = page.url();
    await viewer.focus();
    await page.keyboard.press("Home");
    checkStep(name, await readViewer(viewer), expected[0], 1, total);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    checkStep(name, await readViewer(viewer), expected[2], 3, total);
    await page.keyboard.press("ArrowLeft");
    checkStep(name, await readViewer(viewer), expected[1], 2, total);
    await page.keyboard.press("End");
    checkStep(name, await readViewer(viewer), expected[total - 1], total, total);
    equal(page.url(), url, name + ": the page after the arrow keys");
    return total;
}

// ---------------------------------------------------------------------------------------------------
// The form for a reader's own tree and trace.

async function ownTrace(page) {
    const own = page.locator(".nw-own");
    const treeInput = own.locator('textarea[data-input="tree"]');
    const traceInput = own.locator('textarea[data-input="trace"]');
    const load = own.locator('button[data-action="load"]');
    const error = own.locator('[data-field="error"]');
    const viewer = own.locator(".nw-viewer");
    const { text, records } = readTrace("mtdf");

    // The form starts filled in with an example that steps at once.
    check((await treeInput.inputValue()).startsWith("((3 17)"), "own trace: the tree is not filled in");
    check((await traceInput.inputValue()).startsWith('{"event":"enter"'), "own trace: the example trace is not filled in");
    await load.click();
    check(await viewer.isVisible(), "own trace: the example does not step");
    check(!(await error.isVisible()), "own trace: the example shows an error: " + (await error.textContent()));

    const expectError = async (tree, trace, needles, what) => {
        await treeInput.fill(tree);
        await traceInput.fill(trace);
        await load.click();
        check(await error.isVisible(), "own trace, " + what + ": no error shown");
        check(!(await viewer.isVisible()), "own trace, " + what + ": a viewer is shown despite the error");
        const message = await error.textContent();
        for (const needle of needles) {
            check(message.includes(needle), "own trace, " + what + ": the error '" + message + "' does not say '" + needle + "'");
        }
        equal(await error.getAttribute("role"), "alert", "own trace, " + what + ": the error's role");
    };

    await expectError(teachingTree, "", ["the trace is empty"], "an empty trace");
    const lines = text.split("\n");
    const badJson = lines.map((l, i) => (i === 2 ? '{"event":"enter", oops' : l)).join("\n");
    await expectError(teachingTree, badJson, ["trace line 3", "not JSON"], "a line that is not JSON");
    const outside = lines
        .map((l, i) => (i === 4 ? l.replace('"path":[0,0,0]', '"path":[0,3,0]') : l))
        .join("\n");
    check(outside !== text, "own trace: line 5 of the MTD(f) trace is no longer at path [0,0,0]");
    await expectError(teachingTree, outside, ["trace line 5", "[0,3,0] leaves the tree", "has 3 children"], "a path out of the tree");
    await expectError("((3 17) (2 12) (15 (25 0)))", text, ["trace line", "leaves the tree"], "the trace of another tree");
    await expectError("((3 17)\n (2 x))", text, ["tree line 2, column 5", "'x' is not an integer"], "a bad tree");

    // A good trace: the MTD(f) trace, and the same search written at completion only (the default).
    await treeInput.fill(teachingTree);
    await traceInput.fill(text);
    await load.click();
    check(!(await error.isVisible()), "own trace: an error for the MTD(f) trace: " + (await error.textContent()));
    const expected = expectations(records);
    for (let step = 1; step <= 5; step += 1) {
        checkStep("own trace", await readViewer(viewer), expected[step - 1], step, records.length);
        await viewer.locator('button[data-action="next"]').click();
    }
    const completion = records
        .filter((r) => r.event === "return")
        .map(({ event, ...rest }) => JSON.stringify(rest))
        .join("\n");
    await traceInput.fill(completion);
    await load.click();
    const shown = await readViewer(viewer);
    const returns = records.filter((r) => r.event === "return");
    equal(shown.steps, returns.length, "own trace at completion: the number of steps");
    equal(shown.current, [String(returns[0].node)], "own trace at completion, step 1: the highlighted node");
    equal(shown.result, show(returns[0].result), "own trace at completion, step 1: the result");
}

// ---------------------------------------------------------------------------------------------------

async function main() {
    const started = Date.now();
    check(fs.existsSync(path.join(bookDir, "viewer.html")), "no " + path.join(bookDir, "viewer.html") + ": run `mdbook build book` first");
    check(fs.existsSync(executablePath), "no Chromium at " + executablePath + " (set CHROMIUM to its path)");
    const server = await serve();
    const origin = "http://127.0.0.1:" + server.address().port;
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "nullwindow-chromium-"));
    const shots = { ...SCREENSHOTS, dir: fs.mkdtempSync(path.join(os.tmpdir(), "nullwindow-viewer-")), taken: [] };
    let context;
    try {
        context = await launchChromium(executablePath, userDataDir, { width: 1100, height: 900 });
        const page = context.pages()[0] ?? (await context.newPage());
        const errors = [];
        page.on("pageerror", (error) => errors.push(String(error)));
        page.on("console", (message) => {
            if (message.type() === "error") errors.push(message.text());
        });
        // The book is all on the local server; anything else is refused, never waited for.
        await page.route("**/*", (route) =>
            route.request().url().startsWith(origin) ? route.continue() : route.abort(),
        );

        // A page without a viewer: the script is loaded and does nothing.
        await page.goto(origin + "/introduction.html");
        equal(await page.locator(".nw-toolbar").count(), 0, "introduction.html: viewer controls");
        check(
            (await page.locator("script[src]").evaluateAll((s) => s.map((e) => e.src))).some((s) => /\/viewer\/viewer[^/]*\.js$/.test(s)),
            "introduction.html does not load viewer/viewer.js: is it in book.toml's additional-js?",
        );
        equal(errors, [], "introduction.html: errors in the page");

        await page.goto(origin + "/viewer.html");
        const onPage = await page.locator(".nw-viewer[data-trace]").evaluateAll((v) => v.map((e) => e.dataset.trace));
        const committed = fs.readdirSync(tracesDir).filter((f) => f.endsWith(".jsonl")).map((f) => f.replace(/\.jsonl$/, ""));
        equal([...onPage].sort(), [...committed].sort(), "viewer.html: the viewers, against the traces in " + tracesDir);
        for (const required of ["alphabeta", "mtdf", "pvs", "sss"]) {
            check(onPage.includes(required), "viewer.html has no viewer for " + required);
        }
        const unbuilt = await page.locator(".nw-viewer [data-field=error]").allTextContents();
        equal(unbuilt, [], "viewer.html: viewers that show an error instead");

        let steps = 0;
        for (const name of onPage) {
            const count = await stepThrough(page, name, name === shots.trace ? shots : null);
            console.log("ok " + name + ": " + count + " steps");
            steps += count;
        }
        await ownTrace(page);
        console.log("ok your own tree and trace: errors for bad input, steps for good input");

        // On a phone-sized screen the tree keeps readable numbers and scrolls instead.
        await page.setViewportSize({ width: 400, height: 800 });
        await page.goto(origin + "/viewer.html");
        // The rows' labels are drawn in the numbers' 12 px font, and are always there.
        const smallest = await page
            .locator('.nw-viewer[data-trace="mtdf"] .nw-ply')
            .evaluateAll((texts) => Math.min(...texts.map((t) => t.getBoundingClientRect().height)));
        check(smallest >= 9, "viewer.html at 400 px: the tree's text is " + smallest.toFixed(1) + " px high (at least 9 wanted)");
        await page.setViewportSize({ width: 1100, height: 900 });
        console.log("ok at 400 px: the tree's text is " + smallest.toFixed(1) + " px high");
        equal(errors, [], "viewer.html: errors in the page");
        equal(missing, [], "files the pages asked for that the built book lacks");
        equal(shots.taken.length, shots.steps.length, "screenshots taken");
        console.log("screenshots:\n  " + shots.taken.join("\n  "));
        console.log(
            "all viewer checks passed: " + onPage.length + " viewers, " + steps + " steps, in " + ((Date.now() - started) / 1000).toFixed(1) + " s",
        );
    } finally {
        if (context) {
            await context.close();
        }
        server.close();
        fs.rmSync(userDataDir, { recursive: true, force: true });
    }
}

main().catch((error) => {
    console.error(error instanceof Failure ? "viewer test failed: " + error.message : error);
    process.exit(1);
});
