"""Files the bench scripts read and write. Written whole, through a temporary file renamed over the target, so
that an interrupted run never leaves half a table where a finished one stood (DESIGN.md, section 6)."""
import contextlib
import csv
import json
import os
import stat
import subprocess
import sys
import tempfile


def _new_file_mode():
    # What open() gives a new file: 0666 less the umask, which can only be read by setting it.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def replaced(path, newline=None):
    """A text file to write `path` through: a temporary file in the same folder, flushed to the disk and renamed
    over `path` once the block ends, with the mode `path` had (or a new file's), so that an interrupted run
    never leaves half a file where a whole one stood. A block that raises leaves `path` as it was and removes
    the temporary file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline=newline) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = _new_file_mode()
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)
        raise


def write_csv(path, rows, fieldnames=None):
    """Writes `rows` (dicts) to the CSV file `path`, with `fieldnames` or the first row's keys as its header."""
    with replaced(path, newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fieldnames or rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def write_text(path, text):
    """Writes `text` to `path` whole (replaced)."""
    with replaced(path) as f:
        f.write(text)


def config_datasets(path, script):
    """The data set names under "datasets" of a grid config (examples/defaults/*.json); a config without
    them ends `script` with exit 2 and the reason."""
    try:
        with open(path) as f:
            sets = json.load(f)["datasets"]
        if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
            raise TypeError("not a list of names")
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{script}: {path}: no list of data sets under 'datasets' ({e})", file=sys.stderr)
        sys.exit(2)
    return sets


def run_checked(cmd, script):
    """The standard output of `cmd` (an argument vector, never a shell); a program that cannot start or exits
    with an error ends `script` with exit 2, the command and the end of its standard error."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        print(f"{script}: {cmd[0]}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    if proc.returncode != 0:
        print(f"{script}: " + " ".join(cmd) + ": " + proc.stderr.strip()[-2000:], file=sys.stderr)
        sys.exit(2)
    return proc.stdout
