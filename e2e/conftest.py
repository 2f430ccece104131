"""End-to-end: the built SPA served by `spot serve` on a fresh demo database, driven in Debian's Chromium."""

from spot.core import startup

# The journeys' modules (and what they read of the app's) are imported, and the journeys collected, with
# the cycle collector paused (core.startup); it runs again once they are collected.
startup.pause_collector()

import atexit
import fcntl
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Response,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[1]
SPOT = Path(sys.executable).parent / "spot"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DEMO_PASSWORD = "spot-demo-2026"
API = "/backend/api/v2"
AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
ACCESSIBILITY_HOOKS = Path(__file__).with_name("accessibility.js")
LANGUAGES = ("fr", "en")
# A journey runs in one language, and every page it saw is seen again in the other (audited_context).
# One whose behaviour differs by language (dates typed or shown in the language's format, a file the
# server writes in its reader's language, a layout that must fit each language's words) runs in each:
IN_EACH_LANGUAGE = pytest.mark.parametrize("language", LANGUAGES)


def in_language(language: str) -> pytest.MarkDecorator:
    """A journey run in one language, written so that it can run in either (its texts by language)."""
    return pytest.mark.parametrize("language", [language])


# Every journey's browser context: reduced motion, so that axe reads no colour half-way through a fade;
# the browser's clock is the plant's (the server's default SPOT_TIMEZONE), as for the people who use
# it: times typed and read agree. Spot's service worker is the installable app's journey's
# (test_installable_app.py): the others see every request as it goes to the server, as page.route needs.
CONTEXT_DEFAULTS: dict[str, Any] = {
    "viewport": {"width": 1280, "height": 800},
    "locale": "fr-FR",
    "timezone_id": "Europe/Paris",
    "reduced_motion": "reduce",
    "service_workers": "block",
}

# How long an action or an assertion waits for the page (see the context fixture).
WAIT_MS = 60_000
expect.set_options(timeout=WAIT_MS)


# A page of the application's origin that does not load the application (the organisation's public
# information, as JSON): where the session and the language are written before the application reads them.
LIGHT_PAGE = "{base_url}" + API + "/organization/info"


def sign_in(
    page: Page, base_url: str, login: str, language: str = "fr", to: str = "/spotv2/dashboards/mine"
) -> None:
    """Opens a session as `login` (the demo password) with the interface in `language`, as the sign-in
    form does (the server's sign-in answers the token, kept in the cookie the application reads), then
    opens the page at `to` (My dashboard unless told); a session open before ends. The form itself is
    test_foundation's journey."""
    answer = page.request.post(
        f"{base_url}{API}/account/login",
        data={"username": login, "password": DEMO_PASSWORD, "returnUrl": ""},
    )
    assert answer.ok, f"{login} could not sign in: {answer.status} {answer.text()}"
    if not page.url.startswith(base_url):
        page.goto(LIGHT_PAGE.format(base_url=base_url))
    page.context.clear_cookies()
    token = answer.json()["token"]
    page.context.add_cookies(
        [{"name": "userToken", "value": token, "url": f"{base_url}/spotv2/", "sameSite": "Strict"}]
    )
    page.evaluate(
        """language => {
            localStorage.setItem('spot.language', language)
            localStorage.setItem('spot.tokenIssuedAt', String(Date.now()))
        }""",
        language,
    )
    page.goto(f"{base_url}{to}")
    # The application's header (not its role: a page opened with a dialog, as a discussion's address
    # opens it, hides the rest from assistive technologies), at the address asked for, not the sign-in.
    expect(page.locator("header").first).to_be_visible()
    expect(page).to_have_url(f"{base_url}{to}")


# Chromium logs every 4xx answer as a console error; the app explains those it expects on screen.
HANDLED_STATUS_LOG = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d")
# What the browser logs of a call made while a journey has set the context offline (the installable app's).
OFFLINE_LOG = re.compile(r"^Failed to load resource: net::ERR_INTERNET_DISCONNECTED$")


def expect_no_sideways_scroll(page: Page) -> None:
    """Nothing on the page scrolls sideways, once the layout has followed a change of window size (a
    dialog turning full screen on a phone renders after the resize, not with it)."""
    page.wait_for_function(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


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


def imported_course(
    client: httpx.Client, courses_url: str, content: bytes, content_type: str
) -> dict[str, Any]:
    """A course package imported through the API, as a journey's set-up: its job asked for (202), then
    read until it ended (the server runs it); the course it imported ({id, title, created, items})."""
    asked = client.post(courses_url, content=content, headers={"Content-Type": content_type})
    assert asked.status_code == 202, asked.text
    job_url = courses_url.replace("/lms/courses", f"/jobs/{asked.json()['id']}")
    deadline = time.monotonic() + WAIT_MS / 1000
    while (job := client.get(job_url).json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, f"the course's import did not end: {job}"
        time.sleep(0.2)
    assert job["status"] == "succeeded", job
    return dict(job["summary"])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def workdir() -> Path:
    """Where the served database and file store live."""
    return Path(tempfile.mkdtemp(prefix="spot-e2e-"))


@pytest.fixture(scope="session")
def database_url(workdir: Path) -> str:
    """The served database, for what a journey cannot do through the application (a session made
    older than the signatures' re-authentication delay, rather than waiting 5 minutes)."""
    return f"sqlite:///{workdir}/spot.db"


def _seed_demo(env: dict[str, str], workdir: Path) -> None:
    """The demo organisation migrated and seeded into `workdir`. The workers of one run (pytest-xdist)
    seed it once, the first under a lock, and each copies it (database and file store) before serving."""

    def seed(env: dict[str, str]) -> None:
        subprocess.run([SPOT, "migrate"], env=env, check=True)
        subprocess.run([SPOT, "seed-demo"], env=env, check=True, stdout=subprocess.DEVNULL)

    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        seed(env)
        return
    shared = Path(tempfile.gettempdir()) / f"spot-e2e-demo-{run}"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "seeded").exists():
            atexit.register(shutil.rmtree, shared, ignore_errors=True)
            seed(
                {
                    **env,
                    "SPOT_DATABASE_URL": f"sqlite:///{shared}/spot.db",
                    "SPOT_DATA_DIR": str(shared / "data"),
                }
            )
            (shared / "seeded").touch()
    for database in shared.glob("spot.db*"):
        shutil.copy2(database, workdir / database.name)
    if (shared / "data").exists():
        shutil.copytree(shared / "data", workdir / "data", dirs_exist_ok=True)


@pytest.fixture(scope="session")
def base_url(workdir: Path, database_url: str) -> Iterator[str]:
    env = {
        **os.environ,
        "SPOT_DATABASE_URL": database_url,
        "SPOT_DATA_DIR": str(workdir / "data"),
        "SPOT_CUSTOMER_NAME": "Usine de démonstration",
    }
    _seed_demo(env, workdir)
    port = _free_port()
    # Launch addresses of the learning platform are built on it.
    env["SPOT_PUBLIC_URL"] = f"http://127.0.0.1:{port}"
    # The daily scan's hour is the minute before the server starts: it runs once at start (reminders,
    # digests), never in the middle of a journey, whatever the hour of the run.
    plant = datetime.now(ZoneInfo(env.get("SPOT_TIMEZONE", "Europe/Paris")))
    env["SPOT_DAILY_SCAN_AT"] = (plant - timedelta(minutes=1)).strftime("%H:%M")
    log = open(workdir / "server.log", "w")
    server = subprocess.Popen(
        [SPOT, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
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


@pytest.fixture(scope="session")
def _journey_context(browser: Browser, base_url: str) -> Iterator["_JourneyContext"]:
    shared = _JourneyContext(browser, base_url)
    yield shared
    shared.close()


@pytest.fixture
def context(request: pytest.FixtureRequest, _journey_context: "_JourneyContext") -> Iterator[BrowserContext]:
    """The test process's journey context (_JourneyContext), audited for this journey."""
    # A journey run in each language has a twin that shows the same screens in the other one.
    languages = {
        value
        for marker in request.node.iter_markers("parametrize")
        if marker.args[0] == "language"
        for value in marker.args[1]
    }
    twin = languages == set(LANGUAGES)
    failed_before = request.session.testsfailed
    audit = _journey_context.begin()
    try:
        yield _journey_context.context
        _end_journey(_journey_context.context, _journey_context.base_url, audit, other_language=not twin)
    finally:
        _journey_context.make_ready(failed=request.session.testsfailed > failed_before)
    _fail_on(audit)


@pytest.fixture
def page(context: BrowserContext) -> Page:
    open_pages = [page for page in context.pages if not page.is_closed()]
    return open_pages[0] if open_pages else context.new_page()


@dataclass
class Audit:
    """What a journey's pages reported: axe checks (by accessibility.js) and console errors."""

    checks: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def failures(self) -> list[str]:
        """One line per rule broken on a page in a state, then one per node: its selector and why."""
        found: dict[tuple[str, str], dict[str, str]] = {}
        for check in self.checks:
            if "error" in check:
                self.errors.append(f"axe could not run on {check['url']}: {check['error']}")
                continue
            state = f" with {check['state']}" if check["state"] else ""
            where = f"{check['url']} [{check['language']}]{state}"
            for violation in check["violations"]:
                rule = f"{violation['id']} ({violation['impact']}): {violation['help']}"
                nodes = found.setdefault((where, rule), {})
                nodes.update({node["target"]: node["why"] for node in violation["nodes"]})
        lines = [
            f"{where}\n    {rule}"
            + "".join(f"\n      {target}: {why}" for target, why in sorted(by_node.items()))
            for (where, rule), by_node in found.items()
        ]
        return [*(f"axe: {line}" for line in lines), *(f"console: {error}" for error in self.errors)]

    def languages_by_url(self) -> dict[str, set[str]]:
        seen: dict[str, set[str]] = {}
        for check in self.checks:
            if "error" not in check:
                seen.setdefault(check["url"], set()).add(check["language"])
        return seen


@dataclass
class _Watching:
    """The audit a context's pages report to: the journey's that runs in it now."""

    audit: Audit


def _watch(page: Page, watching: _Watching) -> None:
    def console(message: ConsoleMessage) -> None:
        if message.type == "error" and not (
            HANDLED_STATUS_LOG.match(message.text) or OFFLINE_LOG.match(message.text)
        ):
            watching.audit.errors.append(f"{page.url}: {message.text}")

    def response(answer: Response) -> None:
        if answer.status >= 500:
            watching.audit.errors.append(f"{answer.request.method} {answer.url} answered {answer.status}")

    page.on("console", console)
    page.on("response", response)


def _uncaught(error: Any, base_url: str, audit: Audit) -> None:
    """An error no script caught, unless every script of its stack is of another origin: content of the
    learning platform that others wrote (a SCORM course's own code), run on an origin of its own."""
    scripts = re.findall(r"https?://[^\s)]+", getattr(error.error, "stack", None) or "")
    if scripts and not any(script.startswith(base_url) for script in scripts):
        return
    audit.errors.append(f"uncaught: {error.error}")


def _wait_for_checks(page: Page) -> None:
    """Until axe has checked what the page shows. A page that reloads meanwhile (the application
    reloads when another tab of the context opens or closes the session) is waited for again: its new
    document is checked as it loads."""
    for attempt in range(3):
        if page.is_closed():
            return
        try:
            page.evaluate("() => window.__spotAxe && window.__spotAxe.idle()")
            return
        except PlaywrightError as error:
            if "Execution context was destroyed" not in str(error) or attempt == 2:
                raise
            page.wait_for_load_state()


# The pages this test process's journeys have had checked, by language, a page being its address with
# its numbers read as any (/subject/77 and /subject/78 are one page): a page seen in a language is
# not visited again for it.
_checked_pages: set[tuple[str, str]] = set()


def _page_of(url: str) -> str:
    return re.sub(r"\d+", "#", url)


# Addresses that act rather than show: visiting one again would sign the journey's context out.
_NOT_VISITED_AGAIN = re.compile(r"/spotv2/logout(\?|$)")


# Within the application, a page is opened as its links open one: the router shows it in the document
# already loaded (a document loaded again costs the browser about four times as much).
_OPEN_IN_THE_APPLICATION = """url => {
    history.pushState(null, '', url)
    dispatchEvent(new PopStateEvent('popstate', { state: null }))
}"""


def _holds_the_application(page: Page, url: str) -> bool:
    return url.startswith("/spotv2/") and bool(
        page.evaluate("() => location.pathname.startsWith('/spotv2/') && Boolean(window.__spotAxe)")
    )


def _page_to_visit_with(context: BrowserContext) -> Page:
    """The journey's page, as the journey left it (its window's size too) but for the routes it set up
    to watch or hold its own requests; a new page if it closed them all."""
    context.unroute_all(behavior="ignoreErrors")
    open_pages = [page for page in context.pages if not page.is_closed()]
    if not open_pages:
        return context.new_page()
    page = open_pages[0]
    page.unroute_all(behavior="ignoreErrors")
    return page


def _visit_in_the_other_language(context: BrowserContext, base_url: str, audit: Audit) -> None:
    """Every page the journey saw in one language only, seen again in the other one, unless a journey
    of this process has already seen it in that one: the first loaded in the language, the next ones
    opened from it as the application's links open them."""
    seen = audit.languages_by_url()
    pending: dict[str, list[str]] = {language: [] for language in LANGUAGES}
    for url, languages in seen.items():
        if _NOT_VISITED_AGAIN.search(url):
            continue
        for language in LANGUAGES:
            if language not in languages and (_page_of(url), language) not in _checked_pages:
                _checked_pages.add((_page_of(url), language))
                pending[language].append(url)
    if not any(pending.values()):
        return
    page = _page_to_visit_with(context)
    for language, urls in pending.items():
        if not urls:
            continue
        page.goto(LIGHT_PAGE.format(base_url=base_url))
        page.evaluate("language => localStorage.setItem('spot.language', language)", language)
        for url in urls:
            if _holds_the_application(page, url):
                page.evaluate(_OPEN_IN_THE_APPLICATION, url)
            else:
                page.goto(f"{base_url}{url}")
            _wait_for_checks(page)


@contextmanager
def audited_context(
    browser: Browser,
    base_url: str,
    *,
    other_language: bool = True,
    profile: Path | None = None,
    **options: Any,
) -> Iterator[BrowserContext]:
    """A browser context whose every page is checked by axe-core after each navigation and each
    dialog or menu opened, and watched for console errors; at the end, the pages seen in one
    language only are seen in the other one too, but for those a journey of this process has seen in
    it (and unless `other_language` is false: a journey run in each language sees them in its twin).
    The test fails on a serious or critical violation, a console error or a 5xx. With a `profile`
    folder, the context is a browser of its own on that profile rather than an incognito context of the
    shared browser (Chromium offers to install an app only outside incognito)."""
    chosen = {**CONTEXT_DEFAULTS, **options}
    if profile is None:
        context = browser.new_context(**chosen)
    else:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **chosen
        )
    watching = _audited(context, base_url)
    try:
        yield context
        _end_journey(context, base_url, watching.audit, other_language)
    finally:
        context.close()
    _fail_on(watching.audit)


def _audited(context: BrowserContext, base_url: str) -> _Watching:
    """Every page of the context checked by axe-core and watched for errors, for the audit watched."""
    # No journey depends on the machine's speed: actions and assertions wait up to a minute (a passing
    # journey never waits that long; a loaded CI machine may take many seconds to answer).
    context.set_default_timeout(WAIT_MS)
    watching = _Watching(Audit())
    context.expose_binding("__spotAxeReport", lambda _source, check: watching.audit.checks.append(check))
    context.add_init_script(path=AXE)
    context.add_init_script(path=ACCESSIBILITY_HOOKS)
    context.on("page", lambda page: _watch(page, watching))
    context.on("weberror", lambda error: _uncaught(error, base_url, watching.audit))
    return watching


def _end_journey(context: BrowserContext, base_url: str, audit: Audit, other_language: bool) -> None:
    for page in context.pages:
        _wait_for_checks(page)
    _checked_pages.update(
        (_page_of(url), language)
        for url, languages in audit.languages_by_url().items()
        for language in languages
    )
    if other_language:
        _visit_in_the_other_language(context, base_url, audit)


def _fail_on(audit: Audit) -> None:
    failures = audit.failures()
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


def _listeners(page: Page) -> dict[str, int]:
    """How many handlers the page has for each of its events (Playwright's own and the audit's)."""
    emitter = page._impl_obj  # the page's event emitter, under Playwright's sync interface
    return {event: emitter.listener_count(event) for event in emitter.event_names()}


class _JourneyContext:
    """The browser context and page that the journeys of a test process opened with the defaults take in
    turn. A page opened in a new context makes the browser start a process for it and read and compile
    the application again (docs/performance.md, "The test suite"); here a journey finds them ready.
    Between two journeys only what the browser keeps of the application's files stays: the cookies,
    the storage of the application's origin, the routes, the permissions, the other pages, the
    window's size and what the journey set the page to listen to go (a page that listened, or whose
    journey failed, is replaced by a new one)."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self._open()

    def _open(self) -> None:
        self.context = self.browser.new_context(**CONTEXT_DEFAULTS)
        self.watching = _audited(self.context, self.base_url)
        self._new_page()

    def _new_page(self) -> None:
        self.page = self.context.new_page()
        self.listening = _listeners(self.page)

    def begin(self) -> Audit:
        self.watching.audit = Audit()
        return self.watching.audit

    def make_ready(self, *, failed: bool) -> None:
        self.watching.audit = Audit()  # what leaving the journey's pages says is no journey's
        try:
            self.context.unroute_all(behavior="ignoreErrors")
            for other in self.context.pages:
                if other is not self.page:
                    other.close()
            if failed or self.page.is_closed() or _listeners(self.page) != self.listening:
                if not self.page.is_closed():
                    self.page.close()
                self._new_page()
            self.page.unroute_all(behavior="ignoreErrors")
            if self.page.viewport_size != CONTEXT_DEFAULTS["viewport"]:
                self.page.set_viewport_size(CONTEXT_DEFAULTS["viewport"])
            self.context.clear_permissions()
            self.context.clear_cookies()
            self.page.goto(LIGHT_PAGE.format(base_url=self.base_url))
            self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear() }")
        except PlaywrightError:
            self.close()
            self._open()

    def close(self) -> None:
        try:
            self.context.close()
        except PlaywrightError:
            pass


def pytest_collection_finish(session: pytest.Session) -> None:
    startup.resume_collector()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes() -> None:
    """xdist's controller collects no journey: it resumes the collector as it starts its workers."""
    startup.resume_collector()
