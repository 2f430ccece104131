"""The list journeys: build a filter in the editor, save it as the default, reopen the list with
applyDefaultFilter=true; a second window cannot erase a filter saved in the first; a long list
loads as it scrolls and reaches a targeted item; the client's printed filters parse, on the real
server, to the trees the client expects."""

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from conftest import DEMO_PASSWORD, ROOT, admin_client

USERS = "/spotv2/administration/users"
FIXTURE = ROOT / "frontend" / "src" / "lib" / "querylang" / "roundtrip.fixture.json"


def sign_in(page: Page, login: str) -> None:
    page.get_by_label("Identifiant").fill(login)
    page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Se connecter").click()


def test_a_filter_built_in_the_editor_and_saved_as_default_comes_back_with_apply_default_filter(
    page: Page, base_url: str
) -> None:
    page.goto(f"{base_url}{USERS}")
    sign_in(page, "admin")
    cards = page.get_by_role("article")
    expect(page.get_by_role("status")).to_have_text("9 utilisateurs")
    expect(cards).to_have_count(9)

    page.get_by_role("button", name="Filtrer").click()
    page.get_by_role("button", name="Ajouter un critère", exact=True).click()
    criterion = page.get_by_role("group", name="Critère 1")
    criterion.get_by_role("combobox", name="Champ").click()
    page.get_by_role("option", name="Nom", exact=True).click()
    expect(criterion.get_by_role("combobox", name="Opérateur")).to_have_text("contient")
    criterion.get_by_role("textbox", name="Valeur").fill("ou")
    page.get_by_role("button", name="Appliquer").click()

    expect(page).to_have_url(re.compile(r"/administration/users/last_name%20contains%20ou$"))
    expect(page.get_by_role("status")).to_have_text("2 utilisateurs")
    expect(cards).to_have_count(2)
    expect(page.get_by_role("article", name="Hélène Fournier")).to_be_visible()
    expect(page.get_by_role("article", name="Gabriel Roux")).to_be_visible()

    page.get_by_role("button", name="Filtres enregistrés").click()
    page.get_by_role("button", name="Enregistrer le filtre actuel…").click()
    dialog = page.get_by_role("dialog", name="Enregistrer le filtre actuel")
    dialog.get_by_role("textbox", name="Nom").fill("Noms en « ou »")
    dialog.get_by_role("checkbox", name="En faire mon filtre par défaut").check()
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_text("Filtre enregistré")).to_be_visible()
    expect(dialog).to_be_hidden()

    page.goto(f"{base_url}{USERS}")
    expect(page.get_by_role("status")).to_have_text("9 utilisateurs")
    page.goto(f"{base_url}{USERS}?applyDefaultFilter=true")
    expect(page).to_have_url(re.compile(r"/administration/users/last_name%20contains%20ou$"))
    expect(page.get_by_role("status")).to_have_text("2 utilisateurs")
    expect(cards).to_have_count(2)
    expect(page.get_by_role("group", name="Filtre :")).to_contain_text("Nom contient « ou »")


@pytest.fixture
def saved_filters_kept(base_url: str) -> Iterator[None]:
    """The admin's saved filters of users as they were before the test."""
    with admin_client(base_url) as api:
        before = api.get("/account/filters").raise_for_status().json().get("user", {}).get("filters", [])
        yield
        version = api.get("/account/filters").raise_for_status().json().get("user", {}).get("version", 0)
        saved = {"entityType": "user", "filters": before, "version": version}
        api.post("/account/filters", json=saved).raise_for_status()


def save_current_filter(page: Page, name: str) -> Locator:
    page.get_by_role("button", name="Filtres enregistrés").click()
    page.get_by_role("button", name="Enregistrer le filtre actuel…").click()
    dialog = page.get_by_role("dialog", name="Enregistrer le filtre actuel")
    dialog.get_by_role("textbox", name="Nom").fill(name)
    dialog.get_by_role("button", name="Enregistrer").click()
    return dialog


def test_a_second_window_cannot_erase_a_filter_saved_in_the_first(
    page: Page, base_url: str, saved_filters_kept: None
) -> None:
    page.goto(f"{base_url}{USERS}/last_name%20contains%20ou")
    sign_in(page, "admin")
    expect(page.get_by_role("status")).to_have_text("2 utilisateurs")
    other = page.context.new_page()
    other.goto(f"{base_url}{USERS}/login%20startsWith%20a")
    expect(other.get_by_role("status")).to_have_text(re.compile("utilisateur"))

    first = save_current_filter(page, "Depuis la première fenêtre")
    expect(first).to_be_hidden()
    second = save_current_filter(other, "Depuis la seconde fenêtre")
    expect(second.get_by_role("alert")).to_contain_text("modifiés entre-temps dans une autre fenêtre")
    expect(second.get_by_role("textbox", name="Nom")).to_have_value("Depuis la seconde fenêtre")
    second.get_by_role("button", name="Enregistrer").click()
    expect(second).to_be_hidden()

    other.get_by_role("button", name="Filtres enregistrés").click()
    menu = other.get_by_role("dialog", name="Filtres enregistrés")
    expect(menu.get_by_text("Depuis la première fenêtre")).to_be_visible()
    expect(menu.get_by_text("Depuis la seconde fenêtre")).to_be_visible()


@pytest.fixture
def page_and_more_users(base_url: str) -> Iterator[list[int]]:
    """55 users, a page of 50 and more, whose last names sort Zz001 to Zz055; removed afterwards."""
    with admin_client(base_url) as api:
        ids = [
            api.put(
                "/user/create",
                json={
                    "login": f"liste{n:03}",
                    "password": "long-enough-pw",
                    "firstName": "Liste",
                    "lastName": f"Zz{n:03}",
                },
            )
            .raise_for_status()
            .json()["id"]
            for n in range(1, 56)
        ]
        yield ids
        for user_id in ids:
            api.delete(f"/user/byId/{user_id}").raise_for_status()


def test_a_long_list_loads_as_it_scrolls_and_reaches_a_targeted_item(
    page: Page, base_url: str, page_and_more_users: list[int]
) -> None:
    filtered = f"{base_url}{USERS}/last_name%20startsWith%20zz"
    page.goto(filtered)
    sign_in(page, "admin")
    expect(page.get_by_role("status")).to_have_text("55 utilisateurs")
    last = page.get_by_role("article", name="Liste Zz055")
    expect(last).to_have_count(0)
    for _ in range(40):
        if last.count() > 0:
            break
        page.mouse.wheel(0, 2000)
        page.wait_for_timeout(100)
    # The last page has arrived; the card is the list's last, so scrolling to the end shows it.
    expect(last).to_have_count(1)
    page.mouse.wheel(0, 20000)
    expect(last).to_be_in_viewport()

    page.goto(f"{filtered}?target={page_and_more_users[52]}")
    target = page.get_by_role("article", name="Liste Zz053")
    expect(target).to_be_in_viewport()
    expect(page.get_by_role("article", name="Liste Zz001")).not_to_be_in_viewport()


def test_the_client_printed_filters_parse_on_the_server_to_the_expected_trees(base_url: str) -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    with admin_client(base_url) as api:
        for case in fixture["cases"]:
            answer = api.post(
                f"/querylang/{fixture['entityType']}/parse", json={"filter": case["text"], "sort": ""}
            )
            assert answer.status_code == 200, (case["name"], answer.text)
            assert answer.json()["filter"] == case["tree"], case["name"]
