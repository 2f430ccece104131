"""End-to-end: the built SPA served by `spot serve` on a fresh demo database, driven in Debian's Chromium."""

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SPOT = Path(sys.executable).parent / "spot"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DEMO_PASSWORD = "spot-demo-2026"
API = "/backend/api/v2"


def admin_client(base_url: str) -> httpx.Client:
    """The API as the demo's administrator, for a journey's set-up and clean-up. No connection is
    kept between requests: the server drops one idle for 5 s, and a request sent on it just then
    failed with 'connection reset by peer' after a long journey."""
    token = httpx.post(
        f"{base_url}{API}/account/login",
        json={"username": "admin", "password": DEMO_PASSWORD, "returnUrl": ""},
    ).json()["token"]
    return httpx.Client(
        base_url=f"{base_url}{API}",
        headers={"x-access-token": token},
        limits=httpx.Limits(max_keepalive_connections=0),
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    workdir = Path(tempfile.mkdtemp(prefix="spot-e2e-"))
    env = {
        **os.environ,
        "SPOT_DATABASE_URL": f"sqlite:///{workdir}/spot.db",
        "SPOT_DATA_DIR": str(workdir / "data"),
        "SPOT_CUSTOMER_NAME": "Usine de démonstration",
    }
    subprocess.run([SPOT, "migrate"], env=env, check=True)
    subprocess.run([SPOT, "seed-demo"], env=env, check=True, stdout=subprocess.DEVNULL)
    port = _free_port()
    log = open(workdir / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [SPOT, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/backend/api/v2/organization/info", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise RuntimeError(f"spot serve did not start: see {workdir / 'server.log'}")
        time.sleep(0.2)
    yield url
    server.terminate()
    server.wait(timeout=10)
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
