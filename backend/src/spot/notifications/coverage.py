"""Managers told that a function falls under its minimum of qualified people within 60 days
(docs/qualifications.md "Tomorrow's coverage", docs/notifications.md): the daily scan's coverageWarnings
step, which e-mails each fall once, and the bell's functionUnderMinimum, which shows the falls it found.

Managers: the active holders of perm_TableauBord. Their cartographies: every cartography they see (map
visibility), as the Dashboard manager lists them; of each, the functions they see. The forecast
(qualifications.forecast, through qualifications.dashboards.forecasts) of every cartography that a
qualification names is computed once per scan, for everyone, and each manager keeps the functions they
see that fall within 60 days.

Each (manager, function, day it falls) is recorded in coverage_warning and e-mailed once ever: the next
day's scan, a restart or a second process tell nothing new; a fall moved to another day (people renewed
or expiring) is a new one. Each scan updates the figures of the falls still found (qualified that day,
minimum) and marks as resolved those no longer found (the function recovered, its minimum changed, the
manager no longer sees it), clearing the mark of one found again, without telling it again. One message
per manager per scan lists their new falls.

The bell reads those records, not the forecast: a forecast weighs the holds of everyone the
cartographies' qualifications concern, too much for a call every page makes; what it shows is therefore
as of the day's scan (a renewal during the day shows from the next scan), checked against what the
manager sees now."""

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import insert, select, tuple_, update
from sqlalchemy.orm import Session, lazyload

from spot.account.service import principal_of
from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core import i18n
from spot.core import time as clock
from spot.core.principal import Principal
from spot.core.time import midnight
from spot.db import plain
from spot.mapping.models import Cartography, Function
from spot.mapping.policy import sees_function
from spot.notifications import outbox
from spot.notifications.compose import compose, link
from spot.notifications.scan_models import CoverageWarning
from spot.permissions.names import Permission
from spot.qualifications import dashboards, policy
from spot.qualifications.forecast import Forecast
from spot.qualifications.models import QualificationCartography
from spot.users import service as users
from spot.users.models import User

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

# (manager id, function id, day it falls)
Key = tuple[int, int, date]


@dataclass(frozen=True)
class Fall:
    forecast: Forecast
    cartography: str

    @property
    def falls_on(self) -> date:
        assert self.forecast.falls_on is not None
        return self.forecast.falls_on

    @property
    def valid(self) -> int:
        return self.forecast.falls_to or 0


@dataclass(frozen=True)
class Warnings:
    """What the day's coverage scan writes: the messages of the new falls, the new falls, the figures of
    the falls found again, and the falls no longer found."""

    day: date
    messages: list[outbox.Queued] = field(default_factory=list)
    new: list[dict[str, Any]] = field(default_factory=list)
    again: list[dict[str, Any]] = field(default_factory=list)
    resolved: list[Key] = field(default_factory=list)


def _managers(db: Session) -> list[int]:
    """The active holders of perm_TableauBord (through one of their groups)."""
    return users.holders(db, Permission.TableauBord)


def _seen(db: Session, manager: Principal, function_ids: list[int]) -> set[int]:
    """Of these functions, those the manager sees."""
    return set(
        plain(db).scalars(
            select(Function.id).where(
                Function.id.in_(function_ids), sees_function(manager, Function.id, Function.cartography_id)
            )
        )
    )


def falls(db: Session, *, day: date) -> dict[int, list[Fall]]:
    """Per manager, the functions they see that fall under their minimum within 60 days of `day`."""
    managers = _managers(db)
    if not managers:
        return {}
    named = sorted(plain(db).scalars(select(QualificationCartography.cartography_id).distinct()))
    falling = [
        f
        for f in dashboards.forecasts(db, user=_EVERYTHING, cartography_ids=named, today=day)
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
    function_ids = [f.function.id for f in falling]
    found: dict[int, list[Fall]] = {}
    for manager_id in managers:
        seen = _seen(db, principal_of(db, user_id=manager_id), function_ids)
        kept = [Fall(f, names[f.function.cartography_id]) for f in falling if f.function.id in seen]
        if kept:
            found[manager_id] = kept
    return found


def _recorded(db: Session, *, day: date) -> dict[Key, date | None]:
    """The falls recorded that are still ahead, with the day each was marked resolved."""
    w = CoverageWarning
    rows = plain(db).execute(
        select(w.manager_id, w.function_id, w.falls_on, w.resolved_on).where(w.falls_on >= day)
    )
    return {
        (manager_id, function_id, falls_on): resolved for manager_id, function_id, falls_on, resolved in rows
    }


def _language(user: User) -> i18n.Language:
    return user.language if user.language in i18n.LANGUAGES else i18n.DEFAULT  # type: ignore[return-value]


def _date(language: i18n.Language, day: date) -> str:
    return day.strftime("%d/%m/%Y") if language == "fr" else day.isoformat()


def _words(language: i18n.Language, fall: Fall) -> dict[str, str | int]:
    return {
        "name": fall.forecast.function.name,
        "cartography": fall.cartography,
        "date": _date(language, fall.falls_on),
        "valid": fall.valid,
        "minimum": fall.forecast.function.minimum,
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
    """The day's falls compared with those recorded, the messages of the new ones written: reads only."""
    found = falls(db, day=day)
    recorded = _recorded(db, day=day)
    warnings = Warnings(day)
    new: dict[int, list[Fall]] = {}
    current: set[Key] = set()
    for manager_id, listed in found.items():
        for fall in listed:
            key = (manager_id, fall.forecast.function.id, fall.falls_on)
            current.add(key)
            figures = {"valid": fall.valid, "minimum": fall.forecast.function.minimum}
            row = {"manager_id": key[0], "function_id": key[1], "falls_on": key[2], **figures}
            if key in recorded:
                warnings.again.append(row)
            else:
                warnings.new.append({**row, "warned_on": day})
                new.setdefault(manager_id, []).append(fall)
    warnings.resolved.extend(k for k, resolved in recorded.items() if resolved is None and k not in current)
    people = {
        user.id: user
        for user in db.scalars(select(User).options(lazyload("*")).where(User.id.in_(sorted(new))))
    }
    for manager_id, listed in new.items():
        listed.sort(key=lambda fall: (fall.falls_on, fall.cartography, fall.forecast.function.name))
        manager = people[manager_id]
        dedupe = f"{KIND}:{manager_id}:{day}"
        warnings.messages.append(outbox.Queued(manager, KIND, message(manager, listed), dedupe))
    return warnings


def _key_is(keys: Iterable[Key]) -> Any:
    w = CoverageWarning
    return tuple_(w.manager_id, w.function_id, w.falls_on).in_(list(keys))


def record(db: Session, warnings: Warnings) -> int:
    """Queues the messages and writes the falls (coverage_warning), in `db`'s transaction (the caller
    commits): how many messages. A fall is recorded whether or not its message could go (no address, a
    manager who chose never): told once ever."""
    w = CoverageWarning
    queued = outbox.queue_many(db, warnings.messages)
    if warnings.new:
        plain(db).execute(insert(w), warnings.new)
    for row in warnings.again:
        plain(db).execute(
            update(w)
            .where(
                w.manager_id == row["manager_id"],
                w.function_id == row["function_id"],
                w.falls_on == row["falls_on"],
            )
            .values(valid=row["valid"], minimum=row["minimum"], resolved_on=None)
        )
    if warnings.resolved:
        plain(db).execute(
            update(w)
            .where(_key_is(warnings.resolved), w.resolved_on.is_(None))
            .values(resolved_on=warnings.day)
        )
    log.info(
        "coverage warnings: %s new, %s found again, %s resolved, %s messages queued",
        len(warnings.new),
        len(warnings.again),
        len(warnings.resolved),
        queued,
    )
    return queued


def warn(db: Session, *, day: date) -> int:
    """The day's coverage warnings, read and written in `db`'s transaction (the caller commits)."""
    return record(db, plan(db, day=day))


# The bell ---------------------------------------------------------------------------------------------


def alerts(db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
    """functionUnderMinimum: the user's falls recorded by the scan, still ahead and not resolved, of the
    functions they see now; each dated by the day it was found, leading to the cartography's
    qualification dashboard. Nothing without perm_TableauBord."""
    if not policy.can_see_dashboards(user):
        return [], 0
    day = clock.today()
    w = CoverageWarning
    rows = (
        plain(db)
        .execute(
            select(
                w.function_id,
                w.falls_on,
                w.valid,
                w.minimum,
                w.warned_on,
                Function.name,
                Cartography.id,
                Cartography.name,
            )
            .join(Function, Function.id == w.function_id)
            .join(Cartography, Cartography.id == Function.cartography_id)
            .where(
                w.manager_id == user.id,
                w.resolved_on.is_(None),
                w.falls_on >= day,
                sees_function(user, Function.id, Function.cartography_id),
            )
            .order_by(w.warned_on.desc(), w.falls_on, w.function_id)
        )
        .all()
    )
    found = [
        Alert(
            kind=AlertKind.functionUnderMinimum,
            args={
                "name": name,
                "cartography": cartography_name,
                "fallsOn": falls_on.isoformat(),
                "days": (falls_on - day).days,
                "valid": valid,
                "minimum": minimum,
            },
            date=midnight(warned_on),
            target=AlertTarget(type="cartographyQualifications", id=cartography_id),
        )
        for _function_id, falls_on, valid, minimum, warned_on, name, cartography_id, cartography_name in rows
    ]
    return found[:limit], len(found)


bell.register(AlertKind.functionUnderMinimum, alerts)
