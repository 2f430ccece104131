"""The DUERP of a site (docs/documents.md): the manager opens the site's Documents page from the sites,
finds the demo's first version, generates the next one in the page's language, downloads its PDF
(its first page rendered with pdftoppm, its words read) and its workbook (its sheets and rows read with
openpyxl); a risk's prevention measures, which the DUERP prints, are on its subject page. In each
language: the page, the document and the workbook carry each one's words."""

import hashlib
import io
import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pypdf
from playwright.sync_api import Page, expect
from test_screens import ids_by_name

from conftest import IN_EACH_LANGUAGE, sign_in

TEXTS = {
    "fr": {
        "documents": "Documents du site Usine de Lyon",
        "title": "Documents — Usine de Lyon",
        "versions": "Versions",
        "language": "Langue du document",
        "languageName": "Français",
        "generate": "Générer une nouvelle version",
        "generated": "Version {n} générée",
        "pdf": "Télécharger le PDF de la version {n}",
        "xlsx": "Télécharger le classeur Excel de la version {n}",
        "heading": "Document unique d'évaluation des risques professionnels",
        "sheets": ["Document", "Synthèse", "Risques", "Plan d'action"],
        "measures": "Mesures de prévention",
        "band": "élevée",
    },
    "en": {
        "documents": "Documents of the site Usine de Lyon",
        "title": "Documents — Usine de Lyon",
        "versions": "Versions",
        "language": "Language of the document",
        "languageName": "English",
        "generate": "Generate a new version",
        "generated": "Version {n} generated",
        "pdf": "Download the PDF of version {n}",
        "xlsx": "Download the Excel workbook of version {n}",
        "heading": "Single occupational risk assessment document (DUERP)",
        "sheets": ["Document", "Summary", "Risks", "Action plan"],
        "measures": "Prevention measures",
        "band": "high",
    },
}
# A risk of the demo with its measures (spot.demo.documents) and its criticity (5 × 4: 80, high).
RISK = "Intervention sur machine en mode dégradé"
RISK_MEASURES = "Mode dégradé réservé aux régleurs habilités"


@IN_EACH_LANGUAGE
def test_the_manager_generates_the_site_s_duerp_and_opens_its_files(
    page: Page, base_url: str, language: str, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "manager", language, to="/spotv2/sites")
    page.get_by_role("link", name=texts["documents"], exact=True).click()
    expect(page.get_by_role("heading", level=1, name=texts["title"])).to_be_visible()
    versions = page.get_by_role("list", name=texts["versions"], exact=True)
    expect(versions.get_by_role("listitem").first).to_be_visible()
    before = versions.get_by_role("listitem").count()
    new = before + 1

    page.get_by_role("combobox", name=texts["language"]).click()
    page.get_by_role("option", name=texts["languageName"], exact=True).click()
    page.get_by_role("button", name=texts["generate"], exact=True).click()
    expect(page.get_by_text(texts["generated"].format(n=new), exact=True)).to_be_visible()
    expect(versions.get_by_role("listitem")).to_have_count(new)
    newest = versions.get_by_role("listitem").first
    sha256 = re.search(r"[0-9a-f]{64}", newest.inner_text())
    assert sha256, newest.inner_text()

    with page.expect_download() as download_info:
        newest.get_by_role("button", name=texts["pdf"].format(n=new), exact=True).click()
    download = download_info.value
    assert download.suggested_filename == f"duerp-LYON-v{new}.pdf"
    pdf = tmp_path / "duerp.pdf"
    download.save_as(pdf)
    assert hashlib.sha256(pdf.read_bytes()).hexdigest() == sha256.group(0)
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: `make chromium` installs poppler-utils"
    subprocess.run([pdftoppm, "-png", "-r", "60", "-f", "1", "-l", "3", pdf, tmp_path / "page"], check=True)
    assert len(list(tmp_path.glob("page-*.png"))) == 3
    words = "\n".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages)
    assert texts["heading"] in words and "Usine de Lyon" in words and f"{new}" in words
    assert RISK in words and RISK_MEASURES in words and f"80 · {texts['band']}" in words

    with page.expect_download() as download_info:
        newest.get_by_role("button", name=texts["xlsx"].format(n=new), exact=True).click()
    book = openpyxl.load_workbook(io.BytesIO(Path(download_info.value.path()).read_bytes()))
    assert book.sheetnames == texts["sheets"]
    risks = {row[4]: row for row in book[texts["sheets"][2]].iter_rows(min_row=2, values_only=True)}
    assert risks[RISK][5:9] == (5, 4, 80, texts["band"])
    assert risks[RISK][17].startswith(RISK_MEASURES)

    # The measures the document printed are on the risk's subject page.
    page.goto(f"{base_url}/spotv2/subject/{ids_by_name(base_url, '/subject/query')[RISK]}")
    measures = page.get_by_role("region", name=texts["measures"], exact=True)
    expect(measures).to_contain_text(RISK_MEASURES)
