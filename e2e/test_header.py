"""The header's plus menu (in English) and bell (in French), and the whole header on a phone in each
language."""

import re

import httpx
from playwright.sync_api import Locator, Page, expect

from conftest import API, DEMO_PASSWORD, IN_EACH_LANGUAGE, admin_client, in_language, sign_in

TEXTS = {
    "fr": {
        "create": "Créer",
        "newSubject": "Nouveau sujet",
        "bell": "Alertes",
        "awaiting": "En attente de votre part",
        "changed": "« {name} » a changé depuis votre dernière visite",
    },
    "en": {
        "create": "Create",
        "newSubject": "New subject",
        "bell": "Alerts",
        "awaiting": "Awaiting you",
        "changed": "“{name}” changed since your last visit",
    },
}
# A follower per language, so that each journey finds its own alert.
FOLLOWERS = {"fr": ("manager", "ASM-010"), "en": ("formation", "ASM-011")}


def bell(page: Page, language: str) -> Locator:
    return page.get_by_role("banner").get_by_role("button", name=re.compile(f"^{TEXTS[language]['bell']}"))


@in_language("en")
def test_the_plus_menu_leads_to_the_new_subject_page(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "createur", language)
    page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True).click()
    menu = page.get_by_role("menu")
    # The subject, then the mediations, which any signed-in user may create.
    expect(menu.get_by_role("menuitem")).to_have_count(3)
    menu.get_by_role("menuitem", name=texts["newSubject"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/subject/add$"))
    expect(page.get_by_role("heading", name=texts["newSubject"], exact=True)).to_be_visible()


def test_the_plus_menu_offers_only_mediations_without_perm_edit_pdv(page: Page, base_url: str) -> None:
    sign_in(page, base_url, "apprenant", "fr")
    page.get_by_role("banner").get_by_role("button", name="Créer", exact=True).click()
    menu = page.get_by_role("menu")
    expect(menu.get_by_role("menuitem")).to_have_text(
        ["Nouvelle médiation", "Créer et démarrer une médiation"]
    )


def _followed_then_changed(base_url: str, follower: str, code: str) -> dict:
    """The follower follows the subject, then the administrator rates it: it changed since their visit."""
    with admin_client(base_url) as admin:
        subjects = admin.post("/subject/query", json={"filter": "", "sort": "code", "pageSize": 200})
        subject = next(s for s in subjects.json()["results"] if s["code"] == code)
        token = httpx.post(
            f"{base_url}{API}/account/login",
            json={"username": follower, "password": DEMO_PASSWORD, "returnUrl": ""},
        ).json()["token"]
        followed = httpx.post(
            f"{base_url}{API}/subject/{subject['id']}/follow",
            headers={"x-access-token": token},
        )
        assert followed.status_code == 200, followed.text
        rated = admin.post(
            f"/subject/{subject['id']}/rate",
            json={"frequency": 2, "gravity": 2, "detectability": 0},
        )
        assert rated.status_code == 200, rated.text
    return subject


@in_language("fr")
def test_the_bell_leads_to_a_followed_subject_that_changed(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    follower, code = FOLLOWERS[language]
    subject = _followed_then_changed(base_url, follower, code)
    sign_in(page, base_url, follower, language)
    expect(bell(page, language)).to_have_accessible_name(re.compile(r"\d"))
    expect(bell(page, language).locator(".MuiBadge-badge")).to_be_visible()
    bell(page, language).click()
    panel = page.get_by_role("dialog", name=texts["awaiting"], exact=True)
    alert = panel.get_by_role(
        "link",
        name=re.compile(re.escape(texts["changed"].format(name=subject["name"]))),
    )
    expect(alert).to_be_visible()
    alert.click()
    expect(page).to_have_url(re.compile(rf"/spotv2/subject/{subject['id']}$"))
    expect(page.get_by_role("heading", name=subject["name"], exact=True)).to_be_visible()
    # Visited, the subject no longer awaits the follower.
    page.reload()
    bell(page, language).click()
    expect(page.get_by_role("dialog", name=texts["awaiting"], exact=True)).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(re.escape(subject["name"])))).to_have_count(0)


def _controls(page: Page) -> list[tuple[str, dict]]:
    """The visible controls of the header with their boxes."""
    found = []
    for control in page.get_by_role("banner").locator("button, a, input").all():
        if control.is_visible():
            box = control.bounding_box()
            assert box is not None
            found.append((control.get_attribute("aria-label") or control.inner_text(), box))
    return found


def _misplaced(page: Page, width: int) -> list[str]:
    """The header's controls not wholly within the window's width, and those overlapping another."""
    controls = _controls(page)
    out = [name for name, box in controls if box["x"] < 0 or box["x"] + box["width"] > width + 0.5]
    for i, (name, box) in enumerate(controls):
        for other, other_box in controls[i + 1 :]:
            overlap_x = min(box["x"] + box["width"], other_box["x"] + other_box["width"]) - max(
                box["x"], other_box["x"]
            )
            overlap_y = min(box["y"] + box["height"], other_box["y"] + other_box["height"]) - max(
                box["y"], other_box["y"]
            )
            if overlap_x > 1 and overlap_y > 1:
                out.append(f"{name} over {other}")
    return out


@IN_EACH_LANGUAGE
def test_the_header_fits_a_phone(page: Page, base_url: str, language: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    texts = TEXTS[language]
    sign_in(page, base_url, "admin", language)
    expect(bell(page, language)).to_be_visible()
    expect(page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True)).to_be_visible()
    assert _misplaced(page, 390) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The user's name is left out on a phone; the account menu says who is signed in.
    expect(page.get_by_role("banner").get_by_text("Alice Martin")).to_be_hidden()
    bell(page, language).click()
    panel = page.get_by_role("dialog", name=texts["awaiting"], exact=True)
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(bell(page, language)).to_be_focused()
    page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True).click()
    expect(page.get_by_role("menuitem", name=texts["newSubject"], exact=True)).to_be_visible()
    page.keyboard.press("Escape")
    # Between a phone and a laptop, where the search icon becomes a field, nothing overlaps either.
    for width in (600, 900, 1366):
        page.set_viewport_size({"width": width, "height": 768})
        expect(page.get_by_role("banner").get_by_role("combobox")).to_be_visible()
        assert _misplaced(page, width) == [], width


def test_the_bell_is_used_with_the_keyboard(page: Page, base_url: str) -> None:
    subject = _followed_then_changed(base_url, "mediateur", "ASM-012")
    sign_in(page, base_url, "mediateur", "fr")
    bell(page, "fr").focus()
    page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="En attente de votre part", exact=True)
    expect(panel).to_be_visible()
    link = panel.get_by_role("link", name=re.compile(re.escape(subject["name"])))
    for _ in range(10):
        page.keyboard.press("Tab")
        if link.evaluate("element => element === document.activeElement"):
            break
    expect(link).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"/spotv2/subject/{subject['id']}$"))
