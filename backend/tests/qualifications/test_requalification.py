"""Requalification opened on time (qualifications.requalification, docs/qualifications.md): a concerned
person's hold on a periodic module of a qualification entering its window opens one path, with the
referents of the path that validated it (else the qualification's default referents), from today to
the last valid day, visible as that path was, created by Spot (shown so on the page, in the list, in the
history and in reports), told to the learner as any new path; once per hold, ever, whether the scan runs
once, twice, in two threads or in two processes at once; a deleted or canceled path is not opened again."""

import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, insert, select, update

from qualifications.world import module
from spot.core.time import today, utcnow
from spot.db import session_factory
from spot.notifications import scan
from spot.notifications.models import OutboxMessage
from spot.qualifications import requalification
from spot.qualifications.models import (
    ModuleHold,
    Qualification,
    QualificationGroup,
    QualificationModule,
    QualificationReferent,
    RequalificationOpening,
)
from spot.reports import selection
from spot.training.paths.models import (
    PathStatus,
    TrainingPath,
    TrainingPathHistory,
    TrainingPathModule,
    TrainingPathReferent,
    TrainingPathVisibleGroup,
    TrainingPathVisiblePerson,
)
from spot.users.models import Group, User, user_group
from support import API

SPOT = str(Path(sys.executable).parent / "spot")
PATHS = f"{API}/training/path"
ADMIN = "perm_TrainingPathAdmin"


@dataclass
class World:
    day: date
    team: int
    viewers: int
    caces: int
    qualification: int
    anne: User
    remi: User
    dora: User
    vera: User
    admin: User


def _qualification(db, name: str, *, groups, modules, window: int = 60, referents=()) -> int:
    at = utcnow()
    row = Qualification(name=name, created_at=at, updated_at=at, requalification_window_days=window)
    db.add(row)
    db.flush()
    for group_id in groups:
        db.add(QualificationGroup(qualification_id=row.id, group_id=group_id))
    for position, module_id in enumerate(modules):
        db.add(QualificationModule(qualification_id=row.id, module_id=module_id, position=position))
    for user_id in referents:
        db.add(QualificationReferent(qualification_id=row.id, user_id=user_id))
    db.commit()
    return row.id


def _group(db, name: str, *members: User) -> int:
    row = Group(name=name)
    db.add(row)
    db.flush()
    if members:
        db.execute(insert(user_group), [{"user_id": m.id, "group_id": row.id} for m in members])
    db.commit()
    return row.id


@pytest.fixture
def world(db, make_user) -> World:
    """Anne (the team Caristes, English) holds CACES (periodic) from a closed path followed by Rémi,
    visible to Véra and to the group Lecteurs, pass threshold 7; the qualification Cariste (window 60
    days, default referent Dora) names the team and CACES."""
    anne = make_user("anne", first_name="Anne", last_name="Aubry", email="anne@usine.example")
    anne.language = "en"
    remi = make_user("remi", first_name="Rémi", last_name="Référent")
    dora = make_user("dora", first_name="Dora", last_name="Défaut")
    vera = make_user("vera", first_name="Véra", last_name="Voit")
    admin = make_user("admin", [ADMIN], first_name="Ada", last_name="Admin")
    db.commit()
    team = _group(db, "Caristes", anne)
    viewers = _group(db, "Lecteurs")
    caces = module(db, "CACES R489", periodicity=12)
    cariste = _qualification(db, "Cariste", groups=[team], modules=[caces], referents=[dora.id])
    return World(today(), team, viewers, caces, cariste, anne, remi, dora, vera, admin)


def validated(
    db,
    learner: User,
    module_id: int,
    *,
    until: date,
    referents=(),
    persons=(),
    groups=(),
    threshold: int = 7,
) -> int:
    """A closed path of the learner whose module was passed, valid until `until`; its id."""
    at = datetime.combine(until - timedelta(days=365), time(9), tzinfo=UTC)
    path = TrainingPath(
        title="CACES 2025",
        learner_id=learner.id,
        status=PathStatus.archived.value,
        created_at=at,
        status_changed_at=at,
        start_date=at.date(),
        stop_date=at.date() + timedelta(days=10),
        pass_threshold=threshold,
    )
    db.add(path)
    db.flush()
    row = TrainingPathModule(
        path_id=path.id,
        position=0,
        module_id=module_id,
        start_date=at.date(),
        stop_date=at.date() + timedelta(days=10),
        status="archived",
        status_changed_at=at,
        grade=8.0,
        is_success=True,
        valid_until=until,
        graded_at=at,
    )
    db.add(row)
    db.flush()
    for user_id in referents:
        db.add(TrainingPathReferent(path_module_id=row.id, user_id=user_id, path_id=path.id))
    for user_id in persons:
        db.add(TrainingPathVisiblePerson(path_id=path.id, user_id=user_id))
    for group_id in groups:
        db.add(TrainingPathVisibleGroup(path_id=path.id, group_id=group_id))
    db.commit()
    return path.id


def anne_holds(db, w: World, days: int, **kwargs) -> int:
    kwargs.setdefault("referents", [w.remi.id])
    return validated(db, w.anne, w.caces, until=w.day + timedelta(days=days), **kwargs)


def requalify(day: date | None = None) -> int | None:
    """The daily scan's step, for `day` (today by default)."""
    [step] = [s for s in scan.SCANS if s.name == "requalify"]
    now = datetime.combine(day, time(12), tzinfo=UTC) if day else utcnow()
    return scan.run_one(session_factory(), step, now=now)


def opened(db) -> list[TrainingPath]:
    db.expire_all()
    return list(db.scalars(select(TrainingPath).where(TrainingPath.opened_by_spot).order_by(TrainingPath.id)))


def openings(db) -> list[tuple]:
    db.expire_all()
    r = RequalificationOpening
    return [tuple(row) for row in db.execute(select(r.user_id, r.module_id, r.valid_until, r.path_id))]


def referents_of(db, path_id: int) -> set[int]:
    return set(
        db.scalars(select(TrainingPathReferent.user_id).where(TrainingPathReferent.path_id == path_id))
    )


# The path opened ------------------------------------------------------------------------------------------


def test_a_hold_entering_the_window_opens_one_path_as_the_validating_path_was(db, world):
    w = world
    validating = anne_holds(db, w, 45, persons=[w.vera.id], groups=[w.viewers], threshold=7)
    assert requalify() == 1
    [path] = opened(db)
    assert (path.learner_id, path.creator_id, path.status) == (w.anne.id, None, PathStatus.notAccepted)
    assert (path.start_date, path.stop_date) == (w.day, w.day + timedelta(days=45))
    assert path.title == "Requalification — CACES R489"
    assert path.pass_threshold == 7
    [assigned] = db.scalars(select(TrainingPathModule).where(TrainingPathModule.path_id == path.id))
    assert (assigned.module_id, assigned.start_date, assigned.stop_date) == (
        w.caces,
        w.day,
        w.day + timedelta(days=45),
    )
    assert assigned.status == "notStarted"
    # The referents of the module in the path that validated it, not the default ones.
    assert referents_of(db, path.id) == {w.remi.id}
    persons = set(
        db.scalars(
            select(TrainingPathVisiblePerson.user_id).where(TrainingPathVisiblePerson.path_id == path.id)
        )
    )
    groups = set(
        db.scalars(
            select(TrainingPathVisibleGroup.group_id).where(TrainingPathVisibleGroup.path_id == path.id)
        )
    )
    assert (persons, groups) == ({w.vera.id}, {w.viewers})
    # Recorded for the hold; the hold now has its requalification path.
    assert openings(db) == [(w.anne.id, w.caces, w.day + timedelta(days=45), path.id)]
    hold = db.get(ModuleHold, (w.anne.id, w.caces))
    assert (hold.validation_path_id, hold.requalification_path_id) == (validating, path.id)
    # Its history: created by Spot.
    [event] = db.scalars(select(TrainingPathHistory).where(TrainingPathHistory.path_id == path.id))
    assert (event.event, event.user_id, event.user_name) == ("created", None, "Spot")


def test_the_learner_is_told_as_of_any_new_path(db, world):
    anne_holds(db, world, 30)
    requalify()
    [path] = opened(db)
    told = db.scalars(select(OutboxMessage).where(OutboxMessage.kind == "trainingPathToAccept")).all()
    assert [(m.to_address, m.language, m.subject) for m in told] == [
        ("anne@usine.example", "en", "Accept the training path “Requalification — CACES R489”")
    ]
    assert told[0].link is not None and told[0].link.endswith(f"/training/path/view/{path.id}")


def test_spot_is_shown_as_the_creator_on_the_page_in_the_list_and_in_reports(client, db, world, login):
    anne_holds(db, world, 30)
    requalify()
    [path] = opened(db)
    headers = login(world.admin)
    page = client.get(f"{PATHS}/{path.id}", headers=headers)
    assert page.status_code == 200, page.text
    found = page.json()
    assert found["openedBySpot"] is True
    assert (found["creation"]["userId"], found["creation"]["userName"]) == (None, "Spot")
    assert [(h["event"], h["userName"], h["user"]) for h in found["history"]] == [("created", "Spot", None)]
    listed = client.post(f"{PATHS}/query", json={"filter": f"learner oneOf {world.anne.id}"}, headers=headers)
    assert listed.status_code == 200, listed.text
    cards = {card["id"]: card for card in listed.json()["results"]}
    assert cards[path.id]["openedBySpot"] is True and cards[path.id]["creator"] is None
    assert not any(card["openedBySpot"] for card in cards.values() if card["id"] != path.id)
    lines = selection.learner_lines(db, user_id=world.anne.id, language="fr").paths
    assert {line.id: line.creator_name for line in lines}[path.id] == "Spot"


def test_the_learner_accepts_it_as_any_path_and_a_path_administrator_runs_it(client, db, world, login):
    anne_holds(db, world, 30)
    requalify()
    [path] = opened(db)
    accepted = client.post(f"{PATHS}/{path.id}/accept", headers=login(world.anne))
    assert accepted.status_code == 200, accepted.text
    started = client.post(f"{PATHS}/{path.id}/start", headers=login(world.remi))
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "started" and started.json()["creation"]["userName"] == "Spot"


# The window -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("days", "window", "opens"), [(60, 60, True), (61, 60, False), (0, 60, True), (5, 0, False)]
)
def test_the_window_in_days_before_the_last_valid_day(db, world, days, window, opens):
    db.execute(update(Qualification).values(requalification_window_days=window))
    db.commit()
    anne_holds(db, world, days)
    assert requalify() == int(opens)
    assert len(opened(db)) == int(opens)


def test_the_widest_window_of_the_qualifications_that_hold_the_module_for_the_person(db, world, make_user):
    w = world
    _qualification(db, "Cariste confirmé", groups=[w.team], modules=[w.caces], window=90)
    # A wider window of a qualification that does not concern Anne does not count.
    others = _group(db, "Autres", make_user("otto"))
    _qualification(db, "Autre", groups=[others], modules=[w.caces], window=365)
    anne_holds(db, w, 120)
    assert requalify(w.day) == 0
    assert requalify(w.day + timedelta(days=29)) == 0  # 91 days left
    assert requalify(w.day + timedelta(days=30)) == 1  # 90 days left
    assert len(opened(db)) == 1


def test_no_path_for_a_hold_that_expired_a_permanent_one_a_disabled_module_or_someone_not_concerned(
    db, world, make_user
):
    w = world
    anne_holds(db, w, -1)  # expired yesterday
    bruno = make_user("bruno")
    validated(db, bruno, w.caces, until=w.day + timedelta(days=10), referents=[w.remi.id])  # not in the team
    carl = make_user("carl")
    db.execute(insert(user_group).values(user_id=carl.id, group_id=w.team))
    carl.active = False  # left
    db.commit()
    validated(db, carl, w.caces, until=w.day + timedelta(days=10), referents=[w.remi.id])
    permanent = module(db, "Consignation", periodicity=0)
    stopped = module(db, "Nacelle", periodicity=12, enabled=False)
    db.add_all(
        [
            QualificationModule(qualification_id=w.qualification, module_id=permanent, position=1),
            QualificationModule(qualification_id=w.qualification, module_id=stopped, position=2),
        ]
    )
    db.commit()
    validated(db, w.anne, stopped, until=w.day + timedelta(days=10), referents=[w.remi.id])
    assert requalify() == 0
    assert opened(db) == [] and openings(db) == []


def test_no_path_while_a_requalification_path_for_the_module_exists(db, world):
    w = world
    anne_holds(db, w, 30)
    at = utcnow()
    manual = TrainingPath(
        title="Recyclage CACES",
        learner_id=w.anne.id,
        status=PathStatus.accepted.value,
        created_at=at,
        status_changed_at=at,
        start_date=w.day,
        stop_date=w.day + timedelta(days=20),
    )
    db.add(manual)
    db.flush()
    db.add(
        TrainingPathModule(
            path_id=manual.id,
            position=0,
            module_id=w.caces,
            start_date=w.day,
            stop_date=w.day + timedelta(days=20),
            status="notStarted",
            status_changed_at=at,
        )
    )
    db.commit()
    assert requalify() == 0
    assert opened(db) == []


# The referents --------------------------------------------------------------------------------------------


def test_referents_who_left_give_way_to_the_qualifications_default_referents(db, world):
    w = world
    w.remi.active = False
    db.commit()
    anne_holds(db, w, 30)
    requalify()
    [path] = opened(db)
    assert referents_of(db, path.id) == {w.dora.id}


def test_without_any_referent_nothing_is_opened_until_one_is_given(db, world):
    w = world
    db.execute(QualificationReferent.__table__.delete())
    db.commit()
    anne_holds(db, w, 30, referents=[w.anne.id])  # the learner cannot follow her own path
    assert requalify(w.day) == 0
    assert opened(db) == [] and openings(db) == []
    db.add(QualificationReferent(qualification_id=w.qualification, user_id=w.dora.id))
    db.commit()
    assert requalify(w.day + timedelta(days=1)) == 1
    [path] = opened(db)
    assert referents_of(db, path.id) == {w.dora.id}


# Once per hold, ever --------------------------------------------------------------------------------------


def test_a_second_scan_the_same_day_or_the_days_after_opens_nothing_more(db, world):
    w = world
    anne_holds(db, w, 30)
    assert requalify(w.day) == 1
    assert requalify(w.day) == 0  # the same day: the scan had run
    assert requalify(w.day + timedelta(days=1)) == 0  # the hold has its path
    # Without the lease's record of the day either, the plan finds nothing to open.
    assert requalification.open_due(session_factory(), day=w.day + timedelta(days=2)) == 0
    assert len(opened(db)) == 1 and len(openings(db)) == 1


def test_a_deleted_path_is_not_opened_again_for_the_same_hold(client, db, world, login):
    w = world
    anne_holds(db, w, 30)
    requalify(w.day)
    [path] = opened(db)
    deleted = client.delete(f"{PATHS}/{path.id}", headers=login(w.admin))
    assert deleted.status_code == 204, deleted.text
    assert openings(db) == [(w.anne.id, w.caces, w.day + timedelta(days=30), None)]
    assert requalify(w.day + timedelta(days=1)) == 0
    assert opened(db) == []


def test_a_canceled_path_is_not_opened_again_for_the_same_hold_but_a_renewed_hold_is_a_new_one(
    client, db, world, login
):
    w = world
    anne_holds(db, w, 30)
    requalify(w.day)
    [path] = opened(db)
    assert client.post(f"{PATHS}/{path.id}/accept", headers=login(w.anne)).status_code == 200
    canceled = client.post(f"{PATHS}/{path.id}/cancel", headers=login(w.admin))
    assert canceled.status_code == 200, canceled.text
    db.expire_all()
    assert db.get(ModuleHold, (w.anne.id, w.caces)).requalification_path_id is None
    assert requalify(w.day + timedelta(days=1)) == 0
    assert len(opened(db)) == 1
    # Passed again elsewhere: valid until another day, a hold of its own, opened when its window comes.
    anne_holds(db, w, 50)
    assert requalify(w.day + timedelta(days=2)) == 1
    assert len(opened(db)) == 2 and len(openings(db)) == 2


def test_two_writers_at_once_open_one_path(db, world):
    """Two threads plan and open at once, past the lease: the opening's key lets one write."""
    w = world
    anne_holds(db, w, 30)
    barrier = threading.Barrier(2)
    counts: list[int] = []
    errors: list[BaseException] = []

    def write() -> None:
        try:
            with session_factory()() as session:
                planned = requalification.plan(session, day=w.day)
                session.commit()
                barrier.wait(timeout=30)
                counts.append(requalification.open_planned(session, planned, day=w.day))
                session.commit()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=write) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert sorted(counts) == [0, 1]
    assert len(opened(db)) == 1 and len(openings(db)) == 1


def _notify() -> subprocess.Popen:
    return subprocess.Popen(
        [SPOT, "notify"], env=os.environ.copy(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def test_two_spot_notify_processes_at_once_open_one_path(db, world):
    anne_holds(db, world, 30)
    processes = [_notify(), _notify()]
    outputs = []
    for process in processes:
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
        outputs.append(output)
    said = sorted(line for output in outputs for line in output.splitlines() if line.startswith("requalify:"))
    assert said in (
        ["requalify: 0 opened", "requalify: 1 opened"],
        ["requalify: 1 opened", "requalify: not run here (another process runs it)"],
    ), outputs
    assert len(opened(db)) == 1
    told = db.scalar(
        select(func.count()).select_from(OutboxMessage).where(OutboxMessage.kind == "trainingPathToAccept")
    )
    assert told == 1


def test_the_daily_scan_opens_them_before_the_reminders():
    assert [s.name for s in scan.SCANS][:2] == ["requalify", "expiryReminders"]
