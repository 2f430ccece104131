"""Cartography visibility per group: an administrator shows a hidden cartography to the demo group
'Opérateurs', after the screen asked before dropping unsaved changes; a member of that group then
opens the cartography that was Forbidden to them."""

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import DEMO_PASSWORD, admin_client, audited_context

GROUP = "Opérateurs"


def sign_in(page: Page, base_url: str, login: str) -> None:
    page.goto(f"{base_url}/spotv2/login")
    page.get_by_label("Identifiant").fill(login)
    page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Se connecter", exact=True).click()
    expect(page).not_to_have_url(re.compile(r"/login"))


@pytest.fixture
def admin_api(base_url: str) -> Iterator[httpx.Client]:
    with admin_client(base_url) as client:
        yield client


@pytest.fixture
def demo(admin_api: httpx.Client) -> Iterator[dict[str, int]]:
    """Ids of the demo's cartographies by code and of the group; the group's visibility is put back after
    the test, for the other journeys that rely on it."""
    ids = {c["code"]: c["id"] for c in admin_api.get("/cartography").json()}
    ids["group"] = next(g["id"] for g in admin_api.get("/permission/list").json() if g["name"] == GROUP)
    before = admin_api.get(f"/permission/allowedItemsForGroup/{ids['group']}").json()
    assert before == {"restricted": True, "items": [{"itemType": "cartography", "itemId": ids["USI"]}]}
    yield ids
    admin_api.post(f"/permission/allowedItemsForGroup/{ids['group']}", json=before).raise_for_status()


def test_an_administrator_shows_a_hidden_cartography_to_a_group(
    page: Page, browser: Browser, base_url: str, demo: dict[str, int]
) -> None:
    assembly = f"{base_url}/spotv2/cartography/{demo['ASM']}"
    with audited_context(browser, base_url) as learner_context:
        learner = learner_context.new_page()
        sign_in(learner, base_url, "apprenant")
        learner.goto(assembly)
        expect(learner).to_have_url(re.compile(r"/spotv2/forbidden$"))

        sign_in(page, base_url, "admin")
        page.get_by_role("link", name="Visibilité des cartographies", exact=True).click()
        expect(page).to_have_url(re.compile(r"/spotv2/administration/cartographies/permissions$"))
        expect(page.get_by_role("heading", name="Visibilité des cartographies", exact=True)).to_be_visible()
        page.get_by_role("combobox", name="Groupe").click()
        page.get_by_role("option", name=GROUP, exact=True).click()
        expect(page.get_by_role("switch", name="Limité aux cartographies et éléments cochés")).to_be_checked()
        expect(page.get_by_role("checkbox", name="Atelier d'usinage", exact=True)).to_be_checked()
        ligne = page.get_by_role("checkbox", name="Ligne d'assemblage", exact=True)
        expect(ligne).not_to_be_checked()
        page.get_by_role("button", name="Afficher les activités et fonctions de Ligne d'assemblage").click()
        expect(page.get_by_text("Opérateur de montage", exact=True)).to_be_visible()

        ligne.check()
        # Switching group now would drop the change: the screen asks, and staying keeps it.
        page.get_by_role("combobox", name="Groupe").click()
        page.get_by_role("option", name="Référents", exact=True).click()
        dialog = page.get_by_role("dialog", name="Modifications non enregistrées")
        expect(dialog.get_by_text("Des modifications non enregistrées seront perdues")).to_be_visible()
        dialog.get_by_role("button", name="Annuler", exact=True).click()
        expect(dialog).to_be_hidden()
        expect(ligne).to_be_checked()

        page.get_by_role("button", name="Enregistrer", exact=True).click()
        expect(page.get_by_text(f"La visibilité du groupe {GROUP} est enregistrée.")).to_be_visible()
        expect(page.get_by_role("button", name="Enregistrer", exact=True)).to_be_disabled()

        learner.goto(assembly)
        expect(learner.get_by_role("heading", name="Ligne d'assemblage", exact=True)).to_be_visible()
        expect(learner).to_have_url(re.compile(rf"/spotv2/cartography/{demo['ASM']}$"))


def _ids(nodes: list[dict]) -> dict[str, int]:
    """The ids of an activity tree's activities by code, at every depth."""
    return {code: i for n in nodes for code, i in ((n["code"], n["id"]), *_ids(n["activities"]).items())}


def test_an_administrator_limits_a_cartography_to_some_of_its_activities(
    page: Page, browser: Browser, base_url: str, demo: dict[str, int], admin_api: httpx.Client
) -> None:
    activities = _ids(admin_api.get(f"/cartography/{demo['USI']}").json()["activities"])
    query = {"filter": f"activity oneOf {activities['USI-TOU']}", "sort": "code"}
    in_tournage = admin_api.post("/subject/query", json=query).json()["results"][0]
    with audited_context(browser, base_url) as learner_context:
        learner = learner_context.new_page()
        sign_in(learner, base_url, "apprenant")
        learner.goto(f"{base_url}/spotv2/subject/{in_tournage['id']}")
        expect(learner.get_by_role("heading", name=in_tournage["name"], exact=True)).to_be_visible()

        sign_in(page, base_url, "admin")
        page.goto(f"{base_url}/spotv2/administration/cartographies/permissions?groupId={demo['group']}")
        expect(page.get_by_role("checkbox", name="Atelier d'usinage", exact=True)).to_be_checked()
        page.get_by_role("button", name="Afficher les activités et fonctions de Atelier d'usinage").click()
        # The whole cartography shows every activity ticked; unticking one limits it to the others.
        expect(page.get_by_role("checkbox", name="Activité Tournage", exact=True)).to_be_checked()
        page.get_by_role("checkbox", name="Activité Usinage", exact=True).uncheck()
        expect(page.get_by_role("checkbox", name="Activité Tournage", exact=True)).not_to_be_checked()
        expect(page.get_by_role("checkbox", name="Activité Réception matière", exact=True)).to_be_checked()
        expect(page.get_by_role("checkbox", name="Atelier d'usinage", exact=True)).not_to_be_checked()
        page.get_by_role("button", name="Enregistrer", exact=True).click()
        expect(page.get_by_text(f"La visibilité du groupe {GROUP} est enregistrée.")).to_be_visible()

        # The learner still opens the cartography, but no longer what lies under Usinage.
        learner.goto(f"{base_url}/spotv2/subject/{in_tournage['id']}")
        expect(learner).to_have_url(re.compile(r"/spotv2/forbidden$"))
        learner.goto(f"{base_url}/spotv2/cartography/{demo['USI']}")
        expect(learner.get_by_role("heading", name="Atelier d'usinage", exact=True)).to_be_visible()
