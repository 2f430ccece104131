"""The bell's coverage kind (docs/qualifications.md, "Tomorrow's coverage"): functionUnderMinimum, for
perm_TableauBord holders, each function of their cartographies that falls under its minimum of
qualified people within 60 days (qualifications.forecast).

A manager's cartographies: those named by a qualification that one of the manager's groups is
qualifiable for (the teams they are in, as the team expiry kind), among those they see; of each, the
functions they see. The alert names the function, its cartography, the day it falls, how many are
still qualified that day and its minimum; it is dated at midnight 60 days before the fall (when it
came within the warning) and leads to the cartography's qualification dashboard. The daily scan
e-mails each fall once (notifications.coverage), from the same answer."""

from collections.abc import Collection
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.principal import Principal
from spot.core import time as clock
from spot.core.time import midnight
from spot.db import plain
from spot.mapping.models import Cartography
from spot.mapping.policy import sees_cartography
from spot.qualifications import dashboards, policy
from spot.qualifications.forecast import WARN_DAYS, Forecast
from spot.qualifications.models import QualificationCartography, QualificationGroup
from spot.users.models import user_group

QC, QG = QualificationCartography, QualificationGroup


def managed(user_ids: Collection[int]) -> Any:
    """(manager id, cartography id) of each cartography named by a qualification one of the manager's
    groups is qualifiable for: the managers' cartographies before their visibility."""
    return (
        select(user_group.c.user_id, QC.cartography_id)
        .join(QG, QG.group_id == user_group.c.group_id)
        .join(QC, QC.qualification_id == QG.qualification_id)
        .where(user_group.c.user_id.in_(sorted(user_ids)))
        .distinct()
    )


def cartographies(db: Session, *, user: Principal) -> dict[int, str]:
    """The user's cartographies (see the module), those they see, with their names."""
    mine = select(managed([user.id]).subquery().c.cartography_id)
    return {
        cartography_id: name
        for cartography_id, name in plain(db).execute(
            select(Cartography.id, Cartography.name).where(
                Cartography.id.in_(mine), sees_cartography(user, Cartography.id)
            )
        )
    }


def falling(db: Session, *, user: Principal, day: date) -> tuple[list[Forecast], dict[int, str]]:
    """The functions of the user's cartographies, those they see, that fall under their minimum within
    WARN_DAYS days of `day`, with the names of those cartographies; none without perm_TableauBord."""
    if not policy.can_see_dashboards(user):
        return [], {}
    names = cartographies(db, user=user)
    if not names:
        return [], {}
    found = dashboards.forecasts(db, user=user, cartography_ids=sorted(names), today=day)
    return [f for f in found if f.falls_within(day)], names


def args(f: Forecast, cartography: str, day: date) -> dict[str, str | int]:
    """The alert's words: the function and its cartography, the day it falls and in how many days,
    how many are still qualified that day, its minimum."""
    assert f.falls_on is not None and f.falls_to is not None
    return {
        "name": f.function.name,
        "cartography": cartography,
        "fallsOn": f.falls_on.isoformat(),
        "days": (f.falls_on - day).days,
        "valid": f.falls_to,
        "minimum": f.function.minimum,
    }


def alert(f: Forecast, cartography: str, day: date) -> Alert:
    assert f.falls_on is not None
    return Alert(
        kind=AlertKind.functionUnderMinimum,
        args=args(f, cartography, day),
        date=midnight(f.falls_on - timedelta(days=WARN_DAYS)),
        target=AlertTarget(type="cartographyQualifications", id=f.function.cartography_id),
    )


def provider(db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
    day = clock.today()
    found, names = falling(db, user=user, day=day)
    alerts = [alert(f, names[f.function.cartography_id], day) for f in found]
    alerts.sort(key=lambda a: (a.date, a.target.id, str(a.args["name"])), reverse=True)
    return alerts[:limit], len(alerts)


bell.register(AlertKind.functionUnderMinimum, provider)
