#!/usr/bin/python3
"""Every relative link of the Markdown pages (README.md, ARCHITECTURE.md, CONTRIBUTING.md, docs/*.md) names a
file of the repository, and every page of docs/ is reached from the README. Exit 1 with the broken links."""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
pages = [root / "README.md", root / "ARCHITECTURE.md", root / "CONTRIBUTING.md"] + sorted((root / "docs").glob("*.md"))
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
broken, reached = [], set()
for page in pages:
    text = page.read_text(encoding="utf-8")
    for target in link.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.exists():
            broken.append(f"{page.relative_to(root)}: {target}")
        elif page.name == "README.md" and page.parent == root:
            reached.add(path)
unreached = [str(p.relative_to(root)) for p in sorted((root / "docs").glob("*.md")) if p.resolve() not in reached]
for b in broken:
    print("broken link:", b)
for u in unreached:
    print("not linked from README.md:", u)
sys.exit(1 if broken or unreached else 0)
