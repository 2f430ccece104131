"""Notification preferences, in French and English (the page's words and the outbox's labels differ):
a person opens "Messages I receive" from the account menu and chooses never to be e-mailed mediation
invitations; a mediation is scheduled with them, led by a colleague; the administrator's outbox shows the
colleague's invitation queued and none for the person. The person then chooses the daily digest; the
mediation's date changes, and the outbox shows the person's new invitation kept for the digest.

axe checks every page on the way (conftest)."""

from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect

from conftest import DEMO_PASSWORD, IN_EACH_LANGUAGE, admin_client, sign_in

TEXTS: dict[str, dict[str, str]] = {
    "fr": {
        "account": "Compte",
        "menu": "Messages que je reçois",
        "invitation": "Invitation à une médiation planifiée (agenda)",
        "never": "Jamais",
        "digest": "Récapitulatif quotidien",
        "save": "Enregistrer",
        "saved": "Vos choix sont enregistrés",
        "kind": "Invitation à une médiation",
        "queued": "En attente",
        "held": "Gardé pour le récapitulatif",
    },
    "en": {
        "account": "Account",
        "menu": "Messages I receive",
        "invitation": "Invitation to a scheduled mediation (calendar)",
        "never": "Never",
        "digest": "Daily digest",
        "save": "Save",
        "saved": "Your choices are saved",
        "kind": "Mediation invitation",
        "queued": "Queued",
        "held": "Kept for the digest",
    },
}


def _instant(days: int) -> str:
    moment = datetime.now(UTC).replace(microsecond=0, second=0) + timedelta(days=days)
    return moment.isoformat().replace("+00:00", "Z")


def _choose(page: Page, base_url: str, texts: dict[str, str], mode: str) -> None:
    """From the account menu, the person sets mediation invitations to `mode` and saves."""
    page.goto(f"{base_url}/spotv2/dashboards/mine")
    page.get_by_role("button", name=texts["account"], exact=True).click()
    page.get_by_role("menuitem", name=texts["menu"]).click()
    expect(page.get_by_role("heading", name=texts["menu"])).to_be_visible()
    invitation = page.get_by_role("radiogroup", name=texts["invitation"])
    invitation.get_by_role("radio", name=texts[mode]).check()
    page.get_by_role("button", name=texts["save"]).click()
    expect(page.get_by_role("status").filter(has_text=texts["saved"])).to_be_visible()
    page.reload()
    chosen = page.get_by_role("radiogroup", name=texts["invitation"]).get_by_role("radio", name=texts[mode])
    expect(chosen).to_be_checked()


@IN_EACH_LANGUAGE
def test_a_person_chooses_the_messages_they_receive_and_the_outbox_shows_what_was_queued(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    chooser_address = f"camille.choix.{language}@usine-demo.example"
    colleague_address = f"dominique.collegue.{language}@usine-demo.example"
    with admin_client(base_url) as api:
        ids = {}
        for login, first, last, address in (
            (f"camille.choix.{language}", "Camille", "Choix", chooser_address),
            (f"dominique.collegue.{language}", "Dominique", "Collègue", colleague_address),
        ):
            created = api.put(
                "/user/create",
                json={
                    "login": login,
                    "password": DEMO_PASSWORD,
                    "firstName": first,
                    "lastName": last,
                    "email": address,
                    "language": language,
                },
            )
            assert created.status_code == 200, created.text
            ids[login] = created.json()["id"]

    sign_in(page, base_url, f"camille.choix.{language}", language)
    _choose(page, base_url, texts, "never")

    title = f"Préférences {language}"
    # The colleague leads it (invited as its mediator); the person takes part.
    people = {
        "mediator": ids[f"dominique.collegue.{language}"],
        "participants": [ids[f"camille.choix.{language}"]],
    }
    with admin_client(base_url) as api:
        saved = api.post(
            "/mediation",
            json={"title": title, "schedulingDate": _instant(2), **people},
        )
        assert saved.status_code == 200, saved.text
        mediation_id = saved.json()["id"]

    sign_in(page, base_url, "admin", language, to="/spotv2/administration/outbox")
    invitations = page.get_by_role("row").filter(has_text=title).filter(has_text=texts["kind"])
    colleague = invitations.filter(has_text=colleague_address)
    expect(colleague).to_have_count(1)
    expect(colleague).to_contain_text(texts["queued"])
    expect(invitations.filter(has_text=chooser_address)).to_have_count(0)

    sign_in(page, base_url, f"camille.choix.{language}", language)
    _choose(page, base_url, texts, "digest")
    with admin_client(base_url) as api:
        changed = api.post(
            f"/mediation/{mediation_id}",
            json={"title": title, "schedulingDate": _instant(3), **people},
        )
        assert changed.status_code == 200, changed.text

    sign_in(page, base_url, "admin", language, to="/spotv2/administration/outbox")
    chooser = invitations.filter(has_text=chooser_address)
    expect(chooser).to_have_count(1)
    expect(chooser).to_contain_text(texts["held"])
    # The colleague, who chose nothing, is sent the change now.
    expect(colleague).to_have_count(2)
    expect(colleague.first).to_contain_text(texts["queued"])
