"""The usage chart: a perm_VisuTrack holder sees a cartography's, a function's and a subject's views and
contributions per week, then per month, in French and English; others see no chart."""

import re

import pytest
from playwright.sync_api import Page, expect

from conftest import DEMO_PASSWORD, IN_EACH_LANGUAGE, admin_client

TEXTS = {
    "fr": {
        "signIn": ("Identifiant", "Mot de passe", "Se connecter"),
        "usage": "Fréquentation",
        "weeks": "Semaines",
        "months": "Mois",
        "perWeek": "Consultations et contributions par semaine",
        "perMonth": "Consultations et contributions par mois",
        "weekRow": re.compile(r"^Semaine du \d{2}.\d{2}.\d{4} \d+ \d+$"),
    },
    "en": {
        "signIn": ("Login", "Password", "Sign in"),
        "usage": "Usage",
        "weeks": "Weeks",
        "months": "Months",
        "perWeek": "Views and contributions per week",
        "perMonth": "Views and contributions per month",
        "weekRow": re.compile(r"^Week of \d{4}-\d{2}-\d{2} \d+ \d+$"),
    },
}


def sign_in(page: Page, base_url: str, login: str, language: str) -> None:
    page.goto(f"{base_url}/spotv2/login")
    page.evaluate("language => localStorage.setItem('spot.language', language)", language)
    page.reload()
    login_label, password_label, button = TEXTS[language]["signIn"]
    page.get_by_label(login_label, exact=True).fill(login)
    page.get_by_label(password_label, exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name=button, exact=True).click()
    expect(page).not_to_have_url(re.compile(r"/spotv2/login"))


@pytest.fixture(scope="module")
def demo_ids(base_url: str) -> dict[str, int]:
    with admin_client(base_url) as admin:
        cartography = next(c for c in admin.get("/cartography").json() if c["code"] == "USI")
        function = admin.get(f"/cartography/{cartography['id']}").json()["functions"][0]
        subjects = admin.post(
            "/subject/query", json={"filter": "", "sort": "", "page": 1, "pageSize": 1}
        ).json()
    return {
        "cartography": cartography["id"],
        "function": function["id"],
        "subject": subjects["results"][0]["id"],
    }


@IN_EACH_LANGUAGE
def test_a_tracker_sees_weeks_then_months(
    page: Page, base_url: str, demo_ids: dict[str, int], language: str
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "manager", language)
    page.goto(f"{base_url}/spotv2/cartography/{demo_ids['cartography']}")
    chart = page.get_by_role("region", name=texts["usage"], exact=True)
    expect(chart).to_be_visible()
    expect(chart.locator("svg").first).to_be_visible()
    expect(chart.get_by_role("button", name=texts["weeks"], exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    weeks = chart.get_by_role("table", name=texts["perWeek"], exact=True)
    expect(weeks.get_by_role("row")).to_have_count(79)
    expect(weeks.get_by_role("row", name=texts["weekRow"])).to_have_count(78)
    # The demo's usage: most weeks have views.
    assert weeks.get_by_role("row", name=re.compile(r" [1-9]\d* \d+$")).count() >= 60

    chart.get_by_role("button", name=texts["months"], exact=True).click()
    months = chart.get_by_role("table", name=texts["perMonth"], exact=True)
    expect(months.get_by_role("row")).to_have_count(19)
    expect(chart.get_by_role("button", name=texts["months"], exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )

    for path in (f"function/{demo_ids['function']}", f"subject/{demo_ids['subject']}"):
        page.goto(f"{base_url}/spotv2/{path}")
        section = page.get_by_role("region", name=texts["usage"], exact=True)
        rows = section.get_by_role("table", name=texts["perWeek"], exact=True).get_by_role("row")
        # A loaded machine may take a while to read the page, then the chart.
        expect(rows).to_have_count(79)


def test_no_chart_without_perm_visutrack(page: Page, base_url: str, demo_ids: dict[str, int]) -> None:
    sign_in(page, base_url, "createur", "fr")
    page.goto(f"{base_url}/spotv2/cartography/{demo_ids['cartography']}")
    expect(page.get_by_role("heading", name="Atelier d'usinage", exact=True)).to_be_visible()
    expect(page.get_by_role("region", name="Fréquentation", exact=True)).to_have_count(0)
