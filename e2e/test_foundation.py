"""The foundation's journeys: guarded deep link, wrong password, language switch, logout across tabs; and
the accessibility audit every journey runs under (conftest.audited_context, accessibility.js)."""

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import DEMO_PASSWORD, audited_context


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


def test_the_audit_fails_a_journey_on_a_serious_violation_and_skips_only_rules_that_cannot_be(
    browser: Browser, base_url: str
) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"image-alt \(critical\)"):
        with audited_context(browser, base_url, other_language=False) as context:
            page = context.new_page()
            page.goto(f"{base_url}/spotv2/login")
            expect(page.get_by_label("Identifiant")).to_be_visible()
            # Rules whose checks are all minor or moderate are not run; those that can be serious are.
            not_run = set(page.evaluate("() => window.__spotAxe.rulesNotRun()"))
            assert {"region", "heading-order", "landmark-one-main", "page-has-heading-one"} <= not_run
            serious = {"image-alt", "color-contrast", "label", "button-name", "aria-required-children"}
            assert not not_run & serious
            # A dialog opened with an image that says nothing of itself: the audit checks it and fails.
            page.evaluate(
                """() => {
                    const dialog = document.createElement('div')
                    dialog.setAttribute('role', 'dialog')
                    dialog.setAttribute('aria-label', 'Essai')
                    dialog.innerHTML = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
                    document.body.append(dialog)
                }"""
            )
