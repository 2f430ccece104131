"""The attendance sheet journey, in French and English (the server writes the PDF in its reader's
language): a participant of the demo's validated mediation, signed by one participant of two, opens it
from the mediation list, downloads its attendance sheet from the mediation page, reads its text back
(each participant, the signature and its meaning, the empty box of the one who has not signed, the
mediator's validation) and renders its first page with pdftoppm. axe checks every page on the way
(conftest)."""

import re
import shutil
import subprocess
from pathlib import Path

import pypdf
from PIL import Image
from playwright.sync_api import Page, expect

from conftest import IN_EACH_LANGUAGE, sign_in
from spot.demo.mediations import MEDIATIONS
from spot.demo.people import LOGINS
from spot.mediations.models import MediationStatus

VALIDATED = next(m for m in MEDIATIONS if m.status == MediationStatus.validated and m.signers)
NAMES = {login.login: f"{login.first_name} {login.last_name}" for login in LOGINS}
READER = VALIDATED.signers[0]

TEXTS = {
    "fr": {
        "button": "Feuille d'émargement",
        "downloaded": "Feuille d'émargement téléchargée",
        "file": r"emargement-\d+\.pdf",
        "title": "Feuille d'émargement",
        "meaning": "Présence et accord avec le compte rendu",
        "unsigned": "Pas de signature électronique",
        "validated": "Compte rendu validé par {name} le",
    },
    "en": {
        "button": "Attendance sheet",
        "downloaded": "Attendance sheet downloaded",
        "file": r"attendance-sheet-\d+\.pdf",
        "title": "Attendance sheet",
        "meaning": "Attendance and agreement with the report",
        "unsigned": "No electronic signature",
        "validated": "Report validated by {name} on",
    },
}


def not_blank(png: Path) -> bool:
    """Whether a rendered page holds something besides the white of the paper."""
    darkest, _lightest = Image.open(png).convert("L").getextrema()
    return darkest < 128


@IN_EACH_LANGUAGE
def test_a_participant_downloads_the_attendance_sheet_of_a_validated_mediation(
    page: Page, base_url: str, language: str, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, READER, language)

    page.goto(f"{base_url}/spotv2/mediations")
    card = page.get_by_role("article", name=VALIDATED.title, exact=True)
    card.get_by_role("link", name=VALIDATED.title, exact=True).click()
    expect(page.get_by_role("heading", level=1, name=VALIDATED.title, exact=True)).to_be_visible()

    actions = page.get_by_role("group", name="Actions", exact=True)
    with page.expect_download() as download_info:
        actions.get_by_role("button", name=texts["button"], exact=True).click()
    download = download_info.value
    assert re.fullmatch(texts["file"], download.suggested_filename), download.suggested_filename
    expect(page.get_by_text(texts["downloaded"], exact=True)).to_be_attached()
    pdf = tmp_path / download.suggested_filename
    download.save_as(pdf)

    reader = pypdf.PdfReader(pdf)
    content = " ".join(" ".join((p.extract_text() or "").split()) for p in reader.pages)
    assert texts["title"] in content and VALIDATED.title in content
    for login in VALIDATED.participants:
        assert NAMES[login] in content, login
    for login in VALIDATED.signers:
        signed = re.escape(NAMES[login]) + r" — .+ — " + re.escape(texts["meaning"])
        assert re.search(signed, content), content
    unsigned = [p for p in VALIDATED.participants if p not in VALIDATED.signers]
    # An empty box for each participant who has not signed, and one for the mediator.
    assert content.count(texts["unsigned"]) == len(unsigned) + 1, content
    assert texts["validated"].format(name=NAMES[VALIDATED.mediator]) in content

    # Its first page, as an image: there, and not blank.
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: `make chromium` installs poppler-utils"
    subprocess.run(
        [pdftoppm, "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", pdf, tmp_path / "sheet"],
        check=True,
    )
    png = tmp_path / "sheet.png"
    assert png.is_file()
    assert not_blank(png)
