"""The dashboards (each journey in one language, its pages seen again in the other; the Excel export in each):
a learner lands on My dashboard after signing in (current paths, awaited actions, own contributions, periodic
modules), follows the alert of a qualification about to expire to their qualification status, and opens My
qualifications from the account menu; a manager opens path progress, then one group and its members, and back;
a manager starts from the Dashboard manager: the cartographies with their qualification figures, the groups
leading to their path progress and their qualifications, a person's qualification status; a manager narrows
the contributions to a group and exports them to Excel, a workbook of two sheets (writes, views) with a row
per member, a total column and an average row. axe checks every page on the way (conftest)."""

import re
from pathlib import Path
from typing import Any

import openpyxl
from playwright.sync_api import Page, expect

from conftest import IN_EACH_LANGUAGE, admin_client, in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "myDashboard": "Mon tableau de bord",
        "currentPaths": "Mes parcours en cours",
        "awaited": "Actions attendues",
        "contributions": "Mes contributions",
        "periodic": "Validité des modules périodiques",
        "expiring": re.compile(
            r"^Votre qualification « Cariste en atelier » expire (dans \d+ jours?|aujourd'hui)$"
        ),
        "myStatus": "Ma situation de qualification",
        "account": "Compte",
        "myQualifications": "Mes qualifications",
        "drawer": "Navigation principale",
        "pathsProgress": "Progression des parcours",
        "groups": "Groupes",
        "groupTitle": "Progression des parcours : Opérateurs",
        "members": "Membres",
        "back": "Retour à la progression des parcours",
        "contributionsNav": "Contributions",
        "perWeek": "Consultations et contributions par semaine",
        "byContributors": "Limiter à des contributeurs",
        "groupsPicker": "Groupes",
        "export": "Export Excel",
        "sheets": ["Contributions", "Consultations"],
        "header": ("Utilisateur", "Total"),
        "average": "Moyenne",
        "manager": "Tableau de bord manager",
        "cartographies": "Cartographies",
        "cartographyTitle": "Qualifications de la cartographie {}",
        "qualificationCount": re.compile(r"^(\d+ qualifications?|Aucune qualification ne la nomme)$"),
        "coverageOf": "Couverture des fonctions de {}",
        "groupPaths": "Progression des parcours : {}",
        "groupQualifications": "Qualifications du groupe {}",
        "person": "Personne",
        "personTitle": "Situation de qualification de {}",
        "history": "Historique ({}) : {}",
        "historyOf": "Historique des validations de {}, de la plus récente à la plus ancienne",
        "outcomes": ["Validation en cours", "Renouvelée", "Note modifiée"],
    },
    "en": {
        "myDashboard": "My dashboard",
        "currentPaths": "My current paths",
        "awaited": "Awaited actions",
        "contributions": "My contributions",
        "periodic": "Validity of periodic modules",
        "expiring": re.compile(r"^Your qualification “Cariste en atelier” expires (in \d+ days?|today)$"),
        "myStatus": "My qualification status",
        "account": "Account",
        "myQualifications": "My qualifications",
        "drawer": "Main navigation",
        "pathsProgress": "Paths progress",
        "groups": "Groups",
        "groupTitle": "Paths progress: Opérateurs",
        "members": "Members",
        "back": "Back to paths progress",
        "contributionsNav": "Contributions",
        "perWeek": "Views and contributions per week",
        "byContributors": "Limit to some contributors",
        "groupsPicker": "Groups",
        "export": "Excel export",
        "sheets": ["Contributions", "Views"],
        "header": ("User", "Total"),
        "average": "Average",
        "manager": "Dashboard manager",
        "cartographies": "Cartographies",
        "cartographyTitle": "Qualifications of the cartography {}",
        "qualificationCount": re.compile(r"^(\d+ qualifications?|No qualification names it)$"),
        "coverageOf": "Coverage of the functions of {}",
        "groupPaths": "Paths progress: {}",
        "groupQualifications": "Qualifications of the group {}",
        "person": "Person",
        "personTitle": "Qualification status of {}",
        "history": "History ({}): {}",
        "historyOf": "History of the validations of {}, newest first",
        "outcomes": ["Current validation", "Renewed", "Grade changed"],
    },
}
LEARNER = ("apprenant", "Gabriel Roux")
# The demo's learner follows this path, and holds "Cariste en atelier" for less than a month.
LEARNER_PATH = "Devenir régleur sur le tour"
OPERATORS = ("Opérateurs", ["Gabriel Roux", "Hélène Fournier"])
# The forklift module of "Cariste en atelier", graded three times for the learner (demo.validation_history).
FORKLIFT = "Conduite de chariot élévateur en atelier"


def open_drawer_entry(page: Page, texts: dict[str, Any], entry: str) -> None:
    page.get_by_role("navigation", name=texts["drawer"]).get_by_role("link", name=entry, exact=True).click()


@in_language("fr")
def test_a_learner_opens_my_dashboard_and_my_qualifications(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, LEARNER[0], language)
    expect(page.get_by_role("heading", name=texts["myDashboard"], level=1)).to_be_visible()
    paths = page.get_by_role("region", name=texts["currentPaths"], exact=True)
    expect(paths.get_by_role("link", name=LEARNER_PATH, exact=True)).to_be_visible()
    # With the requalification Spot opened for his forklift licence (demo.requalification).
    expect(paths.get_by_role("progressbar")).to_have_count(2)
    contributions = page.get_by_role("region", name=texts["contributions"], exact=True)
    expect(contributions.locator("svg").first).to_be_visible()
    # Twelve months, and the table's header row.
    expect(contributions.get_by_role("row")).to_have_count(13)
    periodic = page.get_by_role("region", name=texts["periodic"], exact=True)
    expect(periodic.get_by_role("listitem").first).to_be_visible()

    # The alert of a qualification about to expire leads to the learner's qualification status.
    awaited = page.get_by_role("region", name=texts["awaited"], exact=True)
    awaited.get_by_role("link", name=texts["expiring"]).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboard/qualifications/user/\d+$"))
    expect(page.get_by_role("heading", name=texts["myStatus"], level=1)).to_be_visible()
    expect(page.get_by_role("region", name="Cariste en atelier", exact=True)).to_be_visible()

    # My qualifications, from the account menu: the same status, without a user in the address.
    page.get_by_role("button", name=texts["account"], exact=True).click()
    page.get_by_role("menuitem", name=texts["myQualifications"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboard/qualifications/user$"))
    expect(page.get_by_role("heading", name=texts["myStatus"], level=1)).to_be_visible()
    cariste = page.get_by_role("region", name="Cariste en atelier", exact=True)
    expect(cariste.get_by_role("link", name="Cariste en atelier", exact=True)).to_have_attribute(
        "href", re.compile(r"/spotv2/qualification/view/\d+$")
    )

    # The module's history: the validation held, the initial one it renewed, and that initial
    # training's first grade, changed since; newest first, each path a link.
    history = cariste.get_by_role("button", name=texts["history"].format(3, FORKLIFT), exact=True)
    expect(history).to_have_attribute("aria-expanded", "false")
    history.click()
    expect(history).to_have_attribute("aria-expanded", "true")
    timeline = page.get_by_role("list", name=texts["historyOf"].format(FORKLIFT), exact=True)
    entries = timeline.get_by_role("listitem")
    expect(entries).to_have_count(3)
    for entry, outcome in zip(
        (entries.nth(0), entries.nth(1), entries.nth(2)), texts["outcomes"], strict=True
    ):
        expect(entry.get_by_text(outcome, exact=True)).to_be_visible()
    expect(
        entries.nth(2).get_by_role("link", name="Habilitation cariste : formation initiale")
    ).to_have_attribute("href", re.compile(r"/spotv2/training/path/view/\d+$"))


@in_language("en")
def test_a_manager_opens_path_progress_and_a_group(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "manager", language)
    open_drawer_entry(page, texts, texts["pathsProgress"])
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/trainingPath$"))
    expect(page.get_by_role("heading", name=texts["pathsProgress"], level=1)).to_be_visible()
    groups = page.get_by_role("list", name=texts["groups"], exact=True)
    operators = groups.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=OPERATORS[0], exact=True)
    )
    # The operators follow paths: their average completion is a figure.
    expect(operators.get_by_role("progressbar")).to_have_count(1)
    operators.get_by_role("link", name=OPERATORS[0], exact=True).click()

    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/trainingPath/group/\d+$"))
    expect(page.get_by_role("heading", name=texts["groupTitle"], level=1)).to_be_visible()
    members = page.get_by_role("list", name=texts["members"], exact=True)
    for name in OPERATORS[1]:
        expect(members.get_by_role("heading", name=name, exact=True)).to_be_visible()
    learner = members.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=LEARNER[1], exact=True)
    )
    expect(learner.get_by_role("link", name=LEARNER_PATH, exact=True)).to_have_attribute(
        "href", re.compile(r"/spotv2/training/path/view/\d+$")
    )
    page.get_by_role("link", name=texts["back"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/trainingPath$"))


ASSEMBLY_LINE = "Ligne d'assemblage"


@in_language("fr")
def test_a_manager_starts_from_the_dashboard_manager(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    with admin_client(base_url) as api:
        figures = {c["name"]: c for c in api.get("/dashboards/manager/cartographies").json()}
    sign_in(page, base_url, "manager", language)
    open_drawer_entry(page, texts, texts["manager"])
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/manager$"))
    expect(page.get_by_role("heading", name=texts["manager"], level=1)).to_be_visible()

    # The cartographies with the figures of their qualification dashboards, as the server counts them.
    cartographies = page.get_by_role("list", name=texts["cartographies"], exact=True)
    assembly = cartographies.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=ASSEMBLY_LINE, exact=True)
    )
    expect(assembly.get_by_text(texts["qualificationCount"])).to_be_visible()
    levels = assembly.get_by_role("list", name=texts["coverageOf"].format(ASSEMBLY_LINE), exact=True)
    counts = dict(figures[ASSEMBLY_LINE]["functions"])
    # Beside the levels, the functions under their minimum, whatever their level.
    under_minimum = counts.pop("underMinimum")
    for level, count in [*counts.items(), ("underMinimum", under_minimum)]:
        selector = "[data-under-minimum]" if level == "underMinimum" else f'[data-level="{level}"]'
        chip = levels.locator(selector)
        if count:
            expect(chip).to_have_text(re.compile(rf"^{count} "))
        else:
            expect(chip).to_have_count(0)
    assembly.get_by_role("link", name=ASSEMBLY_LINE, exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/qualifications/cartography/\d+$"))
    expect(
        page.get_by_role("heading", name=texts["cartographyTitle"].format(ASSEMBLY_LINE), level=1)
    ).to_be_visible()
    page.go_back()

    # A group leads to its path progress and to its qualifications.
    groups = page.get_by_role("list", name=texts["groups"], exact=True)
    operators = groups.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=OPERATORS[0], exact=True)
    )
    expect(operators.get_by_role("progressbar")).to_have_count(1)
    operators.get_by_role("link", name=texts["groupQualifications"].format(OPERATORS[0]), exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboard/qualifications/group/\d+$"))
    expect(
        page.get_by_role("heading", name=texts["groupQualifications"].format(OPERATORS[0]), level=1)
    ).to_be_visible()
    page.go_back()
    operators.get_by_role("link", name=texts["groupPaths"].format(OPERATORS[0]), exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/trainingPath/group/\d+$"))
    expect(page.get_by_role("heading", name=texts["groupTitle"], level=1)).to_be_visible()
    page.go_back()

    # A person chosen by name: their qualification status.
    person = page.get_by_role("combobox", name=texts["person"], exact=True)
    person.fill(LEARNER[1].split()[1])
    page.get_by_role("option", name=LEARNER[1], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/dashboard/qualifications/user/\d+$"))
    expect(page.get_by_role("heading", name=texts["personTitle"].format(LEARNER[1]), level=1)).to_be_visible()


@IN_EACH_LANGUAGE
def test_a_manager_exports_contributions_to_excel(
    page: Page, base_url: str, language: str, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "manager", language)
    open_drawer_entry(page, texts, texts["contributionsNav"])
    expect(page).to_have_url(re.compile(r"/spotv2/dashboards/contributions$"))
    weeks = page.get_by_role("table", name=texts["perWeek"], exact=True)
    # 78 weeks by default, and the header row.
    expect(weeks.get_by_role("row")).to_have_count(79)

    page.get_by_role("switch", name=texts["byContributors"], exact=True).check()
    groups = page.get_by_role("combobox", name=texts["groupsPicker"], exact=True)
    groups.click()
    groups.fill(OPERATORS[0][:5])
    page.get_by_role("option", name=OPERATORS[0], exact=True).click()

    with page.expect_download() as download_info:
        page.get_by_role("button", name=texts["export"], exact=True).click()
    download = download_info.value
    assert download.suggested_filename == "contributions.xlsx"
    saved = tmp_path / "contributions.xlsx"
    download.save_as(saved)

    workbook = openpyxl.load_workbook(saved, read_only=True)
    assert workbook.sheetnames == texts["sheets"]
    for sheet in workbook.worksheets:
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        header = rows[0]
        assert (header[0], header[-1]) == texts["header"]
        # A column per week, between the user and the total.
        assert len(header) == 78 + 2
        names = [row[0] for row in rows[1:-1]]
        assert set(OPERATORS[1]) <= set(names)
        for row in rows[1:-1]:
            assert row[-1] == sum(row[1:-1])
        assert rows[-1][0] == texts["average"]
    workbook.close()
