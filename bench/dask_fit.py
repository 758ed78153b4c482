#!/usr/bin/env python3
"""One fit across the workers of a Dask LocalCluster against the same fit in one process (docs/guide-distributed.md).

bench/generated.py's Agrawal data (function 2, 5% of the labels flipped) of --rows rows is written as CSV files of
at most a million rows each (once, into --work) and read with dask.dataframe.read_csv; the nominal attributes are
read as text, the numeric ones as numbers. The default RuleLogistic (or --learner cn2-unordered) is fitted on a LocalCluster of --workers worker
processes (one thread each, --memory-limit each) and, unless --no-local, on the same rows read with pandas in this
process. It reports the fit times, whether the two models are the same file, the requests the fit sent and their
bytes, each worker's and this process's peak memory, and the seconds per request.

    build-python/venv/bin/python bench/dask_fit.py [--rows 1000000] [--workers 2] [--partitions 8]
                                                      [--learner rule-logistic|cn2-unordered]
                                                      [--memory-limit 4GB] [--no-local] [--work DIR]
                                                      [--append docs/dask_fit.jsonl]

bench/dask_fit_plot.py draws the seconds per request of such a file against the rows per worker.
"""
import argparse
import glob
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated  # noqa: E402

NOMINAL = ["elevel", "car", "zipcode", "group"]
LEARNERS = {"rule-logistic": "RuleLogistic", "cn2-unordered": "CN2Unordered"}
CSV_ROWS = 1_000_000


def write_csv(rows, work):
    """The training rows of bench/generated.py's Agrawal data of `rows` rows as CSV files in work/agrawal_csv_N/."""
    out = os.path.join(work, f"agrawal_csv_{rows}")
    if glob.glob(os.path.join(out, "*.csv")):
        return out
    import candor

    train, _ = generated.make("agrawal", rows, work)
    frame = candor.read_arff(train)
    os.makedirs(out + ".tmp", exist_ok=True)
    for i, start in enumerate(range(0, len(frame), CSV_ROWS)):
        frame.iloc[start:start + CSV_ROWS].to_csv(os.path.join(out + ".tmp", f"part{i:03d}.csv"), index=False)
    os.replace(out + ".tmp", out)
    return out


def peak_mb():
    """This process's peak memory (VmHWM: ru_maxrss would carry a spawning parent's peak across exec)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class MemoryTrace:
    """This process's memory, sampled every 50 ms while a fit runs, with the kind of request in flight (the
    "op" of its MessagePack): which step of the fit the coordinator's memory is spent on."""

    def __init__(self):
        import threading

        import candor._distributed as dist

        self.op, self.peaks, self.stop = "setup", {}, threading.Event()
        trace = self

        def traced(method, request_of):
            def run(transport, *args):
                trace.op = op_of(request_of(*args))
                try:
                    return method(transport, *args)
                finally:
                    trace.op = "coordinator"
            return run
        dist._Transport.ask = traced(dist._Transport.ask, lambda requests: requests[0])
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.wait(0.05):
            op, mb = self.op, rss_mb()
            self.peaks[op] = max(self.peaks.get(op, 0), round(mb))

    def close(self):
        self.stop.set()
        self.thread.join()
        return self.peaks


def op_of(request):
    at = request.find(b"\xa2op")
    return request[at + 4:at + 4 + (request[at + 3] & 0x1F)].decode() if at >= 0 else "?"


def start_worker_trace():
    """On a worker: its memory after each task of the fit, by the kind of request (the parts' making is "part"),
    read back by worker_trace_peaks."""
    import distributed

    import candor._distributed as dist

    worker = distributed.get_worker()
    worker.memory_peaks = peaks = {}

    def traced(function, op):
        def run(*args):
            try:
                return function(*args)
            finally:
                kind = op(args)
                peaks[kind] = max(peaks.get(kind, 0), round(rss_mb()))
        return run
    dist._make_part = traced(dist._make_part, lambda args: "part")
    dist._answer = traced(dist._answer, lambda args: op_of(args[3][0]))
    dist._update = traced(dist._update, lambda args: op_of(args[3][0]))


class RequestProfile:
    """This process's wall time in each kind of request (the round trip and the slowest worker's work), and the
    time the coordinator spends between requests."""

    def __init__(self):
        import candor._distributed as dist

        self.seconds, self.counts, self.last = {}, {}, time.perf_counter()
        profile = self
        ask = dist._Transport.ask

        def timed(transport, requests):
            start = time.perf_counter()
            profile.add("coordinator", start - profile.last)
            try:
                return ask(transport, requests)
            finally:
                profile.last = time.perf_counter()
                profile.add(op_of(requests[0]), profile.last - start)
        dist._Transport.ask = timed

    def add(self, kind, seconds):
        self.seconds[kind] = self.seconds.get(kind, 0.0) + seconds
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def table(self):
        return {k: [self.counts[k], round(v, 3)] for k, v in sorted(self.seconds.items(), key=lambda kv: -kv[1])}


def start_worker_profile():
    """On a worker: the seconds its parts spend answering each kind of request and carrying out the updates
    sent with them, read back by worker_profile."""
    import distributed

    import candor._distributed as dist

    worker = distributed.get_worker()
    worker.request_seconds = seconds = {}

    def timed(function):
        def run(*args):
            start = time.perf_counter()
            try:
                return function(*args)
            finally:
                kind = op_of(args[3][0])
                seconds[kind] = round(seconds.get(kind, 0.0) + time.perf_counter() - start, 4)
        return run
    dist._answer = timed(dist._answer)
    dist._update = timed(dist._update)


def worker_profile():
    import distributed

    return getattr(distributed.get_worker(), "request_seconds", {})


def worker_trace_peaks():
    import distributed

    return getattr(distributed.get_worker(), "memory_peaks", {})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--learner", choices=sorted(LEARNERS), default="rule-logistic")
    ap.add_argument("--partitions", type=int, default=0, help="partitions of the Dask DataFrame (0: read_csv's)")
    ap.add_argument("--memory-limit", default="4GB")
    ap.add_argument("--no-local", action="store_true")
    ap.add_argument("--categories", action="store_true",
                    help="read the nominal columns as pandas categories (a byte a value) rather than text")
    ap.add_argument("--work", default=os.path.join(generated.ROOT, "build", "bench-distributed"))
    ap.add_argument("--memory-trace", action="store_true",
                    help="report this process's peak memory during each kind of request")
    ap.add_argument("--profile", action="store_true",
                    help="report the seconds spent in each kind of request, by this process and by each worker")
    ap.add_argument("--append", help="a JSON-lines file the result is appended to (docs/dask_fit.jsonl)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    import dask.dataframe as dd
    import distributed
    import pandas as pd

    import candor

    folder = write_csv(a.rows, a.work)
    files = sorted(glob.glob(os.path.join(folder, "*.csv")))
    dtype = {c: ("category" if a.categories else str) for c in NOMINAL}
    # How requests travel: "actors" since requests go to an actor per worker (the lines before went as tasks).
    result = {"rows": a.rows, "workers": a.workers, "memory_limit": a.memory_limit, "transport": "actors"}
    if a.learner != "rule-logistic":  # the lines of docs/dask_fit.jsonl before the option are the default's
        result["learner"] = a.learner
    make = getattr(candor, LEARNERS[a.learner])

    # A worker's parts are its rows, not a cache it could spill: past the limit it should stop, not pause.
    import dask

    dask.config.set({"distributed.worker.memory.target": False, "distributed.worker.memory.spill": False,
                     "distributed.worker.memory.pause": False})
    cluster = distributed.LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True,
                                       memory_limit=a.memory_limit, dashboard_address=None)
    client = distributed.Client(cluster)
    frame = dd.read_csv(files, dtype=dtype, blocksize="16MB")
    if a.partitions:
        frame = frame.repartition(npartitions=a.partitions)
    X, y = frame.drop(columns="group"), frame["group"]
    trace = MemoryTrace() if a.memory_trace else None
    pids = client.run(os.getpid)
    if trace:
        client.run(start_worker_trace)
    profile = RequestProfile() if a.profile else None
    if profile:
        client.run(start_worker_profile)
    start = time.perf_counter()
    spread = make().fit(X, y)
    result["distributed_seconds"] = round(time.perf_counter() - start, 2)
    result["workers_restarted"] = sum(1 for pid in client.run(os.getpid).values() if pid not in pids.values())
    if trace:
        result["coordinator_peak_mb_by_request"] = trace.close()
        result["worker_peak_mb_by_request"] = list(client.run(worker_trace_peaks).values())
    if profile:
        result["seconds_by_request"] = profile.table()
        result["worker_seconds_by_request"] = list(client.run(worker_profile).values())
    result.update(spread.distributed_fit_)
    result["seconds_per_request"] = round(result["distributed_seconds"] / spread.distributed_fit_["requests"], 4)
    result["worker_peak_mb"] = sorted(round(v) for v in client.run(peak_mb).values())
    result["coordinator_peak_mb_after_distributed_fit"] = round(peak_mb())
    result["rules"] = len(spread.rules_)
    client.close()
    cluster.close()

    if not a.no_local:
        local_frame = pd.concat([pd.read_csv(f, dtype=dtype) for f in files], ignore_index=True)
        lX, ly = local_frame.drop(columns="group"), local_frame["group"]
        start = time.perf_counter()
        local = make().fit(lX, ly)
        result["local_seconds"] = round(time.perf_counter() - start, 2)
        result["same_model_file"] = local.model_.to_json() == spread.model_.to_json()
        result["time_ratio"] = round(result["distributed_seconds"] / result["local_seconds"], 2)
    print(json.dumps(result, indent=1))
    if a.append:
        with open(a.append, "a") as f:
            f.write(json.dumps(result, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
