"""The site can be installed as an app from Chromium ("Install Dashain", "Add to home
screen"): its manifest (`/manifest.webmanifest`, a single SVG icon) passes Chromium's own
installability check, read over the DevTools protocol (``Page.getInstallabilityErrors``)
from a normal profile: in a private window Chromium never offers to install. A page
without the manifest is the control: the same check names what is missing there.

Only the full browser makes that check (the headless shell the other browser tests run on
has no install to offer and names nothing missing), so this test launches it: Debian's
``chromium`` (tests.conftest.full_chromium_executable). Missing, the test is skipped, and
under CI fails instead (tests/conftest.py's rule for every marked test)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import CHROMIUM_ARGS
from tests.conftest import full_chromium_executable


def test_chromium_finds_nothing_missing_to_install_the_site(chromium, live_site, tmp_path):
    full = full_chromium_executable()
    if full is None:  # under CI the skip of a marked test fails (tests/conftest.py)
        pytest.skip("needs the full Chromium browser (chromium on PATH): the headless shell checks no installability")
    context = chromium.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=full,
        args=CHROMIUM_ARGS,
        base_url=live_site.url,
    )
    try:
        page = context.new_page()
        devtools = context.new_cdp_session(page)
        page.goto("/static/css/site.css")  # the control: no page, no manifest
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert "no-manifest" in [error["errorId"] for error in errors], errors
        page.goto("/tables/")
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["url"] == f"{live_site.url}/manifest.webmanifest" and manifest["errors"] == [], manifest
        assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()
