"""The path report journey, in French and English: the demo's administrator (perm_TableauBord and
perm_TrainingManagement, no saved parameter set in the demo) opens Reports edition from the drawer,
chooses the operators' group, saves the parameters as their default set, reloads the page and finds it
loaded; shows the paths in the dialog table; downloads the Excel file (read back with openpyxl) and the
zip of one PDF per learner, a job whose progress the page shows and which My jobs lists; renders the
first page of one PDF to PNG with pdftoppm and checks that it is not blank; then deletes the set. axe
checks every page and dialog on the way (conftest)."""

import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
from PIL import Image
from playwright.sync_api import Page, Route, expect

from conftest import IN_EACH_LANGUAGE, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "navigation": "Édition des rapports",
        "title": "Rapports des parcours de formation",
        "documentTitle": "Titre du document",
        "defaultTitle": "Rapport des parcours de formation",
        "groups": "Groupes",
        "save": "Enregistrer les paramètres",
        "name": "Nom",
        "isDefault": "Ouvrir la page avec ces paramètres (par défaut)",
        "saveButton": "Enregistrer",
        "saved": "Paramètres « {name} » enregistrés",
        "current": "Paramètres : {name}",
        "showPaths": "Afficher les parcours",
        "pathsTitle": "Parcours de formation du rapport",
        "close": "Fermer",
        "excel": "Export Excel",
        "learnerHeader": "Apprenant",
        "pdf": "Générer le rapport (PDF)",
        "starting": "Préparation des rapports…",
        "progressLabel": "Avancement des rapports PDF",
        "ready": re.compile(r"^Rapports prêts : \d+ apprenants?$"),
        "download": "Télécharger training-paths.zip",
        "pdfDone": "Rapports téléchargés",
        "account": "Compte",
        "myJobs": "Mes travaux",
        "jobKind": "Rapport des parcours de formation (PDF)",
        "savedSets": "Paramètres enregistrés",
        "delete": "Supprimer {name}",
        "deleteTitle": "Supprimer le jeu de paramètres",
        "confirm": "Supprimer",
        "deleted": "Jeu de paramètres « {name} » supprimé",
    },
    "en": {
        "navigation": "Reports edition",
        "title": "Training path reports",
        "documentTitle": "Document title",
        "defaultTitle": "Training paths report",
        "groups": "Groups",
        "save": "Save parameters",
        "name": "Name",
        "isDefault": "Open the page with these parameters (my default)",
        "saveButton": "Save",
        "saved": "Parameters “{name}” saved",
        "current": "Parameters: {name}",
        "showPaths": "Show training paths",
        "pathsTitle": "Training paths of the report",
        "close": "Close",
        "excel": "Excel export",
        "learnerHeader": "Learner",
        "pdf": "Generate report (PDF)",
        "starting": "Preparing the reports…",
        "progressLabel": "Progress of the PDF reports",
        "ready": re.compile(r"^Reports ready: \d+ learners?$"),
        "download": "Download training-paths.zip",
        "pdfDone": "Reports downloaded",
        "account": "Account",
        "myJobs": "My jobs",
        "jobKind": "Training paths report (PDF)",
        "savedSets": "Saved parameters",
        "delete": "Delete {name}",
        "deleteTitle": "Delete the parameter set",
        "confirm": "Delete",
        "deleted": "Parameter set “{name}” deleted",
    },
}
ADMIN = "admin"
# The demo's operators follow paths this year (spot/demo): Hélène Fournier among them.
GROUP = "Opérateurs"
LEARNER = "Hélène Fournier"
NAMES = {"fr": "Opérateurs : rapport e2e", "en": "Operators: e2e report"}


def not_blank(png: Path) -> bool:
    """Whether a rendered page holds something besides the white of the paper."""
    darkest, _lightest = Image.open(png).convert("L").getextrema()
    return darkest < 128


@IN_EACH_LANGUAGE
def test_a_manager_saves_parameters_and_downloads_the_reports(
    page: Page, base_url: str, language: str, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    name = NAMES[language]
    sign_in(page, base_url, ADMIN, language)

    # The drawer leads to the page, which opens with the server's defaults (the admin has no set).
    page.get_by_role("navigation").get_by_role("link", name=texts["navigation"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/administration/trainingPathReport$"))
    expect(page.get_by_role("heading", level=1, name=texts["title"], exact=True)).to_be_visible()
    expect(page.get_by_role("textbox", name=texts["documentTitle"])).to_have_value(texts["defaultTitle"])

    groups = page.get_by_role("combobox", name=texts["groups"], exact=True)
    groups.click()
    groups.fill(GROUP[:4])
    page.get_by_role("option", name=GROUP, exact=True).click()
    expect(page.get_by_role("button", name=GROUP, exact=True)).to_be_visible()

    # Saved as the default set, then found loaded after a reload.
    page.get_by_role("button", name=texts["save"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["save"], exact=True)
    dialog.get_by_role("textbox", name=texts["name"]).fill(name)
    dialog.get_by_role("switch", name=texts["isDefault"], exact=True).check()
    dialog.get_by_role("button", name=texts["saveButton"], exact=True).click()
    expect(page.get_by_text(texts["saved"].format(name=name), exact=True)).to_be_visible()
    expect(dialog).to_have_count(0)
    page.reload()
    expect(page.get_by_text(texts["current"].format(name=name), exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=GROUP, exact=True)).to_be_visible()

    # The paths selected, in the dialog table.
    page.get_by_role("button", name=texts["showPaths"], exact=True).click()
    paths = page.get_by_role("dialog", name=texts["pathsTitle"], exact=True)
    rows = paths.get_by_role("row")
    expect(rows.filter(has_text=LEARNER).first).to_be_visible()
    paths.get_by_role("button", name=texts["close"], exact=True).click()
    expect(paths).to_have_count(0)

    # The Excel file: a header row, then the operators' modules.
    with page.expect_download() as download_info:
        page.get_by_role("button", name=texts["excel"], exact=True).click()
    download = download_info.value
    assert download.suggested_filename == "training-paths.xlsx"
    workbook_path = tmp_path / "training-paths.xlsx"
    download.save_as(workbook_path)
    sheet = openpyxl.load_workbook(workbook_path, read_only=True).worksheets[0]
    lines = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert lines[0][0] == texts["learnerHeader"]
    assert len(lines) > 1
    assert LEARNER in {line[0] for line in lines[1:]}

    # The zip of one PDF per learner is a job: the request answers at once and the page shows the job's
    # progress (its start held here until seen), then offers its download; My jobs lists it too.
    held: list[Route] = []
    starting = re.compile(r"/reports/trainingPaths/pdf$")
    page.route(starting, lambda route: held.append(route))
    page.get_by_role("button", name=texts["pdf"], exact=True).click()
    expect(page.get_by_text(texts["starting"], exact=True)).to_be_visible()
    expect(page.get_by_role("progressbar", name=texts["progressLabel"], exact=True)).to_be_visible()
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()
    page.unroute(starting)
    expect(page.get_by_text(texts["ready"])).to_be_visible(timeout=60_000)
    with page.expect_download(timeout=60_000) as download_info:
        page.get_by_role("button", name=texts["download"], exact=True).click()
    download = download_info.value
    assert download.suggested_filename == "training-paths.zip"
    expect(page.get_by_text(texts["pdfDone"], exact=True)).to_be_visible()
    archive_path = tmp_path / "training-paths.zip"
    download.save_as(archive_path)
    with zipfile.ZipFile(archive_path) as archive:
        names = archive.namelist()
        assert f"{LEARNER}.pdf" in names
        assert all(entry.endswith(".pdf") for entry in names)
        pdf = tmp_path / "learner.pdf"
        pdf.write_bytes(archive.read(f"{LEARNER}.pdf"))

    # Its first page, as an image: there, and not blank.
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: `make chromium` installs poppler-utils"
    subprocess.run(
        [pdftoppm, "-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", pdf, tmp_path / "page"],
        check=True,
    )
    png = tmp_path / "page.png"
    assert png.is_file()
    assert not_blank(png)

    # My jobs lists the job, its file still there to download.
    page.get_by_role("button", name=texts["account"], exact=True).click()
    page.get_by_role("menuitem", name=texts["myJobs"], exact=True).click()
    expect(page.get_by_role("heading", level=1, name=texts["myJobs"], exact=True)).to_be_visible()
    job = page.get_by_role("listitem", name=texts["jobKind"], exact=True).first
    expect(job.get_by_role("button", name=texts["download"], exact=True)).to_be_visible()
    page.go_back()
    expect(page.get_by_role("heading", level=1, name=texts["title"], exact=True)).to_be_visible()

    # The set deleted, from the saved sets' menu.
    page.get_by_role("button", name=texts["savedSets"], exact=True).click()
    page.get_by_role("button", name=texts["delete"].format(name=name), exact=True).click()
    confirm = page.get_by_role("dialog", name=texts["deleteTitle"], exact=True)
    confirm.get_by_role("button", name=texts["confirm"], exact=True).click()
    expect(page.get_by_text(texts["deleted"].format(name=name), exact=True)).to_be_visible()
