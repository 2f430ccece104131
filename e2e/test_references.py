"""The reference journey, in English (its pages seen again in French): the administrator opens the module
references from the drawer (the demo's, one disabled), creates a reference in the 800 px dialog, edits it (its
code read-only), closes the dialog with Escape without keeping what was typed, sees the list show the saved
change, deletes the reference nothing uses; the path references list shows the demo's. axe checks every page
and dialog on the way (conftest)."""

import re
from typing import Any

from playwright.sync_api import Page, expect

from conftest import admin_client, in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "drawer": "Navigation principale",
        "moduleReferences": "Références de modules",
        "pathReferences": "Références de parcours",
        "add": "Nouvelle référence",
        "newTitle": "Nouvelle référence de module",
        "editTitle": "Référence de module",
        "code": "Code",
        "label": "Libellé",
        "description": "Description",
        "enabled": "Activée",
        "codeReadOnly": "Le code d'une référence ne peut pas changer",
        "save": "Enregistrer",
        "delete": "Supprimer",
        "deleteTitle": "Supprimer cette référence ?",
        "disabled": "Désactivée",
        "labels": ("Conduite de chariot élévateur", "Conduite de chariot élévateur (CACES R489)"),
        "typedThenLeft": "Brouillon abandonné",
    },
    "en": {
        "drawer": "Main navigation",
        "moduleReferences": "Module references",
        "pathReferences": "Path references",
        "add": "New reference",
        "newTitle": "New module reference",
        "editTitle": "Module reference",
        "code": "Code",
        "label": "Label",
        "description": "Description",
        "enabled": "Enabled",
        "codeReadOnly": "A reference's code cannot change",
        "save": "Save",
        "delete": "Delete",
        "deleteTitle": "Delete this reference?",
        "disabled": "Disabled",
        "labels": ("Forklift driving", "Forklift driving (CACES R489)"),
        "typedThenLeft": "Abandoned draft",
    },
}


def open_list(page: Page, texts: dict[str, Any], entry: str, path: str) -> None:
    page.get_by_role("navigation", name=texts["drawer"]).get_by_role("link", name=texts[entry]).click()
    expect(page).to_have_url(re.compile(f"/spotv2/administration/{path}$"))
    expect(page.get_by_role("heading", level=1, name=texts[entry], exact=True)).to_be_visible()


@in_language("en")
def test_a_reference_is_created_edited_and_deleted_in_its_dialog(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    code = f"CACES-{language.upper()}"
    first, second = texts["labels"]
    with admin_client(base_url) as api:  # a run stopped half-way left it
        api.delete(f"/training/references/module/{code}")

    sign_in(page, base_url, "admin", language)
    open_list(page, texts, "moduleReferences", "trainingModuleReferences")
    safety = page.get_by_role("article", name="SECU", exact=True)
    expect(safety).to_contain_text("Sécurité au poste de travail")
    disabled = page.get_by_role("article", name="HABILITATION-ELEC", exact=True)
    expect(disabled).to_contain_text(texts["disabled"])

    # Create: the code starts empty.
    page.get_by_role("button", name=texts["add"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["newTitle"], exact=True)
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box is not None and box["width"] == 800
    expect(dialog.get_by_role("textbox", name=texts["code"])).to_have_value("")
    dialog.get_by_role("textbox", name=texts["code"]).fill(code)
    dialog.get_by_role("textbox", name=texts["label"]).fill(first)
    description = "Chariots de catégorie 1 à 5.\nRecyclage tous les 5 ans."
    dialog.get_by_role("textbox", name=texts["description"]).fill(description)
    dialog.get_by_role("button", name=texts["save"], exact=True).click()
    expect(dialog).to_be_hidden()
    card = page.get_by_role("article", name=code, exact=True)
    expect(card).to_contain_text(first)
    expect(card).to_contain_text("Recyclage tous les 5 ans.")

    # Edit: the code is read-only; the saved label shows in the list.
    card.get_by_role("button").click()
    dialog = page.get_by_role("dialog", name=texts["editTitle"], exact=True)
    expect(dialog.get_by_role("textbox", name=texts["code"])).to_have_value(code)
    expect(dialog.get_by_role("textbox", name=texts["code"])).to_have_attribute("readonly", "")
    expect(dialog.get_by_text(texts["codeReadOnly"])).to_be_visible()
    dialog.get_by_role("textbox", name=texts["label"]).fill(second)
    dialog.get_by_role("button", name=texts["save"], exact=True).click()
    expect(dialog).to_be_hidden()
    expect(card).to_contain_text(second)

    # Escape closes the dialog and what was typed is not saved.
    card.get_by_role("button").click()
    dialog = page.get_by_role("dialog", name=texts["editTitle"], exact=True)
    dialog.get_by_role("textbox", name=texts["label"]).fill(texts["typedThenLeft"])
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(card).to_contain_text(second)
    expect(card).not_to_contain_text(texts["typedThenLeft"])

    # Nothing uses it: it may be deleted, after a confirmation.
    card.get_by_role("button").click()
    dialog = page.get_by_role("dialog", name=texts["editTitle"], exact=True)
    expect(dialog.get_by_role("textbox", name=texts["label"])).to_have_value(second)
    dialog.get_by_role("button", name=texts["delete"], exact=True).click()
    confirmation = page.get_by_role("dialog", name=texts["deleteTitle"], exact=True)
    confirmation.get_by_role("button", name=texts["delete"], exact=True).click()
    expect(dialog).to_be_hidden()
    expect(card).to_be_hidden()

    # A reference used by demo modules offers no Delete.
    safety.get_by_role("button").click()
    dialog = page.get_by_role("dialog", name=texts["editTitle"], exact=True)
    expect(dialog.get_by_role("textbox", name=texts["label"])).to_have_value("Sécurité au poste de travail")
    expect(dialog.get_by_role("button", name=texts["delete"], exact=True)).to_have_count(0)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    open_list(page, texts, "pathReferences", "trainingPathReferences")
    expect(page.get_by_role("article", name="PARC-ACCUEIL", exact=True)).to_contain_text("Parcours d'accueil")
    expect(page.get_by_role("article", name="PARC-OPE", exact=True)).to_contain_text("Parcours opérateur")
