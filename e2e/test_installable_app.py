"""Spot as an app for phones and tablets (docs/installable-app.md): the browser's installability checks
pass (a manifest with its name, icons in the brand colour and My dashboard as its start, a service worker
controlling the pages); what the service worker keeps is Spot's own files, never an answer of the API;
offline, the app opens from what it keeps and says it is offline; signing out drops any other cache. The
pages an operator opens from a workstation's QR code (function, subject, mind map, resources) fit a
390 px phone, every control at least 24 px for a thumb."""

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from test_screens import PHONE, ids_by_name, page_width

from conftest import IN_EACH_LANGUAGE, audited_context, sign_in

TEXTS = {
    "fr": {
        "offline": "Hors ligne : Spot s'ouvre",
        "dashboard": "Mon tableau de bord",
        "account": "Compte",
        "logout": "Se déconnecter",
        "mindMap": "Carte mentale",
        "resources": "Ressources",
    },
    "en": {
        "offline": "Offline: Spot opens",
        "dashboard": "My dashboard",
        "account": "Account",
        "logout": "Log out",
        "mindMap": "Mind map",
        "resources": "Resources",
    },
}

CACHED_URLS = """async () => {
    const urls = []
    for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
    }
    return urls
}"""


def controlled(page: Page) -> None:
    """The page is served through Spot's service worker (installed, activated, claiming its pages)."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")


@IN_EACH_LANGUAGE
def test_spot_installs_as_an_app_and_opens_offline(
    browser: Browser, base_url: str, language: str, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    profile = tmp_path / "profile"
    # Its twin in the other language sees the same pages in that one (other_language=False).
    with audited_context(
        browser, base_url, profile=profile, service_workers="allow", viewport=PHONE, other_language=False
    ) as context:
        page = context.new_page()
        sign_in(page, base_url, "operatrice", language)
        page.goto(f"{base_url}/spotv2/dashboards/mine")
        controlled(page)

        # The browser's own installability checks, and the manifest it read.
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        assert manifest["url"] == f"{base_url}/spotv2/manifest.webmanifest"
        parsed = page.evaluate("async (url) => (await fetch(url)).json()", manifest["url"])
        assert (parsed["name"], parsed["start_url"], parsed["scope"]) == (
            "Spot",
            "/spotv2/dashboards/mine",
            "/spotv2/",
        )
        assert parsed["display"] == "standalone" and parsed["theme_color"] == "#0074C8"
        assert {"192x192", "512x512"} <= {icon["sizes"] for icon in parsed["icons"]}
        assert any(icon["purpose"] == "maskable" for icon in parsed["icons"])

        # What it keeps: the shell and Spot's files, no answer of the API.
        kept = page.evaluate(CACHED_URLS)
        assert f"{base_url}/spotv2/index.html" in {url.split("?")[0] for url in kept}
        assert any("/spotv2/assets/" in url for url in kept)
        assert not [url for url in kept if "/backend/" in url]

        # Offline: the app opens from what it keeps and says so (in a page opened offline: Chromium's
        # offline emulation does not follow a page's reload through its service worker).
        context.set_offline(True)
        offline = context.new_page()
        offline.goto(f"{base_url}/spotv2/dashboards/mine")
        expect(offline.get_by_role("status").filter(has_text=texts["offline"])).to_be_visible()
        expect(offline.get_by_role("heading", level=1, name=texts["dashboard"])).to_be_visible()
        offline.close()
        context.set_offline(False)
        page.reload()
        expect(page.get_by_role("heading", level=1).first).to_be_visible()
        expect(page.get_by_role("status").filter(has_text=texts["offline"])).to_have_count(0)

        # Signing out drops every cache but Spot's own files.
        keep = "async () => (await caches.open('answers-of-a-session')).put('/spotv2/x', new Response('x'))"
        page.evaluate(keep)
        page.goto(f"{base_url}/spotv2/logout")
        page.wait_for_url("**/spotv2/login**")
        names = page.evaluate("async () => caches.keys()")
        assert "answers-of-a-session" not in names
        assert any(name.startswith("workbox-precache") for name in names)
        # With only Spot's own files kept, signing in again opens My dashboard.
        sign_in(page, base_url, "operatrice", language)


THUMB = 24  # px: WCAG 2.2's smallest target (2.5.8)


@pytest.mark.parametrize("language", ["fr"])
def test_the_pages_a_qr_code_opens_fit_a_phone_and_a_thumb(
    browser: Browser, base_url: str, language: str
) -> None:
    function = ids_by_name(base_url, "/function/query")["Opérateur régleur"]
    subject = ids_by_name(base_url, "/subject/query")["Réglage du tour à commande numérique"]
    texts = TEXTS[language]
    pages = {
        "function": f"/spotv2/function/{function}",
        "subject": f"/spotv2/subject/{subject}",
        "mind map": f"/spotv2/subject/{subject}/mindmap",
    }
    with audited_context(browser, base_url, viewport=PHONE) as context:
        page = context.new_page()
        sign_in(page, base_url, "operatrice", language)
        for name, path in pages.items():
            page.goto(f"{base_url}{path}")
            expect(page.get_by_role("heading", level=1).first).to_be_visible()
            page.wait_for_load_state("networkidle")
            assert page_width(page) <= PHONE["width"], name
            small = page.evaluate(
                """(thumb) => [...document.querySelectorAll('main button, main a[href], main [role=button]')]
                    .filter((e) => e.offsetParent !== null)
                    .map((e) => [e.getBoundingClientRect(), e.ariaLabel || e.textContent.trim()])
                    .filter(([box]) => box.width > 0 && (box.width < thumb || box.height < thumb))
                    .filter(([, label]) => !/^\\s*$/.test(label))
                    .map(([box, label]) => `${label} ${Math.round(box.width)}x${Math.round(box.height)}`)""",
                THUMB,
            )
            assert small == [], (name, small)
        # The resources of the subject: its gallery, at the top of its page.
        page.goto(f"{base_url}{pages['subject']}")
        gallery = page.get_by_role("region", name=texts["resources"], exact=True)
        expect(gallery).to_be_visible()
        assert page_width(page) <= PHONE["width"]
