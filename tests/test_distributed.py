"""laocheck on a Dask cluster (laocheck._execution): the same records as a local run, whatever
happens to the workers; an interrupted run resumes to the same file; a lost scheduler is a clear
error.

Every cluster here is a ``distributed.LocalCluster`` listening on 127.0.0.1 only.
"""
import contextlib
import ctypes
import json
import os
import signal
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")   # in the `test` extra: installed in CI

import dask  # noqa: E402  (a dependency of distributed)

from laocheck import _execution  # noqa: E402
from laocheck._provenance import provenance  # noqa: E402
from laocheck.checks import Result, Status, _registry, register  # noqa: E402
from laocheck.cli import main  # noqa: E402
from laocheck.cli.verify import _failed_record, results_path  # noqa: E402
from laocheck.experiments import LearnerConfig, replicate  # noqa: E402
from laocheck.experiments.theorems import run_theorem  # noqa: E402
from laocheck.data import PowerLawBernoulli  # noqa: E402
from laocheck.experiments.papers import Algorithm, learning_curves  # noqa: E402
from laocheck.learners import AERR, OnlineRidge  # noqa: E402

# A cheap slice of `--only 'HK12.*'` (the whole of it is ~45 CPU-seconds at the fast budget; the
# benchmark benchmarks/bench_dask.py compares the whole catalog): exact and Monte Carlo
# property checks of every HK12 estimate, and three HK12 errata with their corrections.
ONLY = ["HK12.A*", "HK12.Lemma3.8.A5*", "HK12.Lemma3.3.eq9*"]

def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items()
                if k not in ("seconds", "cpu_seconds")}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _strip(doc):
    """The verify JSON without its timing fields (every ``seconds``, also those inside the
    figures of the empirical checks) and the command line, which differs."""
    doc = _without_timings(doc)
    doc["run"]["provenance"].pop("command")
    return doc


def _verify(path, *extra):
    argv = ["verify", "--no-progress", "--json", str(path)]
    for glob in ONLY:
        argv += ["--only", glob]
    return main(argv + list(extra))


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1,
                                  processes=True, dashboard_address="127.0.0.1:0") as c:
        yield c


def test_the_cluster_listens_on_127_0_0_1_only(cluster):
    """The scheduler (in this process), its HTTP server and both worker processes listen on the
    loopback interface only, on ports the system chose (no fixed 8787)."""
    import psutil                                        # a dependency of distributed
    with distributed.Client(cluster.scheduler_address) as client:
        pids = {os.getpid(), *client.run(os.getpid).values()}
    listening = [c.laddr for pid in pids for c in psutil.Process(pid).net_connections("inet")
                 if c.status == psutil.CONN_LISTEN]
    assert len(listening) >= 3
    assert all(a.ip == "127.0.0.1" for a in listening), listening
    assert 8787 not in {a.port for a in listening}


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("local") / "local.json"
    assert _verify(path) == 0
    return path


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_verify_on_the_cluster_gives_the_local_records(cluster, local_run, tmp_path, capsys):
    path = tmp_path / "dask.json"
    assert _verify(path, "--scheduler", cluster.scheduler_address) == 0
    assert f"dask at {cluster.scheduler_address}" in capsys.readouterr().out
    local, remote = _load(local_run), _load(path)
    assert len(local["checks"]) >= 40
    assert {r["status"] for r in local["checks"]} == {"PASS", "ERRATUM"}
    assert _strip(remote) == _strip(local)
    # the results log holds every record, as written when each check finished
    lines = results_path(path).read_text().splitlines()
    logged = {json.loads(line)["result"]["id"] for line in lines}
    assert logged == {r["id"] for r in local["checks"]}


def test_verify_of_all_of_hk12_on_the_cluster_gives_the_local_records(cluster, tmp_path):
    """`laocheck verify --only 'HK12.*'` (every HK12 check, ~45 CPU-seconds): the cluster's JSON
    equals this machine's (``--jobs 2``), timings and the command line aside."""
    local, remote = tmp_path / "local.json", tmp_path / "dask.json"
    argv = ["verify", "--no-progress", "--only", "HK12.*", "--json"]
    assert main(argv + [str(local), "--jobs", "2"]) == 0
    assert main(argv + [str(remote), "--scheduler", cluster.scheduler_address]) == 0
    a, b = _strip(_load(local)), _strip(_load(remote))
    assert len(a["checks"]) >= 80 and all(r["id"].startswith("HK12.") for r in a["checks"])
    # every HK12 check at its declared status (PASS, ERRATUM, READING), on the cluster too
    assert all(r["status"] == r["expected"] for r in a["checks"])
    assert {r["status"] for r in a["checks"]} >= {"PASS", "ERRATUM"}
    assert a["run"].pop("jobs") == 2 and b["run"].pop("jobs") == 1
    assert a == b


def test_bounds_and_report_on_the_cluster_give_the_local_numbers(cluster, tmp_path, capsys):
    """`laocheck bounds --scheduler` and `laocheck report bounds --scheduler`: the replicates
    run on the cluster, the numbers are this machine's."""
    small = ["--d", "12", "--m", "150", "--R", "4", "--no-progress", "--json"]
    local, remote = tmp_path / "b_local.json", tmp_path / "b_dask.json"
    assert main(["bounds", *small, str(local)]) == 0
    assert main(["bounds", *small, str(remote), "--scheduler", cluster.scheduler_address]) == 0
    a, b = _strip_command(_load(local)), _strip_command(_load(remote))
    assert sum(r.get("status") == "ok" for r in a["theorems"]) >= 5
    assert a == b
    tasks_before = _tasks_run(cluster)
    report = ["report", "bounds", "--effort", "tiny", "--no-progress", "--out"]
    assert main(report + [str(tmp_path / "r_local")]) == 0
    assert main(report + [str(tmp_path / "r_dask"), "--scheduler",
                          cluster.scheduler_address]) == 0
    assert _tasks_run(cluster) > tasks_before          # the report's runs went to the cluster
    docs = [_load(tmp_path / out / "bounds" / "report.json") for out in ("r_local", "r_dask")]
    assert _without_timings(docs[0]["data"]) == _without_timings(docs[1]["data"])
    capsys.readouterr()


def _strip_command(doc):
    doc = _without_timings(doc)
    doc["provenance"].pop("command")
    return doc


def _tasks_run(cluster):
    """Tasks the cluster's scheduler has seen (its task-prefix counters, all states)."""
    return sum(sum(tp.state_counts.values()) for tp in cluster.scheduler.task_prefixes.values())


def test_the_environment_variable_selects_the_cluster(cluster, local_run, tmp_path,
                                                      monkeypatch, capsys):
    monkeypatch.setenv(_execution.ENV_SCHEDULER, cluster.scheduler_address)
    path = tmp_path / "env.json"
    assert main(["verify", "--no-progress", "--json", str(path), "--only", "HK12.Lemma3.8.A5*"]) \
        == 0
    assert f"dask at {cluster.scheduler_address}" in capsys.readouterr().out
    local = {r["id"]: r for r in _strip(_load(local_run))["checks"]}
    for rec in _strip(_load(path))["checks"]:
        assert rec == local[rec["id"]]


def _kill_a_busy_worker(cluster, log, total, report):
    """Once the run has logged a few records, SIGKILL the process of a worker that is running
    a task (its nanny starts a new one); report what was killed and when."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = len(log.read_text().splitlines()) if log.exists() else 0
        busy = [ws.address for ws in cluster.scheduler.workers.values() if ws.processing]
        if done >= 3 and busy:
            for nanny in cluster.workers.values():
                if nanny.worker_address in busy:
                    report["pid"] = nanny.process.process.pid
                    report["done"] = done
                    report["lost"] = [ts.key for ts in
                                      cluster.scheduler.workers[nanny.worker_address].processing]
                    os.kill(report["pid"], signal.SIGKILL)
                    return
        time.sleep(0.01)


def test_killing_a_worker_mid_run_gives_the_same_records(cluster, local_run, tmp_path):
    path = tmp_path / "killed.json"
    local = _load(local_run)
    report = {}
    killer = threading.Thread(target=_kill_a_busy_worker,
                              args=(cluster, results_path(path), len(local["checks"]), report))
    killer.start()
    assert _verify(path, "--scheduler", cluster.scheduler_address) == 0
    killer.join()
    assert report, "no worker was killed"
    assert report["done"] < len(local["checks"]) and report["lost"]   # mid-run, tasks lost
    assert _strip(_load(path)) == _strip(local)
    cluster.wait_for_workers(2, timeout=60)                 # the nanny restarted it


def test_resume_after_an_interrupted_run_gives_the_same_file(cluster, local_run, tmp_path):
    """An interruption leaves the first records in the results log and a cut last line;
    --resume reuses them (a marker put into one shows it was read, not rerun) and runs the
    rest."""
    local = _load(local_run)
    lines = results_path(local_run).read_text().splitlines()
    keep = len(lines) // 2
    marked = json.loads(lines[0])
    marked["result"]["note"] = "taken from the log"
    kept = [json.dumps(marked)] + lines[1:keep]
    path = tmp_path / "resumed.json"
    results_path(path).write_text("\n".join(kept) + "\n" + lines[keep][:40])   # cut mid-line
    assert _verify(path, "--scheduler", cluster.scheduler_address, "--resume") == 0
    doc = _load(path)
    by_id = {r["id"]: r for r in doc["checks"]}
    assert by_id[marked["result"]["id"]]["note"] == "taken from the log"
    by_id[marked["result"]["id"]]["note"] = next(
        r["note"] for r in local["checks"] if r["id"] == marked["result"]["id"])
    for line in kept[1:]:
        rec = json.loads(line)["result"]
        assert by_id[rec["id"]]["seconds"] == rec["seconds"]           # reused as logged
    assert _strip(doc) == _strip(local)
    # the log now holds every record once, and no cut line
    ids = [json.loads(line)["result"]["id"] for line in results_path(path).read_text().splitlines()]
    assert sorted(ids) == sorted(r["id"] for r in local["checks"])


def test_resume_ignores_records_of_another_seed_or_version(tmp_path):
    path = tmp_path / "v.json"
    only = ["--only", "HK12.Lemma3.3.eq9"]
    assert main(["verify", "--no-progress", "--json", str(path), "--seed", "1", *only]) == 0
    line = json.loads(results_path(path).read_text())
    line["result"]["note"] = "stale"
    line["laocheck"] = "0.0.0-other"
    results_path(path).write_text(json.dumps(line) + "\n")
    assert main(["verify", "--no-progress", "--json", str(path), "--seed", "1", "--resume",
                 *only]) == 0
    assert _load(path)["checks"][0]["note"] != "stale"                 # other version: rerun
    assert main(["verify", "--no-progress", "--json", str(path), "--seed", "2", "--resume",
                 *only]) == 0
    doc = _load(path)
    assert doc["checks"][0]["seed"] == 2 and doc["run"]["seed"] == 2    # other seed: rerun


def test_resume_needs_json(capsys):
    for argv in (["--resume"], ["--resume", "--json", "-"]):
        assert main(["verify", "--only", "HK12.Lemma3.3.eq9", *argv]) == 2
        assert "--resume needs --json" in capsys.readouterr().err


@pytest.fixture
def scratch_registry(monkeypatch):
    _registry.checks()
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))
    return _registry


def test_a_task_that_raises_is_that_checks_fail(cluster, scratch_registry, tmp_path, capsys):
    """A check registered only in this process is unknown to the workers: its task raises
    there (outside the check), and the run reports that check's FAIL with the traceback."""

    @register("Test.only_here", citation="none", statement="s", method="m")
    def only_here(ctx):
        return Result(Status.PASS, {})

    path = tmp_path / "raises.json"
    code = main(["verify", "--no-progress", "--json", str(path), "--only", "Test.only_here",
                 "--only", "HK12.Lemma3.3.eq9", "--scheduler", cluster.scheduler_address])
    assert code == 1
    recs = {r["id"]: r for r in _load(path)["checks"]}
    assert recs["Test.only_here"]["status"] == "FAIL"
    assert "Traceback" in recs["Test.only_here"]["note"]
    assert "InvalidParameterError" in recs["Test.only_here"]["note"]
    assert recs["HK12.Lemma3.3.eq9"]["status"] == "ERRATUM"
    # the FAIL record still carries the check's own seed: it can be rerun alone
    assert recs["Test.only_here"]["spawn_key"] == \
        list(_registry.check_seed(0, "Test.only_here").spawn_key)


def test_failed_record_keeps_the_traceback():
    rec = _failed_record("HK12.Lemma3.3.eq9", 4, "fast", "Traceback ...\nKilledWorker: x")
    assert rec.status == "FAIL" and rec.note.endswith("KilledWorker: x") and rec.seed == 4


def test_executors_report_a_raising_task_and_keep_going(cluster):
    tasks = [("HK12.Lemma3.3.eq9",), ("No.such.check",), ("HK12.Lemma3.7",)]
    for ex in (_execution.LocalExecutor(1), _execution.DaskExecutor(cluster.scheduler_address)):
        with ex:
            out = sorted(ex.imap_unordered(_registry.get, tasks), key=lambda o: o.index)
        assert [o.index for o in out] == [0, 1, 2]
        assert out[0].value.id == "HK12.Lemma3.3.eq9" and out[2].value.id == "HK12.Lemma3.7"
        assert out[1].value is None and "No.such.check" in out[1].error
        assert "Traceback" in out[1].error


def test_laocheck_tasks_on_a_dask_worker_allocate_from_the_heap(cluster):
    """Dask's nanny starts each worker with MALLOC_TRIM_THRESHOLD_=65536, which fixes glibc's
    mmap threshold at 128 KiB: in a plain Dask task a 4 MiB array is a fresh mmap. In laocheck's
    tasks it comes from the heap (thresholds raised for the task: the replicate-heavy checks ran
    2-3x slower without), and afterwards every worker is back to its own setting."""
    def _large_array_is_mmapped():      # a local function: cloudpickle sends it by value
        """Whether a new 4 MiB array is served by mmap in this process (glibc's mallinfo2)."""
        class MallInfo2(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in (
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks "
                "keepcost").split()]
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = MallInfo2
        before = libc.mallinfo2().hblks
        a = np.ones(2**19)
        grew = libc.mallinfo2().hblks > before
        del a
        return grew

    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        assert set(client.run(_large_array_is_mmapped).values()) == {True}
        with _execution.DaskExecutor(cluster.scheduler_address) as ex:
            assert ex.map(_large_array_is_mmapped, [()] * 6) == [False] * 6
        assert set(client.run(_large_array_is_mmapped).values()) == {True}


def test_section3_experiment_on_the_cluster_gives_the_local_numbers(cluster, monkeypatch):
    """HK12 Thm 3.1 against R runs of AERR: the figures (bound, excess risks, interval) on the
    cluster equal the local ones exactly, with blocks of replicates as the tasks."""
    args = dict(d=20, k=4, m=300, R=12, seed=5)
    local_comp, local_figs = run_theorem("HK12.Thm3.1", **args)
    monkeypatch.setenv(_execution.ENV_SCHEDULER, cluster.scheduler_address)
    with _execution.executor() as ex:
        assert ex.kind == "dask" and len(ex.blocks(12)) > 1     # several blocks on the cluster
    remote_comp, remote_figs = run_theorem("HK12.Thm3.1", **args)
    assert np.array_equal(remote_comp.excess, local_comp.excess)
    assert json.dumps(_without_timings(remote_figs), default=str) == \
        json.dumps(_without_timings(local_figs), default=str)


def test_replicate_is_the_same_for_any_executor(cluster):
    """One block here, seven on the cluster: the same excess risks (n_jobs: test_experiments)."""
    dist = PowerLawBernoulli(10, -1.0, scenario="ridge", B=1.0)
    spec = LearnerConfig(AERR, dict(k=2, B=1.0))
    runs = [replicate(spec, dist, 100, norm="l2", B=1.0, R=7, seed=3, n_jobs=jobs,
                      scheduler=sched)
            for jobs, sched in ((1, None), (1, cluster.scheduler_address))]
    for excess, attrs in runs[1:]:
        assert np.array_equal(excess, runs[0][0]) and np.array_equal(attrs, runs[0][1])


def test_papers_learning_curves_on_the_cluster_give_the_local_numbers(cluster):
    """The papers' experiments (laocheck.experiments.papers): one task per run on the cluster,
    the same curves as in this process (CV, prefixes and exact risks included)."""
    algs = [Algorithm("AERR", lambda c: AERR(k=3), "HK12 Alg. 1"),
            Algorithm("Online ridge", lambda c: OnlineRidge(), "OGD")]
    kw = dict(distribution=PowerLawBernoulli(20, -1.0), m=200, k=3, runs=4,
              prefixes=(0.5, 1.0), folds=2, grid=(0.5, 1.0), seed=7)
    local, _ = learning_curves(algs, **kw)
    arrived = []
    remote, _ = learning_curves(algs, scheduler=cluster.scheduler_address,
                                on_run=lambda: arrived.append(1), **kw)
    assert [c.to_dict() for c in remote] == [c.to_dict() for c in local]
    assert len(arrived) == kw["runs"]                    # one progress call per run


def test_map_tells_on_result_once_per_task_and_keeps_the_order(cluster):
    for ex in (_execution.LocalExecutor(1), _execution.LocalExecutor(2),
               _execution.DaskExecutor(cluster.scheduler_address)):
        arrived = []
        with ex:
            out = ex.map(pow, [(i,) for i in range(7)], shared=(2,),
                         on_result=lambda: arrived.append(1))
        assert out == [2 ** i for i in range(7)] and len(arrived) == 7, ex.describe()


def test_blocks_cover_every_task_once():
    for workers in (1, 2, 3, 8):
        ex = _execution.LocalExecutor(workers)
        for n in (1, 2, 7, 12, 100):
            blocks = ex.blocks(n)
            assert [i for a, b in blocks for i in range(a, b)] == list(range(n))
            assert all(b > a for a, b in blocks)
            assert len(blocks) <= min(n, 4 * workers)
            assert len(blocks) == 1 or workers > 1


def test_nested_tasks_run_here():
    """Inside a task, executor() is always this process, whatever $LAOCHECK_SCHEDULER says."""
    token = _execution._IN_TASK.set(True)
    try:
        os.environ[_execution.ENV_SCHEDULER] = "tcp://127.0.0.1:1"
        ex = _execution.executor(jobs=2)
        assert ex.kind == "local" and ex.jobs == 1
    finally:
        os.environ.pop(_execution.ENV_SCHEDULER)
        _execution._IN_TASK.reset(token)


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(_execution, "CONNECT_TIMEOUT", 1)
    code = main(["verify", "--no-progress", "--only", "HK12.Lemma3.3.eq9", "--scheduler",
                 "tcp://127.0.0.1:9"])
    assert code == 3
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in err
    assert "dask scheduler" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["bounds", "--d", "5", "--R", "2"],
                                  ["report", "rho", "--effort", "tiny"]])
def test_bounds_and_report_check_the_scheduler_before_any_work(argv, monkeypatch, tmp_path,
                                                               capsys):
    monkeypatch.setattr(_execution, "CONNECT_TIMEOUT", 1)
    out = ["--out", str(tmp_path / "r")] if argv[0] == "report" else []
    code = main(argv + out + ["--no-progress", "--scheduler", "tcp://127.0.0.1:9"])
    assert code == 3
    err = capsys.readouterr().err
    assert err.startswith(f"laocheck {argv[0]}: error: cannot reach the Dask scheduler")
    assert "Traceback" not in err and not (tmp_path / "r").exists()


def test_losing_the_scheduler_mid_run_is_a_clear_error():
    small = distributed.LocalCluster(host="127.0.0.1", n_workers=1, threads_per_worker=1,
                                     processes=False, protocol="tcp://",
                                     dashboard_address="127.0.0.1:0")
    try:
        with _execution.DaskExecutor(small.scheduler_address) as ex:
            outcomes = ex.imap_unordered(time.sleep, [(0.0,)] + [(0.2,)] * 30)
            next(outcomes)
            small.sync(small.scheduler.close)                  # the scheduler goes away
            with pytest.raises(_execution.SchedulerError, match="lost the Dask scheduler at"):
                list(outcomes)
    finally:
        for worker in list(small.workers.values()):
            small.sync(worker.close, timeout=1)
        with contextlib.suppress(TimeoutError):               # its scheduler is already gone
            small.close(timeout=2)


def test_provenance_names_the_dask_versions():
    """Every JSON laocheck writes says which dask and distributed ran it (None when absent)."""
    versions = provenance()["versions"]
    assert versions["distributed"] == distributed.__version__
    assert versions["dask"] == dask.__version__


def test_a_users_learner_in_a_paper_experiment_on_the_cluster_gives_the_local_numbers(cluster):
    """Issue 38: a user's learner (the worked example AbsAERR, plain numpy, in a module of the
    user's own, put on the workers' path as a user would with PYTHONPATH) runs beside KS15
    Sec. 5.1's learners on the cluster; every number, the user's curves and comparisons
    included, is the local one."""
    import sys
    from pathlib import Path

    from laocheck.experiments.papers import ks15_synthetic

    zoo = str(Path(__file__).resolve().parent / "testing")
    sys.path.insert(0, zoo)
    try:
        with distributed.Client(cluster.scheduler_address) as client:
            client.run(lambda: sys.path.insert(0, zoo) if zoo not in sys.path else None)
        kw = dict(effort="tiny", seed=5, d=12, alphas=(-2.0,),
                  learners=["learner_zoo.abs_aerr:AbsAERR"])
        local = ks15_synthetic(**kw).to_dict()
        remote = ks15_synthetic(scheduler=cluster.scheduler_address, **kw).to_dict()
    finally:
        sys.path.remove(zoo)
    for r in (local, remote):
        del r["seconds"]
    assert remote == local
    assert local["panels"][0]["user_curves"][0]["algorithm"] == "abs_aerr:AbsAERR"
