#!/usr/bin/env python3
"""Runs the catalogue of malformed and unusual inputs (catalogue.py) against the candor CLI.

    run_catalogue.py CANDOR [CASE_ID ...]
    run_catalogue.py --write-inputs DIR     # every case's input files (up to 64 KB), as fuzzing seeds

Each case writes its files into an empty folder, runs its setup commands (which must succeed), edits the
model file they made, runs its command there and checks:
  - the exit code is the expected one (0, or 2 for input the user must fix); never 1 (internal error), a
    signal or a hang (60 s);
  - every `stderr` fragment occurs in stderr (for exit 2 they name FILE:LINE where the input has lines),
    every `stdout` fragment in stdout, `stdout_lines` lines came out (no row lost), stderr stays under
    `stderr_max_bytes`, and `check_model_attribute` (`check_model_class`) is the first attribute (the class)
    of the model written.
Edits: {"set": {JSON pointer: value}, "delete": [pointer], "raw_replace": [old, new]} on m.json, and
"truncate": {file: bytes}.
"""
import json
import os
import subprocess
import sys
import tempfile


def pointer_parts(pointer):
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def walk(doc, parts):
    for p in parts:
        doc = doc[int(p)] if isinstance(doc, list) else doc[p]
    return doc


def edit_model(path, edit):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "raw_replace" in edit:
        old, new = edit["raw_replace"]
        if old not in text:
            raise AssertionError(f"edit: {old!r} is not in {path}")
        text = text.replace(old, new, 1)
    if "set" in edit or "delete" in edit:
        doc = json.loads(text)
        for pointer, value in edit.get("set", {}).items():
            *parent, last = pointer_parts(pointer)
            target = walk(doc, parent)
            if isinstance(target, list):
                target[int(last)] = value
            else:
                target[last] = value
        for pointer in edit.get("delete", []):
            *parent, last = pointer_parts(pointer)
            target = walk(doc, parent)
            del target[int(last) if isinstance(target, list) else last]
        text = json.dumps(doc, indent=2)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_file(path, content):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if isinstance(content, dict):
        data = content["latin1"].encode("latin-1")
    elif isinstance(content, list):
        data = b"".join(piece.encode("utf-8") * count for piece, count in content)
    else:
        data = content.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def run_case(candor, case):
    """The problems with one case; empty when it behaves as catalogued."""
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        for name, content in case["files"].items():
            write_file(os.path.join(folder, name), content)

        def candor_run(args):
            try:
                return subprocess.run([candor] + args, cwd=folder, capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                return None

        for args in case.get("setup", []):
            done = candor_run(args)
            if done is None or done.returncode != 0:
                return [f"setup {args} failed: {done.stderr.decode(errors='replace') if done else 'timeout'}"]
        if "edit" in case:
            edit_model(os.path.join(folder, "m.json"), case["edit"])
        for name, size in case.get("truncate", {}).items():
            with open(os.path.join(folder, name), "r+b") as f:
                f.truncate(size)
        done = candor_run(case["run"])
        if done is None:
            return ["hung (no answer in 60 s)"]
        out = done.stdout.decode("utf-8", errors="replace")
        err = done.stderr.decode("utf-8", errors="replace")
        rc = done.returncode
        if rc < 0:
            problems.append(f"killed by signal {-rc}")
        elif rc == 1:
            problems.append("exit 1 (internal error)")
        if rc != case["exit"]:
            problems.append(f"exit {rc}, expected {case['exit']}")
        for fragment in case.get("stderr", []):
            if fragment not in err:
                problems.append(f"stderr lacks {fragment!r}")
        for fragment in case.get("stdout", []):
            if fragment not in out:
                problems.append(f"stdout lacks {fragment!r}")
        if "stdout_lines" in case and len(out.splitlines()) != case["stdout_lines"]:
            problems.append(f"{len(out.splitlines())} stdout lines, expected {case['stdout_lines']}")
        if "stderr_max_bytes" in case and len(done.stderr) > case["stderr_max_bytes"]:
            problems.append(f"{len(done.stderr)} bytes of stderr, at most {case['stderr_max_bytes']} expected")
        if ("check_model_attribute" in case or "check_model_class" in case) and not problems:
            with open(os.path.join(folder, "m.json"), encoding="utf-8") as f:
                model = json.load(f)
            first, klass = model["attributes"][0]["name"], model["class"]["name"]
            if first != case.get("check_model_attribute", first):
                problems.append(f"first attribute {first!r}, expected {case['check_model_attribute']!r}")
            if klass != case.get("check_model_class", klass):
                problems.append(f"class {klass!r}, expected {case['check_model_class']!r}")
        if problems:
            problems.append(f"stderr: {err[:400]!r}")
    return problems


def main():
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from catalogue import CASES as cases

    if sys.argv[1] == "--write-inputs":
        folder = sys.argv[2]
        for case in cases:
            for name, content in case["files"].items():
                path = os.path.join(folder, case["id"] + "-" + name.replace("/", "-"))
                write_file(path, content)
                if os.path.getsize(path) > 65536:
                    os.remove(path)
        return
    candor = os.path.abspath(sys.argv[1])

    wanted = set(sys.argv[2:])
    ids = [c["id"] for c in cases]
    if len(set(ids)) != len(ids):
        sys.exit("catalogue: two cases share an id")
    unknown = wanted - set(ids)
    if unknown:
        sys.exit(f"catalogue: no case {sorted(unknown)}")
    failed = 0
    for case in cases:
        if wanted and case["id"] not in wanted:
            continue
        problems = run_case(candor, case)
        print(("FAIL " if problems else "ok   ") + case["id"] + "".join("\n     " + p for p in problems))
        failed += bool(problems)
    print(f"{failed} of {len(wanted) or len(cases)} cases failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
