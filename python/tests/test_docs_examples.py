"""The documentation's examples run: every `build/candor` command in a shell block, and every Python block,
of the README and the user guides (docs/guide-cli.md, docs/guide-python.md, docs/guide-experiments.md,
docs/report.md, docs/export.md, docs/guide-distributed.md). They run in a temporary folder that sees the repository's data/ and
examples/, so that what they write stays there. The one change made to an example: the Dask scheduler
address of the reader's own cluster (`Client("tcp://scheduler:8786")`) becomes a two-process local cluster.
Left out: usage synopses (lines that start with `candor`, not `build/candor`)."""
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("CANDOR_CLI", str(ROOT / "build" / "candor"))
PAGES = ["README.md", "docs/guide-cli.md", "docs/guide-python.md", "docs/guide-experiments.md", "docs/report.md",
         "docs/export.md", "docs/guide-distributed.md"]
# A cluster address only the reader has, and what the test runs in its place.
REMOTE_CLIENT = 'Client("tcp://scheduler:8786")'
LOCAL_CLIENT = "Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None))"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def blocks(page):
    return BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))


def shell_commands(page):
    """Each `build/candor ...` line (a trailing comment, a `| head` and `&&` chains taken apart)."""
    out = []
    for lang, body in blocks(page):
        if lang:
            continue
        for line in body.replace("\\\n", " ").split("\n"):
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if not line.startswith("build/candor "):
                continue
            line = line.split(" | ")[0]
            out += [part.strip() for part in line.split("&&")]
    return out


def python_blocks(page):
    return [body for lang, body in blocks(page) if lang == "python"]


@pytest.fixture
def workdir(tmp_path):
    for name in ("data", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


CASES = [(page, i, cmd) for page in PAGES for i, cmd in enumerate(shell_commands(page))]


def test_the_pages_have_examples():
    assert len(CASES) >= 20
    assert sum(len(python_blocks(p)) for p in PAGES) >= 3


@pytest.mark.parametrize("page", PAGES)
def test_shell_examples_run(page, workdir):
    commands = [cmd for p, _, cmd in CASES if p == page]
    for cmd in commands:
        args = shlex.split(cmd)
        args[0] = CLI
        r = subprocess.run(args, cwd=workdir, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{page}: `{cmd}` exited {r.returncode}: {r.stderr[-2000:]}"


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)])
def test_python_examples_run(page, workdir, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(workdir)
    clusters = []
    for body in python_blocks(page):
        scope = {"__name__": "__docs__"}
        if REMOTE_CLIENT in body:
            distributed = pytest.importorskip("distributed", reason="python3-distributed is not installed")
            body = body.replace(REMOTE_CLIENT, LOCAL_CLIENT)
            scope["LocalCluster"] = lambda **kw: clusters.append(distributed.LocalCluster(**kw)) or clusters[-1]
        try:
            exec(compile(body, f"{page} (python block)", "exec"), scope)
        finally:
            if hasattr(scope.get("client"), "close"):
                scope["client"].close()
            for cluster in clusters:
                cluster.close()


def test_the_spelled_out_defaults_are_the_default(workdir):
    """docs/learners.md spells out what `candor fit DATA` runs with no options; on credit-a that command learns
    the very model the bare fit does (only the recorded --lambda differs: 0 there means "the default")."""
    [cmd] = [c for c in shell_commands("docs/learners.md") if "honest.json" in c]
    args = shlex.split(cmd.replace("DATA", "data/corpus/credit-a.arff"))
    args[0] = CLI
    bare = [CLI, "fit", "data/corpus/credit-a.arff", "-o", "bare.json"]
    for run in (args, bare):
        r = subprocess.run(run, cwd=workdir, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    spelled = json.loads((workdir / "honest.json").read_text())
    default = json.loads((workdir / "bare.json").read_text())
    assert len(default["rule_model"]["rules"]) > 3
    assert {k: v for k, v in spelled.items() if k != "learner"} == {k: v for k, v in default.items() if k != "learner"}
    differ = {k for k in spelled["learner"] if spelled["learner"][k] != default["learner"].get(k)}
    assert differ <= {"lambda"}
