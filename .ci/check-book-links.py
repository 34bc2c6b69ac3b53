"""Checks the built book: every relative href and src in every page names a file that exists, and
every #fragment names an id in that file. mdBook renders a broken link without complaint, so this
is what catches one in the HTML (the book's test in tests/suite/book.rs checks the Markdown)."""

import html.parser
import pathlib
import sys
import urllib.parse


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.targets, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value:
                self.targets.append(value)


def parse(path, cache={}):
    if path not in cache:
        links = Links()
        links.feed(path.read_text(encoding="utf-8"))
        cache[path] = links
    return cache[path]


def main(root):
    root = pathlib.Path(root).resolve()
    broken, checked = [], 0
    for page in sorted(root.rglob("*.html")):
        for target in parse(page).targets:
            url = urllib.parse.urlsplit(target)
            if url.scheme or url.netloc or target.startswith(("mailto:", "javascript:")):
                continue
            path = urllib.parse.unquote(url.path)
            # An absolute path is relative to the site's root, which is the book's (mdBook's site-url).
            base = root if path.startswith("/") else page.parent
            file = (base / path.lstrip("/")).resolve() if path else page
            if file.is_dir():
                file = file / "index.html"
            checked += 1
            if not file.is_file():
                broken.append(f"{page.relative_to(root)}: {target}: no such file")
            elif url.fragment and file.suffix == ".html" and url.fragment not in parse(file).ids:
                broken.append(f"{page.relative_to(root)}: {target}: no id '{url.fragment}'")
    for line in broken:
        print(line)
    print(f"{checked} links checked, {len(broken)} broken")
    return 1 if broken or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
