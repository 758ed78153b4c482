#!/usr/bin/env python3
"""Randomised test of the Python and C exports against their targets' own parsers: models whose attribute
names, nominal values and classes are random text (drawn from hostile fragments: quotes, backslashes, comment
markers of each language, newlines, control characters, non-ASCII, bidirectional overrides) are fitted with
the Python package, exported, parsed by Python's `ast` and compiled by the C compiler (`cc -Wall -Wextra
-Werror`), run, and compared with `predict_proba` on every row. Any difference, any parse or compile error, or
any file the generated code writes is a finding: the script stops with exit 1 and prints the names that made
it (seeded, so the same --seed finds it again).

    python fuzz/export_fuzz.py [--seconds S] [--seed N]     # with the candor package importable

scripts/fuzz.sh runs it beside the libFuzzer targets (the SQL export has its own: fuzz/sql_export_fuzzer.cpp)."""
import argparse
import ast
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd

import candor

FRAGMENTS = ["a", "b", "x", "'", '"', "\\", "\\n", "\n", "\r", "\t", "*/", "/*", "//", "--", "#", "??/", "\\!",
             "%s", "{", "}", "(", ")", ";", " ", "\x01", "\x7f", "\u00e9", "\u202e", "\U0001F600", "int", "NULL",
             "NAN", "linux", "_Bool", "import os", "system(", "coding: latin-1", "\"\"\"", "'''", "\\x00"]


def random_text(rng, used):
    for _ in range(100):
        text = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 5)))
        if text not in used and text.strip() == text and text:
            used.add(text)
            return text
    raise RuntimeError("no fresh text")


def random_problem(rng):
    """Two or three nominal attributes with random names and values, one numeric, a random binary class."""
    used = set()
    names = [random_text(rng, used) for _ in range(rng.randint(2, 3))]
    values = {a: [random_text(rng, used) for _ in range(rng.randint(2, 3))] for a in names}
    numeric = random_text(rng, used)
    classes = [random_text(rng, used) for _ in range(2)]
    n = 60
    data = {a: [values[a][rng.randrange(len(values[a]))] for _ in range(n)] for a in names}
    data[numeric] = [float(rng.randint(0, 9)) for _ in range(n)]
    frame = pd.DataFrame(data)
    for a in names:
        frame[a] = pd.Categorical(frame[a], categories=values[a])
    first = names[0]
    y = [classes[0] if (frame[first].iloc[i] == values[first][0]) != (i % 7 == 0) else classes[1] for i in range(n)]
    return frame, pd.Series(pd.Categorical(y, categories=classes)), names, numeric


def rows_of(frame, names):
    return [{a: (str(v) if a in names else float(v)) for a, v in frame.iloc[i].items()} for i in range(len(frame))]


def c_literal(s):
    return '"' + "".join(f"\\{b:03o}" if b < 0x20 or b >= 0x7F or chr(b) in '"\\?' else chr(b)
                         for b in s.encode("utf-8")) + '"'


def check_python(est, frame, names, want, work):
    code = est.export("python")
    ast.parse(code)  # Python's own parser; a SyntaxError is a finding
    path = os.path.join(work, "exported.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(code)
    spec = importlib.util.spec_from_file_location("exported", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for i, row in enumerate(rows_of(frame, names)):
        p = module.predict_proba(row)
        got = [p[c] for c in module.CLASSES]
        if max(abs(a - b) for a, b in zip(got, want[i])) > 1e-9:
            raise AssertionError(f"Python export, row {i}: {got} against {want[i]}")


def check_c(est, frame, names, numeric, want, work):
    header = os.path.join(work, "model.h")
    with open(header, "w", encoding="utf-8") as f:
        f.write(est.export("c"))
    columns = list(frame.columns)
    inits = []
    for row in rows_of(frame, names):
        inits.append("{" + ", ".join(c_literal(row[a]) if a in names else repr(row[a]) for a in columns) + "}")
    driver = os.path.join(work, "driver.c")
    with open(driver, "w", encoding="utf-8") as f:
        f.write('#include <stdio.h>\n#include "model.h"\nstatic const struct candor_row rows[] = {\n' +
                ",\n".join(inits) + "};\nint main(void) {\n  double p[CANDOR_CLASSES];\n"
                "  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {\n"
                "    candor_predict_proba(&rows[i], p);\n"
                "    for (int k = 0; k < CANDOR_CLASSES; ++k) printf(\"%.17g \", p[k]);\n    printf(\"\\n\");\n  }\n}\n")
    program = os.path.join(work, "driver")
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O0", "-o", program, driver, "-lm"],
                   check=True, capture_output=True, text=True, cwd=work)
    out = subprocess.run([program], check=True, capture_output=True, text=True, cwd=work).stdout.splitlines()
    for i, line in enumerate(out):
        got = [float(x) for x in line.split()]
        if max(abs(a - b) for a, b in zip(got, want[i])) > 1e-9:
            raise AssertionError(f"C export, row {i}: {got} against {want[i]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=45)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    deadline = time.monotonic() + a.seconds
    cases = 0
    while time.monotonic() < deadline:
        frame, y, names, numeric = random_problem(rng)
        with tempfile.TemporaryDirectory(prefix="candor-export-fuzz-") as work:
            try:
                est = candor.CN2Unordered().fit(frame, y)
                want = est.predict_proba(frame)
                check_python(est, frame, names, want, work)
                check_c(est, frame, names, numeric, want, work)
                leftovers = set(os.listdir(work)) - {"exported.py", "model.h", "driver.c", "driver", "__pycache__"}
                if leftovers:
                    raise AssertionError(f"the generated code wrote {sorted(leftovers)}")
            except Exception as e:  # every failure is a finding, with what made it
                detail = e.stderr if isinstance(e, subprocess.CalledProcessError) else ""
                print(f"export fuzz: finding with --seed {a.seed} after {cases} cases: {type(e).__name__}: {e}\n"
                      f"{detail}\nattributes {names + [numeric]!r}\nvalues "
                      f"{ {n: list(frame[n].cat.categories) for n in names}!r}\nclasses {list(y.cat.categories)!r}",
                      file=sys.stderr)
                sys.exit(1)
        cases += 1
    print(f"export fuzz: {cases} random models, Python and C exports equal to predict_proba (seed {a.seed})")


if __name__ == "__main__":
    main()
