"""CI's script and the test harness agree on names, and the script is valid bash.

Rule pinned: one variable names the browser everywhere (CHROMIUM_PATH): the one .ci/run
exports is the one tests/conftest.py reads, and README documents it.
"""

import re
import subprocess
from pathlib import Path

from tests.conftest import chromium_executable

ROOT = Path(__file__).resolve().parents[2]
CI_SCRIPT = ROOT / ".ci" / "run"
#: A browser variable read from the environment (Python) or used or exported in a shell script.
BROWSER_VARIABLE = re.compile(
    r"""(?:environ\.get\(\s*|environ\[\s*|getenv\(\s*|setenv\(\s*)["'](\w*CHROMIUM\w*)["']"""
    r"|(?:\$\{?|export\s+)(\w*CHROMIUM\w*)"
)


def test_ci_script_is_valid_bash():
    run = subprocess.run(["bash", "-n", str(CI_SCRIPT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_browser_variable_ci_exports_is_the_one_the_harness_reads(tmp_path, monkeypatch):
    exported = re.findall(r"^export (\w*CHROMIUM\w*)=(\S+)$", CI_SCRIPT.read_text(), re.MULTILINE)
    assert [name for name, _ in exported] == ["CHROMIUM_PATH"]
    fake = tmp_path / "my-chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CHROMIUM_PATH", str(fake))
    assert chromium_executable() == str(fake)
    assert "`CHROMIUM_PATH`" in (ROOT / "README.md").read_text()


def test_no_other_name_for_the_browser_in_the_tests_or_scripts():
    names = set()
    for folder in ("tests", "scripts", ".ci"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".sh"):
                for match in BROWSER_VARIABLE.finditer(path.read_text(errors="ignore")):
                    names.add(match.group(1) or match.group(2))
    assert names == {"CHROMIUM_PATH"}
