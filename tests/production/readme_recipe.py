"""README's Production section, read from README.md as it is written.

:func:`production_recipe` finds the section's shell block and its nginx block and checks
their shape: the ``export`` of the settings, the commands run once (``check --deploy``,
``migrate``, ``collectstatic``, the catalogues), the daphne processes and the Celery
worker, and an nginx site with an upstream of those daphnes. Anything else in the shell
block, or a missing piece, fails loudly: a change to README's recipe must come with a
change here, so the test never runs something other than what README says.

:func:`nginx_site` substitutes only what a test machine must have of its own: the server
name, the ports, the certificate's paths and the static root.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER_NAME = "cards.example.org"
STATIC_ROOT = "/srv/dashain/static"
CERTIFICATE = f"/etc/letsencrypt/live/{SERVER_NAME}/fullchain.pem"
CERTIFICATE_KEY = f"/etc/letsencrypt/live/{SERVER_NAME}/privkey.pem"


class RecipeChanged(AssertionError):
    """README's Production section no longer has the shape this test reads."""


@dataclass(frozen=True)
class Recipe:
    settings: dict[str, str]  # the export line's NAME=value pairs
    once: list[list[str]]  # check --deploy, migrate, collectstatic, catalogues: argv after .venv/bin/
    daphnes: list[list[str]]  # each daphne's argv after .venv/bin/
    worker: list[str]  # the Celery worker's argv after .venv/bin/
    nginx: str  # the nginx site as written


def _section(readme: str) -> str:
    match = re.search(r"^## Production\n(.*?)(?=^## )", readme, re.M | re.S)
    if match is None:
        raise RecipeChanged("README.md has no '## Production' section")
    return match.group(1)


def _block(section: str, language: str) -> str:
    blocks = re.findall(rf"^```{language}\n(.*?)^```", section, re.M | re.S)
    if len(blocks) != 1:
        raise RecipeChanged(f"README's Production section has {len(blocks)} ```{language} blocks, not 1")
    return blocks[0]


def production_recipe(readme_path: Path = ROOT / "README.md") -> Recipe:
    section = _section(readme_path.read_text())
    shell = _block(section, "sh")
    nginx = _block(section, "nginx")
    lines: list[str] = []
    for raw in shell.replace("\\\n", " ").splitlines():
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if line:
            lines.append(line)
    settings: dict[str, str] = {}
    once: list[list[str]] = []
    daphnes: list[list[str]] = []
    workers: list[list[str]] = []
    for line in lines:
        words = shlex.split(line)
        if words[0] == "export":
            settings.update(word.split("=", 1) for word in words[1:])
        elif line == "python3.11 -m venv .venv && .venv/bin/pip install -r requirements.txt":
            continue  # the suite runs in a virtual environment with these requirements installed
        elif words[0] == ".venv/bin/python":
            once.append(["python", *words[1:]])
        elif words[0] == ".venv/bin/daphne":
            daphnes.append(["daphne", *words[1:]])
        elif words[0] == ".venv/bin/celery":
            workers.append(["celery", *words[1:]])
        else:
            raise RecipeChanged(f"README's Production recipe has a line this test does not know: {line!r}")
    expected_once = [
        ["python", "manage.py", "check", "--deploy"],
        ["python", "manage.py", "migrate"],
        ["python", "manage.py", "collectstatic", "--noinput"],
        ["python", "-m", "config.catalogues"],
    ]
    if once != expected_once:
        raise RecipeChanged(f"README's commands run once changed: {once}")
    if len(daphnes) < 2 or any(daphne[:4] != ["daphne", "--proxy-headers", "-b", "127.0.0.1"] for daphne in daphnes):
        raise RecipeChanged(f"README's daphne lines changed: {daphnes}")
    if len(workers) != 1:
        raise RecipeChanged(f"README's Celery worker lines changed: {workers}")
    wanted = {
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "DATABASE_URL",
        "REDIS_URL",
        "STATIC_ROOT",
    }
    if set(settings) != wanted:
        raise RecipeChanged(f"README's exported settings changed: {sorted(settings)}")
    return Recipe(settings=settings, once=once, daphnes=daphnes, worker=workers[0], nginx=nginx)


def daphne_port(daphne: list[str]) -> int:
    return int(daphne[daphne.index("-p") + 1])


def _replace(text: str, old: str, new: str) -> str:
    if old not in text:
        raise RecipeChanged(f"README's nginx site no longer has {old!r}")
    return text.replace(old, new)


def nginx_site(
    recipe: Recipe,
    *,
    server_name: str,
    http_port: int,
    https_port: int,
    daphne_ports: dict[int, int],
    certificate: Path,
    certificate_key: Path,
    static_root: Path,
) -> str:
    """README's nginx site with this machine's name, ports, certificate and static root."""
    site = recipe.nginx
    site = _replace(site, "listen 80;", f"listen {http_port};")
    site = _replace(site, "listen 443 ssl http2;", f"listen {https_port} ssl http2;")
    site = _replace(site, CERTIFICATE, str(certificate))
    site = _replace(site, CERTIFICATE_KEY, str(certificate_key))
    site = _replace(site, f"alias {STATIC_ROOT}/;", f"alias {static_root}/;")
    for written, ours in daphne_ports.items():
        site = _replace(site, f"server 127.0.0.1:{written};", f"server 127.0.0.1:{ours};")
    return _replace(site, f"server_name {SERVER_NAME};", f"server_name {server_name};")


def nginx_conf(site: str, prefix: Path) -> str:
    """A whole nginx.conf around ``site``: its own pid, logs and temporary files under ``prefix``."""
    temporary = "\n".join(
        f"    {name}_temp_path {prefix / 'temp' / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
worker_processes 1;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    access_log {prefix / "access.log"};
{temporary}
{site}
}}
"""
