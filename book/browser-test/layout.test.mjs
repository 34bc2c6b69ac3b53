// Measures the built book in headless Chromium instead of looking at it:
//
// * no code block and no table of any page runs past its box on a 1280-pixel-wide screen (code also
//   at 800 pixels, where it must wrap rather than hide behind a scroll bar);
// * in every figure, no two text labels overlap and none sticks out of the picture, with each
//   label's box as the browser lays it out (rotated labels included).
//
//   mdbook build book && node book/browser-test/layout.test.mjs [BUILT_BOOK_DIR]
//
// The browser is Chromium at $CHROMIUM (default /usr/bin/chromium). Exits non-zero listing every
// page, block or label that fails.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, serveBook } from "./book.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const bookDir = path.resolve(process.argv[2] ?? path.join(here, "..", "book"));
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
// Two labels may touch: glyph boxes include the line's leading, so a little vertical overlap of
// stacked lines is not ink on ink.
const SLACK = { x: 0.5, y: 2 };

/// The blocks of the page that are wider than their box: `selector` picks them.
function overflowing(page, selector) {
    return page.$$eval(selector, (blocks) =>
        blocks
            .map((block) => {
                const inner = block.tagName === "PRE" ? block.querySelector("code") || block : block;
                const box = block.tagName === "TABLE" ? block.parentElement.clientWidth : block.clientWidth;
                return { box, width: inner.scrollWidth, text: inner.textContent.trim().slice(0, 60) };
            })
            .filter((block) => block.width > block.box + 1),
    );
}

/// The labels of the figure on the page that overlap each other or leave the picture.
function labelProblems(page, slack) {
    return page.evaluate((slack) => {
        const svg = document.querySelector("svg");
        const view = svg.viewBox.baseVal;
        const [width, height] = view && view.width ? [view.width, view.height] : [svg.width.baseVal.value, svg.height.baseVal.value];
        const frame = svg.getBoundingClientRect();
        const scale = width / frame.width;
        const boxes = [...svg.querySelectorAll("text")].map((text) => {
            const b = text.getBoundingClientRect();
            return { x: (b.x - frame.x) * scale, y: (b.y - frame.y) * scale, w: b.width * scale, h: b.height * scale, text: text.textContent };
        });
        const problems = [];
        for (const b of boxes) {
            if (b.x < -0.5 || b.y < -0.5 || b.x + b.w > width + 0.5 || b.y + b.h > height + 0.5) {
                problems.push(`"${b.text}" leaves the ${width}×${height} picture`);
            }
        }
        boxes.forEach((a, i) =>
            boxes.slice(i + 1).forEach((b) => {
                const x = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
                const y = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
                if (x > slack.x && y > slack.y) {
                    problems.push(`"${a.text}" and "${b.text}" overlap by ${x.toFixed(1)}×${y.toFixed(1)}`);
                }
            }),
        );
        return problems;
    }, slack);
}

async function main() {
    const failures = [];
    const missing = [];
    const server = await serveBook(bookDir, missing);
    const origin = "http://127.0.0.1:" + server.address().port;
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "nullwindow-chromium-"));
    const context = await launchChromium(executablePath, userDataDir, { width: 1280, height: 900 });
    try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.route("**/*", (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
        const pages = fs.readdirSync(bookDir).filter((f) => f.endsWith(".html") && !["print.html", "toc.html", "404.html"].includes(f));
        for (const [width, selector] of [[1280, "pre, table"], [800, "pre"]]) {
            await page.setViewportSize({ width, height: 900 });
            for (const name of pages) {
                await page.goto(origin + "/" + name);
                for (const block of await overflowing(page, selector)) {
                    failures.push(`${name} at ${width} px: "${block.text}…" is ${block.width} px wide in a ${block.box} px box`);
                }
            }
        }
        const figures = path.join(bookDir, "figures");
        const svgs = fs.readdirSync(figures).filter((f) => f.endsWith(".svg")).sort();
        for (const name of svgs) {
            await page.goto(origin + "/figures/" + name);
            for (const problem of await labelProblems(page, SLACK)) {
                failures.push(`figures/${name}: ${problem}`);
            }
        }
        if (missing.length) {
            failures.push("files the pages asked for that the built book lacks: " + missing.join(", "));
        }
        if (failures.length) {
            console.error("layout test failed:\n  " + failures.join("\n  "));
            process.exitCode = 1;
        } else {
            console.log(`all layout checks passed: ${pages.length} pages at 1280 and 800 px, ${svgs.length} figures`);
        }
    } finally {
        await context.close();
        server.close();
        fs.rmSync(userDataDir, { recursive: true, force: true });
    }
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
