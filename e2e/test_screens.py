"""Screens walked for what every reader meets beside the journeys, in French and English: MUI's own
texts in the interface language, the helper text of locked fields, the account's long groups and
permissions dialog scrolled by keyboard, the cartography qualification dashboard of a manager, a
reference's code shown read-only, and layouts that hold on a laptop (1366 × 768) and a phone
(390 × 844): the function page's subjects, the sites' cards, the Dashboard manager and a module's
actions. axe checks every page and dialog on the way (conftest)."""

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from conftest import IN_EACH_LANGUAGE, LANGUAGES, admin_client, in_language, sign_in

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "function": "Fonction",
        "open": "Ouvrir",
        "cartographyLocked": "La cartographie d'un sujet existant ne change pas.",
        "account": "Compte",
        "groupsAndPermissions": "Groupes et permissions",
        "coverage": "Couverture des fonctions",
        "moduleReferences": "Références de modules",
        "editReference": "Référence de module",
        "code": "Code",
        "label": "Libellé",
        "subjects": "9 sujets",
        "manager": "Tableau de bord manager",
        "cartographies": "Cartographies",
        "groups": "Groupes",
        "back": "Retour à la liste",
        "moduleActions": ("Modifier", "Créer à partir de", "Désactiver"),
        "editRefused": "Un parcours de formation accepté utilise ce module : il ne peut plus être modifié.",
    },
    "en": {
        "function": "Function",
        "open": "Open",
        "cartographyLocked": "The cartography of an existing subject does not change.",
        "account": "Account",
        "groupsAndPermissions": "Groups and permissions",
        "coverage": "Coverage of the functions",
        "moduleReferences": "Module references",
        "editReference": "Module reference",
        "code": "Code",
        "label": "Label",
        "subjects": "9 subjects",
        "manager": "Dashboard manager",
        "cartographies": "Cartographies",
        "groups": "Groups",
        "back": "Back to the list",
        "moduleActions": ("Edit", "Create from", "Disable"),
        "editRefused": "An accepted training path uses this module: it can no longer be edited.",
    },
}


def ids_by_name(base_url: str, path: str) -> dict[str, int]:
    """The ids of a demo list's items by name, as the administrator sees them."""
    with admin_client(base_url) as api:
        answer = api.post(path, json={"filter": "", "page": 1, "pageSize": 100}).json()
    return {item["name"]: item["id"] for item in answer["results"]}


def page_width(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def inside(inner: Locator, outer: Locator) -> bool:
    """Whether `inner`'s box lies within `outer`'s."""
    box, frame = inner.bounding_box(), outer.bounding_box()
    assert box is not None and frame is not None
    return (
        box["x"] >= frame["x"]
        and box["y"] >= frame["y"]
        and box["x"] + box["width"] <= frame["x"] + frame["width"]
        and box["y"] + box["height"] <= frame["y"] + frame["height"]
    )


@IN_EACH_LANGUAGE
def test_editing_a_subject_speaks_the_language_and_says_why_fields_are_locked(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    subject = ids_by_name(base_url, "/subject/query")["Contrôle des bons de livraison à réception"]
    sign_in(page, base_url, "admin", language, to=f"/spotv2/subject/edit/{subject}")
    # The locked cartography says why under it, readable (axe checks its contrast).
    expect(page.get_by_text(texts["cartographyLocked"])).to_be_visible()
    function = page.get_by_role("combobox", name=texts["function"], exact=True)
    expect(function).to_be_enabled()
    # MUI's own buttons are named in the interface language.
    field = page.locator(".MuiAutocomplete-root", has=function)
    expect(field.get_by_role("button", name=texts["open"], exact=True)).to_be_visible()


@in_language("en")
def test_the_groups_and_permissions_dialog_scrolls_by_keyboard(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    page.set_viewport_size(LAPTOP)
    sign_in(page, base_url, "admin", language)
    page.get_by_role("button", name=texts["account"], exact=True).click()
    page.get_by_role("menuitem", name=texts["groupsAndPermissions"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["groupsAndPermissions"], exact=True)
    content = dialog.get_by_role("region", name=texts["groupsAndPermissions"], exact=True)
    # The administrator's permissions do not fit: the list scrolls, and the keyboard reaches it.
    assert content.evaluate("e => e.scrollHeight > e.clientHeight")
    page.keyboard.press("Tab")
    expect(content).to_be_focused()
    page.keyboard.press("End")
    page.wait_for_function("content => content.scrollTop > 0", arg=content.element_handle())


@in_language("fr")
def test_a_manager_reads_the_qualification_dashboard_of_a_cartography(
    page: Page, base_url: str, language: str
) -> None:
    with admin_client(base_url) as api:
        cartographies = {c["code"]: c["id"] for c in api.get("/cartography").json()}
    sign_in(
        page,
        base_url,
        "manager",
        language,
        to=f"/spotv2/dashboards/qualifications/cartography/{cartographies['USI']}",
    )
    coverage = page.get_by_role("list", name=TEXTS[language]["coverage"], exact=True)
    # The people qualified lead to their own status (axe checks the links stand out from the text).
    expect(coverage.get_by_role("link").filter(has_text="Hélène Fournier").first).to_be_visible()


@in_language("en")
def test_a_reference_code_shows_read_only(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "admin", language, to="/spotv2/administration/trainingModuleReferences")
    page.get_by_role("article", name="SECU", exact=True).get_by_role("button").click()
    dialog = page.get_by_role("dialog", name=texts["editReference"], exact=True)
    code = dialog.get_by_role("textbox", name=texts["code"], exact=True)
    label = dialog.get_by_role("textbox", name=texts["label"], exact=True)
    expect(code).to_have_value("SECU")
    expect(code).to_have_attribute("readonly", "")
    # It looks unlike the fields one types in: no required mark, a shaded field with a dashed outline.
    expect(code).not_to_have_attribute("required", "")
    expect(label).to_have_attribute("required", "")
    look = "e => { const s = getComputedStyle(e.closest('.MuiInputBase-root')); return s.backgroundColor }"
    outline = "e => getComputedStyle(e.closest('.MuiInputBase-root').querySelector('fieldset')).borderStyle"
    assert code.evaluate(look) != label.evaluate(look)
    assert code.evaluate(outline) == "dashed" and label.evaluate(outline) == "solid"


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_function_page_fits_its_screen(page: Page, base_url: str, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    function = ids_by_name(base_url, "/function/query")["Opérateur régleur"]
    for language in LANGUAGES:
        sign_in(page, base_url, "admin", language, to=f"/spotv2/function/{function}")
        expect(page.get_by_text(TEXTS[language]["subjects"], exact=True)).to_be_visible()
        section = page.get_by_role("region", name="Usinage", exact=True)
        subject = section.get_by_role("link", name="Réglage du tour à commande numérique", exact=True)
        expect(subject).to_be_visible()
        assert page_width(page) <= viewport["width"]
        # The subjects fit their card: nothing to scroll sideways, every subject's line within it.
        assert section.evaluate(
            "e => [...e.querySelectorAll('*')].every(c => c.scrollWidth <= c.clientWidth)"
        )
        assert inside(subject, section)
        for name in ("Éclatement de meule", "Évacuation des copeaux longs"):
            assert inside(section.get_by_role("link", name=name, exact=True), section)


def test_a_site_card_holds_its_icon_and_texts_on_a_phone(page: Page, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    sign_in(page, base_url, "admin", to="/spotv2/sites")
    card = page.locator(".MuiAccordion-root").filter(has=page.get_by_role("heading", name="Usine de Lyon"))
    summary = card.locator(".MuiAccordionSummary-root")
    expect(summary).to_be_visible()
    assert page_width(page) <= PHONE["width"]
    for part in (
        summary.locator("svg").first,
        summary.get_by_role("heading", name="Usine de Lyon", exact=True),
        summary.get_by_text("LYON", exact=True),
        summary.get_by_text(re.compile(r"^2 cartographies$")),
    ):
        assert inside(part, card), part


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_dashboard_manager_fits_its_screen(page: Page, base_url: str, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    for language in LANGUAGES:
        texts = TEXTS[language]
        sign_in(page, base_url, "manager", language, to="/spotv2/dashboards/manager")
        expect(page.get_by_role("heading", name=texts["manager"], level=1)).to_be_visible()
        for name in ("cartographies", "groups"):
            section = page.get_by_role("region", name=texts[name], exact=True)
            rows = section.get_by_role("list", name=texts[name], exact=True).locator(":scope > li")
            expect(rows.first).to_be_visible()
            # Each row's parts (names, figures, links) within the section: nothing cut or scrolled.
            for row in rows.all():
                for part in row.locator("a, h3, .MuiChip-root").all():
                    assert inside(part, section)
        assert page_width(page) <= viewport["width"]


def box(locator: Locator) -> dict[str, float]:
    """The locator's box on the page: x, y, width and height."""
    found = locator.bounding_box()
    assert found is not None, locator
    return dict(found)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_module_view_lays_out_its_actions(page: Page, base_url: str, viewport: dict[str, int]) -> None:
    """A module an accepted path uses: why it cannot be edited, above its actions. On a laptop the
    actions hold one line at the end, level with the way back; on a phone each takes the width, one
    under the other at equal gaps."""
    page.set_viewport_size(viewport)
    module = ids_by_name(base_url, "/training/module/query")["Consignation des énergies avant intervention"]
    for language in LANGUAGES:
        texts = TEXTS[language]
        sign_in(page, base_url, "admin", language, to=f"/spotv2/training/module/view/{module}")
        footer = page.get_by_role("group", name="Actions", exact=True)
        note = footer.get_by_text(texts["editRefused"], exact=True)
        expect(note).to_be_visible()
        edit, create_from, disable = texts["moduleActions"]
        actions = [
            box(footer.get_by_role("link", name=edit, exact=True)),
            box(footer.get_by_role("link", name=create_from, exact=True)),
            box(footer.get_by_role("button", name=disable, exact=True)),
        ]
        frame, back = box(footer), box(footer.get_by_role("link", name=texts["back"], exact=True))
        assert all(box(note)["y"] + box(note)["height"] <= action["y"] for action in actions)
        if viewport is LAPTOP:
            assert {round(action["y"]) for action in actions} == {round(back["y"])}
            assert round(actions[-1]["x"] + actions[-1]["width"]) == round(frame["x"] + frame["width"])
        else:
            assert all(round(action["width"]) == round(frame["width"]) for action in actions)
            tops = [action["y"] for action in actions]
            gaps = {round(below - above) for above, below in zip(tops, tops[1:], strict=False)}
            assert len(gaps) == 1 and gaps.pop() > 0
        assert page_width(page) <= viewport["width"]
