#!/usr/bin/env python3
"""Runs the catalogue of malformed and unusual inputs (catalogue.py) against the candor CLI.

    run_catalogue.py CANDOR [CASE_ID ...]
    run_catalogue.py --write-inputs DIR     # every case's input files (up to 64 KB), as fuzzing seeds

Each case writes its files into an empty folder, runs its setup commands (which must succeed), edits the
model file they made, runs its command there and checks:
  - the exit code is the expected one (0, or 2 for input the user must fix); never 1 (internal error), a
    signal or a hang (60 s);
  - every `stderr` fragment occurs in stderr (for exit 2 they name FILE:LINE where the input has lines),
    no `stderr_absent` fragment does, nor an error id of the JSON library ("[json.exception."),
    every `stdout` fragment in stdout, `stdout_lines` lines came out (no row lost), stderr stays under
    `stderr_max_bytes`, and `check_model_attribute` (`check_model_class`) is the first attribute (the class)
    of the model written.
Edits: {"set": {JSON pointer: value}, "delete": [pointer], "raw_replace": [old, new]} on m.json, and
"truncate": {file: bytes}.
Faults and attacks: `stdout_file` sends stdout to a path (/dev/full); `file_size_limit` runs the command with
RLIMIT_FSIZE at that many bytes (with `ignore_sigxfsz` the write fails with EFBIG, otherwise SIGXFSZ kills the
process midway through its write, which `signal` then expects); `env` adds environment variables; `parallel`
runs that many copies of the command at once; `absent` lists files that must not exist afterwards (what an
attack would create), `unchanged` files whose bytes must be as the setup left them, `valid_json` files that
must parse; `symlinks` {name: target} links made first that must stay links; `char_devices` paths
that must stay character devices; `csv_fields` the number of fields every row of stdout must parse into. A case with `python` runs that code with the interpreter given by --python (the installed
package) instead of the CLI; without --python those cases are counted and left to scripts/python.sh.
File contents may also be {"rows": [header, row, count]}: row repeated count times with {i} the row number
and {i2} its parity.
"""
import csv
import io
import json
import os
import resource
import signal
import stat
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
    if isinstance(content, dict) and "rows" in content:
        header, row, count = content["rows"]
        data = (header + "".join(row.replace("{i}", str(i)).replace("{i2}", str(i % 2)) for i in range(count))).encode()
    elif isinstance(content, dict):
        data = content["latin1"].encode("latin-1")
    elif isinstance(content, list):
        data = b"".join(piece.encode("utf-8") * count for piece, count in content)
    else:
        data = content.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def limits(case):
    """The function that sets a case's resource limits in the child, or None."""
    size = case.get("file_size_limit")
    if size is None:
        return None

    def apply():
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        if case.get("ignore_sigxfsz"):
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return apply


def run_case(candor, case, python=None):
    """The problems with one case; empty when it behaves as catalogued."""
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        for name, content in case["files"].items():
            write_file(os.path.join(folder, name), content)
        for name, target in case.get("symlinks", {}).items():
            os.symlink(target, os.path.join(folder, name))
        env = dict(os.environ, **case.get("env", {}))

        def candor_run(args, **kw):
            try:
                return subprocess.run([candor] + args, cwd=folder, capture_output=True, timeout=60, env=env, **kw)
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
        before = {}
        for name in case.get("unchanged", []):
            with open(os.path.join(folder, name), "rb") as f:
                before[name] = f.read()
        if "python" in case:
            try:
                done = subprocess.run([python, "-c", case["python"]], cwd=folder, capture_output=True, timeout=120,
                                      env=dict(env, CANDOR_CLI=candor))
            except subprocess.TimeoutExpired:
                done = None
        elif "parallel" in case:
            procs = [subprocess.Popen([candor] + case["run"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      env=env) for _ in range(case["parallel"])]
            outs = [p.communicate(timeout=60) for p in procs]
            bad = [p.returncode for p in procs if p.returncode != case["exit"]]
            done = subprocess.CompletedProcess(case["run"], bad[0] if bad else case["exit"], outs[0][0],
                                               b"".join(o[1] for o in outs))
        elif "stdout_file" in case:
            with open(case["stdout_file"], "wb") as sink:
                try:
                    done = subprocess.run([candor] + case["run"], cwd=folder, stdout=sink, stderr=subprocess.PIPE,
                                          timeout=60, env=env)
                except subprocess.TimeoutExpired:
                    done = None
            if done is not None:
                done.stdout = b""
        else:
            done = candor_run(case["run"], preexec_fn=limits(case))
        if done is None:
            return ["hung (no answer in 60 s)"]
        out = done.stdout.decode("utf-8", errors="replace")
        err = done.stderr.decode("utf-8", errors="replace")
        rc = done.returncode
        if "signal" in case:
            if rc != -case["signal"]:
                problems.append(f"exit {rc}, expected to be killed by signal {case['signal']} (the fault injected)")
        elif rc < 0:
            problems.append(f"killed by signal {-rc}")
        elif rc == 1 and "python" not in case:  # Python's exit 1 is an exception, which `stderr` names
            problems.append("exit 1 (internal error)")
        if "signal" not in case and rc != case["exit"]:
            problems.append(f"exit {rc}, expected {case['exit']}")
        for name in case.get("absent", []):
            if os.path.exists(os.path.join(folder, name)):
                problems.append(f"{name} exists: the input made candor create it")
        for name, data in before.items():
            with open(os.path.join(folder, name), "rb") as f:
                if f.read() != data:
                    problems.append(f"{name} changed: an interrupted or failed write damaged it")
        for name in case.get("symlinks", {}):
            if not os.path.islink(os.path.join(folder, name)):
                problems.append(f"{name} is no longer a symbolic link")
        for path in case.get("char_devices", []):
            if not stat.S_ISCHR(os.stat(path).st_mode):
                problems.append(f"{path} is no longer a device: a write replaced it")
        for name in case.get("valid_json", []):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    json.load(f)
            except (OSError, ValueError) as e:
                problems.append(f"{name} is not whole JSON: {e}")
        for fragment in case.get("stderr", []):
            if fragment not in err:
                problems.append(f"stderr lacks {fragment!r}")
        for fragment in case.get("stderr_absent", []):
            if fragment in err:
                problems.append(f"stderr holds {fragment!r}")
        # Every message is written for the user: a library's internal error id is not.
        if "[json.exception." in err:
            problems.append("stderr shows nlohmann's error id ([json.exception...])")
        for fragment in case.get("stdout", []):
            if fragment not in out:
                problems.append(f"stdout lacks {fragment!r}")
        if "csv_fields" in case:
            widths = {len(row) for row in csv.reader(io.StringIO(out))}
            if widths != {case["csv_fields"]}:
                problems.append(f"CSV rows of {sorted(widths)} fields, expected {case['csv_fields']} in each")
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

    args = sys.argv[1:]
    python = None
    if args[:1] == ["--python"]:
        python, args = (os.path.abspath(args[1]) if "/" in args[1] else args[1]), args[2:]
    if args[0] == "--write-inputs":
        folder = args[1]
        for case in cases:
            for name, content in case["files"].items():
                if isinstance(content, dict) and "rows" in content:
                    continue
                path = os.path.join(folder, case["id"] + "-" + name.replace("/", "-"))
                write_file(path, content)
                if os.path.getsize(path) > 65536:
                    os.remove(path)
        return
    candor = os.path.abspath(args[0])

    wanted = set(args[1:])
    ids = [c["id"] for c in cases]
    if len(set(ids)) != len(ids):
        sys.exit("catalogue: two cases share an id")
    unknown = wanted - set(ids)
    if unknown:
        sys.exit(f"catalogue: no case {sorted(unknown)}")
    failed = run = 0
    left = []
    for case in cases:
        if wanted and case["id"] not in wanted:
            continue
        if ("python" in case) != (python is not None):
            left.append(case["id"])
            continue
        problems = run_case(candor, case, python)
        run += 1
        print(("FAIL " if problems else "ok   ") + case["id"] + "".join("\n     " + p for p in problems))
        failed += bool(problems)
    if left:
        print(f"{len(left)} cases left to the other run ({'the CLI run' if python else 'scripts/python.sh, --python'})")
    print(f"{run - failed} passed, {failed} failed")
    sys.exit(1 if failed or not run else 0)


if __name__ == "__main__":
    main()
