"""QR codes at the workstation (docs/documents.md): each code, read back from the image or the PDF
the server makes, holds the address of the item's page under SPOT_PUBLIC_URL; a sheet holds a label per
function and activity the reader sees, and the cartography's own; 404 unknown, 403 hidden."""

import base64
import io
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest
import zxingcpp
from PIL import Image
from pypdf import PdfReader
from sqlalchemy import select

from mapping.maps import make_zip, restrict
from spot.config import get_settings
from spot.mapping import bundle
from spot.mapping.models import Cartography, CartographyVisibility
from spot.users.models import User
from support import API, assert_error

PUBLIC_URL = "https://spot.example.com/"
BASE = "https://spot.example.com/spotv2"


@pytest.fixture(autouse=True)
def public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "public_url", PUBLIC_URL)


@pytest.fixture
def reader(make_user, login) -> dict[str, str]:
    return login(make_user("lecteur"))


def activity_address(activity_id: int) -> str:
    return f"{BASE}/subjects/location%20oneOf%20{activity_id}"


def decoded(image: Image.Image) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def codes_of_label(body: dict) -> list[str]:
    header, _, data = body["image"].partition(",")
    assert header == "data:image/png;base64"
    return decoded(Image.open(io.BytesIO(base64.b64decode(data))))


def pdf_pages(content: bytes, tmp_path: Path) -> list[Image.Image]:
    """The PDF's pages as pdftoppm renders them (100 dpi, as a printer would at least)."""
    source = tmp_path / "labels.pdf"
    source.write_bytes(content)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(source), str(tmp_path / "page")], check=True)
    return [Image.open(path) for path in sorted(tmp_path.glob("page-*.png"))]


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_each_label_holds_the_address_of_its_page(client, test_map, reader):
    expected = {
        ("cartography", test_map.cartography("C1")): f"{BASE}/cartography/{test_map.cartography('C1')}",
        ("function", test_map.function("F1")): f"{BASE}/function/{test_map.function('F1')}",
        ("subject", test_map.subject("S1")): f"{BASE}/subject/{test_map.subject('S1')}",
        ("activity", test_map.activity("A12")): activity_address(test_map.activity("A12")),
    }
    for (kind, item_id), address in expected.items():
        response = client.get(f"{API}/label/{kind}/{item_id}", headers=reader)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["address"] == address
        assert body["itemType"] == kind and body["itemId"] == item_id
        assert codes_of_label(body) == [address]


def test_the_activity_address_is_the_subject_list_filtered_on_it(test_map):
    # The client's list path: the filter text as one segment, encoded as encodeURIComponent does.
    activity_id = test_map.activity("A1")
    assert (
        activity_address(activity_id) == f"{BASE}/subjects/{quote(f'location oneOf {activity_id}', safe='')}"
    )


def test_a_label_says_the_name_and_the_context(client, test_map, reader):
    subject = client.get(f"{API}/label/subject/{test_map.subject('S3')}", headers=reader).json()
    assert subject["name"] == "Ébavurer"
    # Through its function, then down its activities.
    assert subject["context"] == [
        "Site de test",
        "Atelier de test",
        "Opérateur régleur",
        "Usinage",
        "Fraisage",
        "Ébavurage",
    ]
    function = client.get(f"{API}/label/function/{test_map.function('F2')}", headers=reader).json()
    assert (function["name"], function["context"]) == ("Contrôleur", ["Site de test", "Atelier de test"])
    activity = client.get(f"{API}/label/activity/{test_map.activity('A121')}", headers=reader).json()
    assert activity["context"] == ["Site de test", "Atelier de test", "Usinage", "Fraisage"]


def test_the_address_follows_the_public_url_setting(client, test_map, reader, monkeypatch):
    monkeypatch.setattr(get_settings(), "public_url", "http://10.0.0.7:8080")
    function_id = test_map.function("F1")
    body = client.get(f"{API}/label/function/{function_id}", headers=reader).json()
    assert codes_of_label(body) == [f"http://10.0.0.7:8080/spotv2/function/{function_id}"]


def test_unknown_items_answer_404_and_hidden_ones_403(client, db, test_map, make_user, login):
    user = make_user("restreint")
    restrict(db, user, test_map.cartography("C2"))
    headers = login(user)
    for kind, item_id in [
        ("cartography", test_map.cartography("C1")),
        ("function", test_map.function("F1")),
        ("activity", test_map.activity("A1")),
        ("subject", test_map.subject("S1")),
    ]:
        assert_error(client.get(f"{API}/label/{kind}/{item_id}", headers=headers), 403)
        assert_error(client.get(f"{API}/label/{kind}/{item_id}/pdf", headers=headers), 403)
    assert_error(client.get(f"{API}/cartography/{test_map.cartography('C1')}/labels", headers=headers), 403)
    for kind in ("cartography", "function", "activity", "subject"):
        assert_error(client.get(f"{API}/label/{kind}/999999", headers=headers), 404)
        assert_error(client.get(f"{API}/label/{kind}/999999/pdf", headers=headers), 404)
    assert_error(client.get(f"{API}/cartography/999999/labels", headers=headers), 404)
    # A function's id is no cartography's, and an item type without a label is refused.
    assert_error(client.get(f"{API}/cartography/{test_map.function('F1')}/labels", headers=headers), 404)
    assert_error(client.get(f"{API}/label/site/{test_map.site_id}", headers=headers), 422)
    assert_error(client.get(f"{API}/label/function/12abc", headers=headers), 422)


def test_labels_need_a_session(client, test_map):
    assert_error(client.get(f"{API}/label/function/{test_map.function('F1')}"), 401)
    assert_error(client.get(f"{API}/cartography/{test_map.cartography('C1')}/labels"), 401)


def test_the_sheet_has_a_label_per_function_and_activity_and_the_cartography(
    client, test_map, reader, tmp_path
):
    c1 = test_map.cartography("C1")
    response = client.get(f"{API}/cartography/{c1}/labels", headers=reader)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == f'attachment; filename="qr-codes-{c1}.pdf"'
    pages = pdf_pages(response.content, tmp_path)
    # 1 + 2 functions + 5 activities: 8 labels, one page.
    assert len(pages) == 1
    found = decoded(pages[0])
    expected = [f"{BASE}/cartography/{c1}"]
    expected += [f"{BASE}/function/{test_map.function(code)}" for code in ("F1", "F2")]
    expected += [activity_address(test_map.activity(code)) for code in ("A1", "A11", "A12", "A121", "A2")]
    assert sorted(found) == sorted(expected)
    text = pdf_text(response.content)
    for name in ("Atelier de test", "Opérateur régleur", "Contrôleur", "Usinage", "Ébavurage", "Contrôle"):
        assert name in text
    assert "Codes QR — Atelier de test" in text and "FONCTION" in text and "ACTIVITÉ" in text


def test_the_sheet_holds_only_what_the_reader_sees(client, db, test_map, make_user, login, tmp_path):
    user: User = make_user("opérateur")
    group_id = user.groups[0].id
    db.add(CartographyVisibility(group_id=group_id, item_type="function", item_id=test_map.function("F1")))
    db.add(CartographyVisibility(group_id=group_id, item_type="activity", item_id=test_map.activity("A12")))
    db.commit()
    c1 = test_map.cartography("C1")
    response = client.get(f"{API}/cartography/{c1}/labels", headers=login(user))
    assert response.status_code == 200, response.text
    found = decoded(pdf_pages(response.content, tmp_path)[0])
    # F1; A12, the one below it, and Usinage above it, the way down to it.
    expected = [f"{BASE}/cartography/{c1}", f"{BASE}/function/{test_map.function('F1')}"]
    expected += [activity_address(test_map.activity(code)) for code in ("A1", "A12", "A121")]
    assert sorted(found) == sorted(expected)
    text = pdf_text(response.content)
    assert "Contrôleur" not in text and "Tournage" not in text


def test_a_long_sheet_goes_on_to_more_pages(client, db, reader, tmp_path):
    doc = {
        "format": "spot-map/1",
        "code": "BIG",
        "name": "Grand site",
        "cartographies": [
            {
                "code": "G",
                "name": "Grande ligne",
                "image": "plan-1.png",
                "activities": [{"code": f"A{n}", "name": f"Activité {n}"} for n in range(6)],
                "functions": [
                    {"code": f"F{n}", "name": f"Fonction {n}" + " très longue" * 8} for n in range(6)
                ],
            }
        ],
    }
    bundle.import_bundle(db, data=make_zip(doc), user=None)
    db.commit()
    cartography_id = db.scalar(select(Cartography.id).where(Cartography.code == "G"))
    response = client.get(f"{API}/cartography/{cartography_id}/labels", headers=reader)
    pages = pdf_pages(response.content, tmp_path)
    # 13 labels: 8 on the first page, 5 on the second.
    assert [len(decoded(page)) for page in pages] == [8, 5]
    assert "Page 2 / 2" in pdf_text(response.content)


def test_a_label_alone_as_a_pdf_in_the_reader_s_language(client, test_map, reader, tmp_path):
    function_id = test_map.function("F1")
    response = client.get(
        f"{API}/label/function/{function_id}/pdf", headers={**reader, "Accept-Language": "en-GB,en;q=0.9"}
    )
    assert response.status_code == 200, response.text
    assert (
        response.headers["content-disposition"]
        == f'attachment; filename="qr-code-function-{function_id}.pdf"'
    )
    pages = pdf_pages(response.content, tmp_path)
    assert [decoded(page) for page in pages] == [[f"{BASE}/function/{function_id}"]]
    text = pdf_text(response.content)
    assert "QR code — Opérateur régleur" in text and "FUNCTION" in text and "Scan to open in Spot" in text
