"""The bell (DESIGN §10): every action awaited from the signed-in user, gathered from the areas.

An area adds a kind with one provider: a function `(db, user=, limit=)` answering its newest alerts of
that kind (at most `limit`, newest first) and how many it has in all, read in SQL (one statement, no
query per alert), and registered here by the area's own module when it is loaded
(`register(AlertKind.x, provider)`), as core.parents registers galleries. `alerts` merges them and
imports no area."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy.orm import Session

from spot.alerts.schemas import Alert, AlertKind, Alerts
from spot.core.principal import Principal

# The bell lists this many; its count is exact.
LIMIT = 50


@dataclass(frozen=True)
class Provided:
    """A provider's newest alerts (at most the limit asked, newest first) and how many it has in all."""

    alerts: list[Alert]
    count: int


class Provider(Protocol):
    def __call__(self, db: Session, *, user: Principal, limit: int) -> tuple[list[Alert], int]:
        """The alerts of one kind (at most `limit`, newest first) and how many there are in all."""
        ...


_PROVIDERS: dict[AlertKind, Provider] = {}


def register(kind: AlertKind, provider: Provider) -> None:
    _PROVIDERS[kind] = provider


def providers() -> list[Provider]:
    """The registered providers in the order of AlertKind, whatever the order the areas were loaded in."""
    return [_PROVIDERS[kind] for kind in AlertKind if kind in _PROVIDERS]


def providers_of(kinds: Iterable[AlertKind]) -> list[Provider]:
    """The registered providers of these kinds (notifications.bell reads only the kinds a change
    concerns)."""
    wanted = set(kinds)
    return [_PROVIDERS[kind] for kind in AlertKind if kind in wanted and kind in _PROVIDERS]


def provided(db: Session, *, user: Principal, limit: int = LIMIT) -> list[Provided]:
    """What each provider answers, in the bell's order (My dashboard groups them by kind)."""
    found = (provider(db, user=user, limit=limit) for provider in providers())
    return [Provided(alerts=alerts, count=count) for alerts, count in found]


def alerts(db: Session, *, user: Principal, limit: int = LIMIT) -> Alerts:
    """The newest `limit` alerts of every provider, newest first, and the count of them all."""
    found = provided(db, user=user, limit=limit)
    newest = sorted((alert for p in found for alert in p.alerts), key=lambda a: a.date, reverse=True)
    return Alerts(alerts=newest[:limit], count=sum(p.count for p in found))
