"""The foundation's journeys: guarded deep link, wrong password, language switch, logout across tabs."""

import re

from playwright.sync_api import BrowserContext, Page, expect

from conftest import DEMO_PASSWORD


def sign_in(page: Page, login: str, password: str = DEMO_PASSWORD) -> None:
    page.get_by_label("Identifiant").fill(login)
    page.get_by_label("Mot de passe").fill(password)
    page.get_by_role("button", name="Se connecter").click()


def test_a_guarded_deep_link_goes_through_login_and_back(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/spotv2/administration/permissions?focus=1")
    expect(page).to_have_url(
        re.compile(r"/spotv2/login\?returnUrl=(/|%2F)spotv2(/|%2F)administration(/|%2F)permissions.*focus=1")
    )
    sign_in(page, "admin")
    expect(page).to_have_url(re.compile(r"/spotv2/administration/permissions\?focus=1$"))
    expect(page.get_by_role("heading", name="Droits des groupes")).to_be_visible()
    expect(page.get_by_role("banner").get_by_text("Alice Martin")).to_be_visible()
    expect(page.get_by_role("rowheader", name="Administrateurs")).to_be_visible()


def test_a_wrong_password_is_refused_with_the_spec_message(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/spotv2/login")
    sign_in(page, "admin", "not-the-password")
    expect(page.get_by_text("Identifiant ou mot de passe incorrect. Connexion refusée")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/spotv2/login"))
    # The owner's next sign-in tells them of the wrong password, once, before going on.
    sign_in(page, "admin")
    expect(page.get_by_role("alert")).to_contain_text("1 mot de passe erroné a été saisi")
    page.get_by_role("button", name="Continuer").click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/mine$"))


def test_the_interface_switches_to_english_and_remembers_it(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/spotv2/login")
    expect(page.get_by_role("button", name="Se connecter")).to_be_visible()
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    page.get_by_label("Login").fill("manager")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("banner").get_by_text("Bernard Dubois")).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name="Account")).to_be_visible()


def test_logging_out_in_one_tab_sends_the_other_tab_to_login(context: BrowserContext, base_url: str) -> None:
    first = context.new_page()
    first.goto(f"{base_url}/spotv2/login")
    sign_in(first, "admin")
    expect(first.get_by_role("banner").get_by_text("Alice Martin")).to_be_visible()
    second = context.new_page()
    second.goto(f"{base_url}/spotv2/administration/users")
    # The header names the signed-in user (the users list below names her too).
    expect(second.get_by_role("banner").get_by_text("Alice Martin")).to_be_visible()

    first.get_by_role("button", name="Compte").click()
    first.get_by_role("menuitem", name="Se déconnecter").click()
    expect(first).to_have_url(re.compile(r"/spotv2/login"))
    expect(second).to_have_url(re.compile(r"/spotv2/login"))
