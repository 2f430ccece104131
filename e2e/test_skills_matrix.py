"""The skills matrix (docs/qualifications.md), in French and English: a manager opens the machining
workshop's matrix from its plan, filters it by group and sorts it, reads a person's cells and the foot
where the forklift drivers fall under their minimum within 30 days, downloads it as Excel and PDF (in
the reader's language, with the filters), then sees the function flagged on the workshop's plan. axe
checks every page on the way (conftest)."""

import io
import re
from typing import Any

from openpyxl import load_workbook
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from conftest import IN_EACH_LANGUAGE, admin_client, sign_in

WORKSHOP = "Atelier d'usinage"
TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "button": "Matrice de compétences",
        "title": f"Matrice de compétences : {WORKSHOP}",
        "groups": "Groupes",
        "sort": "Tri",
        "byHeld": "Par fonctions tenues",
        "shown": "{} personnes concernées sur {}",
        "expiring": "Expire sous 30 jours",
        "in30": "Qualifiées dans 30 jours",
        "under": ", sous le minimum",
        "excel": "Télécharger la matrice en classeur Excel",
        "pdf": "Télécharger la matrice en PDF",
        "sheets": ["Matrice", "Légende"],
        "groupsRow": ["Groupes", "Opérateurs"],
        "pdfWords": ["Matrice de compétences", "Personnes qualifiées", "Qualifiées dans 30 jours"],
    },
    "en": {
        "button": "Skills matrix",
        "title": f"Skills matrix: {WORKSHOP}",
        "groups": "Groups",
        "sort": "Sort",
        "byHeld": "By functions held",
        "shown": "{} of {} people concerned",
        "expiring": "Expiring within 30 days",
        "in30": "Qualified in 30 days",
        "under": ", under the minimum",
        "excel": "Download the matrix as an Excel workbook",
        "pdf": "Download the matrix as a PDF",
        "sheets": ["Matrix", "Legend"],
        "groupsRow": ["Groups", "Opérateurs"],
        "pdfWords": ["Skills matrix", "People qualified", "Qualified in 30 days"],
    },
}


def _ids(base_url: str) -> tuple[int, int, tuple[int, int]]:
    """The workshop's id, the operators' group's, and how many of the people concerned are operators
    (other journeys of the run may have added people to the group)."""
    with admin_client(base_url) as client:
        cartographies = client.get("/dashboards/manager/cartographies").json()
        workshop = next(c["id"] for c in cartographies if c["name"] == WORKSHOP)
        groups = client.get(f"/dashboards/cartography/{workshop}/matrix").json()["groups"]
        operators = next(g["id"] for g in groups if g["name"] == "Opérateurs")
        shown = client.get(f"/dashboards/cartography/{workshop}/matrix", params={"group": operators}).json()
    return workshop, operators, (len(shown["rows"]), shown["totalPeople"])


@IN_EACH_LANGUAGE
def test_a_manager_reads_filters_and_exports_a_workshops_skills_matrix(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    workshop, operators, shown = _ids(base_url)
    sign_in(page, base_url, "manager", language)

    # From the workshop's plan to its matrix.
    page.goto(f"{base_url}/spotv2/cartography/{workshop}")
    page.get_by_role("link", name=texts["button"], exact=True).click()
    expect(page).to_have_url(re.compile(rf"/spotv2/dashboards/qualifications/cartography/{workshop}/matrix$"))
    expect(page.get_by_role("heading", name=texts["title"], level=1)).to_be_visible()
    table = page.get_by_role("table")
    expect(table.get_by_role("columnheader")).to_have_count(6)

    # Filtered by group and sorted by functions held: the address keeps both.
    page.get_by_role("combobox", name=texts["groups"]).click()
    page.get_by_role("option", name="Opérateurs", exact=True).click()
    page.keyboard.press("Escape")
    page.get_by_role("combobox", name=texts["sort"]).click()
    page.get_by_role("option", name=texts["byHeld"], exact=True).click()
    expect(page).to_have_url(re.compile(rf"/matrix\?group={operators}&sort=held$"))
    expect(page.get_by_text(texts["shown"].format(*shown), exact=True)).to_be_visible()
    # Hélène Fournier holds the most functions: first. Gabriel Roux's forklift licence ends within 30
    # days, said in words as well as by its colour.
    expect(table.get_by_role("rowheader").first).to_have_text("Hélène Fournier")
    gabriel = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name="Gabriel Roux"))
    cariste = gabriel.locator("td[data-state='expiring']")
    expect(cariste).to_have_count(1)
    expect(cariste).to_contain_text(texts["expiring"])
    # The foot: in 30 days one forklift driver is left of the minimum of 2.
    in30 = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=texts["in30"]))
    expect(in30.get_by_role("cell").nth(2)).to_have_text(f"1{texts['under']}")

    # The files, with the same filters, in the reader's language.
    with page.expect_download() as download:
        page.get_by_role("button", name=texts["excel"]).click()
    assert download.value.suggested_filename == "skills-matrix.xlsx"
    book = load_workbook(io.BytesIO(open(download.value.path(), "rb").read()))
    assert book.sheetnames == texts["sheets"]
    assert book.worksheets[0].freeze_panes == "B2"
    assert book.worksheets[0]["A2"].value == "Hélène Fournier"
    assert texts["groupsRow"] in [[c.value for c in row][:2] for row in book.worksheets[1].iter_rows()]
    with page.expect_download() as download:
        page.get_by_role("button", name=texts["pdf"]).click()
    assert download.value.suggested_filename == "skills-matrix.pdf"
    reader = PdfReader(download.value.path())
    words = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    for word in [*texts["pdfWords"], "Gabriel Roux", WORKSHOP]:
        assert word in words, word

    # Back on the plan, the forklift drivers' zone is flagged as falling under its minimum.
    page.goto(f"{base_url}/spotv2/cartography/{workshop}")
    zone = page.get_by_role("link", name=re.compile(r"^Cariste ?:"))
    expect(zone).to_have_attribute("data-outlook", "falling")
