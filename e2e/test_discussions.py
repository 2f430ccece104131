"""Discussions: a message posted in a subject's panel (Enter sends, Shift+Enter makes a new line), a rating
seen there as a system message, and the teamwork menu leading to a discussion with new messages, one in French
and one in English (their pages seen again in the other), with axe on each page, the panel and the menu."""

import re

from playwright.sync_api import Locator, Page, expect

from conftest import admin_client, in_language, sign_in

TEXTS = {
    "fr": {
        "open": "Discussion",
        "field": "Votre message",
        "send": "Envoyer",
        "messages": "Messages",
        "close": "Fermer",
        "rate": "Évaluer la criticité",
        "frequency": ("Fréquence", "^3 — "),
        "gravity": ("Gravité", "^2 — "),
        "confirm": "Confirmer",
        "criticity": "A évalué la criticité : fréquence 3/5, gravité 2/5",
        "teamwork": "^Discussions d'équipe",
        "newMessages": "Nouveaux messages",
        "subject": "Sujet · ",
    },
    "en": {
        "open": "Discussion",
        "field": "Your message",
        "send": "Send",
        "messages": "Messages",
        "close": "Close",
        "rate": "Rate the criticity",
        "frequency": ("Frequency", "^3 — "),
        "gravity": ("Gravity", "^2 — "),
        "confirm": "Confirm",
        "criticity": "Rated the criticity: frequency 3/5, gravity 2/5",
        "teamwork": "^Team discussions",
        "newMessages": "New messages",
        "subject": "Subject · ",
    },
}
# A user and a subject per language, so that each journey reads its own messages.
JOURNEYS = {"fr": ("referent", "USI-005"), "en": ("createur", "USI-006")}


def subject_id(base_url: str, code: str) -> int:
    with admin_client(base_url) as admin:
        found = admin.post("/subject/query", json={"filter": "", "sort": "code", "pageSize": 200}).json()
    return next(s["id"] for s in found["results"] if s["code"] == code)


def panel(page: Page, language: str) -> Locator:
    return page.get_by_role("dialog", name=TEXTS[language]["open"], exact=True)


@in_language("fr")
def test_a_message_and_a_rating_in_a_subjects_discussion(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    login, code = JOURNEYS[language]
    subject = subject_id(base_url, code)
    sign_in(page, base_url, login, language, to=f"/spotv2/subject/{subject}")
    page.get_by_role("button", name=texts["open"], exact=True).click()
    discussion = panel(page, language)
    expect(discussion).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?discussion=open$"))

    field = discussion.get_by_role("textbox", name=texts["field"], exact=True)
    field.fill("  Première ligne")
    field.press("Shift+Enter")
    field.press_sequentially("seconde ligne  ")
    expect(field).to_have_value("  Première ligne\nseconde ligne  ")
    field.press("Enter")
    expect(field).to_have_value("")
    messages = discussion.get_by_role("log", name=texts["messages"], exact=True)
    last = messages.get_by_role("listitem").last
    expect(last).to_contain_text("Première ligne\nseconde ligne")
    count = messages.get_by_role("listitem").count()
    # Blank: nothing is sent.
    field.fill("   ")
    field.press("Enter")
    expect(discussion.get_by_role("button", name=texts["send"], exact=True)).to_be_disabled()
    expect(messages.get_by_role("listitem")).to_have_count(count)

    discussion.get_by_role("button", name=texts["close"], exact=True).click()
    expect(discussion).to_be_hidden()
    page.get_by_role("button", name=texts["rate"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["rate"], exact=True)
    dialog.get_by_role("combobox", name=texts["frequency"][0], exact=True).click()
    page.get_by_role("option", name=re.compile(texts["frequency"][1])).click()
    dialog.get_by_role("combobox", name=texts["gravity"][0], exact=True).click()
    page.get_by_role("option", name=re.compile(texts["gravity"][1])).click()
    dialog.get_by_role("button", name=texts["confirm"], exact=True).click()
    expect(dialog).to_be_hidden()

    page.get_by_role("button", name=texts["open"], exact=True).click()
    messages = panel(page, language).get_by_role("log", name=texts["messages"], exact=True)
    expect(messages.get_by_role("listitem")).to_have_count(count + 1)
    expect(messages.get_by_role("listitem").last).to_contain_text(texts["criticity"])


@in_language("en")
def test_the_teamwork_menu_opens_a_discussion_with_new_messages(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    # The demo's administrator follows USI-003, where someone else wrote since; the journey of each
    # language posts there for the other one to find.
    subject = subject_id(base_url, "USI-003")
    with admin_client(base_url) as admin:
        discussion_id = admin.get(f"/subject/{subject}").json()["discussionId"]
    sign_in(page, base_url, "operatrice", language, to=f"/spotv2/subject/{subject}?discussion=open")
    field = panel(page, language).get_by_role("textbox", name=texts["field"], exact=True)
    field.fill(f"Nouveau message ({language})")
    field.press("Enter")
    expect(field).to_have_value("")
    page.context.clear_cookies()

    sign_in(page, base_url, "admin", language)
    page.get_by_role("banner").get_by_role("button", name=re.compile(texts["teamwork"])).click()
    menu = page.get_by_role("dialog", name=texts["newMessages"], exact=True)
    item = menu.get_by_role("link", name=re.compile(re.escape(texts["subject"])))
    expect(item.first).to_be_visible()
    link = menu.locator(f'a[href$="/subject/{subject}?discussion=open"]')
    expect(link).to_be_visible()
    link.click()
    expect(page).to_have_url(re.compile(rf"/spotv2/subject/{subject}\?discussion=open$"))
    messages = panel(page, language).get_by_role("log", name=texts["messages"], exact=True)
    expect(messages.get_by_role("listitem").last).to_contain_text(f"Nouveau message ({language})")
    assert discussion_id
    # Read: it leaves the menu.
    panel(page, language).get_by_role("button", name=texts["close"], exact=True).click()
    page.get_by_role("banner").get_by_role("button", name=re.compile(texts["teamwork"])).click()
    expect(
        page.get_by_role("dialog", name=texts["newMessages"], exact=True).locator(
            f'a[href$="/subject/{subject}?discussion=open"]'
        )
    ).to_have_count(0)
