"""core.signatures: the content hash, signing (with re-authentication), revocation, what a record's
page shows of its signatures, and the security log."""

import hashlib
import logging
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from spot.account.models import SessionToken
from spot.account.service import issue_token, principal_of
from spot.core import signatures
from spot.core.errors import ApiError
from spot.core.schemas import UserName
from spot.core.signatures import REAUTHENTICATE_AFTER, Signature, SignatureOut
from spot.core.time import utcnow
from spot.users.models import User
from support import API, PASSWORD

MEETING = {"title": "Réunion", "report": {"comment": "Fait", "items": [1, 2]}}


@pytest.fixture
def signer(db, make_user):
    """A user with a session that signed in just now: (principal, session)."""

    def make(login: str = "jeanne", **fields: str):
        user = make_user(login, first_name=fields.get("first_name", "Jeanne"), last_name="Dupont")
        issue_token(db, user=user)
        db.commit()
        session = db.scalars(select(SessionToken).where(SessionToken.user_id == user.id)).one()
        return principal_of(db, user_id=user.id), session

    return make


def _sign(db, principal, session, *, record_id: int = 7, content=MEETING, meaning="attendanceAndAgreement"):
    signature = signatures.sign(
        db,
        user=principal,
        session=session,
        record_type="mediation",
        record_id=record_id,
        meaning=meaning,
        content=content,
    )
    db.commit()
    return signature


def _shown(db, record_id: int = 7, content=MEETING) -> list[SignatureOut]:
    return signatures.for_record(db, record_type="mediation", record_id=record_id, content=content)


# The content hash ----------------------------------------------------------------------------


def test_the_hash_is_the_sha256_of_the_canonical_json():
    expected = hashlib.sha256('{"a":1,"b":[2,"é"]}'.encode()).hexdigest()
    assert signatures.content_hash({"b": [2, "é"], "a": 1}) == expected


def test_the_hash_ignores_the_order_of_keys_at_every_level():
    one = {"title": "T", "report": {"comment": "c", "items": [{"id": 1, "mode": "R"}]}}
    other = {"report": {"items": [{"mode": "R", "id": 1}], "comment": "c"}, "title": "T"}
    assert signatures.content_hash(one) == signatures.content_hash(other)


@pytest.mark.parametrize(
    "changed",
    [
        {**MEETING, "title": "Réunion "},
        {**MEETING, "report": {"comment": "Fait", "items": [2, 1]}},
        {**MEETING, "report": {"comment": "Fait", "items": [1, 2, 3]}},
        {**MEETING, "report": {"comment": "fait", "items": [1, 2]}},
        {**MEETING, "extra": None},
        {"title": "Réunion"},
    ],
)
def test_any_change_of_the_content_changes_the_hash(changed):
    assert signatures.content_hash(changed) != signatures.content_hash(MEETING)


def test_date_times_hash_the_same_however_they_were_read():
    moment = datetime(2026, 11, 30, 10, 15, tzinfo=UTC)
    assert signatures.content_hash({"at": moment}) == signatures.content_hash({"at": moment.isoformat()})
    later = {"at": moment + timedelta(minutes=1)}
    assert signatures.content_hash(later) != signatures.content_hash({"at": moment})


def test_models_hash_as_their_json():
    person = UserName(id=3, name="Jeanne")
    as_json = {"who": {"id": 3, "name": "Jeanne"}}
    assert signatures.content_hash({"who": person}) == signatures.content_hash(as_json)


def test_sets_hash_in_a_stable_order():
    assert signatures.content_hash({"ids": {3, 1, 2}}) == signatures.content_hash({"ids": [1, 2, 3]})


# Signing ---------------------------------------------------------------------------------------


def test_a_signature_records_the_printed_name_the_time_the_meaning_and_the_hash(db, signer):
    principal, session = signer()
    before = utcnow()
    signature = _sign(db, principal, session)
    assert signature.signer_id == principal.id
    assert signature.signer_name == "Jeanne Dupont"
    assert before <= signature.signed_at <= utcnow()
    assert signature.meaning == "attendanceAndAgreement"
    assert signature.content_hash == signatures.content_hash(MEETING)
    [shown] = _shown(db)
    assert shown.model_dump(mode="json", by_alias=True) == {
        "id": signature.id,
        "userId": principal.id,
        "userName": "Jeanne Dupont",
        "userActive": True,
        "date": signature.signed_at.isoformat().replace("+00:00", "Z"),
        "meaning": "attendanceAndAgreement",
        "modifiedAfterSignature": False,
        "revoked": None,
    }


def test_the_printed_name_stays_as_it_was_when_signed(db, signer):
    principal, session = signer()
    _sign(db, principal, session)
    db.get(User, principal.id).first_name = "Jeannette"
    db.commit()
    assert _shown(db)[0].user_name == "Jeanne Dupont"


def test_a_change_of_the_record_shows_as_modified_after_signature(db, signer):
    principal, session = signer()
    _sign(db, principal, session)
    changed = {**MEETING, "report": {"comment": "Fait, puis corrigé", "items": [1, 2]}}
    assert [s.modified_after_signature for s in _shown(db, content=changed)] == [True]
    assert [s.modified_after_signature for s in _shown(db, content=MEETING)] == [False]


def test_a_user_signs_a_record_once_per_meaning(db, signer):
    principal, session = signer()
    _sign(db, principal, session)
    with pytest.raises(ApiError) as refused:
        _sign(db, principal, session)
    assert (refused.value.status, refused.value.message) == (409, "alreadySigned")
    db.rollback()
    _sign(db, principal, session, meaning="approval")
    _sign(db, principal, session, record_id=8)
    assert len(db.scalars(select(Signature)).all()) == 3


def test_the_database_refuses_a_second_live_signature_of_a_signer(db, signer):
    """Two requests that both passed the check before either wrote cannot both win."""
    principal, session = signer()
    first = _sign(db, principal, session)
    db.add(
        Signature(
            record_type="mediation",
            record_id=7,
            signer_id=principal.id,
            signer_name=first.signer_name,
            signed_at=utcnow(),
            meaning=first.meaning,
            content_hash=first.content_hash,
        )
    )
    with pytest.raises(IntegrityError):
        db.flush()
    db.rollback()


def test_signatures_are_shown_oldest_first_and_per_record(db, signer):
    jeanne, jeanne_session = signer("jeanne")
    paul, paul_session = signer("paul", first_name="Paul")
    _sign(db, paul, paul_session)
    _sign(db, jeanne, jeanne_session)
    _sign(db, jeanne, jeanne_session, record_id=8)
    assert [s.user_id for s in _shown(db)] == [paul.id, jeanne.id]
    assert [s.user_id for s in _shown(db, record_id=8)] == [jeanne.id]
    assert _shown(db, record_id=9) == []
    assert signatures.for_record(db, record_type="trainingPath", record_id=7, content=MEETING) == []


def test_live_signers_are_those_with_an_unrevoked_signature(db, signer):
    jeanne, jeanne_session = signer("jeanne")
    paul, paul_session = signer("paul")
    assert signatures.live_signers(db, record_type="mediation", record_id=7) == set()
    _sign(db, jeanne, jeanne_session)
    _sign(db, paul, paul_session)
    _sign(db, paul, paul_session, record_id=8)
    assert signatures.live_signers(db, record_type="mediation", record_id=7) == {jeanne.id, paul.id}
    signatures.revoke_all(db, record_type="mediation", record_id=7, reason="mediationInvalidated", by=paul)
    assert signatures.live_signers(db, record_type="mediation", record_id=7) == set()
    assert signatures.live_signers(db, record_type="mediation", record_id=8) == {paul.id}


# Revocation ------------------------------------------------------------------------------------


def test_revocation_keeps_the_signatures_with_when_who_and_why(db, signer):
    jeanne, jeanne_session = signer("jeanne")
    mediator, _ = signer("marc", first_name="Marc")
    first = _sign(db, jeanne, jeanne_session)
    before = utcnow()
    assert (
        signatures.revoke_all(
            db, record_type="mediation", record_id=7, reason="mediationInvalidated", by=mediator
        )
        == 1
    )
    db.commit()
    [shown] = _shown(db)
    assert shown.id == first.id and shown.user_name == "Jeanne Dupont"
    assert shown.revoked is not None
    assert before <= shown.revoked.date <= utcnow()
    assert shown.revoked.reason == "mediationInvalidated"
    assert shown.revoked.by is not None
    assert (shown.revoked.by.id, shown.revoked.by.name) == (mediator.id, "Marc Dupont")
    # Nothing is left to revoke; the record may be signed again, next to the revoked signature.
    assert signatures.revoke_all(db, record_type="mediation", record_id=7, reason="x", by=mediator) == 0
    again = _sign(db, jeanne, jeanne_session)
    assert [(s.id, s.revoked is None) for s in _shown(db)] == [(first.id, False), (again.id, True)]


def test_revocation_touches_only_its_record(db, signer):
    jeanne, session = signer()
    _sign(db, jeanne, session, record_id=7)
    _sign(db, jeanne, session, record_id=8)
    assert signatures.revoke_all(db, record_type="mediation", record_id=8, reason="r", by=jeanne) == 1
    assert signatures.revoke_all(db, record_type="trainingPath", record_id=7, reason="r", by=jeanne) == 0
    assert _shown(db, record_id=7)[0].revoked is None


def test_a_removed_account_leaves_its_signatures_with_the_printed_name(db, signer):
    jeanne, session = signer("jeanne")
    mediator, _ = signer("marc")
    _sign(db, jeanne, session)
    signatures.revoke_all(
        db, record_type="mediation", record_id=7, reason="mediationInvalidated", by=mediator
    )
    db.commit()
    db.execute(delete(User).where(User.id.in_([jeanne.id, mediator.id])))
    db.commit()
    [shown] = _shown(db)
    assert (shown.user_id, shown.user_name) == (None, "Jeanne Dupont")
    assert shown.revoked is not None and shown.revoked.by is None
    assert shown.revoked.reason == "mediationInvalidated"


# Re-authentication -----------------------------------------------------------------------------


def test_a_session_authenticated_more_than_5_minutes_ago_must_authenticate_again(db, signer):
    principal, session = signer()
    session.authenticated_at = utcnow() - REAUTHENTICATE_AFTER - timedelta(seconds=5)
    db.commit()
    with pytest.raises(ApiError) as refused:
        _sign(db, principal, session)
    assert (refused.value.status, refused.value.message) == (401, "reauthenticationRequired")
    db.rollback()
    assert db.scalars(select(Signature)).all() == []
    session.authenticated_at = utcnow() - REAUTHENTICATE_AFTER + timedelta(seconds=30)
    db.commit()
    _sign(db, principal, session)


def test_the_age_counted_is_the_last_authentication_not_the_issue_of_the_token(db, signer):
    principal, session = signer()
    session.issued_at = utcnow() - timedelta(minutes=50)
    db.commit()
    _sign(db, principal, session)


def test_a_signature_needs_the_signers_own_session(db, signer):
    jeanne, _ = signer("jeanne")
    _, paul_session = signer("paul")
    with pytest.raises(ValueError, match="signer"):
        _sign(db, jeanne, paul_session)


def test_reauthenticating_lets_a_stale_session_sign(client, db, make_user, login, authentication):
    user = make_user("jeanne")
    headers = login(user)
    authentication.stale(headers)
    principal = principal_of(db, user_id=user.id)

    def session() -> SessionToken:
        db.expire_all()
        return db.scalars(select(SessionToken).where(SessionToken.user_id == user.id)).one()

    with pytest.raises(ApiError, match="reauthenticationRequired"):
        _sign(db, principal, session())
    db.rollback()
    response = client.post(f"{API}/account/reauthenticate", json={"password": PASSWORD}, headers=headers)
    assert response.status_code == 204, response.text
    assert _sign(db, principal, session()).signer_id == user.id


def test_the_authentication_fixture_makes_a_session_stale_or_fresh(db, make_user, login, authentication):
    user = make_user("jeanne")
    headers = login(user)
    principal = principal_of(db, user_id=user.id)
    authentication.stale(headers)
    session = db.scalars(select(SessionToken)).one()
    with pytest.raises(ApiError, match="reauthenticationRequired"):
        signatures.require_recent_authentication(session)
    authentication.fresh(headers)
    db.refresh(session)
    signatures.require_recent_authentication(session)
    _sign(db, principal, session)


# The security log ------------------------------------------------------------------------------


def test_signing_and_revoking_write_security_log_lines(db, signer, caplog):
    jeanne, session = signer("jeanne")
    mediator, _ = signer("marc")
    with caplog.at_level(logging.INFO, logger="spot.security"):
        signature = _sign(db, jeanne, session)
        signatures.revoke_all(
            db, record_type="mediation", record_id=7, reason="mediationInvalidated", by=mediator
        )
    lines = [r.getMessage() for r in caplog.records if r.name == "spot.security"]
    assert lines == [
        f"signature signed id={signature.id} record=mediation:7 user_id={jeanne.id} "
        f"meaning=attendanceAndAgreement hash={signature.content_hash} "
        f"authenticated_at={session.authenticated_at.isoformat()}",
        f"signature revoked id={signature.id} record=mediation:7 by_user_id={mediator.id} "
        "reason=mediationInvalidated",
    ]
