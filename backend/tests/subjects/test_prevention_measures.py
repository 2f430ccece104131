"""A subject's prevention measures (docs/documents.md): shown on the subject, saved by whoever may edit the
subject (perm_EditPdv and the subject in view), under the general text rule with line breaks, at most 5,000
characters, with the version read (a stale one answers 409 and changes nothing); carried in map bundles."""

import io
import json
import zipfile

import pytest

from mapping.maps import document, load, restrict
from spot.core.errors import ApiError
from spot.mapping import bundle_export
from spot.mapping.models import Subject
from support import API, assert_error, field_codes

EDIT = "perm_EditPdv"


def measures(client, headers, subject_id, text, version):
    return client.post(
        f"{API}/subject/{subject_id}/preventionMeasures",
        json={"preventionMeasures": text, "version": version},
        headers=headers,
    )


def test_the_measures_are_saved_shown_and_recorded(client, db, test_map, make_user, login) -> None:
    headers = login(make_user("editeur", [EDIT]))
    s1 = test_map.subject("S1")
    before = client.get(f"{API}/subject/{s1}", headers=headers).json()
    assert before["preventionMeasures"] == ""
    saved = measures(
        client, headers, s1, "Gants anti-coupure\nCarter fermé pendant le cycle", before["version"]
    )
    assert saved.status_code == 200, saved.text
    body = saved.json()
    assert body["preventionMeasures"] == "Gants anti-coupure\nCarter fermé pendant le cycle"
    assert body["version"] == before["version"] + 1
    assert body["lifetimeEvents"]["lastUpdate"]["userName"] == "Prénom1 Nom1"
    # A stale version changes nothing: what the other saved stays.
    stale = measures(client, headers, s1, "Autre texte", before["version"])
    assert_error(stale, 409, "staleVersion")
    assert client.get(f"{API}/subject/{s1}", headers=headers).json()["preventionMeasures"].startswith("Gants")
    # Emptied: none written.
    assert measures(client, headers, s1, "", body["version"]).json()["preventionMeasures"] == ""


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (" Gants", "beginEndWhitespaceError"),
        ("Gants\n", "beginEndWhitespaceError"),
        ("a" * 5001, "string_too_long"),
    ],
)
def test_the_measures_follow_the_general_text_rule(client, test_map, make_user, login, text, code) -> None:
    headers = login(make_user("editeur", [EDIT]))
    s1 = test_map.subject("S1")
    version = client.get(f"{API}/subject/{s1}", headers=headers).json()["version"]
    refused = measures(client, headers, s1, text, version)
    assert refused.status_code == 422
    assert ("preventionMeasures", code) in field_codes(refused)


def test_who_may_save_them(client, db, test_map, make_user, login) -> None:
    s1, t1 = test_map.subject("S1"), test_map.subject("T1")
    reader = login(make_user("lecteur"))
    assert_error(measures(client, reader, s1, "Gants", 1), 403)
    limited = make_user("limite", [EDIT])
    restrict(db, limited, test_map.cartography("C2"))
    assert_error(measures(client, login(limited), s1, "Gants", 1), 403)
    editor = login(make_user("editeur", [EDIT]))
    assert_error(measures(client, editor, 999_999, "Gants", 1), 404)
    assert measures(client, editor, t1, "Gants", "1").status_code == 422  # a version is a number


def test_bundles_carry_the_measures(client, db, test_map) -> None:
    subject = db.get(Subject, test_map.subject("S1"))
    subject.prevention_measures = "Gants anti-coupure"
    db.commit()
    _site, content = bundle_export.export(db, site_id=test_map.site_id)
    exported = json.loads(zipfile.ZipFile(io.BytesIO(content)).read("map.json"))
    subjects = {s["code"]: s for c in exported["cartographies"] for s in c["subjects"]}
    assert subjects["S1"]["preventionMeasures"] == "Gants anti-coupure"
    assert "preventionMeasures" not in subjects["S2"]  # none written: left out
    # Imported: given, they replace the subject's; left out, the subject keeps its own.
    changed = document()
    changed["cartographies"][0]["subjects"][1]["preventionMeasures"] = "Calibre contrôlé"
    load(db, changed)
    db.expire_all()
    assert db.get(Subject, test_map.subject("S2")).prevention_measures == "Calibre contrôlé"
    assert db.get(Subject, test_map.subject("S1")).prevention_measures == "Gants anti-coupure"
    bad = document()
    bad["cartographies"][0]["subjects"][0]["preventionMeasures"] = " espace"
    with pytest.raises(ApiError, match="preventionMeasures"):
        load(db, bad)
