"""The daily scan (notifications.scan): qualifications expiring told to their holder at 90, 60, 30 and
7 days before the end and to the people who manage them at 30 and 7, in one message per manager per
day, each window once ever (two scans the same day, a new process, two processes at once), a renewed
qualification starting afresh; each in the recipient's language with a link to the person's
qualifications; the lease that lets one process run each scan; the hour it runs at."""

import os
import subprocess
import sys
import threading
import time
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import func, insert, select, update

from dashboards.data import BOARD, T0, held, module
from spot.config import Settings
from spot.core.time import midnight, today, utcnow
from spot.db import session_factory
from spot.notifications import outbox, scan
from spot.notifications.models import NotificationPreference, OutboxMessage
from spot.notifications.scan_models import ExpiryReminder, ScanLease
from spot.qualifications.models import Qualification, QualificationGroup, QualificationModule
from spot.users.models import Group, user_group

# A Wednesday far from daylight saving changes.
D0 = date(2026, 4, 15)
SPOT = str(Path(sys.executable).parent / "spot")


def at(day: date, hour: int = 7) -> datetime:
    """An instant of `day` in the organisation's time zone."""
    return midnight(day) + timedelta(hours=hour)


def qualification(db, name, group_ids, module_ids):
    row = Qualification(name=name, created_at=T0, updated_at=T0)
    db.add(row)
    db.flush()
    for group_id in group_ids:
        db.add(QualificationGroup(qualification_id=row.id, group_id=group_id))
    for position, module_id in enumerate(module_ids):
        db.add(QualificationModule(qualification_id=row.id, module_id=module_id, position=position))
    db.flush()
    return row.id


def messages(db, kind=None) -> list[OutboxMessage]:
    db.expire_all()
    query = select(OutboxMessage).order_by(OutboxMessage.id)
    if kind:
        query = query.where(OutboxMessage.kind == kind)
    return list(db.scalars(query))


def run(day: date, hour: int = 7) -> dict:
    return scan.run(session_factory(), now=at(day, hour))


@pytest.fixture
def world(db, make_user):
    """The team Atelier (qualifiable for Cariste, two periodic modules): Marie the manager
    (perm_TableauBord, English), Anne (English) and Bruno (French); Paul has perm_TableauBord but is not
    in the team; Zoé is in the team without it."""
    team = Group(name="Atelier")
    db.add(team)
    db.flush()
    people = {
        "marie": make_user(
            "marie", [BOARD], first_name="Marie", last_name="Martin", email="marie@usine.example"
        ),
        "anne": make_user("anne", first_name="Anne", last_name="Aubry", email="anne@usine.example"),
        "bruno": make_user("bruno", first_name="Bruno", last_name="Blanc", email="bruno@usine.example"),
        "zoe": make_user("zoe", first_name="Zoé", last_name="Zed", email="zoe@usine.example"),
        "paul": make_user("paul", [BOARD], first_name="Paul", last_name="Petit", email="paul@usine.example"),
    }
    people["marie"].language = "en"
    people["anne"].language = "en"
    for login in ("marie", "anne", "bruno", "zoe"):
        db.execute(insert(user_group).values(user_id=people[login].id, group_id=team.id))
    modules = [module(db, "Conduite", periodicity=12), module(db, "Sécurité", periodicity=12)]
    cariste = qualification(db, "Cariste", [team.id], modules)
    db.commit()
    return {**people, "team": team, "modules": modules, "cariste": cariste}


def hold(db, world, login, *, until: date, day: date = D0):
    """`login` holds Cariste until `until` (both modules)."""
    for module_id in world["modules"]:
        held(db, world[login].id, module_id, days=(until - day).days, today=day)
    db.commit()


def test_the_holder_is_told_at_90_60_30_and_7_days_and_managers_at_30_and_7_each_once(db, world):
    end = D0 + timedelta(days=90)
    hold(db, world, "anne", until=end)
    told = []
    for day in [D0 + timedelta(days=n) for n in range(0, 95)]:
        result = run(day)
        assert result["expiryReminders"] is not None
        assert run(day, hour=20)["expiryReminders"] == 0  # a second scan the same day: nothing new
        for message in messages(db)[len(told) :]:
            told.append((day, message.kind, message.to_address))
    assert told == [
        (D0, "qualificationExpiring", "anne@usine.example"),  # 90 days left
        (end - timedelta(days=60), "qualificationExpiring", "anne@usine.example"),
        (end - timedelta(days=30), "qualificationExpiring", "anne@usine.example"),
        (end - timedelta(days=30), "teamQualificationExpiring", "marie@usine.example"),
        (end - timedelta(days=7), "qualificationExpiring", "anne@usine.example"),
        (end - timedelta(days=7), "teamQualificationExpiring", "marie@usine.example"),
    ]
    windows = db.execute(
        select(ExpiryReminder.recipient_id, ExpiryReminder.days_window).order_by(
            ExpiryReminder.announced_on, ExpiryReminder.recipient_id
        )
    ).all()
    anne, marie = world["anne"].id, world["marie"].id
    assert [tuple(w) for w in windows] == [
        (anne, 90),
        (anne, 60),
        *sorted([(anne, 30), (marie, 30)]),
        *sorted([(anne, 7), (marie, 7)]),
    ]


def test_a_scan_that_missed_days_tells_the_current_window_only(db, world):
    hold(db, world, "anne", until=D0 + timedelta(days=5))
    run(D0)
    assert [(m.kind, m.to_address) for m in messages(db)] == [
        ("qualificationExpiring", "anne@usine.example"),
        ("teamQualificationExpiring", "marie@usine.example"),
    ]
    assert set(db.scalars(select(ExpiryReminder.days_window))) == {7}
    for n in range(1, 8):
        run(D0 + timedelta(days=n))
    assert len(messages(db)) == 2


def test_the_holders_message_in_their_language_with_the_link_to_their_qualifications(db, world):
    hold(db, world, "anne", until=D0 + timedelta(days=29))
    hold(db, world, "bruno", until=D0 + timedelta(days=59))
    run(D0)
    [anne] = [m for m in messages(db, "qualificationExpiring") if m.to_address == "anne@usine.example"]
    assert anne.language == "en"
    assert anne.subject == "Your qualification Cariste expires on 2026-05-14"
    assert "valid until 2026-05-14 included (30 day(s) left)" in anne.text_body
    assert f"/spotv2/dashboard/qualifications/user/{world['anne'].id}" in anne.text_body
    assert f'/spotv2/dashboard/qualifications/user/{world["anne"].id}"' in anne.html_body
    [bruno] = [m for m in messages(db, "qualificationExpiring") if m.to_address == "bruno@usine.example"]
    assert bruno.language == "fr"
    assert bruno.subject == "Votre qualification Cariste arrive à échéance le 13/06/2026"
    assert "Bonjour Bruno Blanc," in bruno.text_body and "jusqu'au 13/06/2026 inclus" in bruno.text_body


def test_managers_get_one_message_a_day_listing_their_people_in_their_language(db, world):
    hold(db, world, "anne", until=D0 + timedelta(days=20))
    hold(db, world, "bruno", until=D0 + timedelta(days=6))
    hold(db, world, "zoe", until=D0 + timedelta(days=45))  # the manager is told at 30 days only
    run(D0)
    [team] = messages(db, "teamQualificationExpiring")
    assert (team.to_address, team.language) == ("marie@usine.example", "en")
    assert team.subject == "Your team's qualifications expiring: 2"
    body = team.text_body.splitlines()
    listed = body[body.index("These qualifications of people you follow expire soon:") + 2 :][:4]
    assert listed == [
        "- Bruno Blanc — Cariste: valid until 2026-04-21 included (7 day(s) left)",
        f"  http://127.0.0.1:8000/spotv2/dashboard/qualifications/user/{world['bruno'].id}",
        "- Anne Aubry — Cariste: valid until 2026-05-05 included (21 day(s) left)",
        f"  http://127.0.0.1:8000/spotv2/dashboard/qualifications/user/{world['anne'].id}",
    ]
    assert (
        f'<a href="http://127.0.0.1:8000/spotv2/dashboard/qualifications/user/{world["anne"].id}">'
        in team.html_body
    )
    assert "/spotv2/dashboards/manager" in team.text_body
    # Paul (not in the team) and Zoé (no perm_TableauBord) are told nothing of the others.
    assert {m.to_address for m in messages(db)} == {
        "marie@usine.example",
        "anne@usine.example",
        "bruno@usine.example",
        "zoe@usine.example",
    }
    # The next day a third person enters the 30 days: a second message, of that person only.
    hold(db, world, "zoe", until=D0 + timedelta(days=31), day=D0)
    run(D0 + timedelta(days=1))
    second = messages(db, "teamQualificationExpiring")[1:]
    assert len(second) == 1 and "Zoé Zed" in second[0].text_body and "Anne" not in second[0].text_body
    assert f"/spotv2/dashboard/qualifications/user/{world['zoe'].id}" in second[0].text_body


def test_a_renewed_qualification_starts_its_windows_afresh(db, world):
    hold(db, world, "anne", until=D0 + timedelta(days=6))
    run(D0)
    assert len(messages(db, "qualificationExpiring")) == 1
    # Renewed the next day (a new grading, a year more): nothing until its own windows come.
    renewed = D0 + timedelta(days=1 + 85)
    hold(db, world, "anne", until=renewed, day=D0 + timedelta(days=1))
    run(D0 + timedelta(days=1))
    [old, new] = messages(db, "qualificationExpiring")
    assert "2026-04-21" in old.subject and renewed.isoformat() in new.subject  # the window of 90 again
    run(renewed - timedelta(days=7))
    assert len(messages(db, "qualificationExpiring")) == 3
    assert len(messages(db, "teamQualificationExpiring")) == 2


def test_people_who_left_or_have_no_address_are_told_nothing_and_recorded_all_the_same(db, world):
    world["bruno"].active = False
    world["anne"].email = None
    db.commit()
    hold(db, world, "anne", until=D0 + timedelta(days=10))
    hold(db, world, "bruno", until=D0 + timedelta(days=10))
    run(D0)
    [team] = messages(db)
    assert team.to_address == "marie@usine.example" and "Bruno" not in team.text_body
    assert "Anne Aubry" in team.text_body
    recipients = set(db.scalars(select(ExpiryReminder.recipient_id)))
    assert recipients == {world["anne"].id, world["marie"].id}


def test_each_recipient_receives_as_they_chose(db, world):
    # Anne never wants her own reminders, Marie her team's in the daily digest.
    db.add(NotificationPreference(user_id=world["anne"].id, kind="qualificationExpiring", mode="never"))
    db.add(NotificationPreference(user_id=world["marie"].id, kind="teamQualificationExpiring", mode="digest"))
    db.commit()
    hold(db, world, "anne", until=D0 + timedelta(days=10))
    hold(db, world, "bruno", until=D0 + timedelta(days=10))
    run(D0)
    assert sorted((m.to_address, m.status) for m in messages(db)) == [
        ("bruno@usine.example", "queued"),
        ("marie@usine.example", "held"),
    ]


def test_a_scan_whose_lease_another_holds_waits_and_a_dead_holders_lease_runs_out(db, world):
    hold(db, world, "anne", until=D0 + timedelta(days=10))
    db.add(ScanLease(name="expiryReminders", holder="another", held_until=utcnow() + timedelta(minutes=5)))
    db.commit()
    assert run(D0)["expiryReminders"] is None
    assert messages(db) == []
    db.execute(update(ScanLease).values(held_until=utcnow() - timedelta(seconds=1)))
    db.commit()
    assert run(D0)["expiryReminders"] == 2
    lease = db.get(ScanLease, "expiryReminders")
    db.refresh(lease)
    assert (lease.holder, lease.held_until, lease.last_day) == (None, None, D0)


def test_a_scan_that_fails_leaves_nothing_and_lets_the_lease_go(db, world, monkeypatch):
    hold(db, world, "anne", until=D0 + timedelta(days=10))

    original = scan.record

    def stops_midway(db, reminders):
        original(db, reminders)
        raise RuntimeError("the process stops midway")

    monkeypatch.setattr(scan, "record", stops_midway)
    assert run(D0)["expiryReminders"] is None
    assert messages(db) == [] and db.scalar(select(func.count()).select_from(ExpiryReminder)) == 0
    lease = db.get(ScanLease, "expiryReminders")
    db.refresh(lease)
    assert (lease.holder, lease.last_day) == (None, None)  # let go: the next run does it all
    monkeypatch.setattr(scan, "record", original)
    assert run(D0)["expiryReminders"] == 2


def test_the_reminders_reach_the_mail_server(db, world, smtp):
    hold(db, world, "bruno", until=D0 + timedelta(days=7))
    run(D0)
    assert outbox.send_due(session_factory()) == 2
    [bruno] = smtp.mailbox.to("bruno@usine.example")
    assert bruno["Subject"] == "Votre qualification Cariste arrive à échéance le 22/04/2026"
    assert (
        f"/spotv2/dashboard/qualifications/user/{world['bruno'].id}"
        in bruno.get_body(("plain",)).get_content()
    )
    [marie] = smtp.mailbox.to("marie@usine.example")
    assert marie["Subject"] == "Your team's qualifications expiring: 1"
    assert "Bruno Blanc — Cariste" in marie.get_body(("html",)).get_content()


def _notify(*options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [SPOT, "notify", *options],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _finish(process: subprocess.Popen) -> str:
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, output
    return output


def test_spot_notify_runs_the_scan_once_a_day_in_a_new_process_and_sends_with_send(db, world, smtp):
    day = today()
    hold(db, world, "anne", until=day + timedelta(days=30), day=day)
    output = _finish(_notify())
    assert "expiryReminders: 2 queued" in output
    assert len(messages(db)) == 2 and smtp.mailbox.received == []
    # Another process the same day (a restart, cron again): nothing new; --send sends what waits.
    output = _finish(_notify("--send"))
    assert "expiryReminders: 0 queued" in output and "sent: 2" in output
    assert sorted(str(m["To"]) for m in smtp.mailbox.received) == [
        "Anne Aubry <anne@usine.example>",
        "Marie Martin <marie@usine.example>",
    ]


def test_two_processes_scanning_at_once_send_each_reminder_once(db, world, smtp):
    day = today()
    for login, days in (("anne", 30), ("bruno", 7), ("zoe", 60)):
        hold(db, world, login, until=day + timedelta(days=days), day=day)
    processes = [_notify("--send"), _notify("--send")]
    outputs = [_finish(process) for process in processes]
    assert len(messages(db)) == 4, outputs  # Anne, Bruno, Zoé, and Marie once
    # One ran the scan; the other found it held (another process runs it) or done for the day.
    said = sorted(
        line for output in outputs for line in output.splitlines() if line.startswith("expiryReminders:")
    )
    assert said in (
        ["expiryReminders: 0 queued", "expiryReminders: 4 queued"],
        ["expiryReminders: 4 queued", "expiryReminders: not run here (another process runs it)"],
    ), outputs
    deadline = time.monotonic() + 120
    while len(smtp.mailbox.received) < 4 and time.monotonic() < deadline:
        outbox.send_due(session_factory())
        time.sleep(0.2)
    assert sorted(m["To"].addresses[0].addr_spec for m in smtp.mailbox.received) == [
        "anne@usine.example",
        "bruno@usine.example",
        "marie@usine.example",
        "zoe@usine.example",
    ]
    assert db.scalar(select(func.count()).select_from(ExpiryReminder)) == 5  # 3 holders, Marie of 2


@pytest.mark.parametrize("value", ["6h", "24:00", "06:60", "6", "", "06:0"])
def test_a_scan_hour_that_cannot_be_read_stops_spot_at_start(value, monkeypatch):
    monkeypatch.setenv("SPOT_DAILY_SCAN_AT", value)
    with pytest.raises(ValidationError, match="SPOT_DAILY_SCAN_AT"):
        Settings()


def test_the_scan_hour_is_read_in_the_organisations_time_zone(settings_env):
    settings_env(SPOT_DAILY_SCAN_AT="5:30", SPOT_TIMEZONE="Europe/Paris")
    assert scan.due_at(date(2026, 1, 15)).isoformat() == "2026-01-15T05:30:00+01:00"
    assert scan.due_at(date(2026, 7, 15)).isoformat() == "2026-07-15T05:30:00+02:00"


def test_spot_serve_runs_the_scan_once_its_hour_has_come(db, world, settings_env):
    settings_env(SPOT_DAILY_SCAN_AT="06:00")
    hold(db, world, "anne", until=D0 + timedelta(days=7))
    clock = {"now": at(D0, hour=5)}
    stop = scan.start(every=0.05, clock=lambda: clock["now"])
    try:
        lease = None
        # Before 06:00 it waits (the lease row is made only by a run).
        time.sleep(0.5)
        assert db.get(ScanLease, "expiryReminders") is None
        clock["now"] = at(D0, hour=6)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            db.expire_all()
            lease = db.get(ScanLease, "expiryReminders")
            if lease is not None and lease.last_day == D0:
                break
            time.sleep(0.1)
        assert lease is not None and lease.last_day == D0
    finally:
        stop()
    assert len(messages(db)) == 2


def test_the_demo_outbox_shows_the_reminders_of_the_day_it_was_loaded(demo_org, db):
    told = {(m.kind, m.to_address) for m in messages(db) if "Expiring" in m.kind}
    # Gabriel Roux (apprenant) holds a qualification 30 days or fewer more (demo.qualifications). No
    # perm_TableauBord holder is in his group (Opérateurs): no manager is told, as the bell shows none.
    assert ("qualificationExpiring", "gabriel.roux@usine-demo.example") in told
    # The daily scan of the same day finds them told.
    assert scan.run(session_factory())["expiryReminders"] == 0
    assert {(m.kind, m.to_address) for m in messages(db) if "Expiring" in m.kind} == told


def test_spot_serve_starts_the_daily_scan_and_stops_it_with_the_app(app):
    from fastapi.testclient import TestClient

    def scanning() -> bool:
        return any(thread.name == "spot-daily-scan" and thread.is_alive() for thread in threading.enumerate())

    with TestClient(app):
        assert scanning()
    assert not scanning()
