"""`candor export` verified where its code runs: for every learner on corpus files, the SQL in SQLite (Python's
sqlite3) and in a throwaway PostgreSQL cluster (initdb and pg_ctl in a temporary folder, on a Unix socket),
the Python module imported and called, and the C header compiled with cc; every probability must agree with
`candor predict --proba --digits 17` to 1e-9 on every row, missing and never-seen nominal values included."""
import csv
import glob
import hashlib
import importlib.util
import io
import math
import os
import pwd
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest

import candor

CLI = os.environ.get("CANDOR_CLI", str(Path(__file__).resolve().parents[2] / "build" / "candor"))
CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
SETS = ["labor", "iris", "colic", "lymph"]
# Every model kind: rule sets under each combination, decision lists, rule-logistic, trees, ensembles, PrIL.
CONFIGS = {
    "rule-logistic": [],
    "rule-logistic-attributes": ["--features", "rules+attributes", "--lambda", "0.1"],
    "cn2-unordered": ["--learner", "cn2-unordered"],
    "cn2-unordered-counts": ["--learner", "cn2-unordered", "--combine", "counts"],
    "cn2-unordered-m-counts": ["--learner", "cn2-unordered", "--combine", "m-counts"],
    "cn2-unordered-probability-sum": ["--learner", "cn2-unordered", "--combine", "probability-sum"],
    "cn2-unordered-best-rule": ["--learner", "cn2-unordered", "--combine", "best-rule"],
    "cn2-ordered": ["--learner", "cn2-ordered"],
    "laplace-covering": ["--learner", "laplace-covering"],
    "decision-list": ["--learner", "decision-list"],
    "rule": ["--learner", "rule"],
    "stump": ["--learner", "stump"],
    "tree": ["--learner", "tree"],
    "boost-kbs-tree": ["--learner", "boost", "--base", "tree", "--iterations", "5"],
    "boost-adaboost-m1": ["--learner", "boost", "--boosting", "adaboost-m1", "--base", "tree", "--iterations", "5"],
    "boost-logitboost": ["--learner", "boost", "--boosting", "logitboost"],
    "pril": ["--learner", "pril", "--reliability", "0.8"],
}
TOLERANCE = 1e-9


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def perturbed_rows(name):
    """The set's rows without the class, with every seventh value of each attribute missing and every
    eleventh nominal value one the model never saw: as dicts (None for missing)."""
    frame = candor.read_data(CORPUS / f"{name}.arff")
    attributes = list(frame.columns[:-1])
    rows = []
    for r in range(len(frame)):
        row = {}
        for j, a in enumerate(attributes):
            v = frame[a].iloc[r]
            nominal = str(frame[a].dtype) == "category"
            if (r + 3 * j) % 7 == 0 or (not nominal and v != v) or (nominal and v != v):
                row[a] = None
            elif nominal and (r + 3 * j) % 11 == 0:
                row[a] = "never seen"
            else:
                row[a] = str(v) if nominal else float(v)
        rows.append(row)
    nominal = {a: str(frame[a].dtype) == "category" for a in attributes}
    return attributes, nominal, rows


def write_csv(path, attributes, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(attributes)
        for row in rows:
            w.writerow(["?" if row[a] is None else (repr(row[a]) if isinstance(row[a], float) else row[a])
                        for a in attributes])


def expected(model, data_csv):
    """candor predict --proba: per row the predicted class and the probabilities."""
    out = list(csv.reader(io.StringIO(run([CLI, "predict", str(model), str(data_csv), "--proba", "--digits", "17"]))))
    return [(r[1], [float(x) for x in r[2:]]) for r in out[1:]]


def agree(got, want, what, classes):
    assert len(got) == len(want), what
    for i, ((gp, gpr), (wp, wpr)) in enumerate(zip(got, want)):
        assert len(gpr) == len(wpr), f"{what}, row {i + 1}"
        for c, (a, b) in enumerate(zip(gpr, wpr)):
            assert abs(a - b) <= TOLERANCE, f"{what}, row {i + 1}, class {c}: {a} against {b}"
        if gp != wp:  # another class only where the model's probabilities tie to within rounding
            assert "undecided" not in (gp, wp), f"{what}, row {i + 1}: {gp} against {wp}"
            assert max(wpr) - wpr[classes.index(gp)] <= TOLERANCE, f"{what}, row {i + 1}: {gp} against {wp}"


def sql_table(attributes, nominal):
    cols = ", ".join(f'"{a}" {"TEXT" if nominal[a] else "DOUBLE PRECISION"}' for a in attributes)
    return f"CREATE TABLE data (candor_row INTEGER, {cols})"


def run_sqlite(sql, attributes, nominal, rows, k):
    db = sqlite3.connect(":memory:")
    db.execute(sql_table(attributes, nominal))
    marks = ", ".join("?" * (len(attributes) + 1))
    db.executemany(f"INSERT INTO data VALUES ({marks})", [[i] + [row[a] for a in attributes] for i, row in enumerate(rows)])
    out = sorted(db.execute(sql).fetchall())
    return [(r[1], list(r[2:2 + k])) for r in out]


class Postgres:
    """A throwaway cluster: initdb in a temporary folder, pg_ctl start on a Unix socket there, stopped at the
    end. As root (CI) the server runs as the postgres user, since PostgreSQL refuses to run as root."""

    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        assert bins, "PostgreSQL is not installed (scripts/install-deps.sh installs it)"
        self.bin = bins[-1]
        self.dir = tempfile.mkdtemp(prefix="candor-pg-")
        self.as_user = []
        if os.geteuid() == 0:
            pg = pwd.getpwnam("postgres")
            os.chown(self.dir, pg.pw_uid, pg.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        data = os.path.join(self.dir, "data")
        run(self.as_user + [f"{self.bin}/initdb", "-D", data, "-A", "trust", "-U", "candor", "--no-sync"])
        run(self.as_user + [f"{self.bin}/pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w",
                            "-o", f"-k {self.dir} -c listen_addresses= -c fsync=off", "start"])
        self.data = data

    def psql(self, script=None, stdin=None):
        """Runs `script` (-c), or the script on standard input when None (an export exceeds an argument's size)."""
        return run(self.as_user + [f"{self.bin}/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", self.dir, "-U",
                                   "candor", "-d", "postgres", "-A", "-t", "-F", "\t"] +
                   (["-c", script] if script is not None else ["-f", "-"]), input=stdin)

    def stop(self):
        run(self.as_user + [f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "stop"])
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def postgres():
    pg = Postgres()
    yield pg
    pg.stop()


def run_postgres(pg, sql, attributes, nominal, rows, k):
    pg.psql("DROP TABLE IF EXISTS data; " + sql_table(attributes, nominal))
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_NONE, escapechar="\\")
    for i, row in enumerate(rows):
        cells = [str(i)]
        for a in attributes:
            v = row[a]
            cells.append("\\N" if v is None else ('"' + v.replace('"', '""') + '"' if nominal[a] else repr(v)))
        buf.write(",".join(cells) + "\n")
    pg.psql("\\copy data FROM STDIN WITH (FORMAT csv, NULL '\\N')", stdin=buf.getvalue())
    out = []
    for line in pg.psql(stdin=sql).splitlines():
        f = line.split("\t")
        out.append((int(f[0]), f[1], [float(x) for x in f[2:2 + k]]))
    return [(p, probs) for _, p, probs in sorted(out)]


def run_python(path, rows):
    spec = importlib.util.spec_from_file_location(f"exported_{abs(hash(str(path)))}", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    out = []
    for row in rows:
        p = m.predict_proba(row)
        assert list(p) == list(m.CLASSES)
        out.append((m.predict(row), [p[c] for c in m.CLASSES]))
    return out


def c_literal(s):
    out = '"'
    for ch in s.encode("utf-8"):
        out += f"\\{ch:03o}" if ch < 0x20 or ch >= 0x7F or chr(ch) in '"\\?' else chr(ch)
    return out + '"'


def run_c(header, attributes, nominal, rows, classes, workdir):
    text = Path(header).read_text(encoding="utf-8")
    struct = text[text.index("struct candor_row {"):]
    fields = re.findall(r"^  (?:double|const char\*) (\w+);", struct[:struct.index("};")], re.MULTILINE)
    assert len(fields) == len(attributes)
    inits = []
    for row in rows:
        cells = []
        for a in attributes:
            v = row[a]
            cells.append(("NULL" if v is None else c_literal(v)) if nominal[a] else ("NAN" if v is None else repr(v)))
        inits.append("{" + ", ".join(cells) + "}")
    driver = Path(workdir) / "driver.c"
    driver.write_text(
        '#include <stdio.h>\n#include "' + str(header) + '"\n'
        "static const struct candor_row rows[] = {\n" + ",\n".join(inits) + "};\n"
        "int main(void) {\n  double p[CANDOR_CLASSES];\n"
        "  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {\n"
        "    int c = candor_predict_proba(&rows[i], p);\n    printf(\"%d\", c);\n"
        "    for (int k = 0; k < CANDOR_CLASSES; ++k) printf(\" %.17g\", p[k]);\n    printf(\"\\n\");\n  }\n}\n",
        encoding="utf-8")
    program = Path(workdir) / "driver"
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-o", str(program), str(driver), "-lm"])
    out = []
    for line in run([str(program)]).splitlines():
        f = line.split()
        c = int(f[0])
        out.append(("undecided" if c < 0 else classes[c], [float(x) for x in f[1:]]))
    return out


@pytest.mark.parametrize("dataset", SETS)
def test_every_learner_exports_exactly(dataset, postgres, tmp_path):
    attributes, nominal, rows = perturbed_rows(dataset)
    data_csv = tmp_path / "test.csv"
    write_csv(data_csv, attributes, rows)
    for name, options in CONFIGS.items():
        model = tmp_path / f"{name}.json"
        run([CLI, "fit", str(CORPUS / f"{dataset}.arff"), "-o", str(model)] + options)
        want = expected(model, data_csv)
        classes = list(candor.read_data(CORPUS / f"{dataset}.arff").iloc[:, -1].cat.categories)
        k = len(classes)
        what = f"{name} on {dataset}"
        sql = run([CLI, "export", str(model), "--format", "sql", "--key", "candor_row"])
        agree(run_sqlite(sql, attributes, nominal, rows, k), want, what + " in SQLite", classes)
        agree(run_postgres(postgres, sql, attributes, nominal, rows, k), want, what + " in PostgreSQL", classes)
        py = tmp_path / f"{name}.py"
        run([CLI, "export", str(model), "--format", "python", "-o", str(py)])
        agree(run_python(py, rows), want, what + " in Python", classes)
        header = tmp_path / f"{name}.h"
        run([CLI, "export", str(model), "--format", "c", "-o", str(header)])
        agree(run_c(header, attributes, nominal, rows, classes, tmp_path), want, what + " in C", classes)


def test_export_names_its_source_and_checksum(tmp_path):
    model = tmp_path / "m.json"
    run([CLI, "fit", str(CORPUS / "iris.arff"), "-o", str(model), "--learner", "cn2-ordered"])
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    for fmt, comment in (("sql", "--"), ("python", "#"), ("c", "/*")):
        text = run([CLI, "export", str(model), "--format", fmt])
        assert f"{comment} Generated by candor {candor.__version__} (candor export) from the model file {model}" in text
        assert f"Model SHA-256: {digest}" in text


def test_check_reports_agreement_and_bad_input_exits_2(tmp_path):
    model = tmp_path / "m.json"
    run([CLI, "fit", str(CORPUS / "labor.arff"), "-o", str(model), "--learner", "tree"])
    for fmt in ("sql", "python", "c"):
        done = subprocess.run([CLI, "export", str(model), "--format", fmt, "--check", str(CORPUS / "labor.arff")],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "on 57 rows" in done.stderr and "0 rows of another class" in done.stderr
    bad = subprocess.run([CLI, "export", str(model), "--format", "pmml"], capture_output=True, text=True)
    assert bad.returncode == 2
    missing = subprocess.run([CLI, "export", str(tmp_path / "none.json"), "--format", "sql"], capture_output=True,
                             text=True)
    assert missing.returncode == 2 and "none.json" in missing.stderr


def test_python_estimators_export_the_same_code(tmp_path):
    """est.export() gives the module `candor export` gives, and its probabilities are the estimator's."""
    frame = candor.read_arff(CORPUS / "colic.arff")
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    est = candor.CN2Unordered().fit(X, y)
    path = tmp_path / "colic_model.py"
    path.write_text(est.export("python"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("colic_model", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    want = est.predict_proba(X)
    for i in range(len(X)):
        row = {a: (None if v != v else (str(v) if str(X[a].dtype) == "category" else float(v)))
               for a, v in X.iloc[i].items()}
        got = m.predict_proba(row)
        for c, cls in enumerate(est.classes_):
            assert abs(got[str(cls)] - want[i, c]) <= TOLERANCE
    assert "Model SHA-256: " + hashlib.sha256(est.to_json().encode()).hexdigest() in est.export("sql", key="id")
    assert 'SELECT "id", CASE' in est.export("sql", key="id")
    assert "struct colic_row" in est.export("c", prefix="colic")
    with pytest.raises(ValueError):
        est.export("pmml")
