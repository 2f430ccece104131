"""The report of a mediation (spec 1 §2 'Edit mediation report', §3, §5): its
tracking periods (POST /mediation/{id}/tracking), the actions tracked during them, read from the
history of the mediator and the participants (GET /mediation/{id}/trackedActions), and the report
(POST /mediation/{id}/report)."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import delete, select, update

from history.entries import add
from mapping.maps import restrict
from spot.core.history_models import HistoryEntry
from spot.core.signatures import Signature, content_hash
from spot.core.time import utcnow
from spot.mapping.models import Subject
from spot.mediations.models import MediationReportItem
from spot.mediations.reporting import MAX_TRACKED_ACTIONS
from support import API, assert_error, field_codes

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def period(start: float, stop: float | None) -> dict[str, Any]:
    return {"start": iso(at(start)), "stop": None if stop is None else iso(at(stop))}


@pytest.fixture
def stopped(client, cast, new_mediation):
    """A mediation the mediator started and stopped: its report may be written."""

    def make(**changes: Any) -> dict[str, Any]:
        mediation = new_mediation(**changes)
        for status in ("started", "stopped"):
            response = client.post(
                f"{API}/mediation/{mediation['id']}/status",
                json={"status": status},
                headers=cast.headers["mediator"],
            )
            assert response.status_code == 200, response.text
        return response.json()

    return make


def track(client, headers, mediation: dict[str, Any], periods: list[dict[str, Any]], version=None):
    return client.post(
        f"{API}/mediation/{mediation['id']}/tracking",
        json={"periods": periods, "version": mediation["version"] if version is None else version},
        headers=headers,
    )


def tracked(client, cast, mediation, start: float, stop: float, role: str = "mediator"):
    return client.get(
        f"{API}/mediation/{mediation['id']}/trackedActions",
        params={"start": iso(at(start)), "stop": iso(at(stop))},
        headers=cast.headers[role],
    )


def tracked_ids(client, cast, mediation, start: float, stop: float) -> list[int]:
    response = tracked(client, cast, mediation, start, stop)
    assert response.status_code == 200, response.text
    return [action["id"] for action in response.json()]


def entry_id(db, user_id: int, when: datetime, **fields: Any) -> int:
    """A history entry of the user at `when` (a read of the item unless mode says otherwise); its id."""
    add(db, when, user_id=user_id, **fields)
    found = db.scalar(
        select(HistoryEntry.id)
        .where(HistoryEntry.user_id == user_id, HistoryEntry.at == when)
        .order_by(HistoryEntry.id.desc())
    )
    assert found is not None
    return found


def report(client, headers, mediation, comment: str = "", items=(), version=None):
    return client.post(
        f"{API}/mediation/{mediation['id']}/report",
        json={
            "comment": comment,
            "items": list(items),
            "version": mediation["version"] if version is None else version,
        },
        headers=headers,
    )


# Tracking periods ----------------------------------------------------------------------------------------


def test_the_periods_are_kept_to_the_minute_sorted_with_the_execution_dates(client, db, cast, stopped):
    mediation = stopped()
    sent = [period(60.5, 75.9), period(0.75, 30.2)]
    response = track(client, cast.headers["mediator"], mediation, sent)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["trackingPeriods"] == [
        {"start": iso(at(0)), "stop": iso(at(30))},
        {"start": iso(at(60)), "stop": iso(at(75))},
    ]
    assert (body["executionStart"], body["executionStop"]) == (iso(at(0)), iso(at(75)))
    assert body["durationMinutes"] == 31 + 16
    assert body["version"] == mediation["version"] + 1
    events = db.scalars(
        select(HistoryEntry.event).where(
            HistoryEntry.item_type == "mediation", HistoryEntry.item_id == mediation["id"]
        )
    ).all()
    assert "trackingPeriodsChanged" in events


def test_a_period_of_one_minute_is_allowed(client, cast, stopped):
    mediation = stopped()
    response = track(client, cast.headers["mediator"], mediation, [period(10.8, 10.1)])
    assert response.status_code == 200, response.text
    assert response.json()["durationMinutes"] == 1


def test_at_least_one_period(client, cast, stopped):
    response = track(client, cast.headers["mediator"], stopped(), [])
    assert_error(response, 400, "mustNotBeEmpty")
    assert field_codes(response) == {("periods", "mustNotBeEmpty")}


def test_a_stop_before_its_start_is_refused(client, cast, stopped):
    response = track(client, cast.headers["mediator"], stopped(), [period(0, 10), period(40, 39)])
    assert_error(response, 400)
    assert field_codes(response) == {("periods.1.stop", "errors.lessThanMin")}


def test_a_stop_in_the_future_is_refused(client, cast, stopped):
    mediation = stopped()
    now = utcnow()
    future = {"start": iso(now - timedelta(minutes=30)), "stop": iso(now + timedelta(minutes=2))}
    response = track(client, cast.headers["mediator"], mediation, [future])
    assert_error(response, 400)
    assert field_codes(response) == {("periods.0.stop", "errors.greaterThanMax")}
    this_minute = {"start": iso(now - timedelta(minutes=30)), "stop": iso(now)}
    assert track(client, cast.headers["mediator"], mediation, [this_minute]).status_code == 200


def test_a_period_without_a_stop_is_refused(client, cast, stopped):
    response = track(client, cast.headers["mediator"], stopped(), [period(0, None)])
    assert_error(response, 400)
    assert field_codes(response) == {("periods.0.stop", "mustNotBeEmpty")}


@pytest.mark.parametrize(
    ("periods", "conflicting"),
    [
        ([period(0, 10), period(5, 20)], "periods.1.start"),
        # The stop minute is part of the period: the next one starts after it.
        ([period(0, 10), period(10.5, 20)], "periods.1.start"),
        # Sent in any order, checked against their neighbours in time.
        ([period(30, 40), period(0, 10), period(35, 50)], "periods.2.start"),
        ([period(30, 40), period(0, 35)], "periods.0.start"),
    ],
)
def test_overlapping_periods_are_refused(client, cast, stopped, periods, conflicting):
    response = track(client, cast.headers["mediator"], stopped(), periods)
    assert_error(response, 400, "trackingPeriodDateConflict")
    assert field_codes(response) == {(conflicting, "trackingPeriodDateConflict")}


def test_periods_in_consecutive_minutes_do_not_overlap(client, cast, stopped):
    response = track(client, cast.headers["mediator"], stopped(), [period(11, 20), period(0, 10.9)])
    assert response.status_code == 200, response.text
    assert len(response.json()["trackingPeriods"]) == 2


def test_a_stale_version_is_refused(client, cast, stopped):
    mediation = stopped()
    assert track(client, cast.headers["mediator"], mediation, [period(0, 10)]).status_code == 200
    response = track(client, cast.headers["mediator"], mediation, [period(0, 20)])
    assert_error(response, 409, "staleVersion")


def test_periods_without_version_apply(client, cast, stopped):
    """The spec's client sends the periods alone (spec 1 §7)."""
    mediation = stopped()
    url = f"{API}/mediation/{mediation['id']}/tracking"
    response = client.post(url, json={"periods": [period(0, 10)]}, headers=cast.headers["mediator"])
    assert response.status_code == 200, response.text
    assert response.json()["trackingPeriods"] == [period(0, 10)]
    assert response.json()["version"] == mediation["version"] + 1


@pytest.mark.parametrize("role", ["creator", "participant", "other", "visiblePerson", "groupMember"])
def test_only_the_mediator_edits_the_periods(client, cast, stopped, role):
    assert_error(track(client, cast.headers[role], stopped(), [period(0, 10)]), 403)


def test_the_periods_are_not_edited_before_the_stop(client, cast, new_mediation):
    mediation = new_mediation()
    assert_error(track(client, cast.headers["mediator"], mediation, [period(0, 10)]), 403)


def test_the_periods_of_a_validated_mediation_are_locked(client, cast, stopped, force):
    mediation = stopped()
    force(mediation["id"], status="validated", reported_at=utcnow())
    assert_error(track(client, cast.headers["mediator"], mediation, [period(0, 10)]), 403)


def check(client, headers, mediation: dict[str, Any], periods: list[dict[str, Any]]):
    return client.post(
        f"{API}/mediation/{mediation['id']}/tracking/check", json={"periods": periods}, headers=headers
    )


def soon() -> list[dict[str, Any]]:
    now = utcnow()
    return [{"start": iso(now - timedelta(minutes=30)), "stop": iso(now + timedelta(minutes=2))}]


@pytest.mark.parametrize(
    "periods",
    [
        [],
        [period(0, 10), period(40, 39)],
        [period(0, None)],
        [period(0, 10), period(10.5, 20)],
        [period(30, 40), period(0, 10), period(35, 50)],
        [period(30, 40), period(0, 35)],
        soon,
    ],
)
def test_the_check_answers_the_errors_saving_would(client, cast, stopped, periods):
    """The report page shows the server's refusals as the mediator edits: the same fields and keys."""
    mediation = stopped()
    sent = periods() if callable(periods) else periods
    checked = check(client, cast.headers["mediator"], mediation, sent)
    assert checked.status_code == 200, checked.text
    saved = track(client, cast.headers["mediator"], mediation, sent)
    assert_error(saved, 400)
    assert checked.json()["errors"] and checked.json()["errors"] == saved.json()["errors"]


def test_the_check_accepts_what_saving_accepts_and_saves_nothing(client, cast, stopped):
    mediation = stopped()
    periods = [period(11, 20), period(0, 10.9)]
    checked = check(client, cast.headers["mediator"], mediation, periods)
    assert checked.status_code == 200, checked.text
    assert checked.json() == {"errors": []}
    read = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["mediator"]).json()
    assert (read["trackingPeriods"], read["version"]) == (mediation["trackingPeriods"], mediation["version"])
    assert track(client, cast.headers["mediator"], mediation, periods).status_code == 200


@pytest.mark.parametrize("role", ["creator", "participant", "other", "visiblePerson", "groupMember"])
def test_only_the_mediator_checks_the_periods(client, cast, stopped, role):
    assert_error(check(client, cast.headers[role], stopped(), [period(0, 10)]), 403)


def test_the_periods_are_not_checked_before_the_stop(client, cast, new_mediation):
    assert_error(check(client, cast.headers["mediator"], new_mediation(), [period(0, 10)]), 403)


def test_no_report_without_participants(client, cast):
    unplanned = client.post(
        f"{API}/mediation/unplanned", json={"title": "Seul"}, headers=cast.headers["other"]
    )
    assert unplanned.status_code == 200, unplanned.text
    mediation = client.post(
        f"{API}/mediation/{unplanned.json()['id']}/status",
        json={"status": "stopped"},
        headers=cast.headers["other"],
    ).json()
    assert mediation["can"]["editReport"] is False
    assert_error(track(client, cast.headers["other"], mediation, [period(0, 10)]), 403)


def test_unknown_mediation(client, cast):
    response = track(client, cast.headers["mediator"], {"id": 999_999, "version": 1}, [period(0, 1)])
    assert_error(response, 404)


# Tracked actions -----------------------------------------------------------------------------------------


def test_the_actions_of_the_mediator_and_participants_within_the_minutes(client, db, test_map, cast, stopped):
    mediation = stopped()
    s1, s2 = test_map.subject("S1"), test_map.subject("S2")
    mediator, participant, other = cast.id("mediator"), cast.id("participant"), cast.id("other")
    before = entry_id(db, participant, at(-0.01), item_type="subject", item_id=s1)
    first = entry_id(db, participant, at(0), item_type="subject", item_id=s1, key="S1", name="Changer")
    written = entry_id(db, mediator, at(5.5), item_type="subject", item_id=s2, mode="W")
    entry_id(db, other, at(6), item_type="subject", item_id=s2)
    last = entry_id(db, mediator, at(10.99), item_type="function", item_id=test_map.function("F1"))
    after = entry_id(db, mediator, at(11), item_type="subject", item_id=s2)
    # 08:00:30 to 08:10:20 covers the minutes 08:00 to 08:10, both whole.
    response = tracked(client, cast, mediation, 0.5, 10.33)
    assert response.status_code == 200, response.text
    actions = response.json()
    assert [a["id"] for a in actions] == [first, written, last]
    assert actions[0] == {
        "id": first,
        "entityType": "subject",
        "entityKey": "S1",
        "entityName": "Changer",
        "date": iso(at(0)),
        "mode": "R",
        "event": None,
    }
    assert (actions[1]["mode"], actions[1]["event"]) == ("W", "updated")
    assert before not in tracked_ids(client, cast, mediation, 0, 20)
    assert after in tracked_ids(client, cast, mediation, 0, 20)


def test_the_actions_honour_what_the_mediator_may_read(client, db, test_map, cast, stopped):
    """A participant's read of a subject hidden to the mediator is not listed to the mediator."""
    mediation = stopped()
    restrict(db, cast.users["mediator"], test_map.cartography("C2"))
    participant = cast.id("participant")
    hidden_subject = entry_id(db, participant, at(1), item_type="subject", item_id=test_map.subject("S1"))
    hidden_cartography = entry_id(
        db, participant, at(2), item_type="cartography", item_id=test_map.cartography("C1")
    )
    hidden_function = entry_id(db, participant, at(3), item_type="function", item_id=test_map.function("F1"))
    hidden_activity = entry_id(db, participant, at(4), item_type="activity", item_id=test_map.activity("A1"))
    seen = [
        entry_id(db, participant, at(5), item_type="subject", item_id=test_map.subject("T1")),
        entry_id(db, participant, at(6), item_type="cartography", item_id=test_map.cartography("C2")),
        entry_id(db, participant, at(7), item_type="function", item_id=test_map.function("G1")),
        entry_id(db, participant, at(8), item_type="activity", item_id=test_map.activity("B1")),
    ]
    ids = tracked_ids(client, cast, mediation, 0, 10)
    assert ids == seen
    assert not {hidden_subject, hidden_cartography, hidden_function, hidden_activity} & set(ids)


def test_other_mediations_by_their_visibility_never_this_one(client, db, cast, stopped, new_mediation):
    mediation = stopped()
    readable = new_mediation(title="Lisible")
    unreadable = client.post(
        f"{API}/mediation",
        json={
            "title": "Cachée",
            "description": "",
            "schedulingDate": None,
            "mediator": cast.id("participant"),
            "participants": [cast.id("other")],
            "visibleByGroups": [],
            "visibleByPersons": [],
        },
        headers=cast.headers["other"],
    )
    assert unreadable.status_code == 200, unreadable.text
    participant = cast.id("participant")
    itself = entry_id(db, participant, at(1), item_type="mediation", item_id=mediation["id"])
    other = entry_id(db, participant, at(2), item_type="mediation", item_id=readable["id"])
    hidden = entry_id(db, participant, at(3), item_type="mediation", item_id=unreadable.json()["id"])
    ids = tracked_ids(client, cast, mediation, 0, 10)
    assert other in ids
    assert itself not in ids and hidden not in ids


def test_items_whose_reading_cannot_be_checked_are_left_out(client, db, test_map, cast, stopped):
    mediation = stopped()
    participant = cast.id("participant")
    unchecked = entry_id(db, participant, at(1), item_type="lmsResource", item_id=1)
    gone = entry_id(db, participant, at(2), item_type="subject", item_id=999_999)
    kept = entry_id(db, participant, at(3), item_type="subject", item_id=test_map.subject("S1"))
    assert tracked_ids(client, cast, mediation, 0, 10) == [kept]
    assert unchecked != gone


def test_at_most_the_limit_oldest_first(client, db, test_map, cast, stopped):
    mediation = stopped()
    values = {
        "user_id": cast.id("participant"),
        "item_type": "subject",
        "item_id": test_map.subject("S1"),
        "item_key": "S1",
        "item_name": "Changer",
        "mode": "R",
        "event": None,
        "cartography_id": None,
    }
    rows = [{**values, "at": at(i * 0.01)} for i in range(MAX_TRACKED_ACTIONS + 5)]
    db.execute(HistoryEntry.__table__.insert(), rows)  # type: ignore[attr-defined]
    db.commit()
    response = tracked(client, cast, mediation, 0, 60)
    dates = [datetime.fromisoformat(a["date"]) for a in response.json()]
    assert len(dates) == MAX_TRACKED_ACTIONS
    assert dates == sorted(dates)
    assert dates[0] == at(0)


def test_a_stop_before_the_start_is_refused(client, cast, stopped):
    response = tracked(client, cast, stopped(), 10, 9)
    assert_error(response, 400)
    assert field_codes(response) == {("stop", "errors.lessThanMin")}


def test_an_instant_without_a_zone_is_utc(client, db, test_map, cast, stopped):
    mediation = stopped()
    kept = entry_id(db, cast.id("participant"), at(5), item_type="subject", item_id=test_map.subject("S1"))
    response = client.get(
        f"{API}/mediation/{mediation['id']}/trackedActions",
        params={"start": iso(at(0)), "stop": at(10).replace(tzinfo=None).isoformat()},
        headers=cast.headers["mediator"],
    )
    assert response.status_code == 200, response.text
    assert [a["id"] for a in response.json()] == [kept]


@pytest.mark.parametrize("role", ["creator", "participant", "other", "visiblePerson"])
def test_only_the_mediator_lists_the_tracked_actions(client, cast, stopped, role):
    assert_error(tracked(client, cast, stopped(), 0, 10, role=role), 403)


def test_no_tracked_actions_before_the_stop(client, cast, new_mediation):
    assert_error(tracked(client, cast, new_mediation(), 0, 10), 403)


# The report ----------------------------------------------------------------------------------------------


@pytest.fixture
def reportable(client, db, test_map, cast, stopped):
    """A stopped mediation with one period, 08:00 to 08:10, and the tracked actions in it."""
    mediation = stopped()
    response = track(client, cast.headers["mediator"], mediation, [period(0, 10)])
    assert response.status_code == 200, response.text
    participant = cast.id("participant")
    actions = {
        "read": entry_id(
            db,
            participant,
            at(2),
            item_type="subject",
            item_id=test_map.subject("S1"),
            key="S1",
            name="Changer",
        ),
        "write": entry_id(
            db, cast.id("mediator"), at(4), item_type="function", item_id=test_map.function("F2"), mode="W"
        ),
        "later": entry_id(db, participant, at(20), item_type="subject", item_id=test_map.subject("S1")),
        "someone else's": entry_id(
            db, cast.id("other"), at(3), item_type="subject", item_id=test_map.subject("S2")
        ),
    }
    return response.json(), actions


def test_a_comment_or_an_action_is_needed(client, cast, reportable):
    mediation, _ = reportable
    response = report(client, cast.headers["mediator"], mediation)
    assert_error(response, 400, "commentOrActionSelectionNeeded")
    assert field_codes(response) == {("comment", "commentOrActionSelectionNeeded")}


def test_the_report_takes_what_it_refers_to_from_the_history(client, test_map, cast, reportable):
    mediation, actions = reportable
    items = [
        {"itemType": "Tracking", "trackingId": actions["write"], "content": "Modifié la fonction"},
        {
            "itemType": "Tracking",
            "trackingId": actions["read"],
            "content": "Lu le sujet",
            # Sent by the client, not believed.
            "relatedEntity": {"entityType": "cartography", "id": 1},
            "date": iso(at(500)),
        },
    ]
    response = report(client, cast.headers["mediator"], mediation, "Bonne séance\nà refaire", items)
    assert response.status_code == 200, response.text
    body = response.json()
    reporting = body["reporting"]
    assert reporting["comment"] == "Bonne séance\nà refaire"
    # No wording: each reader's client words the line in the reader's language.
    assert reporting["items"] == [
        {
            "itemType": "Tracking",
            "trackingId": actions["write"],
            "relatedEntity": {"entityType": "function", "id": test_map.function("F2"), "name": "Nom"},
            "date": iso(at(4)),
            "mode": "W",
            "event": "updated",
        },
        {
            "itemType": "Tracking",
            "trackingId": actions["read"],
            "relatedEntity": {"entityType": "subject", "id": test_map.subject("S1"), "name": "Changer"},
            "date": iso(at(2)),
            "mode": "R",
            "event": None,
        },
    ]
    saved = datetime.fromisoformat(reporting["date"])
    assert abs(saved - utcnow()) < timedelta(minutes=1)
    assert body["version"] == mediation["version"] + 1
    assert body["can"]["validate"] is True


def test_a_reader_sees_the_name_of_an_item_only_if_they_may_read_it(client, db, test_map, cast, reportable):
    mediation, actions = reportable
    items = [{"itemType": "Tracking", "trackingId": actions[k]} for k in ("read", "write")]
    assert report(client, cast.headers["mediator"], mediation, "", items).status_code == 200
    # The participant may no longer read the first cartography, where both items are.
    restrict(db, cast.users["participant"], test_map.cartography("C2"))
    for role, names in (("mediator", ["Changer", "Nom"]), ("participant", [None, None])):
        got = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers[role])
        assert got.status_code == 200, got.text
        lines = got.json()["reporting"]["items"]
        assert [line["relatedEntity"]["name"] for line in lines] == names
        assert [line["relatedEntity"]["entityType"] for line in lines] == ["subject", "function"]
        assert "Changer" not in got.text or role == "mediator"


def test_a_deleted_item_is_not_named(client, db, test_map, cast, reportable):
    mediation, actions = reportable
    items = [{"itemType": "Tracking", "trackingId": actions["read"]}]
    assert report(client, cast.headers["mediator"], mediation, "", items).status_code == 200
    db.execute(delete(Subject).where(Subject.id == test_map.subject("S1")))
    db.commit()
    got = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["mediator"]).json()
    assert got["reporting"]["items"][0]["relatedEntity"]["name"] is None


def test_a_signature_over_a_report_worded_by_its_writer_still_holds(client, db, cast, reportable, force):
    """Reports once kept each line as the text its writer's client made; signatures made then hashed
    that text. Reading them in any language keeps them unmodified."""
    mediation, actions = reportable
    items = [{"itemType": "Tracking", "trackingId": actions["read"]}]
    assert report(client, cast.headers["mediator"], mediation, "Vu", items).status_code == 200
    wording = "02/03/2026 09:02 · Lecture · Sujet · Changer"
    db.execute(
        update(MediationReportItem)
        .where(MediationReportItem.mediation_id == mediation["id"])
        .values(content=wording)
    )
    db.commit()
    force(mediation["id"], status="validated")
    signed = {
        "title": mediation["title"],
        "participants": [cast.id("participant")],
        "periods": [[at(0), at(10)]],
        "report": {
            "comment": "Vu",
            "items": [[actions["read"], "subject", db_subject_id(db, actions["read"]), at(2), "R", wording]],
        },
    }
    db.add(
        Signature(
            record_type="mediation",
            record_id=mediation["id"],
            signer_id=cast.id("participant"),
            signer_name="Participant",
            signed_at=utcnow(),
            meaning="attendanceAndAgreement",
            content_hash=content_hash(signed),
        )
    )
    db.commit()
    for language in ("en", "fr"):
        got = client.get(
            f"{API}/mediation/{mediation['id']}",
            headers={**cast.headers["participant"], "Accept-Language": language},
        ).json()
        assert got["signatures"][0]["modifiedAfterSignature"] is False
        assert got["reporting"]["items"][0]["relatedEntity"]["name"] == "Changer"


def db_subject_id(db, tracking_id: int) -> int:
    return db.scalar(select(HistoryEntry.item_id).where(HistoryEntry.id == tracking_id))


def test_a_comment_alone_is_a_report_and_a_new_report_replaces_it(client, cast, reportable):
    mediation, actions = reportable
    first = report(client, cast.headers["mediator"], mediation, "Rien à signaler")
    assert first.status_code == 200, first.text
    assert first.json()["reporting"]["items"] == []
    items = [{"itemType": "Tracking", "trackingId": actions["read"], "content": "Lu"}]
    second = report(client, cast.headers["mediator"], first.json(), "", items)
    assert second.status_code == 200, second.text
    assert second.json()["reporting"]["comment"] == ""
    assert [i["trackingId"] for i in second.json()["reporting"]["items"]] == [actions["read"]]


@pytest.mark.parametrize("which", ["later", "someone else's", "unknown"])
def test_an_action_must_be_tracked_in_the_stored_periods(client, cast, reportable, which):
    mediation, actions = reportable
    tracking_id = actions.get(which, 999_999)
    items = [
        {"itemType": "Tracking", "trackingId": actions["read"], "content": "Lu"},
        {"itemType": "Tracking", "trackingId": tracking_id, "content": "Autre"},
    ]
    response = report(client, cast.headers["mediator"], mediation, "", items)
    assert_error(response, 400, "invalidValue")
    assert field_codes(response) == {("items.1.trackingId", "invalidValue")}


def test_an_action_hidden_from_the_mediator_cannot_be_reported(client, db, test_map, cast, reportable):
    mediation, actions = reportable
    restrict(db, cast.users["mediator"], test_map.cartography("C2"))
    items = [{"itemType": "Tracking", "trackingId": actions["read"], "content": "Lu"}]
    response = report(client, cast.headers["mediator"], mediation, "", items)
    assert field_codes(response) == {("items.0.trackingId", "invalidValue")}


def test_an_action_is_reported_once(client, cast, reportable):
    mediation, actions = reportable
    item = {"itemType": "Tracking", "trackingId": actions["read"], "content": "Lu"}
    response = report(client, cast.headers["mediator"], mediation, "", [item, item])
    assert field_codes(response) == {("items.1.trackingId", "invalidValue")}


def test_an_action_content_longer_than_1000_is_refused(client, cast, reportable):
    mediation, actions = reportable
    item = {"itemType": "Tracking", "trackingId": actions["read"], "content": "x" * 1001}
    response = report(client, cast.headers["mediator"], mediation, "", [item])
    assert response.status_code in (400, 422), response.text
    item["content"] = "x" * 1000
    assert report(client, cast.headers["mediator"], mediation, "", [item]).status_code == 200


def test_a_stale_report_is_refused(client, cast, reportable):
    mediation, _ = reportable
    assert report(client, cast.headers["mediator"], mediation, "Un").status_code == 200
    assert_error(report(client, cast.headers["mediator"], mediation, "Deux"), 409, "staleVersion")


def test_a_report_without_version_applies(client, cast, reportable):
    """The spec's client sends comment and items alone, each item with its content (spec 1 §3, §7)."""
    mediation, actions = reportable
    url = f"{API}/mediation/{mediation['id']}/report"
    items = [{"itemType": "Tracking", "trackingId": actions["read"], "content": "02/03/2026 09:02 · Lu"}]
    response = client.post(url, json={"comment": "Fait", "items": items}, headers=cast.headers["mediator"])
    assert response.status_code == 200, response.text
    reporting = response.json()["reporting"]
    assert reporting["comment"] == "Fait"
    assert [i["trackingId"] for i in reporting["items"]] == [actions["read"]]
    assert response.json()["version"] == mediation["version"] + 1


@pytest.mark.parametrize("role", ["creator", "participant", "other", "visiblePerson", "groupMember"])
def test_only_the_mediator_writes_the_report(client, cast, reportable, role):
    mediation, _ = reportable
    assert_error(report(client, cast.headers[role], mediation, "Compte rendu"), 403)


def test_validation_locks_the_report(client, cast, reportable):
    mediation, _ = reportable
    written = report(client, cast.headers["mediator"], mediation, "Compte rendu")
    validated = client.post(
        f"{API}/mediation/{mediation['id']}/status",
        json={"status": "validated"},
        headers=cast.headers["mediator"],
    )
    assert validated.status_code == 200, validated.text
    assert validated.json()["can"]["editReport"] is False
    again = report(client, cast.headers["mediator"], validated.json(), "Autre")
    assert_error(again, 403)
    assert written.json()["reporting"]["comment"] == "Compte rendu"
    assert_error(track(client, cast.headers["mediator"], validated.json(), [period(0, 5)]), 403)
