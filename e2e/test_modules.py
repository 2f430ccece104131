"""The training module journey, in English (its pages seen again in French): a training manager creates a
module from the plus menu with one element of each kind (a function picked in the map tree, a mediation, a web
link tested once valid, the demo course's quiz picked in its course tree), a duration in hours, a reference, a
periodicity and a threshold; reorders the elements by keyboard; saves; reads the module; disables it; creates
another one from it. axe checks every page and dialog on the way (conftest)."""

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from conftest import admin_client, in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "create": "Créer",
        "newModule": "Nouveau module",
        "newTitle": "Nouveau module de formation",
        "name": "Nom",
        "type": "Type",
        "training": "Formation",
        "goals": "Objectifs",
        "duration": "Durée estimée",
        "unit": "Unité",
        "hours": "Heures",
        "reference": "Référentiel",
        "periodic": "Périodique",
        "periodicity": "Périodicité",
        "threshold": "Seuil de réussite : {} / 10",
        "add": "Ajouter un élément",
        "kinds": {
            "spot": "Élément Spot",
            "mediation": "Médiation",
            "url": "Lien web",
            "lms": "Plateforme de formation",
        },
        "pickSpot": "Choisir un élément de la carte",
        "choose": "Choisir",
        "newMediation": "Nouvel élément de médiation",
        "title": "Titre",
        "description": "Description",
        "newUrl": "Nouveau lien web",
        "url": "Adresse",
        "label": "Libellé",
        "test": "Tester",
        "ok": "Valider",
        "pickCourse": "Choisir un élément de la plateforme de formation",
        "elementAt": "Élément {} : {}",
        "moveUp": "Monter l'élément {}",
        "moveDown": "Descendre l'élément {}",
        "save": "Enregistrer",
        "empty": "Ce champ ne peut pas rester vide",
        "function": "Fonction",
        "quiz": "quiz",
        "disable": "Désactiver",
        "enable": "Activer",
        "disabled": "Désactivé",
        "createFrom": "Créer à partir de",
        "createFromTitle": "Nouveau module de formation à partir d'un autre",
        "list": "Modules de formation",
        "facts": "Détails du module",
        "duration2h": "2 H",
        "every12": "Tous les 12 mois",
    },
    "en": {
        "create": "Create",
        "newModule": "New module",
        "newTitle": "New training module",
        "name": "Name",
        "type": "Type",
        "training": "Training",
        "goals": "Goals",
        "duration": "Estimated duration",
        "unit": "Unit",
        "hours": "Hours",
        "reference": "Reference",
        "periodic": "Periodic",
        "periodicity": "Periodicity",
        "threshold": "Pass threshold: {} / 10",
        "add": "Add an element",
        "kinds": {
            "spot": "Spot element",
            "mediation": "Mediation",
            "url": "Web link",
            "lms": "Learning platform",
        },
        "pickSpot": "Choose an item of the map",
        "choose": "Choose",
        "newMediation": "New mediation element",
        "title": "Title",
        "description": "Description",
        "newUrl": "New web link",
        "url": "Address",
        "label": "Label",
        "test": "Test",
        "ok": "OK",
        "pickCourse": "Choose a learning platform element",
        "elementAt": "Element {}: {}",
        "moveUp": "Move element {} up",
        "moveDown": "Move element {} down",
        "save": "Save",
        "empty": "This field can't stay empty",
        "function": "Function",
        "quiz": "quiz",
        "disable": "Disable",
        "enable": "Enable",
        "disabled": "Disabled",
        "createFrom": "Create from",
        "createFromTitle": "New training module from another",
        "list": "Training modules",
        "facts": "Module details",
        "duration2h": "2 H",
        "every12": "Every 12 months",
    },
}
MANAGER = "formation"
NAMES = {"fr": "Consignation au poste de réglage", "en": "Lockout at the setting station"}
CARTOGRAPHY = "Atelier d'usinage"
FUNCTION = "Opérateur régleur"
COURSE = "Consignation des énergies"
QUIZ = "Quiz consignation"
URL = "https://www.inrs.fr/risques/consignation/ce-qu-il-faut-retenir.html"


def demo_facts(base_url: str) -> dict[str, Any]:
    """The demo's site name and one enabled module reference."""
    with admin_client(base_url) as api:
        site = next(
            s for s in api.get("/site").json() if any(c["name"] == CARTOGRAPHY for c in s["cartographies"])
        )
        references = api.get("/training/references/module/search", params={"text": ""}).json()
    return {"site": site["name"], "reference": references[0]}


def textbox(scope: Page | Locator, label: str) -> Locator:
    return scope.get_by_role("textbox", name=re.compile(f"^{re.escape(label)}"))


def add_element(page: Page, texts: dict, kind: str) -> None:
    page.get_by_role("button", name=texts["add"], exact=True).click()
    page.get_by_role("menu").get_by_role("menuitem", name=texts["kinds"][kind], exact=True).click()


def element_names(page: Page) -> list[str]:
    rows = page.get_by_role("list", name=re.compile("^(Éléments|Elements)$")).get_by_role("listitem")
    return [row.get_attribute("aria-label") or "" for row in rows.all()]


def fill_module(page: Page, texts: dict, name: str, facts: dict[str, Any]) -> None:
    textbox(page, texts["name"]).fill(name)
    page.get_by_role("combobox", name=re.compile(f"^{texts['type']}")).click()
    page.get_by_role("option", name=texts["training"], exact=True).click()
    textbox(page, texts["goals"]).fill(
        "Consigner la machine avant tout réglage.\nVérifier l'absence d'énergie."
    )
    textbox(page, texts["duration"]).fill("2")
    reference = facts["reference"]
    field = page.get_by_role("combobox", name=re.compile(f"^{texts['reference']}"))
    field.click()
    field.fill(reference["code"])
    page.get_by_role("option", name=re.compile(re.escape(reference["code"]))).first.click()
    page.get_by_role("switch", name=texts["periodic"], exact=True).check()
    textbox(page, texts["periodicity"]).fill("12")
    page.get_by_role("slider").focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_text(texts["threshold"].format(8), exact=True)).to_be_visible()


def add_one_element_of_each_kind(page: Page, texts: dict, site: str) -> None:
    # A function of the map, found by opening the tree with the keyboard.
    add_element(page, texts, "spot")
    picker = page.get_by_role("dialog", name=texts["pickSpot"], exact=True)
    picker.get_by_role("treeitem", name=re.compile(f"^{re.escape(site)}")).focus()
    page.keyboard.press("ArrowRight")
    cartography = picker.get_by_role("treeitem", name=re.compile(f"^{re.escape(CARTOGRAPHY)}"))
    cartography.focus()
    page.keyboard.press("ArrowRight")
    function = picker.get_by_role("treeitem", name=re.compile(f"^{re.escape(FUNCTION)}"))
    function.focus()
    page.keyboard.press("Space")
    picker.get_by_role("button", name=texts["choose"], exact=True).click()
    expect(picker).to_be_hidden()

    add_element(page, texts, "mediation")
    dialog = page.get_by_role("dialog", name=texts["newMediation"], exact=True)
    textbox(dialog, texts["title"]).fill("Consignation accompagnée")
    textbox(dialog, texts["description"]).fill("Avec le chef d'équipe, sur la machine réelle.\nPuis seul.")
    dialog.get_by_role("button", name=texts["ok"], exact=True).click()
    expect(dialog).to_be_hidden()

    add_element(page, texts, "url")
    dialog = page.get_by_role("dialog", name=texts["newUrl"], exact=True)
    textbox(dialog, texts["url"]).fill("www.inrs.fr")
    textbox(dialog, texts["label"]).fill("INRS : consignation")
    expect(dialog.get_by_role("link", name=texts["test"], exact=True)).to_have_count(0)
    textbox(dialog, texts["url"]).fill(URL)
    expect(dialog.get_by_role("link", name=texts["test"], exact=True)).to_have_attribute("href", URL)
    dialog.get_by_role("button", name=texts["ok"], exact=True).click()
    expect(dialog).to_be_hidden()

    # The demo course's quiz, picked in its course tree.
    add_element(page, texts, "lms")
    dialog = page.get_by_role("dialog", name=texts["pickCourse"], exact=True)
    dialog.get_by_role("button", name=re.compile(f"^{re.escape(COURSE)}")).click()
    dialog.get_by_role("treeitem", name=re.compile(f"^{re.escape(QUIZ)}")).locator(
        ".MuiTreeItem-content"
    ).first.click()
    expect(dialog).to_be_hidden()


@in_language("en")
def test_a_module_with_every_kind_of_element_is_created_reordered_disabled_and_copied(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    name = NAMES[language]
    facts = demo_facts(base_url)
    sign_in(page, base_url, MANAGER, language)

    page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True).click()
    page.get_by_role("menu").get_by_role("menuitem", name=texts["newModule"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["newTitle"], exact=True)).to_be_visible()
    page.get_by_role("button", name=texts["save"], exact=True).click()
    expect(textbox(page, texts["name"])).to_have_accessible_description(texts["empty"])

    fill_module(page, texts, name, facts)
    add_one_element_of_each_kind(page, texts, facts["site"])
    spot = f"{FUNCTION} ({texts['function']})"
    quiz = f"{QUIZ} ({texts['quiz']})"
    at = texts["elementAt"].format
    mediation, link = "Consignation accompagnée", "INRS : consignation"
    assert element_names(page) == [at(1, spot), at(2, mediation), at(3, link), at(4, quiz)]

    # The quiz goes first, by keyboard: the focus follows the element moved.
    page.get_by_role("button", name=texts["moveUp"].format(4), exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=texts["moveUp"].format(3), exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=texts["moveDown"].format(1), exact=True)).to_be_focused()
    assert element_names(page) == [at(1, quiz), at(2, spot), at(3, mediation), at(4, link)]

    page.get_by_role("button", name=texts["save"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/training/module/view/\d+$"))
    view = page.url
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    details = page.get_by_role("region", name=texts["facts"], exact=True)
    expect(details).to_contain_text(texts["duration2h"])
    expect(details).to_contain_text(texts["every12"])
    expect(details).to_contain_text("8 / 10")
    expect(details).to_contain_text(facts["reference"]["code"])
    items = page.get_by_role("listitem").filter(has=page.locator(".MuiChip-root"))
    expect(items).to_have_count(4)
    expect(items.nth(0)).to_contain_text(QUIZ)
    expect(items.nth(1).get_by_role("link", name=FUNCTION, exact=True)).to_have_attribute(
        "href", re.compile(r"/spotv2/function/\d+$")
    )
    expect(items.nth(2)).to_contain_text("Avec le chef d'équipe, sur la machine réelle.…")
    expect(items.nth(3).get_by_role("link", name=re.compile("INRS : consignation"))).to_have_attribute(
        "href", URL
    )

    page.get_by_role("button", name=texts["disable"], exact=True).click()
    expect(page.get_by_role("button", name=texts["enable"], exact=True)).to_be_visible()
    expect(page.get_by_text(texts["disabled"], exact=True).first).to_be_visible()

    page.get_by_role("link", name=texts["createFrom"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["createFromTitle"], exact=True)).to_be_visible()
    expect(textbox(page, texts["name"])).to_have_value(name)
    textbox(page, texts["name"]).fill(f"{name} (2)")
    page.get_by_role("button", name=texts["save"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/training/module/view/\d+$"))
    assert page.url != view
    expect(page.get_by_role("heading", name=f"{name} (2)", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=texts["disable"], exact=True)).to_be_visible()
    expect(page.get_by_role("listitem").filter(has=page.locator(".MuiChip-root"))).to_have_count(4)

    # Both are in the list, the first one marked disabled.
    page.goto(f"{base_url}/spotv2/training/modules")
    expect(page.get_by_role("heading", name=texts["list"], exact=True)).to_be_visible()
    card = page.get_by_role("article", name=name, exact=True)
    expect(card.get_by_text(texts["disabled"], exact=True)).to_be_visible()
    expect(page.get_by_role("article", name=f"{name} (2)", exact=True)).to_be_visible()
