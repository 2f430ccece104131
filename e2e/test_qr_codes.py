"""QR codes at the workstation (docs/documents.md): a cartography's sheet of labels printed (the PDF
downloaded, rendered with pdftoppm and each code read back); a function page's QR code opened, its
code read from the dialog as shown; the address a code holds opened signed out, the sign-in form filled,
and the function page reached. In each language: the sheet and the dialog carry each one's words."""

import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect

from conftest import API, DEMO_PASSWORD, IN_EACH_LANGUAGE, sign_in

TEXTS = {
    "fr": {
        "sheet": "Codes QR (PDF)",
        "open": "Code QR",
        "dialog": "Code QR du poste",
        "print": "Imprimer (PDF)",
        "close": "Fermer",
        "login": "Identifiant",
        "password": "Mot de passe",
        "signIn": "Se connecter",
    },
    "en": {
        "sheet": "QR codes (PDF)",
        "open": "QR code",
        "dialog": "Workstation QR code",
        "print": "Print (PDF)",
        "close": "Close",
        "login": "Login",
        "password": "Password",
        "signIn": "Sign in",
    },
}


@pytest.fixture(scope="module")
def machining(base_url: str) -> dict:
    """The demo's machining shop as the creator sees it: its id and its functions."""
    token = httpx.post(
        f"{base_url}{API}/account/login",
        json={"username": "createur", "password": DEMO_PASSWORD, "returnUrl": ""},
    ).json()["token"]
    headers = {"x-access-token": token}
    cartographies = httpx.get(f"{base_url}{API}/cartography", headers=headers).json()
    found = next(c for c in cartographies if c["name"] == "Atelier d'usinage")
    functions = httpx.get(f"{base_url}{API}/cartography/{found['id']}/functions", headers=headers).json()
    activities = httpx.get(f"{base_url}{API}/cartography/{found['id']}/activities", headers=headers).json()
    return {"id": found["id"], "functions": functions, "activities": activities}


def codes_in(image: Path | Image.Image) -> list[str]:
    picture = Image.open(image) if isinstance(image, Path) else image
    return [found.text for found in zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.QRCode)]


@IN_EACH_LANGUAGE
def test_a_cartography_s_sheet_of_qr_codes_is_printed(
    page: Page, base_url: str, language: str, machining: dict, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, "createur", language, to=f"/spotv2/cartography/{machining['id']}")
    with page.expect_download() as download_info:
        page.get_by_role("button", name=texts["sheet"], exact=True).click()
    download = download_info.value
    assert download.suggested_filename == f"qr-codes-{machining['id']}.pdf"
    pdf = tmp_path / "sheet.pdf"
    download.save_as(pdf)
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm, "pdftoppm is missing: `make chromium` installs poppler-utils"
    subprocess.run([pdftoppm, "-png", "-r", "100", pdf, tmp_path / "page"], check=True)
    found = [code for image in sorted(tmp_path.glob("page-*.png")) for code in codes_in(image)]
    public = f"{base_url}/spotv2"
    assert f"{public}/cartography/{machining['id']}" in found
    for function in machining["functions"]:
        assert f"{public}/function/{function['id']}" in found
    for activity in machining["activities"]:
        assert f"{public}/subjects/location%20oneOf%20{activity['id']}" in found
    assert (
        len(found)
        == len(set(found))
        == 1 + len(machining["functions"]) + len([code for code in found if "/subjects/" in code])
    )


@IN_EACH_LANGUAGE
def test_a_function_s_qr_code_opens_its_page_after_sign_in(
    page: Page, base_url: str, language: str, machining: dict, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    function = machining["functions"][0]
    address = f"{base_url}/spotv2/function/{function['id']}"
    sign_in(page, base_url, "createur", language, to=f"/spotv2/function/{function['id']}")
    expect(page.get_by_role("heading", name=function["name"], exact=True)).to_be_visible()
    page.get_by_role("button", name=texts["open"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["dialog"], exact=True)
    expect(dialog.get_by_text(address, exact=True)).to_be_visible()
    expect(dialog.get_by_text(function["name"], exact=True)).to_be_visible()
    image = dialog.get_by_role("img")
    expect(image).to_be_visible()
    image.screenshot(path=tmp_path / "code.png")
    assert codes_in(tmp_path / "code.png") == [address]
    with page.expect_download() as download_info:
        dialog.get_by_role("button", name=texts["print"], exact=True).click()
    assert download_info.value.suggested_filename == f"qr-code-function-{function['id']}.pdf"
    dialog.get_by_role("button", name=texts["close"], exact=True).click()
    expect(dialog).to_have_count(0)

    # A phone that scans the code has no session: the address leads to the sign-in, then to the page.
    page.context.clear_cookies()
    page.goto(address)
    expect(page).to_have_url(re.compile(r"/spotv2/login\?returnUrl="))
    page.get_by_label(texts["login"], exact=True).fill("createur")
    page.get_by_label(texts["password"], exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name=texts["signIn"], exact=True).click()
    expect(page).to_have_url(address)
    expect(page.get_by_role("heading", name=function["name"], exact=True)).to_be_visible()
