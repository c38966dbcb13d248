#!/usr/bin/env python3
"""Checks every relative link of README.md and docs/*.md: the file it names exists, and the
#anchor it names is a heading of that file (mkdocs 1.4 checks neither anchors nor the README).

Usage: scripts/check_doc_links.py [ROOT]. Prints each broken link as FILE:LINE: TARGET: why,
exits 1 when there is one. Anchors are made as Python-Markdown's toc extension makes them
(which mkdocs uses), and GitHub's agree with them for the headings these pages have."""
import pathlib
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(text):
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def outside_code(lines, keep_inline_code=False):
    """(line number, line) of the lines outside fenced code blocks, inline code removed unless
    keep_inline_code."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line if keep_inline_code else re.sub(r"`[^`]*`", "", line)


def anchors(path):
    # A heading's inline code is part of its anchor ("## Manifests and `terragrid verify`" is
    # #manifests-and-terragrid-verify): the toc extension slugifies the heading's text.
    found = set()
    for _, line in outside_code(path.read_text().splitlines(), keep_inline_code=True):
        heading = re.match(r"^#{1,6} (.*)", line)
        if heading:
            found.add(slug(heading.group(1)))
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    broken = []
    for page in pages:
        for number, line in outside_code(page.read_text().splitlines()):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue  # http:, https:, mailto:
                name, _, anchor = target.partition("#")
                file = (page.parent / name).resolve() if name else page
                where = f"{page.relative_to(root)}:{number}: {target}"
                if not file.exists():
                    broken.append(f"{where}: no file {file.relative_to(root) if file.is_relative_to(root) else file}")
                elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                    broken.append(f"{where}: no heading '#{anchor}' in {file.relative_to(root)}")
    for line in broken:
        print(line)
    print(f"check_doc_links: {len(pages)} pages, {len(broken)} broken links", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
