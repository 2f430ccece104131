"""The daily scan (docs/notifications.md, "Reminders and the daily scan"): what Spot tells people with
time rather than on a change. `spot serve` runs it once a day at SPOT_DAILY_SCAN_AT (in SPOT_TIMEZONE),
in a thread; `spot notify` runs it once, now (for cron).

It runs these scans, in this order, each once a day:
- `requalify`: the requalification paths Spot opens for holds entering their qualification's window
  (qualifications.requalification; its count is of paths opened, each telling its learner as a new path
  does). First, so that the day's reminders already know of them.
- `expiryReminders`: qualifications expiring. A person's hold on a qualification and its last valid
  day are qualifications.alerts' (the bell's, from qualifications.validity). The holder is told when the
  hold enters the window of 90, 60, 30 and 7 days before its end (the smallest window at least the days
  left: a scan that missed days tells the current window only, never one already passed); the people
  who manage them (perm_TableauBord in a group of the person that is qualifiable for the
  qualification, as the bell's team kind) at 30 and 7 days, gathered in one message per manager per
  day. Each (recipient, person, qualification, last valid day, window) is announced once ever (a row of
  expiry_reminder): a renewed qualification ends on another day and starts its windows afresh. People
  who left (deactivated) are told nothing and told of to nobody.
- `coverageWarnings`: managers told of a function of their cartographies falling under its minimum of
  qualified people within 60 days, once per (manager, function, day it falls)
  (notifications.coverage).
- `bellDue`: the bell's alerts that appear with time (notifications.bell.scan_due).
- `digests`: the daily digests (notifications.digest.send_digests).

With several processes or hosts, one runs each scan at a time: a lease per scan (a row of scan_lease
taken by a compare-and-set, with an expiry so that a holder that died does not block it for ever). The
scan's work and the record of its day (scan_lease.last_day) are committed together: a second run the
same day, in this process or another, after a restart or not, does nothing new; a run killed midway
left nothing and the next one does it all. The expiry scan reads first, in a transaction of its own,
then writes in one that holds SQLite's write lock for the writes only (a few hundred milliseconds for
thousands of reminders, bench/scan.py)."""

import logging
import os
import socket
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, lazyload

from spot.config import get_settings
from spot.core import i18n
from spot.core.time import utcnow
from spot.db import plain, session_factory
from spot.notifications import bell, digest, outbox
from spot.notifications import coverage as coverage_warnings
from spot.notifications.compose import compose, link
from spot.notifications.scan_models import ExpiryReminder, ScanLease
from spot.permissions.models import GroupPermission
from spot.permissions.names import Permission
from spot.qualifications import alerts, requalification
from spot.qualifications.models import ModuleHold, Qualification, QualificationGroup, QualificationModule
from spot.users.models import User, user_group

log = logging.getLogger("spot.notifications")

# The windows, in days before the last valid day: the holder is told of each, managers of these.
HOLDER_WINDOWS = alerts.WINDOWS
MANAGER_WINDOWS = (7, 30)
HOLDER_KIND = "qualificationExpiring"
MANAGER_KIND = "teamQualificationExpiring"
# A scan takes its lease for this long at most (the bench's 20,000 people take seconds); a holder that
# died lets it go then.
LEASE = timedelta(minutes=15)
# How often `spot serve`'s thread looks whether the day's scan is due.
EVERY_S = 60.0
# The client's page of a person's qualifications (frontend lib/paths userQualificationDashboardPath,
# the bell's AlertTarget userQualifications), and the manager's dashboard.
PERSON_PAGE = "/dashboard/qualifications/user/{user_id}"
MANAGER_PAGE = "/dashboards/manager"
CHUNK = 900

# This process (and thread) as a lease holder.
HOLDER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def local_day(now: datetime) -> date:
    """The organisation's day (SPOT_TIMEZONE) at `now`."""
    return now.astimezone(ZoneInfo(get_settings().timezone)).date()


# ---------------------------------------------------------------------------------------------------
# Expiry reminders


@dataclass(frozen=True)
class Expiring:
    """A hold entering a window: who holds what until when."""

    user_id: int
    user_name: str
    qualification_id: int
    name: str
    valid_until: date
    days: int  # validity.remaining_days: 0 on the last valid day
    window: int


def expiring(db: Session, *, day: date) -> list[Expiring]:
    """Every active person's hold on a qualification concerning them that ends within the largest
    window, from qualifications.alerts.holds (the bell's computation): a few statements whatever the
    number of people, only the people with a module ending in the window are read."""
    horizon = day + timedelta(days=HOLDER_WINDOWS[-1])
    learners = (
        select(ModuleHold.user_id)
        .join(User, User.id == ModuleHold.user_id)
        .where(ModuleHold.valid_until.between(day, horizon), User.active.is_(True))
        .distinct()
    )
    _, modules = alerts.concerning(learners, through_holder=False)
    # The pairs of alerts.concerning (a qualification concerns a person through a group of theirs that is
    # qualifiable for it, with each of its modules), narrowed to those with a module of the person ending
    # in the window: only their hold (the earliest end of the qualification's modules) can end there.
    ending = (
        select(ModuleHold.user_id, QualificationModule.qualification_id)
        .join(QualificationModule, QualificationModule.module_id == ModuleHold.module_id)
        .where(ModuleHold.valid_until.between(day, horizon))
        .distinct()
        .cte("ending")
    )
    qm, qg = QualificationModule, QualificationGroup
    concerned = (
        select(
            user_group.c.user_id,
            User.display_name.label("user_name"),
            Qualification.id.label("qualification_id"),
            Qualification.name,
            qm.module_id,
        )
        .select_from(ending)
        .join(user_group, user_group.c.user_id == ending.c.user_id)
        .join(qg, (qg.group_id == user_group.c.group_id) & (qg.qualification_id == ending.c.qualification_id))
        .join(Qualification, Qualification.id == ending.c.qualification_id)
        .join(qm, qm.qualification_id == Qualification.id)
        .join(User, User.id == user_group.c.user_id)
        .where(User.active.is_(True))
        .distinct()
    )
    found = alerts.holds(db, concerned=concerned, modules=modules, learners=learners, holder_id=0, day=day)
    return [
        Expiring(
            user_id=hold.user_id,
            user_name=hold.user_name,
            qualification_id=hold.qualification_id,
            name=hold.name,
            valid_until=hold.valid_until(day),
            days=hold.days,
            window=alerts.window(hold.days),
        )
        for hold in found
        if 0 <= hold.days <= HOLDER_WINDOWS[-1]
    ]


def _managers(db: Session, pairs: set[tuple[int, int]]) -> dict[tuple[int, int], set[int]]:
    """For each (person, qualification) of `pairs`, the people who manage it: perm_TableauBord in a
    group of the person that is qualifiable for the qualification (the bell's team kind), the person
    excluded. One statement per chunk of people."""
    mine, team = user_group.alias("mine"), user_group.alias("team")
    board = (
        select(user_group.c.user_id)
        .join(GroupPermission, GroupPermission.group_id == user_group.c.group_id)
        .where(GroupPermission.name == str(Permission.TableauBord))
    )
    people = sorted({user_id for user_id, _ in pairs})
    found: dict[tuple[int, int], set[int]] = defaultdict(set)
    for start in range(0, len(people), CHUNK):
        rows = plain(db).execute(
            select(team.c.user_id, QualificationGroup.qualification_id, mine.c.user_id)
            .select_from(team)
            .join(QualificationGroup, QualificationGroup.group_id == team.c.group_id)
            .join(mine, mine.c.group_id == team.c.group_id)
            .where(
                team.c.user_id.in_(people[start : start + CHUNK]),
                mine.c.user_id != team.c.user_id,
                mine.c.user_id.in_(board),
            )
            .distinct()
        )
        for user_id, qualification_id, manager_id in rows:
            if (user_id, qualification_id) in pairs:
                found[(user_id, qualification_id)].add(manager_id)
    return found


Key = tuple[int, int, int, date, int]


def _key(recipient_id: int, item: Expiring) -> Key:
    return (recipient_id, item.user_id, item.qualification_id, item.valid_until, item.window)


def _announced(db: Session, *, day: date) -> set[Key]:
    """The reminders already announced of holds still running."""
    r = ExpiryReminder
    rows = plain(db).execute(
        select(r.recipient_id, r.user_id, r.qualification_id, r.valid_until, r.days_window).where(
            r.valid_until >= day
        )
    )
    return {tuple(row) for row in rows}  # type: ignore[misc]


def _users(db: Session, ids: set[int]) -> dict[int, User]:
    ordered = sorted(ids)
    found: dict[int, User] = {}
    for start in range(0, len(ordered), CHUNK):
        people = select(User).options(lazyload("*")).where(User.id.in_(ordered[start : start + CHUNK]))
        for user in db.scalars(people):
            found[user.id] = user
    return found


def _language(user: User) -> i18n.Language:
    return user.language if user.language in i18n.LANGUAGES else i18n.DEFAULT  # type: ignore[return-value]


def _date(language: i18n.Language, day: date) -> str:
    return day.strftime("%d/%m/%Y") if language == "fr" else day.isoformat()


def _name(user: User) -> str:
    return f"{user.first_name} {user.last_name}".strip()


def _holder_message(user: User, item: Expiring) -> outbox.Content:
    language = _language(user)
    args: dict[str, Any] = {
        "name": item.name,
        "date": _date(language, item.valid_until),
        "days": item.days + 1,  # counted as My dashboard and the bell count them
    }
    return compose(
        language,
        name=_name(user),
        subject=i18n.text(language, "mail.expiry_subject", **args),
        paragraphs=[
            i18n.text(language, "mail.expiry_body", **args),
            i18n.text(language, "mail.expiry_renew"),
        ],
        path=PERSON_PAGE.format(user_id=item.user_id),
    )


def _manager_message(manager: User, items: list[Expiring]) -> outbox.Content:
    language = _language(manager)
    listed: list[tuple[str, str | None]] = [
        (
            i18n.text(
                language,
                "mail.team_expiry_line",
                user=item.user_name,
                name=item.name,
                date=_date(language, item.valid_until),
                days=item.days + 1,
            ),
            link(PERSON_PAGE.format(user_id=item.user_id)),
        )
        for item in items
    ]
    people = {item.user_id for item in items}
    page = PERSON_PAGE.format(user_id=items[0].user_id) if len(people) == 1 else MANAGER_PAGE
    return compose(
        language,
        name=_name(manager),
        subject=i18n.text(language, "mail.team_expiry_subject", count=len(items)),
        paragraphs=[i18n.text(language, "mail.team_expiry_body")],
        path=page,
        items=listed,
    )


@dataclass(frozen=True)
class Reminders:
    """What the day's expiry scan tells: the messages, and the reminders they announce."""

    day: date
    messages: list[outbox.Queued]
    keys: list[Key]


def plan(db: Session, *, day: date) -> Reminders:
    """The day's reminders not announced yet, their messages written: reads only."""
    items = expiring(db, day=day)
    if not items:
        return Reminders(day, [], [])
    announced = _announced(db, day=day)
    new: list[Key] = []
    holder_news: list[Expiring] = []
    for item in items:
        key = _key(item.user_id, item)
        if key not in announced:
            new.append(key)
            holder_news.append(item)
    in_manager_window = {(i.user_id, i.qualification_id): i for i in items if i.window in MANAGER_WINDOWS}
    managed = _managers(db, set(in_manager_window)) if in_manager_window else {}
    per_manager: dict[int, list[Expiring]] = defaultdict(list)
    for pair, manager_ids in managed.items():
        item = in_manager_window[pair]
        for manager_id in manager_ids:
            key = _key(manager_id, item)
            if key not in announced:
                new.append(key)
                per_manager[manager_id].append(item)
    if not new:
        return Reminders(day, [], [])
    users = _users(db, {i.user_id for i in holder_news} | set(per_manager))
    messages: list[outbox.Queued] = []
    for item in holder_news:
        if (user := users.get(item.user_id)) is not None:
            dedupe = f"{HOLDER_KIND}:{item.user_id}:{item.qualification_id}:{item.valid_until}:{item.window}"
            messages.append(outbox.Queued(user, HOLDER_KIND, _holder_message(user, item), dedupe))
    for manager_id, listed in per_manager.items():
        if (manager := users.get(manager_id)) is not None:
            listed.sort(key=lambda i: (i.valid_until, i.user_name, i.name))
            dedupe = f"{MANAGER_KIND}:{manager_id}:{day}"
            messages.append(outbox.Queued(manager, MANAGER_KIND, _manager_message(manager, listed), dedupe))
    return Reminders(day, messages, new)


def record(db: Session, reminders: Reminders) -> int:
    """Queues the messages and records the reminders (expiry_reminder), in `db`'s transaction (the
    caller commits): how many messages. A reminder is recorded whether or not a message could go (a
    person without an e-mail address has the bell, one may have chosen never): announced once ever."""
    queued = outbox.queue_many(db, reminders.messages)
    columns = ("recipient_id", "user_id", "qualification_id", "valid_until", "days_window")
    rows = [{**dict(zip(columns, key, strict=True)), "announced_on": reminders.day} for key in reminders.keys]
    for start in range(0, len(rows), 5000):
        plain(db).execute(insert(ExpiryReminder), rows[start : start + 5000])
    log.info("expiry reminders: %s announced, %s messages queued", len(rows), queued)
    return queued


def remind(db: Session, *, day: date) -> int:
    """The day's expiry reminders, read and queued in `db`'s transaction (the caller commits); how many
    messages."""
    return record(db, plan(db, day=day))


# ---------------------------------------------------------------------------------------------------
# The lease and the day's record


def _take(db: Session, name: str, *, holder: str) -> bool:
    """Takes the scan's lease by a compare-and-set, committed: free, or its holder's time is up."""
    now = utcnow()
    if db.get(ScanLease, name) is None:
        try:
            with db.begin_nested():
                plain(db).execute(insert(ScanLease).values(name=name))
        except IntegrityError:
            pass  # another process made it first
    took = plain(db).execute(
        update(ScanLease)
        .where(
            ScanLease.name == name,
            or_(ScanLease.held_until.is_(None), ScanLease.held_until <= now, ScanLease.holder == holder),
        )
        .values(holder=holder, held_until=now + LEASE)
    )
    db.commit()
    return bool(took.rowcount)  # type: ignore[attr-defined]


def _release(db: Session, name: str, *, holder: str) -> None:
    guard = and_(ScanLease.name == name, ScanLease.holder == holder)
    plain(db).execute(update(ScanLease).where(guard).values(holder=None, held_until=None))
    db.commit()


@dataclass(frozen=True)
class Scan:
    """A scan: `read` (optional) prepares its work from reads, outside the transaction that writes;
    `write` does it in that transaction, which begins by writing the lease (on SQLite, the write lock is
    held for the writes only, not the reads), and returns how many messages it queued."""

    name: str
    write: Callable[[Session, datetime, Any], int]
    read: Callable[[Session, datetime], Any] | None = None


def run_one(session: Callable[[], Session], scan: Scan, *, now: datetime, holder: str = HOLDER) -> int | None:
    """Runs one scan for `now`'s day unless it ran that day: how many messages it queued (0 when it
    had run), None when another process holds its lease (it runs it) or the database was busy."""
    name, day = scan.name, local_day(now)
    with session() as db:
        try:
            if not _take(db, name, holder=holder):
                log.info("scan %s: another process runs it", name)
                return None
        except OperationalError:  # SQLite: another process writes for longer than the busy timeout
            db.rollback()
            log.info("scan %s: the database is busy, another process runs it", name)
            return None
        mine = and_(ScanLease.name == name, ScanLease.holder == holder)
        try:
            last_day = db.scalar(select(ScanLease.last_day).where(ScanLease.name == name))
            done_today = last_day is not None and last_day >= day
            prepared = scan.read(db, now) if scan.read is not None and not done_today else None
            db.commit()  # the reads end (expire_on_commit=False: what they loaded stays readable)
            # The writes' transaction begins by writing the lease (a write lock on SQLite from its start,
            # so that no other writer makes it retry), and proves it is still ours.
            still = plain(db).execute(update(ScanLease).where(mine).values(held_until=utcnow() + LEASE))
            if not still.rowcount:  # type: ignore[attr-defined]
                db.rollback()
                return None
            count = 0
            if not done_today:
                count = scan.write(db, now, prepared)
                log.info("scan %s for %s: %s message(s)", name, day, count)
            finished = {"last_day": day, "last_finished_at": utcnow(), "holder": None, "held_until": None}
            if not plain(db).execute(update(ScanLease).where(mine).values(**finished)).rowcount:  # type: ignore[attr-defined]
                db.rollback()
                return None
            db.commit()
            return count
        except BaseException:
            db.rollback()
            try:
                _release(db, name, holder=holder)
            except Exception:  # its time runs out: another process takes it then
                log.exception("scan %s: its lease could not be released", name)
            raise


def _plan(db: Session, now: datetime) -> Reminders:
    return plan(db, day=local_day(now))


def _record(db: Session, now: datetime, reminders: Reminders) -> int:
    return record(db, reminders)


def _plan_requalification(db: Session, now: datetime) -> list[requalification.Opening]:
    return requalification.plan(db, day=local_day(now))


def _requalify(db: Session, now: datetime, planned: list[requalification.Opening]) -> int:
    return requalification.open_planned(db, planned, day=local_day(now))


def _bell(db: Session, now: datetime, _: None) -> int:
    return bell.scan_due(db, now=now)


def _digests(db: Session, now: datetime, _: None) -> int:
    return digest.send_digests(db, now=now)


def _coverage_plan(db: Session, now: datetime) -> coverage_warnings.Warnings:
    return coverage_warnings.plan(db, day=local_day(now))


def _coverage_record(db: Session, now: datetime, warnings: coverage_warnings.Warnings) -> int:
    return coverage_warnings.record(db, warnings)


SCANS = [Scan("requalify", _requalify, _plan_requalification)]
# What a scan's count counts, when not messages queued (`spot notify` says it).
COUNTED = {"requalify": "opened"}
SCANS += [Scan("expiryReminders", _record, _plan), Scan("coverageWarnings", _coverage_record, _coverage_plan)]
SCANS += [Scan("bellDue", _bell), Scan("digests", _digests)]


def run(
    session: Callable[[], Session] | None = None, *, now: datetime | None = None, holder: str = HOLDER
) -> dict[str, int | None]:
    """The daily scan, once, for `now`'s day (by default, now): each scan that has not run that day
    and whose lease this process takes. Per scan, the messages it queued (None: another process runs
    it). A scan that fails is logged and the next ones run."""
    session = session or session_factory()
    now = now or utcnow()
    done: dict[str, int | None] = {}
    for scan in SCANS:
        try:
            done[scan.name] = run_one(session, scan, now=now, holder=holder)
        except Exception:
            log.exception("scan %s failed", scan.name)
            done[scan.name] = None
    return done


def due_at(day: date) -> datetime:
    """When the scan of `day` is due: SPOT_DAILY_SCAN_AT that day in SPOT_TIMEZONE."""
    settings = get_settings()
    hours, minutes = (int(part) for part in settings.daily_scan_at.split(":"))
    return datetime.combine(day, time(hours, minutes), tzinfo=ZoneInfo(settings.timezone))


def start(every: float = EVERY_S, *, clock: Callable[[], datetime] = utcnow) -> Callable[[], None]:
    """Starts the thread of `spot serve` that runs the daily scan at SPOT_DAILY_SCAN_AT (at once when
    started later in a day whose scan has not run); returns what stops it."""
    stop = threading.Event()

    def loop() -> None:
        finished: date | None = None
        while True:
            now = clock()
            day = local_day(now)
            if finished != day and now >= due_at(day):
                try:
                    if all(count is not None for count in run(now=now).values()):
                        finished = day
                except Exception:  # the next round tries again
                    log.exception("daily scan failed")
            if stop.wait(every):
                return

    thread = threading.Thread(target=loop, name="spot-daily-scan", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(timeout=60)

    return halt
