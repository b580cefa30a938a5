"""A PostgreSQL server of a test's own, to stop and start at will (``test_database_faults.py``).

The fault tests stop the database under a running site. The suite's PostgreSQL (CI's, or
the one a developer shares with others) must never be stopped, so this makes a cluster of
its own with the server's ``initdb`` in a temporary directory, on a free port of
127.0.0.1, with its Unix socket in that directory too, and drives it with ``pg_ctl``:

- ``start()``, ``stop(mode)`` (``fast``: the server ends every session and shuts down
  cleanly, as ``systemctl stop`` does; ``immediate``: it stops at once and recovers from its
  log on the next start, as after a crash), ``destroy()``;
- ``url(name, query)``: a ``DATABASE_URL`` for a database on it (``create_database``).

PostgreSQL refuses to run as root: when the tests run as root (CI's ``.ci/run`` does), the
cluster belongs to the ``postgres`` user and every command runs through ``runuser``.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.tables.faults import free_port

USER = "dashain"


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server's programs under /usr/lib/postgresql (Debian's layout), or
    the directory of an ``initdb`` on PATH; None if there is none."""
    root = Path("/usr/lib/postgresql")
    versions = sorted((p for p in root.glob("*/bin") if (p / "initdb").exists()), key=lambda p: int(p.parent.name))
    if versions:
        return versions[-1]
    found = shutil.which("initdb")
    return Path(found).parent if found else None


class PrivatePostgres:
    def __init__(self) -> None:
        found = postgres_bin()
        if found is None:
            raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
        self.bin = found
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="dashain-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.owner = "postgres" if os.geteuid() == 0 else None
        if self.owner is not None:
            account = pwd.getpwnam(self.owner)
            os.chown(self.dir, account.pw_uid, account.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync")

    def _run(self, program: str, *arguments: str) -> subprocess.CompletedProcess:
        command = [str(self.bin / program), *arguments]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        done = subprocess.run(command, cwd=self.dir, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}{log}")
        return done

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        command = [str(self.bin / "pg_ctl"), "-D", str(self.data), "status"]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(command, cwd=self.dir, capture_output=True, timeout=30).returncode == 0

    def create_database(self, name: str) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True) as db:
            db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

    def url(self, name: str, query: str = "") -> str:
        return f"postgres://{USER}@127.0.0.1:{self.port}/{name}{query}"

    def destroy(self) -> None:
        if self.running():
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
