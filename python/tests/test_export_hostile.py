"""Exports of a model whose names and values are hostile: newlines, quotes of every kind, backslashes, comment
markers of each language, psql's meta-command escape, control characters, a right-to-left override, a source
encoding declaration, code, very long names. Every export is run in its real target (the sqlite3 shell,
psql on a throwaway PostgreSQL cluster, CPython, the C compiler) and must treat all of it as data: nothing
runs, no table is dropped, no file appears, and every probability is `candor predict`'s. `candor export
--check` passes on each; text a target cannot hold (NUL in SQL and C) and names SQL takes for one column are
refused with exit 2."""
import csv
import io
import json
import os
import subprocess

import pandas as pd
import pytest

import candor
from test_export import CLI, Postgres, TOLERANCE, run, run_c, run_python

PWNED = "PWNED"
# Each is a name or a value; together they cover the ways out of a literal or a comment in SQL, Python and C.
HOSTILE = [
    "x\nDROP TABLE data; --",
    "o'); DROP TABLE data; --",
    'q"uote\\" ; system("touch PWNED"); "',
    "back\\slash\\",
    "*/ int pwned = system(\"touch PWNED\"); /*",
    "-- dash",
    "\n\\! touch PWNED\n",
    "\u202eevil\u202c",
    "tab\there",
    "cr\rhere",
    "\n__import__('os').system('touch PWNED')\n#",
    "coding: latin-1 -*-",
    "L" * 300,
    "\u00fc \u00f1 \U0001F600",
    "??/ trigraph",
    "\x01ctl\x7f",
    "${x} $(touch PWNED) `touch PWNED`",
    ":'x' :\"y\" \\gexec",
]


def arff_text(s):
    out = "'"
    for ch in s:
        out += {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t"}.get(ch, ch)
    return out + "'"


def hostile_frame():
    """Three nominal attributes named and valued from HOSTILE, one numeric, two hostile classes; the class
    follows the first attribute (with noise), so that rules test hostile values."""
    n = 120
    names = [HOSTILE[0], HOSTILE[2], HOSTILE[10]]
    values = [HOSTILE[i:i + 3] for i in (1, 4, 7)]
    extra = HOSTILE[12]  # the long one, numeric
    classes = [HOSTILE[6], HOSTILE[4] + " class"]
    rows, labels = [], []
    for r in range(n):
        row = {names[j]: values[j][(r * (j + 1) + j) % 3] for j in range(3)}
        row[extra] = float(r % 17)
        rows.append(row)
        good = (row[names[0]] == values[0][0]) != (r % 9 == 0)
        labels.append(classes[0] if good or row[extra] > 12 else classes[1])
    frame = pd.DataFrame(rows)
    for a in names:
        frame[a] = pd.Categorical(frame[a], categories=values[names.index(a)])
    return frame, pd.Series(pd.Categorical(labels, categories=classes), name=HOSTILE[15] + "class"), names, extra


def write_arff(path, frame, y):
    lines = ["@relation hostile"]
    for a in frame.columns:
        if str(frame[a].dtype) == "category":
            lines.append(f"@attribute {arff_text(a)} {{{','.join(arff_text(v) for v in frame[a].cat.categories)}}}")
        else:
            lines.append(f"@attribute {arff_text(a)} numeric")
    lines.append(f"@attribute {arff_text(y.name)} {{{','.join(arff_text(v) for v in y.cat.categories)}}}")
    lines.append("@data")
    for i in range(len(frame)):
        cells = [arff_text(v) if str(frame[a].dtype) == "category" else repr(v) for a, v in frame.iloc[i].items()]
        lines.append(",".join(cells + [arff_text(y.iloc[i])]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def quoted(name):
    return '"' + name.replace('"', '""') + '"'


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    X, y, names, extra = hostile_frame()
    data = tmp / "hostile.arff"
    write_arff(data, X, y)
    model = tmp / "m.json"
    run([CLI, "fit", str(data), "-o", str(model), "--learner", "cn2-unordered"])
    assert candor.read_arff(data).columns.tolist() == list(X.columns) + [y.name]
    k = len(y.cat.categories)
    out = list(csv.reader(io.StringIO(run([CLI, "predict", str(model), str(data), "--proba", "--digits", "17"]))))
    want = [(r[1], [float(x) for x in r[-k:]]) for r in out[1:]]
    rows = [{a: (v if str(X[a].dtype) == "category" else float(v)) for a, v in X.iloc[i].items()} for i in range(len(X))]
    rules = json.loads(model.read_text(encoding="utf-8"))["rules"]
    assert any(c["attribute"] in names for r in rules for c in r["conditions"]), "no rule tests a hostile name"
    return {"tmp": tmp, "data": data, "model": model, "X": X, "y": y, "rows": rows, "want": want}


def agree(got, want, what):
    assert len(got) == len(want), what
    for i, ((gp, gpr), (wp, wpr)) in enumerate(zip(got, want)):
        assert all(abs(a - b) <= TOLERANCE for a, b in zip(gpr, wpr)), f"{what}, row {i + 1}: {gpr} against {wpr}"
        assert gp == wp or abs(max(wpr) - min(wpr)) <= TOLERANCE, f"{what}, row {i + 1}: {gp} against {wp}"


def no_file_appeared(where):
    assert not os.path.exists(os.path.join(where, PWNED)), f"code from the data ran in {where}"


def test_sql_runs_as_data_in_the_sqlite3_shell(hostile):
    tmp, X, rows = hostile["tmp"], hostile["X"], hostile["rows"]
    sql = run([CLI, "export", str(hostile["model"]), "--format", "sql", "--key", "rid"])
    cols = ", ".join(f"{quoted(a)} {'TEXT' if str(X[a].dtype) == 'category' else 'DOUBLE PRECISION'}"
                     for a in X.columns)
    def literal(v):
        return "NULL" if v is None else ("'" + v.replace("'", "''") + "'" if isinstance(v, str) else repr(v))
    inserts = "".join(f"INSERT INTO data VALUES ({i}, {', '.join(literal(r[a]) for a in X.columns)});\n"
                      for i, r in enumerate(rows))
    script = (f"CREATE TABLE data (rid INTEGER, {cols});\n{inserts}.mode csv\n.headers off\n{sql}\n"
              "SELECT 'rows left', COUNT(*) FROM data;\n")
    # The shell runs every statement and dot-command it is given, as a user would run the export.
    out = subprocess.run(["sqlite3", "-bail", str(tmp / "shell.db")], input=script, capture_output=True, text=True,
                         cwd=tmp)
    assert out.returncode == 0, out.stderr
    records = list(csv.reader(io.StringIO(out.stdout)))
    assert records[-1] == ["rows left", str(len(rows))]
    k = len(hostile["y"].cat.categories)
    got = {int(r[0]): (r[1], [float(x) for x in r[-k:]]) for r in records[:-1]}
    assert len(got) == len(rows)
    agree([(hostile["want"][i][0], got[i][1]) for i in range(len(rows))], hostile["want"], "sqlite3 shell")
    no_file_appeared(tmp)


def test_sql_runs_as_data_in_psql(hostile):
    X, rows = hostile["X"], hostile["rows"]
    pg = Postgres()
    try:
        cols = ", ".join(f"{quoted(a)} {'TEXT' if str(X[a].dtype) == 'category' else 'DOUBLE PRECISION'}"
                         for a in X.columns)
        def literal(v):
            return "'" + v.replace("'", "''") + "'" if isinstance(v, str) else repr(v)
        inserts = "".join(f"INSERT INTO data VALUES ({i}, {', '.join(literal(r[a]) for a in X.columns)});\n"
                          for i, r in enumerate(rows))
        pg.psql(stdin=f"CREATE TABLE data (rid INTEGER, {cols});\n{inserts}")
        sql = run([CLI, "export", str(hostile["model"]), "--format", "sql", "--key", "rid"])
        k = len(hostile["y"].cat.categories)
        out = run(pg.as_user + [f"{pg.bin}/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", pg.dir, "-U", "candor",
                                "-d", "postgres", "--csv", "-f", "-"], input=sql)
        got = {int(r[0]): [float(x) for x in r[-k:]] for r in list(csv.reader(io.StringIO(out)))[1:]}
        assert len(got) == len(rows)
        agree([(hostile["want"][i][0], got[i]) for i in range(len(rows))], hostile["want"], "psql")
        assert pg.psql("SELECT COUNT(*) FROM data").strip() == str(len(rows))
        no_file_appeared(pg.dir)
        no_file_appeared(os.getcwd())
    finally:
        pg.stop()


def test_python_module_runs_as_data(hostile):
    tmp = hostile["tmp"]
    path = tmp / "hostile_model.py"
    run([CLI, "export", str(hostile["model"]), "--format", "python", "-o", str(path)])
    text = path.read_text(encoding="utf-8")
    assert text.isascii() and text.startswith("# -*- coding: utf-8 -*-\n")
    agree(run_python(path, hostile["rows"]), hostile["want"], "Python")
    # Importing it in a fresh interpreter prints nothing and makes no file.
    out = subprocess.run(["python3", "-I", "-c", f"import importlib.util as u; s = u.spec_from_file_location('m', {str(path)!r}); "
                          "u.module_from_spec(s); s.loader.exec_module(u.module_from_spec(s))"],
                         capture_output=True, text=True, cwd=tmp)
    assert out.returncode == 0 and out.stdout == "", out.stderr
    no_file_appeared(tmp)


def test_c_header_compiles_and_runs_as_data(hostile):
    tmp = hostile["tmp"]
    header = tmp / "hostile.h"
    run([CLI, "export", str(hostile["model"]), "--format", "c", "-o", str(header)])
    text = header.read_text(encoding="utf-8")
    assert text.isascii()
    classes = list(hostile["y"].cat.categories)
    nominal = {a: str(hostile["X"][a].dtype) == "category" for a in hostile["X"].columns}
    agree(run_c(header, list(hostile["X"].columns), nominal, hostile["rows"], classes, tmp), hostile["want"], "C")
    no_file_appeared(tmp)


def test_check_passes_on_every_format(hostile):
    for fmt in ("sql", "python", "c"):
        done = subprocess.run([CLI, "export", str(hostile["model"]), "--format", fmt, "--check", str(hostile["data"])],
                              capture_output=True, text=True, cwd=hostile["tmp"])
        assert done.returncode == 0, f"{fmt}: {done.stderr}"
        assert f"on {len(hostile['rows'])} rows" in done.stderr and "0 rows of another class" in done.stderr
    no_file_appeared(hostile["tmp"])


def test_text_a_target_cannot_hold_is_refused_with_exit_2(hostile, tmp_path):
    model = json.loads(hostile["model"].read_text(encoding="utf-8"))
    attribute = next(a for a in model["attributes"] if a.get("values"))
    old = attribute["values"][0]
    attribute["values"][0] = "nul\u0000byte"
    for rule in model["rules"]:
        for c in rule["conditions"]:
            if c["attribute"] == attribute["name"] and c.get("value") == old:
                c["value"] = "nul\u0000byte"
    edited = tmp_path / "nul.json"
    edited.write_text(json.dumps(model), encoding="utf-8")
    for fmt in ("sql", "c"):
        done = subprocess.run([CLI, "export", str(edited), "--format", fmt], capture_output=True, text=True)
        assert done.returncode == 2 and "NUL" in done.stderr, (fmt, done.stderr)
    python = subprocess.run([CLI, "export", str(edited), "--format", "python"], capture_output=True, text=True)
    assert python.returncode == 0 and "nul\\x00byte" in python.stdout


def test_names_sql_takes_for_one_column_are_refused(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0] * 5, "A": [0.0, 1.0, 0.0, 1.0] * 5})
    y = pd.Series(["p", "n", "p", "n"] * 5)
    est = candor.CN2Unordered().fit(frame, y)
    with pytest.raises(ValueError, match="one column"):
        est.export("sql")
    assert "struct candor_row" in est.export("c")
    # A key may be an attribute (its value passed through), but two keys may not name one result column.
    ok = candor.CN2Unordered().fit(frame[["a"]], y)
    assert 'SELECT "a", CASE' in ok.export("sql", key="a")
    with pytest.raises(ValueError, match="already names"):
        ok.export("sql", key=["id", "ID"])
    model = tmp_path / "m.json"
    model.write_text(est.to_json(), encoding="utf-8")
    done = subprocess.run([CLI, "export", str(model), "--format", "sql"], capture_output=True, text=True)
    assert done.returncode == 2 and "'A'" in done.stderr and "'a'" in done.stderr


def test_c_fields_avoid_keywords_and_macros(tmp_path):
    names = ["int", "NULL", "NAN", "linux", "_Bool", "x y", "x_y", "9lives"]
    frame = pd.DataFrame({n: [float(i % (j + 2)) for i in range(24)] for j, n in enumerate(names)})
    y = pd.Series(["p" if i % 3 else "n" for i in range(24)])
    header = tmp_path / "fields.h"
    header.write_text(candor.CN2Unordered().fit(frame, y).export("c"), encoding="utf-8")
    rows = [{n: float(frame[n].iloc[i]) for n in names} for i in range(24)]
    got = run_c(header, names, {n: False for n in names}, rows, ["n", "p"], tmp_path)
    assert len(got) == 24
    text = header.read_text(encoding="utf-8")
    for field in ("a_int", "a_NULL", "a_NAN", "a_linux", "a__Bool", "x_y", "x_y_2", "a_9lives"):
        assert f" {field};" in text, field
