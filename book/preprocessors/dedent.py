"""An mdBook preprocessor that removes the common indentation of every Rust code block.

A listing included by anchor from inside an `impl` block or a module keeps the four or eight
columns of indentation it has in the source, which pushes its long lines past the code box's edge.
This runs after the `links` preprocessor has expanded `{{#include}}`, so it sees the listing's text;
it removes only whitespace every non-blank line of a block shares, so relative indentation (and so
the code's meaning) is unchanged. Other blocks (command output, tables) are left as written.

mdBook's protocol: `dedent.py supports RENDERER` exits 0; otherwise `[context, book]` arrives as
JSON on standard input and the book goes back on standard output.
"""

import json
import re
import sys

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")


def dedent_blocks(markdown):
    lines = markdown.split("\n")
    out, index = [], 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        out.append(line)
        index += 1
        if not fence:
            continue
        marker, info = fence.group(2), fence.group(3).strip()
        body = []
        while index < len(lines) and not lines[index].strip().startswith(marker):
            body.append(lines[index])
            index += 1
        if info.split(",")[0].strip() == "rust":
            indents = [len(text) - len(text.lstrip(" ")) for text in body if text.strip()]
            common = min(indents, default=0)
            body = [text[common:] if text.strip() else text.strip() for text in body]
        out.extend(body)
        if index < len(lines):
            out.append(lines[index])
            index += 1
    return "\n".join(out)


def walk(items):
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if chapter is None:
            continue
        chapter["content"] = dedent_blocks(chapter["content"])
        walk(chapter.get("sub_items", []))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "supports":
        sys.exit(0)
    _context, book = json.load(sys.stdin)
    walk(book.get("items", book.get("sections", [])))
    json.dump(book, sys.stdout)


if __name__ == "__main__":
    main()
