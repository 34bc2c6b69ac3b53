// What the book's browser tests share: the built book served on 127.0.0.1 as a web server would,
// and Debian's Chromium started headless with the flags a closed network needs (without the
// background-networking ones it keeps trying to reach Google's hosts and its connections are refused).

import { chromium } from "playwright-core";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".jsonl": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
};

/// Serves `bookDir` on a free port of 127.0.0.1; every path asked for and not found is pushed onto
/// `missing`, so that a test can fail on a file the book refers to and lacks.
export function serveBook(bookDir, missing) {
    const server = http.createServer((request, response) => {
        const url = new URL(request.url, "http://127.0.0.1");
        let file = path.join(bookDir, decodeURIComponent(url.pathname));
        if (!file.startsWith(bookDir)) {
            response.writeHead(403).end();
            return;
        }
        if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
            file = path.join(file, "index.html");
        }
        fs.readFile(file, (error, data) => {
            if (error) {
                missing.push(url.pathname);
                response.writeHead(404).end();
            } else {
                const type = TYPES[path.extname(file)] || "application/octet-stream";
                response.writeHead(200, { "content-type": type }).end(data);
            }
        });
    });
    return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/// Chromium at `executablePath`, headless, with a fresh profile in `userDataDir` and one page of
/// `viewport` size.
export function launchChromium(executablePath, userDataDir, viewport) {
    return chromium.launchPersistentContext(userDataDir, {
        executablePath,
        headless: true,
        args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
        viewport,
    });
}
