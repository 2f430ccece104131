"""The mediation journey, in French and English (a date typed in each language's format): a creator schedules
a mediation for tomorrow with two participants; the mediator starts, pauses, resumes and stops it, writes the
report choosing the actions tracked meanwhile, and validates it; each participant signs, giving their password
again (their session made older than the 5 minutes a signature allows); the list shows it validated. The bells
of the mediator, the participants and the creator show what awaits each at every step. axe checks every page
and dialog on the way (conftest)."""

import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session

from conftest import DEMO_PASSWORD, IN_EACH_LANGUAGE, admin_client, in_language, sign_in
from spot.account.models import SessionToken
from spot.db import make_engine
from spot.users.models import User

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "create": "Créer",
        "newMediation": "Nouvelle médiation",
        "createAndStart": "Créer et démarrer une médiation",
        "startButton": "Créer et démarrer",
        "title": "Titre",
        "description": "Description",
        "date": "Date",
        "time": "Heure",
        "mediator": "Médiateur",
        "participants": "Participants",
        "save": "Enregistrer",
        "empty": "Ce champ ne peut pas rester vide",
        "bell": "Alertes",
        "awaiting": "En attente de votre part",
        "toReport": "Rédiger le compte rendu de la médiation « {} »",
        "toValidate": "Valider la médiation « {} »",
        "toSign": "Signer la médiation « {} »",
        "status": "Statut : {}",
        "statuses": {
            "created": "Créée",
            "started": "Démarrée",
            "paused": "En pause",
            "stopped": "Arrêtée",
            "validated": "Validée",
        },
        "start": "Démarrer",
        "pause": "Mettre en pause",
        "resume": "Reprendre",
        "stop": "Arrêter",
        "stopTitle": "Arrêter la médiation ?",
        "editReport": "Rédiger le compte rendu",
        "reportTitle": "Compte rendu de « {} »",
        "comment": "Commentaire",
        "saveAndValidate": "Enregistrer et valider",
        "sign": "Signer",
        "reauthenticate": "Confirmez votre identité pour signer",
        "password": "Mot de passe",
        "confirmSign": "Confirmer et signer",
        "signed": "Votre signature est enregistrée",
        "list": "Médiations",
        "scheduledOn": "Planifiée le {}",
        "validatedStep": "Validée : étape en cours",
        "needsParticipants": (
            "Le compte rendu ne peut être rédigé qu'avec des participants : ajoutez-les à la médiation."
        ),
        "addParticipants": "Ajouter des participants",
    },
    "en": {
        "create": "Create",
        "newMediation": "New mediation",
        "createAndStart": "Create and start a mediation",
        "startButton": "Create and start",
        "title": "Title",
        "description": "Description",
        "date": "Date",
        "time": "Time",
        "mediator": "Mediator",
        "participants": "Participants",
        "save": "Save",
        "empty": "This field can't stay empty",
        "bell": "Alerts",
        "awaiting": "Awaiting you",
        "toReport": "Write the report of the mediation “{}”",
        "toValidate": "Validate the mediation “{}”",
        "toSign": "Sign the mediation “{}”",
        "status": "Status: {}",
        "statuses": {
            "created": "Created",
            "started": "Started",
            "paused": "Paused",
            "stopped": "Stopped",
            "validated": "Validated",
        },
        "start": "Start",
        "pause": "Pause",
        "resume": "Resume",
        "stop": "Stop",
        "stopTitle": "Stop the mediation?",
        "editReport": "Edit the report",
        "reportTitle": "Report of “{}”",
        "comment": "Comment",
        "saveAndValidate": "Save and validate",
        "sign": "Sign",
        "reauthenticate": "Confirm your identity to sign",
        "password": "Password",
        "confirmSign": "Confirm and sign",
        "signed": "Your signature is recorded",
        "list": "Mediations",
        "scheduledOn": "Scheduled on {}",
        "validatedStep": "Validated: current step",
        "needsParticipants": "The report can only be written with participants: add them to the mediation.",
        "addParticipants": "Add participants",
    },
}
CREATOR = "createur"
MEDIATOR = ("mediateur", "David Moreau")
PARTICIPANTS = [("apprenant", "Gabriel Roux"), ("operatrice", "Hélène Fournier")]
TITLES = {"fr": "Réglage du tour en équipe", "en": "Lathe setting as a team"}


def plant_tomorrow() -> date:
    """Tomorrow on the plant's calendar (the browser's and the server's zone, Europe/Paris), which is
    not the machine's between 23:00 and midnight UTC."""
    return datetime.now(ZoneInfo("Europe/Paris")).date() + timedelta(days=1)


def open_bell(page: Page, language: str) -> Locator:
    texts = TEXTS[language]
    page.get_by_role("banner").get_by_role("button", name=re.compile(f"^{texts['bell']}")).click()
    panel = page.get_by_role("dialog", name=texts["awaiting"], exact=True)
    expect(panel).to_be_visible()
    expect(panel.get_by_role("progressbar")).to_have_count(0)  # the alerts are read
    return panel


def bell_entries(page: Page, language: str, title: str) -> list[str]:
    """The bell's sentences about this mediation; the bell is closed again afterwards."""
    panel = open_bell(page, language)
    links = panel.get_by_role("link").all()
    found = [link.inner_text().split("\n")[0] for link in links if title in link.inner_text()]
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    return found


def follow_bell(page: Page, language: str, sentence: str) -> None:
    panel = open_bell(page, language)
    panel.get_by_role("link", name=re.compile(re.escape(sentence))).click()


def pick(page: Page, label: str, text: str, option: str) -> None:
    field = page.get_by_role("combobox", name=re.compile(f"^{label}"))
    field.click()
    field.fill(text)
    page.get_by_role("option", name=option, exact=True).click()


def type_in_field(page: Page, label: str, digits: str) -> None:
    """Types digits into a date or time field, from its first section on (each full section moves on)."""
    page.get_by_role("group", name=re.compile(f"^{label}")).get_by_role("spinbutton").first.click()
    page.keyboard.type(digits)


def age_sessions(database_url: str, login: str) -> None:
    """The user's sessions proved who they are 10 minutes ago: a signature asks for the password again."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as db, db.begin():
            user_id = db.scalar(select(User.id).where(User.login == login))
            for session in db.scalars(select(SessionToken).where(SessionToken.user_id == user_id)):
                session.authenticated_at -= timedelta(minutes=10)
    finally:
        engine.dispose()


def a_subject(base_url: str) -> dict:
    with admin_client(base_url) as api:
        answer = api.post("/subject/query", json={"filter": "", "sort": "code", "page": 1, "pageSize": 1})
    return answer.json()["results"][0]


def schedule(page: Page, language: str, texts: dict, title: str) -> str:
    """The creator's part: the new mediation's form filled and saved; the view's address."""
    page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True).click()
    page.get_by_role("menu").get_by_role("menuitem", name=texts["newMediation"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["newMediation"], exact=True)).to_be_visible()
    page.get_by_role("textbox", name=re.compile(f"^{texts['title']}")).fill(title)
    description = page.get_by_role("textbox", name=texts["description"], exact=True)
    description.fill("Objectif : régler le tour.\nÀ deux.")
    pick(page, texts["mediator"], "David", MEDIATOR[1])
    for _, name in PARTICIPANTS:
        pick(page, texts["participants"], name.split()[0], name)
    tomorrow = plant_tomorrow()
    type_in_field(page, texts["date"], tomorrow.strftime("%d%m%Y" if language == "fr" else "%Y%m%d"))
    type_in_field(page, texts["time"], "1000")
    written = tomorrow.strftime("%d/%m/%Y" if language == "fr" else "%Y-%m-%d")
    expect(page.get_by_role("group", name=re.compile(f"^{texts['date']}"))).to_contain_text(written)
    page.get_by_role("button", name=texts["save"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/mediation/view/\d+$"))
    expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
    return page.url


def expect_status(page: Page, texts: dict, status: str) -> None:
    expect(page.get_by_label(texts["status"].format(texts["statuses"][status]), exact=True)).to_be_visible()


def status_change(page: Page, texts: dict, action: str, status: str) -> None:
    page.get_by_role("button", name=texts[action], exact=True).click()
    expect_status(page, texts, status)


@IN_EACH_LANGUAGE
def test_a_mediation_is_scheduled_run_reported_validated_and_signed(
    page: Page, base_url: str, database_url: str, language: str
) -> None:
    texts = TEXTS[language]
    title = TITLES[language]
    subject = a_subject(base_url)

    sign_in(page, base_url, CREATOR, language)
    view = schedule(page, language, texts, title)
    expect_status(page, texts, "created")
    assert bell_entries(page, language, title) == []
    page.goto(f"{base_url}/spotv2/mediations")
    card = page.get_by_role("article", name=title, exact=True)
    tomorrow = plant_tomorrow().strftime("%d/%m/%Y" if language == "fr" else "%Y-%m-%d")
    expect(card.get_by_text(texts["scheduledOn"].format(f"{tomorrow} 10:00"), exact=True)).to_be_visible()
    expect(card.get_by_text("Objectif : régler le tour.…", exact=True)).to_be_visible()

    # Nothing awaits a participant before the mediation is validated.
    sign_in(page, base_url, PARTICIPANTS[0][0], language)
    assert bell_entries(page, language, title) == []

    # The mediator: nothing to start before tomorrow in the bell, yet the mediation may start now.
    sign_in(page, base_url, MEDIATOR[0], language)
    assert bell_entries(page, language, title) == []
    page.goto(view)
    status_change(page, texts, "start", "started")
    # What the mediator does while the mediation runs is tracked for its report.
    page.goto(f"{base_url}/spotv2/subject/{subject['id']}")
    expect(page.get_by_role("heading", name=subject["name"], exact=True)).to_be_visible()
    page.goto(view)
    status_change(page, texts, "pause", "paused")
    status_change(page, texts, "resume", "started")
    page.get_by_role("button", name=texts["stop"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["stopTitle"], exact=True)
    dialog.get_by_role("button", name=texts["stop"], exact=True).click()
    expect(dialog).to_be_hidden()
    expect_status(page, texts, "stopped")

    assert bell_entries(page, language, title) == [texts["toReport"].format(title)]
    follow_bell(page, language, texts["toReport"].format(title))
    expect(page).to_have_url(view)
    page.get_by_role("link", name=texts["editReport"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["reportTitle"].format(title), exact=True)).to_be_visible()
    action = page.get_by_role("checkbox", name=re.compile(re.escape(subject["name"]))).first
    action.check()
    page.get_by_role("textbox", name=re.compile(f"^{texts['comment']}")).fill("Réglage fait ensemble.")
    page.get_by_role("button", name=texts["saveAndValidate"], exact=True).click()
    expect(page).to_have_url(view)
    expect_status(page, texts, "validated")
    assert bell_entries(page, language, title) == []

    # Each participant finds the signature awaited in the bell, and gives their password again.
    for login, name in PARTICIPANTS:
        sign_in(page, base_url, login, language)
        assert bell_entries(page, language, title) == [texts["toSign"].format(title)]
        age_sessions(database_url, login)
        follow_bell(page, language, texts["toSign"].format(title))
        expect(page).to_have_url(view)
        page.get_by_role("button", name=texts["sign"], exact=True).click()
        dialog = page.get_by_role("dialog", name=texts["reauthenticate"], exact=True)
        dialog.get_by_label(re.compile(f"^{texts['password']}")).fill(DEMO_PASSWORD)
        dialog.get_by_role("button", name=texts["confirmSign"], exact=True).click()
        expect(dialog).to_be_hidden()
        expect(page.get_by_text(texts["signed"], exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=texts["sign"], exact=True)).to_have_count(0)
        expect(page.get_by_text(name).first).to_be_visible()
        page.reload()
        assert bell_entries(page, language, title) == []

    # The creator sees it validated in the list, and nothing awaits them.
    sign_in(page, base_url, CREATOR, language)
    assert bell_entries(page, language, title) == []
    page.goto(f"{base_url}/spotv2/mediations")
    expect(page.get_by_role("heading", name=texts["list"], exact=True)).to_be_visible()
    card = page.get_by_role("article", name=title, exact=True)
    expect(card.locator("[aria-current=step]")).to_have_accessible_name(texts["validatedStep"])


@in_language("en")
def test_create_and_start_then_participants_added_once_stopped_allow_the_report(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    title = f"{TITLES[language]} (imprévue)"
    sign_in(page, base_url, "referent", language)
    page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True).click()
    page.get_by_role("menu").get_by_role("menuitem", name=texts["createAndStart"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["createAndStart"], exact=True)).to_be_visible()
    page.get_by_role("button", name=texts["startButton"], exact=True).click()
    expect(page.get_by_text(texts["empty"], exact=True)).to_be_visible()
    page.get_by_role("textbox", name=re.compile(f"^{texts['title']}")).fill(title)
    page.get_by_role("button", name=texts["startButton"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/mediation/view/\d+$"))
    expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
    expect_status(page, texts, "started")
    expect(page.get_by_role("button", name=texts["pause"], exact=True)).to_be_visible()

    # Stopped without participants, it says its report needs some, and leads to adding them.
    view = page.url
    page.get_by_role("button", name=texts["stop"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["stopTitle"], exact=True)
    dialog.get_by_role("button", name=texts["stop"], exact=True).click()
    expect_status(page, texts, "stopped")
    expect(page.get_by_text(texts["needsParticipants"], exact=True)).to_be_visible()
    expect(page.get_by_role("link", name=texts["editReport"], exact=True)).to_have_count(0)
    page.get_by_role("link", name=texts["addParticipants"], exact=True).click()
    name = PARTICIPANTS[0][1]
    pick(page, texts["participants"], name.split()[0], name)
    page.get_by_role("button", name=texts["save"], exact=True).click()
    expect(page).to_have_url(view)
    expect(page.get_by_text(texts["needsParticipants"], exact=True)).to_have_count(0)
    page.get_by_role("link", name=texts["editReport"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["reportTitle"].format(title), exact=True)).to_be_visible()
