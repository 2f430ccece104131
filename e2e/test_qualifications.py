"""The qualification journey, in French (its pages seen again in English): a manager (perm_TableauBord and
perm_QualificationAdmin in the demo, not perm_TrainingManagement: finding modules by name is open to
them) opens the qualifications from the drawer, creates one from the plus menu (the operators, the
demo's fork-lift module, a cartography), lands on its view, reads its dashboard by person then by
module, and filters it with the legend; then deletes it, keeping it once and confirming the second
time. axe checks every page and dialog on the way (conftest)."""

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from conftest import in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "navigation": "Qualifications",
        "list": "Qualifications",
        "create": "Créer",
        "newQualification": "Nouvelle qualification",
        "name": "Nom",
        "groups": "Groupes",
        "modules": "Modules",
        "cartographies": "Cartographies",
        "save": "Enregistrer",
        "dashboard": "Tableau de bord",
        "byModule": "Par module",
        "legend": "Légende : états affichés",
        "notValidated": "Non validée",
        "obtained": re.compile(r"^\d+ / \d+ obtenus$"),
        "delete": "Supprimer",
        "deleteTitle": "Supprimer la qualification ?",
        "keep": "Annuler",
        "count": re.compile(r"^\d+ qualifications?$"),
    },
    "en": {
        "navigation": "Qualifications",
        "list": "Qualifications",
        "create": "Create",
        "newQualification": "New qualification",
        "name": "Name",
        "groups": "Groups",
        "modules": "Modules",
        "cartographies": "Cartographies",
        "save": "Save",
        "dashboard": "Dashboard",
        "byModule": "By module",
        "legend": "Legend: states shown",
        "notValidated": "Not validated",
        "obtained": re.compile(r"^\d+ / \d+ obtained$"),
        "delete": "Delete",
        "deleteTitle": "Delete the qualification?",
        "keep": "Cancel",
        "count": re.compile(r"^\d+ qualifications?$"),
    },
}
MANAGER = "manager"
# The demo's operators hold the fork-lift module in every state (docs/qualifications.md, spot/demo).
GROUP = "Opérateurs"
MODULE = "Conduite de chariot élévateur en atelier"
CARTOGRAPHY = "Atelier d'usinage"
NAMES = {"fr": "Conduite de chariot : équipe e2e", "en": "Fork-lift driving: e2e team"}


def pick(page: Page, label: str, typed: str, option: str) -> None:
    """Chooses an option of one of the form's autocompletes, found by typing part of its name."""
    field = page.get_by_role("combobox", name=label, exact=True)
    field.click()
    if typed:
        field.fill(typed)
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.get_by_role("button", name=option, exact=True)).to_be_visible()


def dashboard_children(dashboard: Locator, state: str) -> Locator:
    return dashboard.locator(f"li[data-state='{state}']")


@in_language("fr")
def test_a_manager_creates_a_qualification_reads_its_dashboard_and_deletes_it(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    name = NAMES[language]
    sign_in(page, base_url, MANAGER, language)

    # The drawer leads to the list, whose cards name cartographies, groups and modules.
    page.get_by_role("navigation").get_by_role("link", name=texts["navigation"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/qualifications"))
    expect(page.get_by_role("heading", level=1, name=texts["list"], exact=True)).to_be_visible()
    expect(page.get_by_text(texts["count"])).to_be_visible()

    # Created from the plus menu.
    page.get_by_role("button", name=texts["create"], exact=True).click()
    page.get_by_role("menuitem", name=texts["newQualification"], exact=True).click()
    expect(page.get_by_role("heading", level=1, name=texts["newQualification"], exact=True)).to_be_visible()
    page.get_by_role("textbox", name=texts["name"]).fill(name)
    pick(page, texts["cartographies"], "", CARTOGRAPHY)
    pick(page, texts["groups"], "Opé", GROUP)
    pick(page, texts["modules"], "chariot", MODULE)
    page.get_by_role("button", name=texts["save"], exact=True).click()

    # Its view: the name as title, then the dashboard by person.
    expect(page).to_have_url(re.compile(r"/spotv2/qualification/view/\d+$"))
    expect(page.get_by_role("heading", level=1, name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("link", name=CARTOGRAPHY, exact=True)).to_be_visible()
    dashboard = page.get_by_role("region", name=texts["dashboard"], exact=True)
    people = dashboard.get_by_test_id("dashboard-item")
    expect(people.first).to_be_visible()
    expect(people.first.get_by_text(texts["obtained"])).to_be_visible()
    expect(dashboard_children(dashboard, "none").first).to_be_visible()
    shown = dashboard_children(dashboard, "good").count() + dashboard_children(dashboard, "warn").count()
    assert shown > 0, "the demo's operators hold the module: some are valid"

    # The legend hides those not validated, and shows them again.
    legend = dashboard.get_by_role("group", name=texts["legend"], exact=True)
    not_validated = legend.get_by_role("button", name=texts["notValidated"], exact=True)
    expect(not_validated).to_have_attribute("aria-pressed", "true")
    not_validated.click()
    expect(not_validated).to_have_attribute("aria-pressed", "false")
    expect(dashboard_children(dashboard, "none")).to_have_count(0)
    valid = dashboard_children(dashboard, "good").or_(dashboard_children(dashboard, "warn"))
    expect(valid.first).to_be_visible()
    not_validated.click()
    expect(dashboard_children(dashboard, "none").first).to_be_visible()

    # By module: the one module, with the people concerned.
    dashboard.get_by_role("button", name=texts["byModule"], exact=True).click()
    module = dashboard.get_by_role("region", name=MODULE, exact=True)
    expect(module).to_be_visible()
    expect(module.get_by_text(texts["obtained"])).to_be_visible()

    # Delete: kept once, then deleted after confirmation.
    actions = page.get_by_role("group", name=re.compile("^Actions$"))
    actions.get_by_role("button", name=texts["delete"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["deleteTitle"], exact=True)
    dialog.get_by_role("button", name=texts["keep"], exact=True).click()
    expect(dialog).to_have_count(0)
    expect(page.get_by_role("heading", level=1, name=name, exact=True)).to_be_visible()
    actions.get_by_role("button", name=texts["delete"], exact=True).click()
    dialog.get_by_role("button", name=texts["delete"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/qualifications"))
    expect(page.get_by_role("heading", level=1, name=texts["list"], exact=True)).to_be_visible()
    expect(page.get_by_text(texts["count"])).to_be_visible()
    expect(page.get_by_role("article", name=name, exact=True)).to_have_count(0)
