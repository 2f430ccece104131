"""The daily scan's coverage warnings (docs/notifications.md, docs/qualifications.md "Tomorrow's
coverage"): each manager told by e-mail, once, that a function of their cartographies falls under its
minimum of qualified people within 60 days, as the bell's functionUnderMinimum shows it
(qualifications.coverage_alerts, from qualifications.forecast).

Managers: the active holders of perm_TableauBord. Their cartographies and the functions they see are
the bell's (coverage_alerts.managed, mapping.policy). The forecast of every cartography some manager
has is computed once (it depends on no one's visibility; each manager then keeps the functions they
see). Each (manager, function, day it falls) is recorded in coverage_warning and told once ever: the
next day's scan, a restart or a second process tell nothing new; a function that recovers and falls
again on another day is told again. One message per manager per scan lists their new falls."""

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from sqlalchemy import insert, select
from sqlalchemy.orm import Session, lazyload

from spot.account.service import principal_of
from spot.alerts.schemas import AlertKind
from spot.core import i18n
from spot.core.principal import Principal
from spot.db import plain
from spot.mapping.models import Cartography, Function
from spot.mapping.policy import sees_function
from spot.notifications import outbox
from spot.notifications.compose import compose, link
from spot.notifications.scan_models import CoverageWarning
from spot.permissions.models import GroupPermission
from spot.permissions.names import Permission
from spot.qualifications import coverage_alerts, dashboards
from spot.qualifications.forecast import Forecast
from spot.users.models import User, user_group

log = logging.getLogger("spot.notifications")

KIND = AlertKind.functionUnderMinimum.value
# The client's page of a cartography's qualification dashboard (frontend lib/paths
# cartographyQualificationDashboardPath, the bell's target cartographyQualifications), and the
# manager's dashboard.
CARTOGRAPHY_PAGE = "/dashboards/qualifications/cartography/{cartography_id}"
MANAGER_PAGE = "/dashboards/manager"
# Who sees every function: the forecasts are computed once for everyone, then kept per manager.
_EVERYTHING = Principal(
    id=0, display_name="", permission_names=frozenset(), group_ids=frozenset(), sees_every_cartography=True
)

Key = tuple[int, int, date]


@dataclass(frozen=True)
class Fall:
    forecast: Forecast
    cartography: str

    @property
    def falls_on(self) -> date:
        assert self.forecast.falls_on is not None
        return self.forecast.falls_on


@dataclass(frozen=True)
class Warnings:
    """What the day's coverage scan tells: the messages, and the falls they announce."""

    day: date
    messages: list[outbox.Queued]
    keys: list[Key]


def _managers(db: Session) -> list[int]:
    """The active holders of perm_TableauBord (through one of their groups)."""
    return list(
        plain(db).scalars(
            select(User.id)
            .join(user_group, user_group.c.user_id == User.id)
            .join(GroupPermission, GroupPermission.group_id == user_group.c.group_id)
            .where(GroupPermission.name == str(Permission.TableauBord), User.active.is_(True))
            .distinct()
            .order_by(User.id)
        )
    )


def _seen(db: Session, manager: Principal, function_ids: list[int]) -> set[int]:
    """Of these functions, those the manager sees."""
    return set(
        plain(db).scalars(
            select(Function.id).where(
                Function.id.in_(function_ids), sees_function(manager, Function.id, Function.cartography_id)
            )
        )
    )


def _warned(db: Session, *, day: date) -> set[Key]:
    """The falls already told that are still ahead."""
    w = CoverageWarning
    rows = plain(db).execute(select(w.manager_id, w.function_id, w.falls_on).where(w.falls_on >= day))
    return {(manager_id, function_id, falls_on) for manager_id, function_id, falls_on in rows}


def falls(db: Session, *, day: date) -> dict[int, list[Fall]]:
    """Per manager, the functions of their cartographies they see that fall under their minimum within
    60 days of `day` (the bell's answer, for every manager at once)."""
    managers = _managers(db)
    if not managers:
        return {}
    theirs: dict[int, set[int]] = defaultdict(set)
    for manager_id, cartography_id in plain(db).execute(coverage_alerts.managed(managers)):
        theirs[manager_id].add(cartography_id)
    cartography_ids = sorted({c for found in theirs.values() for c in found})
    if not cartography_ids:
        return {}
    falling = [
        f
        for f in dashboards.forecasts(db, user=_EVERYTHING, cartography_ids=cartography_ids, today=day)
        if f.falls_within(day)
    ]
    if not falling:
        return {}
    names: dict[int, str] = {
        cartography_id: name
        for cartography_id, name in plain(db).execute(
            select(Cartography.id, Cartography.name).where(
                Cartography.id.in_(sorted({f.function.cartography_id for f in falling}))
            )
        )
    }
    found: dict[int, list[Fall]] = {}
    for manager_id in sorted(theirs):
        candidates = [f for f in falling if f.function.cartography_id in theirs[manager_id]]
        if not candidates:
            continue
        seen = _seen(db, principal_of(db, user_id=manager_id), [f.function.id for f in candidates])
        kept = [Fall(f, names[f.function.cartography_id]) for f in candidates if f.function.id in seen]
        if kept:
            found[manager_id] = kept
    return found


def _language(user: User) -> i18n.Language:
    return user.language if user.language in i18n.LANGUAGES else i18n.DEFAULT  # type: ignore[return-value]


def _date(language: i18n.Language, day: date) -> str:
    return day.strftime("%d/%m/%Y") if language == "fr" else day.isoformat()


def _words(language: i18n.Language, fall: Fall) -> dict[str, str | int]:
    f = fall.forecast
    return {
        "name": f.function.name,
        "cartography": fall.cartography,
        "date": _date(language, fall.falls_on),
        "valid": f.falls_to or 0,
        "minimum": f.function.minimum,
    }


def message(manager: User, listed: list[Fall]) -> outbox.Content:
    """One message listing the manager's new falls, soonest first; its subject the bell's sentence
    when there is one."""
    language = _language(manager)
    items: list[tuple[str, str | None]] = [
        (
            i18n.text(language, "mail.coverage_line", **_words(language, fall)),
            link(CARTOGRAPHY_PAGE.format(cartography_id=fall.forecast.function.cartography_id)),
        )
        for fall in listed
    ]
    if len(listed) == 1:
        subject = i18n.text(language, f"mail.bell_{KIND}", **_words(language, listed[0]))
    else:
        subject = i18n.text(language, "mail.coverage_subject", count=len(listed))
    cartographies = {fall.forecast.function.cartography_id for fall in listed}
    page = (
        CARTOGRAPHY_PAGE.format(cartography_id=next(iter(cartographies)))
        if len(cartographies) == 1
        else MANAGER_PAGE
    )
    return compose(
        language,
        name=f"{manager.first_name} {manager.last_name}".strip(),
        subject=subject,
        paragraphs=[i18n.text(language, "mail.coverage_body"), i18n.text(language, "mail.coverage_renew")],
        path=page,
        items=items,
    )


def plan(db: Session, *, day: date) -> Warnings:
    """The day's falls not told yet, their messages written: reads only."""
    found = falls(db, day=day)
    if not found:
        return Warnings(day, [], [])
    warned = _warned(db, day=day)
    keys: list[Key] = []
    new: dict[int, list[Fall]] = {}
    for manager_id, listed in found.items():
        for fall in listed:
            key = (manager_id, fall.forecast.function.id, fall.falls_on)
            if key not in warned:
                keys.append(key)
                new.setdefault(manager_id, []).append(fall)
    people = {
        user.id: user
        for user in db.scalars(select(User).options(lazyload("*")).where(User.id.in_(sorted(new))))
    }
    messages = []
    for manager_id, listed in new.items():
        listed.sort(key=lambda fall: (fall.falls_on, fall.cartography, fall.forecast.function.name))
        manager = people[manager_id]
        dedupe = f"{KIND}:{manager_id}:{day}"
        messages.append(outbox.Queued(manager, KIND, message(manager, listed), dedupe))
    return Warnings(day, messages, keys)


def record(db: Session, warnings: Warnings) -> int:
    """Queues the messages and records the falls told (coverage_warning), in `db`'s transaction (the
    caller commits): how many messages. A fall is recorded whether or not its message could go (no
    address, a manager who chose never): told once ever."""
    queued = outbox.queue_many(db, warnings.messages)
    rows = [
        {"manager_id": m, "function_id": f, "falls_on": falls_on, "warned_on": warnings.day}
        for m, f, falls_on in warnings.keys
    ]
    if rows:
        plain(db).execute(insert(CoverageWarning), rows)
    log.info("coverage warnings: %s falls told, %s messages queued", len(rows), queued)
    return queued


def warn(db: Session, *, day: date) -> int:
    """The day's coverage warnings, read and queued in `db`'s transaction (the caller commits)."""
    return record(db, plan(db, day=day))
