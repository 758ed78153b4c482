#!/usr/bin/env python3
"""Every source compiles on its own: each .cpp of src/ with the flags of a file-by-file build, and each header
of src/ included alone, checked for syntax only (-fsyntax-only: the parse and the templates, no code). The
unity build that scripts/build.sh makes joins sources in batches, where one source's includes serve the next,
so a missing include shows only here (and in `pip install .`, which builds file by file). Each header of the
public API (include/candor/) is checked the same way without src/ on the include path: it needs nothing private.

    scripts/include_check.py [BUILD_DIR]    # default build-include-check/, configured here, never built

Runs the compiler with an argument vector (no shell), one job per core; exit 1 naming each file that does
not compile alone, with the compiler's first lines."""
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build-include-check"
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_UNITY_BUILD=OFF",
                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCANDOR_BUILD_TESTS=OFF", "-DCANDOR_BUILD_BENCH=OFF",
                    "-DCMAKE_BUILD_TYPE=Debug"], check=True, stdout=subprocess.DEVNULL)
    entries = json.loads((build / "compile_commands.json").read_text())
    jobs = []
    template = None
    for e in entries:
        source = Path(e["file"])
        if ROOT / "src" not in source.parents:
            continue
        args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        # Drop the output (-o FILE) and keep the rest; syntax only.
        kept, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif a != "-c" and a != str(source) and a != e["file"]:
                kept.append(a)
        jobs.append((str(source.relative_to(ROOT)), kept + ["-fsyntax-only", str(source)], e["directory"]))
        if template is None and "/src/candor/" in str(source):
            template = (kept, e["directory"])
    for header in sorted((ROOT / "src").rglob("*.hpp")):
        flags, directory = template
        rel = header.relative_to(ROOT / "src")
        jobs.append((str(header.relative_to(ROOT)),
                     flags + ["-fsyntax-only", "-x", "c++", "-include", str(header), "/dev/null"], directory))

    private = f"-I{ROOT / 'src'}"
    for header in sorted((ROOT / "include").rglob("*.hpp")):
        flags, directory = template
        public_flags = [f for f in flags if f != private]
        if len(public_flags) != len(flags) - 1:
            sys.exit(f"include check: expected one -I{ROOT / 'src'} in the compile flags, found {flags}")
        jobs.append((str(header.relative_to(ROOT)),
                     public_flags + ["-fsyntax-only", "-x", "c++", "-include", str(header), "/dev/null"], directory))

    def check(job):
        name, argv, directory = job
        done = subprocess.run(argv, cwd=directory, capture_output=True, text=True)
        return name, done.returncode, done.stderr

    failed = []
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for name, code, err in pool.map(check, jobs):
            if code != 0:
                failed.append(name)
                print(f"include check: {name} does not compile on its own:", file=sys.stderr)
                print("\n".join(err.splitlines()[:8]), file=sys.stderr)
    if failed:
        print(f"include check: {len(failed)} of {len(jobs)} files do not compile on their own", file=sys.stderr)
        sys.exit(1)
    print(f"include check: {len(jobs)} sources and headers compile on their own")


if __name__ == "__main__":
    main()
