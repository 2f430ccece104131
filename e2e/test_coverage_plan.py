"""Tomorrow's coverage (docs/qualifications.md), in French and English: a manager follows the bell's
warning that the machining workshop's forklift drivers fall under their minimum to the cartography's
qualification dashboard and its forecast table, then opens the workshop's plan, where the function's zone
is flagged with its outlook in words, the legend counts the functions of each outlook, the table says the
same, and the colours can be switched off. axe checks every page and state on the way (conftest)."""

import re
from typing import Any

from playwright.sync_api import Page, expect

from conftest import IN_EACH_LANGUAGE, admin_client, sign_in

WORKSHOP = "Atelier d'usinage"
TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "bell": "Alertes",
        "warning": re.compile(
            r"^« Cariste » \(Atelier d'usinage\) passe sous son minimum (dans \d+ jours?|aujourd'hui) : "
            r"1 qualifié\(s\) sur 2"
        ),
        "dashboard": f"Qualifications de la cartographie {WORKSHOP}",
        "tomorrow": "Couverture de demain",
        "falling": "Passe sous son minimum d'ici 90 jours",
        "zone": "Cariste : Passe sous son minimum d'ici 90 jours, 2 qualifié(s) aujourd'hui sur 2 ; "
        "voir la fonction",
        "plainZone": "Cariste : voir la fonction",
        "coverage": "Couverture des fonctions",
        "legend": "Légende des couleurs de couverture",
        "fallingCount": "Passe sous son minimum d'ici 90 jours (1 fonction)",
        "showTable": "Afficher le tableau",
        "showOnPlan": "Afficher sur le plan",
    },
    "en": {
        "bell": "Alerts",
        "warning": re.compile(
            r"^“Cariste” \(Atelier d'usinage\) falls under its minimum (in \d+ days?|today): 1 qualified of 2"
        ),
        "dashboard": f"Qualifications of the cartography {WORKSHOP}",
        "tomorrow": "Tomorrow's coverage",
        "falling": "Falls under its minimum within 90 days",
        "zone": "Cariste: Falls under its minimum within 90 days, 2 qualified today of 2; see the function",
        "plainZone": "Cariste: see the function",
        "coverage": "Coverage of the functions",
        "legend": "Legend of the coverage colours",
        "fallingCount": "Falls under its minimum within 90 days (1 function)",
        "showTable": "Show the table",
        "showOnPlan": "Show on the plan",
    },
}


def _workshop(base_url: str) -> int:
    with admin_client(base_url) as client:
        cartographies = client.get("/dashboards/manager/cartographies").json()
    return next(c["id"] for c in cartographies if c["name"] == WORKSHOP)


@IN_EACH_LANGUAGE
def test_a_manager_sees_a_function_falling_under_its_minimum(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    workshop = _workshop(base_url)
    sign_in(page, base_url, "manager", language)

    # The bell's warning leads to the cartography's qualification dashboard and its forecast.
    page.get_by_role("button", name=re.compile(texts["bell"])).click()
    page.get_by_role("link", name=texts["warning"]).click()
    expect(page).to_have_url(re.compile(rf"/spotv2/dashboards/qualifications/cartography/{workshop}$"))
    expect(page.get_by_role("heading", name=texts["dashboard"], level=1)).to_be_visible()
    tomorrow = page.get_by_role("region", name=texts["tomorrow"], exact=True)
    cariste_header = page.get_by_role("rowheader", name="Cariste", exact=True)
    cariste = tomorrow.get_by_role("row").filter(has=cariste_header)
    expect(cariste).to_have_attribute("data-outlook", "falling")
    expect(cariste.get_by_text(texts["falling"], exact=True)).to_be_visible()

    # The plan: the zone flagged, its outlook in words; the legend; the table; the colours switched off.
    page.goto(f"{base_url}/spotv2/cartography/{workshop}")
    zone = page.get_by_role("link", name=texts["zone"], exact=True)
    expect(zone).to_have_attribute("data-outlook", "falling")
    panel = page.get_by_role("region", name=texts["coverage"], exact=True)
    legend = panel.get_by_role("list", name=texts["legend"], exact=True)
    expect(legend.get_by_role("listitem")).to_have_count(4)
    expect(legend.get_by_role("listitem").filter(has_text=texts["fallingCount"])).to_have_count(1)
    panel.get_by_role("button", name=texts["showTable"], exact=True).click()
    row = panel.get_by_role("row").filter(has=cariste_header)
    expect(row).to_have_attribute("data-outlook", "falling")
    panel.get_by_role("switch", name=texts["showOnPlan"], exact=True).click()
    expect(page.get_by_role("link", name=texts["plainZone"], exact=True)).not_to_have_attribute(
        "data-outlook", "falling"
    )
