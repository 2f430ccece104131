"""Signing a validated mediation (DESIGN §5, core.signatures): participants only, once, with a recent
password; invalidation revokes the signatures (never deletes them); a change after signing shows."""

from sqlalchemy import func, select

from mediations.people import history, system_messages
from spot.core.signatures import Signature
from spot.core.time import utcnow
from spot.mediations.models import MediationParticipant
from support import API, PASSWORD, assert_error


def validated(new_mediation, force, db, cast) -> dict:
    mediation = new_mediation()
    db.add(MediationParticipant(mediation_id=mediation["id"], user_id=cast.id("other")))
    db.commit()
    force(mediation["id"], status="validated", reported_at=utcnow(), report_comment="Compte rendu")
    return mediation


def sign(client, cast, role: str, mediation_id: int):
    return client.post(f"{API}/mediation/{mediation_id}/sign", headers=cast.headers[role])


def test_participant_signs_once(client, cast, new_mediation, force, db) -> None:
    mediation = validated(new_mediation, force, db, cast)
    response = sign(client, cast, "participant", mediation["id"])
    assert response.status_code == 200, response.text
    signed = response.json()
    assert signed["can"]["sign"] is False
    [signature] = signed["signatures"]
    assert signature["userId"] == cast.id("participant")
    assert signature["userName"] == cast.users["participant"].display_name
    assert signature["meaning"] == "attendanceAndAgreement"
    assert signature["modifiedAfterSignature"] is False and signature["revoked"] is None
    assert_error(sign(client, cast, "participant", mediation["id"]), 409, "alreadySigned")
    other = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["other"]).json()
    assert other["can"]["sign"] is True


def test_signing_writes_history_and_message(client, cast, new_mediation, force, db) -> None:
    mediation = validated(new_mediation, force, db, cast)
    assert sign(client, cast, "participant", mediation["id"]).status_code == 200
    assert history(db, mediation["id"])[-1] == ("W", "mediationSigned", cast.id("participant"))
    assert system_messages(db, mediation["discussionId"])[-1] == (
        "mediationSigned",
        {},
        cast.id("participant"),
    )


def test_only_participants_sign(client, cast, new_mediation, force, db) -> None:
    mediation = validated(new_mediation, force, db, cast)
    for role in ("creator", "mediator", "visiblePerson", "groupMember"):
        assert_error(sign(client, cast, role, mediation["id"]), 403)
    other_mediation = new_mediation()
    assert_error(sign(client, cast, "other", other_mediation["id"]), 403)


def test_only_a_validated_mediation_is_signed(client, cast, new_mediation, force) -> None:
    mediation = new_mediation()
    for status in ("created", "started", "paused", "stopped", "archived", "canceled"):
        force(mediation["id"], status=status, reported_at=utcnow())
        body = assert_error(sign(client, cast, "participant", mediation["id"]), 409, "illegalTransition")
        assert body["errors"] == [{"field": "status", "code": status}]


def test_signing_needs_a_recent_password(client, cast, new_mediation, force, db, authentication) -> None:
    mediation = validated(new_mediation, force, db, cast)
    authentication.stale(cast.headers["participant"])
    assert_error(sign(client, cast, "participant", mediation["id"]), 401, "reauthenticationRequired")
    assert db.scalar(select(func.count()).select_from(Signature)) == 0
    # The session goes on: the user gives the password again, then signs.
    again = client.post(
        f"{API}/account/reauthenticate", json={"password": PASSWORD}, headers=cast.headers["participant"]
    )
    assert again.status_code == 204, again.text
    assert sign(client, cast, "participant", mediation["id"]).status_code == 200


def test_invalidate_revokes_signatures(client, cast, new_mediation, force, db) -> None:
    mediation = validated(new_mediation, force, db, cast)
    assert sign(client, cast, "participant", mediation["id"]).status_code == 200
    assert sign(client, cast, "other", mediation["id"]).status_code == 200
    response = client.post(
        f"{API}/mediation/{mediation['id']}/status",
        json={"status": "stopped"},
        headers=cast.headers["mediator"],
    )
    assert response.status_code == 200, response.text
    signatures = response.json()["signatures"]
    assert len(signatures) == 2
    for signature in signatures:
        assert signature["revoked"]["reason"] == "mediationInvalidated"
        assert signature["revoked"]["by"]["id"] == cast.id("mediator")
    db.expire_all()
    assert db.scalar(select(func.count()).select_from(Signature)) == 2
    # Validated again, each participant signs anew; the revoked signatures stay listed.
    force(mediation["id"], status="validated")
    assert sign(client, cast, "participant", mediation["id"]).status_code == 200
    final = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["participant"]).json()
    assert [s["revoked"] is None for s in final["signatures"]] == [False, False, True]


def test_change_after_signing_shows(client, cast, new_mediation, force, db) -> None:
    mediation = validated(new_mediation, force, db, cast)
    assert sign(client, cast, "participant", mediation["id"]).status_code == 200
    force(mediation["id"], report_comment="Compte rendu modifié")
    got = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["participant"]).json()
    assert got["signatures"][0]["modifiedAfterSignature"] is True
