"""The processes around a ``benchmarks/live_load.py`` run: their CPU time and memory read
from ``/proc``, the Celery worker started as README runs it, a cgroup's CPU cap on a
server, and the most PostgreSQL sessions the servers held at once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(pid: int) -> tuple[float, float, float]:
    """CPU seconds a process has used so far: user + system of all its threads, of its main
    thread alone (the event loop's, in daphne; the others are the database thread pool's),
    and the system part of the first."""
    tick = os.sysconf("SC_CLK_TCK")

    def used(stat_path: str) -> tuple[int, int]:
        # Fields after the command name (which may hold spaces): utime and stime are 14 and 15.
        fields = Path(stat_path).read_text().rsplit(")", 1)[1].split()
        return int(fields[11]), int(fields[12])

    user, system = used(f"/proc/{pid}/stat")
    main_user, main_system = used(f"/proc/{pid}/task/{pid}/stat")
    return (user + system) / tick, (main_user + main_system) / tick, system / tick


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


#: The ``application_name`` (libpq's ``PGAPPNAME``) of the servers' and the worker's
#: PostgreSQL sessions, by which :class:`DatabaseSessions` tells them from this process's own.
SERVER_APPLICATION = "dashain-live-load-server"
WORKER_APPLICATION = "dashain-live-load-worker"


class DatabaseSessions:
    """The most PostgreSQL sessions the servers (and the worker) held at once during a run,
    read from ``pg_stat_activity`` every 0.1 s on a thread and a connection of its own."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url.partition("?")[0]
        self.peak = {SERVER_APPLICATION: 0, WORKER_APPLICATION: 0}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="db-sessions", daemon=True)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            while not self.stopping.wait(0.1):
                rows = connection.execute(
                    "SELECT application_name, count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = ANY(%s) GROUP BY 1",
                    [list(self.peak)],
                ).fetchall()
                for name, count in rows:
                    self.peak[name] = max(self.peak[name], int(count))

    def __enter__(self) -> DatabaseSessions:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


def worker_start(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """The Celery worker as README runs it (``celery -A config worker``): with a pause between
    hands, it deals each next hand when the table clock says so. Returns once it is ready."""
    log_path = ROOT / "var" / "live_load_worker.log"
    log = open(log_path, "w")
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO"]
    worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while "ready." not in log_path.read_text():
        if worker.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the Celery worker did not start (see {log_path})")
        time.sleep(0.2)
    return worker


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and every process under it (a worker's pool)."""
    total = 0.0
    try:
        total = cpu_seconds(pid)[0]
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += tree_cpu_seconds(int(child))
    except OSError:  # it exited between the listing and the read
        pass
    return total


CGROUP_CPU = Path("/sys/fs/cgroup/cpu")


def cpu_cap(pid: int, port: int, cpus: float) -> None:
    """Give the server ``pid`` at most ``cpus`` cores (a cgroup v1 CPU quota, as a container
    limit would): so that on one machine the servers, not the load generator, PostgreSQL
    and Redis beside them, are what runs out (``--server-cpus``). Linux, as root."""
    group = CGROUP_CPU / f"dashain_live_load_{port}"
    try:
        group.mkdir(exist_ok=True)
        period = int((group / "cpu.cfs_period_us").read_text())
        (group / "cpu.cfs_quota_us").write_text(str(int(cpus * period)))
        (group / "cgroup.procs").write_text(str(pid))  # the whole process, threads to come included
    except OSError as error:
        raise SystemExit(f"--server-cpus needs a writable cgroup v1 CPU controller at {CGROUP_CPU}: {error}") from error


def cpu_cap_remove(port: int) -> None:
    group = CGROUP_CPU / f"dashain_live_load_{port}"
    try:
        group.rmdir()  # once its processes have exited
    except OSError:
        pass
