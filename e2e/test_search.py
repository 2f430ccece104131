"""The header's global search (each journey in one language, its pages seen again in the other): with and
without accents, by mouse, keyboard and chip, and on a phone; axe runs on each page and with the popup (a list
box) open."""

import re

from playwright.sync_api import Locator, Page, expect

from conftest import in_language, sign_in

TEXTS = {
    "fr": {
        "field": "Rechercher des cartographies, fonctions, sujets et nœuds",
        "results": "Résultats de la recherche",
        "subjects": "Sujets",
        "nodes": "Nœuds de carte mentale",
        "functions": "Fonctions",
        "open": "Ouvrir la recherche",
        "clear": "Effacer la recherche",
    },
    "en": {
        "field": "Search cartographies, functions, subjects and nodes",
        "results": "Search results",
        "subjects": "Subjects",
        "nodes": "Mind-map nodes",
        "functions": "Functions",
        "open": "Open the search",
        "clear": "Clear the search",
    },
}


def field(page: Page, language: str) -> Locator:
    return page.get_by_role("combobox", name=TEXTS[language]["field"], exact=True)


def results(page: Page, language: str) -> Locator:
    return page.get_by_role("listbox", name=TEXTS[language]["results"], exact=True)


def group(page: Page, language: str, category: str) -> Locator:
    return results(page, language).get_by_role("group", name=re.compile(f"^{TEXTS[language][category]} "))


@in_language("fr")
def test_search_without_and_with_accents_and_follow_a_result(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "createur", language)
    search = field(page, language)
    search.fill("chariots elevateurs")  # typed without accents
    subjects = group(page, language, "subjects")
    expect(subjects).to_have_accessible_name(f"{texts['subjects']} (1)")
    option = subjects.get_by_role("option", name=re.compile("Circulation des chariots élévateurs"))
    expect(option.locator("mark")).to_have_text("chariots élévateurs")
    expect(option.get_by_text("Ligne d'assemblage", exact=True)).to_be_visible()  # its context
    option.click()
    expect(page).to_have_url(re.compile(r"/spotv2/subject/\d+$"))
    expect(page.get_by_role("heading", name="Circulation des chariots élévateurs")).to_be_visible()
    expect(search).to_have_value("")
    expect(results(page, language)).to_be_hidden()

    search.fill("DÉTROMPAGE")  # with accents, in capitals: a mind-map node
    node = group(page, language, "nodes").get_by_role("option", name=re.compile("Détrompage"))
    expect(node.locator("mark")).to_have_text("Détrompage")
    node.click()
    expect(page.get_by_role("heading", name="Erreur de référence en bord de ligne")).to_be_visible()
    expect(search).to_have_value("")


@in_language("en")
def test_the_keyboard_and_the_chips_lead_to_functions_and_cartographies(
    page: Page, base_url: str, language: str
) -> None:
    sign_in(page, base_url, "createur", language)
    search = field(page, language)
    search.fill("regleur")
    function = group(page, language, "functions").get_by_role("option", name=re.compile("Opérateur régleur"))
    expect(function).to_be_visible()
    # The functions come after the cartographies, which have none here.
    search.press("ArrowDown")
    expect(search).to_have_attribute("aria-activedescendant", function.get_attribute("id") or "")
    search.press("Escape")
    expect(results(page, language)).to_be_hidden()
    search.press("ArrowDown")
    search.press("ArrowDown")
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"/spotv2/function/\d+$"))
    expect(page.get_by_role("heading", name="Opérateur régleur", exact=True)).to_be_visible()
    expect(search).to_have_value("")

    search.fill("chariots")
    option = group(page, language, "subjects").get_by_role("option").first
    option.get_by_text("Ligne d'assemblage", exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/cartography/\d+$"))
    expect(page.get_by_role("heading", name="Ligne d'assemblage", exact=True)).to_be_visible()


def test_a_phone_opens_the_search_from_an_icon(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, base_url, "createur", "fr")
    expect(field(page, "fr")).to_have_count(0)
    page.get_by_role("banner").get_by_role("button", name=TEXTS["fr"]["open"], exact=True).click()
    search = field(page, "fr")
    expect(search).to_be_focused()
    search.fill("elevateurs")
    option = group(page, "fr", "subjects").get_by_role("option", name=re.compile("élévateurs"))
    box = option.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    option.click()
    expect(page.get_by_role("heading", name="Circulation des chariots élévateurs")).to_be_visible()
    expect(field(page, "fr")).to_have_count(0)


@in_language("fr")
def test_a_broad_search_scrolls_its_popup_as_the_keyboard_moves(
    page: Page, base_url: str, language: str
) -> None:
    sign_in(page, base_url, "createur", language)
    search = field(page, language)
    search.fill("tion")
    listbox = results(page, language)
    expect(listbox.get_by_role("option").first).to_be_visible()
    popup = listbox.locator("xpath=..")
    # More results than the popup holds: it scrolls (axe checks it with the keyboard in mind).
    assert popup.evaluate("e => e.scrollHeight > e.clientHeight")
    search.press("ArrowUp")  # to the last line, at the bottom
    last = listbox.get_by_role("option").last
    expect(search).to_have_attribute("aria-activedescendant", last.get_attribute("id") or "")
    expect(last).to_be_in_viewport()
    page.wait_for_function("popup => popup.scrollTop > 0", arg=popup.element_handle())
