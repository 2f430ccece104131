"""The attendance sheet of a mediation (GET /mediation/{id}/attendanceSheet, docs/documents.md): a PDF in
the reader's language with each period, each participant's electronic signature and its state (signed,
not signed: an empty box, modified after signature, revoked), the mediator's validation; for whoever may
read the mediation, once it is validated; and in the audit pack of each participant."""

import io
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pypdf
import pytest

from reports.pdf_support import AUDIT, pdfs, text_of
from spot.mediations.models import MediationParticipant
from support import API, assert_error

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # 09:00 in Paris
DESCRIPTION = "Relire la fiche de poste.\nApporter les EPI."
WORDS = {
    "fr": {
        "title": "Feuille d'émargement",
        "day": "02/03/2026",
        "meaning": "Présence et accord avec le compte rendu",
        "unsigned": "Pas de signature électronique",
        "modified": "Modifié après signature",
        "revoked": "Révoquée le",
        "reason": "La médiation a été invalidée",
        "validated": "Compte rendu validé par {name} le",
        "file": "emargement",
        "periods": "Périodes de suivi",
        "status": "Validée",
    },
    "en": {
        "title": "Attendance sheet",
        "day": "2026-03-02",
        "meaning": "Attendance and agreement with the report",
        "unsigned": "No electronic signature",
        "modified": "Modified after signature",
        "revoked": "Revoked on",
        "reason": "The mediation was invalidated",
        "validated": "Report validated by {name} on",
        "file": "attendance-sheet",
        "periods": "Tracking periods",
        "status": "Validated",
    },
}


def iso(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def post(client, cast, role: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post(f"{API}/mediation/{path}", json=body, headers=cast.headers[role])
    assert response.status_code == 200, response.text
    return response.json()


def status(client, cast, mediation_id: int, value: str) -> dict[str, Any]:
    return post(client, cast, "mediator", f"{mediation_id}/status", {"status": value})


@pytest.fixture
def validated(client, db, cast, new_mediation):
    """A mediation with two participants (participant, other), run in two periods of 2 March 2026
    (09:00-09:45 and 10:30-11:15 in Paris), reported and validated by its mediator."""

    def make() -> dict[str, Any]:
        mediation = new_mediation(description=DESCRIPTION)
        db.add(MediationParticipant(mediation_id=mediation["id"], user_id=cast.id("other")))
        db.commit()
        status(client, cast, mediation["id"], "started")
        stopped = status(client, cast, mediation["id"], "stopped")
        periods = [{"start": iso(0), "stop": iso(45)}, {"start": iso(90), "stop": iso(135)}]
        tracked = post(client, cast, "mediator", f"{mediation['id']}/tracking", {"periods": periods})
        assert tracked["version"] > stopped["version"]
        post(client, cast, "mediator", f"{mediation['id']}/report", {"comment": "Compte rendu", "items": []})
        return status(client, cast, mediation["id"], "validated")

    return make


def sign(client, cast, role: str, mediation_id: int) -> None:
    post(client, cast, role, f"{mediation_id}/sign")


def sheet(client, cast, mediation_id: int, role: str = "creator", language: str = "fr"):
    return client.get(
        f"{API}/mediation/{mediation_id}/attendanceSheet",
        headers=cast.headers[role] | {"Accept-Language": language},
    )


def text(response) -> str:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf"
    return text_of(pypdf.PdfReader(io.BytesIO(response.content)))


def name(cast, role: str) -> str:
    return cast.users[role].display_name


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_sheet_shows_the_periods_the_signatures_and_the_mediators_validation(
    client, cast, validated, language
) -> None:
    w = WORDS[language]
    mediation = validated()
    sign(client, cast, "participant", mediation["id"])
    response = sheet(client, cast, mediation["id"], language=language)
    assert (
        response.headers["content-disposition"] == f'attachment; filename="{w["file"]}-{mediation["id"]}.pdf"'
    )
    assert response.headers["x-content-type-options"] == "nosniff"
    content = text(response)
    assert w["title"] in content
    assert "Réunion" in content and "Relire la fiche de poste. Apporter les EPI." in content
    assert w["status"] in content
    # Each period: its day, start and end (organisation time, Europe/Paris).
    assert w["periods"] in content
    assert re.search(rf"1 {w['day']} 09:00 09:45", content), content
    assert re.search(rf"2 {w['day']} 10:30 11:15", content), content
    # The participant who signed: printed name, date and time, meaning; the other: an empty box.
    signed = re.escape(name(cast, "participant")) + r" — \S+ \d\d:\d\d — " + re.escape(w["meaning"])
    assert re.search(signed, content), content
    assert re.search(re.escape(name(cast, "other")) + " " + re.escape(w["unsigned"]), content), content
    assert content.count(w["unsigned"]) == 2  # the other participant, and the mediator's box
    # The mediator: their validation of the report.
    assert w["validated"].format(name=name(cast, "mediator")) in content
    # Told once, in the note that explains the marks; no signature carries them.
    assert content.count(w["modified"]) == 1 and w["revoked"] not in content


def test_a_change_after_signing_shows_on_the_sheet(client, cast, validated, force) -> None:
    mediation = validated()
    sign(client, cast, "participant", mediation["id"])
    force(mediation["id"], title="Réunion modifiée")
    content = text(sheet(client, cast, mediation["id"]))
    assert "Réunion modifiée" in content
    assert re.search(re.escape(name(cast, "participant")) + r" — .* — Modifié après signature", content), (
        content
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_revoked_signatures_stay_on_the_sheet_with_an_empty_box(client, cast, validated, language) -> None:
    w = WORDS[language]
    mediation = validated()
    sign(client, cast, "participant", mediation["id"])
    sign(client, cast, "other", mediation["id"])
    status(client, cast, mediation["id"], "stopped")  # invalidated: the signatures are revoked
    assert_error(sheet(client, cast, mediation["id"]), 409, "mediationNotValidated")
    status(client, cast, mediation["id"], "validated")
    sign(client, cast, "other", mediation["id"])
    content = text(sheet(client, cast, mediation["id"], language=language))
    assert content.count(w["revoked"]) == 2
    assert content.count(w["reason"]) == 2
    # The participant signed only before the invalidation: their box is empty; the other signed again.
    participant_row = content.split(name(cast, "participant"), 1)[1]
    assert w["unsigned"] in participant_row.split(name(cast, "other"), 1)[0]
    assert content.count(w["meaning"]) == 3
    assert content.count(w["unsigned"]) == 2  # the participant, and the mediator's box


def test_a_signer_no_longer_participant_stays_on_the_sheet(client, db, cast, validated) -> None:
    mediation = validated()
    sign(client, cast, "other", mediation["id"])
    db.query(MediationParticipant).filter_by(mediation_id=mediation["id"], user_id=cast.id("other")).delete()
    db.commit()
    content = text(sheet(client, cast, mediation["id"]))
    assert "Ne participe plus à la médiation" in content
    assert re.search(re.escape(name(cast, "other")) + r" — .* — Présence et accord", content), content


def test_whoever_reads_the_mediation_may_have_its_sheet_once_validated(
    client, cast, validated, make_user, login
) -> None:
    mediation = validated()
    cast.headers["outsider"] = login(make_user(login="outsider"))
    for role in ("creator", "mediator", "participant", "other", "visiblePerson", "groupMember"):
        assert sheet(client, cast, mediation["id"], role).status_code == 200, role
        page = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers[role]).json()
        assert page["can"]["attendanceSheet"] is True
    assert_error(sheet(client, cast, mediation["id"], "outsider"), 403)
    assert_error(sheet(client, cast, 987654), 404, "mediationNotFound")
    bad = client.get(f"{API}/mediation/abc/attendanceSheet", headers=cast.headers["creator"])
    assert 400 <= bad.status_code < 500


def test_no_sheet_before_the_validation(client, cast, new_mediation, force) -> None:
    mediation = new_mediation()
    for state in ("created", "started", "paused", "stopped", "canceled"):
        force(mediation["id"], status=state)
        body = assert_error(sheet(client, cast, mediation["id"]), 409, "mediationNotValidated")
        assert body["errors"] == [{"field": "status", "code": state}]
        page = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["creator"]).json()
        assert page["can"]["attendanceSheet"] is False


def test_reading_the_sheet_counts_as_a_read(client, db, cast, validated) -> None:
    from mediations.people import history

    mediation = validated()
    before = history(db, mediation["id"])
    text(sheet(client, cast, mediation["id"], "participant"))
    assert history(db, mediation["id"])[len(before) :] == [("R", None, cast.id("participant"))]


def test_the_audit_pack_of_each_participant_holds_the_sheet(
    client, cast, validated, new_mediation, make_user, login
) -> None:
    reporter = make_user(login="reporter", permissions=["perm_TableauBord"])
    headers = login(reporter)
    mediation = validated()
    new_mediation(title="Pas encore validée")
    sign(client, cast, "participant", mediation["id"])
    for role, language in (("participant", "fr"), ("other", "en")):
        response = client.get(f"{AUDIT}/{cast.id(role)}", headers=headers | {"Accept-Language": language})
        assert response.status_code == 200, response.text
        found = pdfs(response.content)
        title = WORDS[language]["title"]
        sheets = [n for n in found if n.startswith(title)]
        assert sheets == [f"{title} — Réunion ({mediation['id']}).pdf"], list(found)
        content = text_of(found[sheets[0]])
        assert name(cast, "participant") + " — " in content
        assert WORDS[language]["meaning"] in content and WORDS[language]["unsigned"] in content
    # The mediator took no part as a participant: no sheet in their pack.
    response = client.get(f"{AUDIT}/{cast.id('mediator')}", headers=headers)
    assert not [n for n in pdfs(response.content) if n.startswith(WORDS["fr"]["title"])]
