"""Tomorrow's coverage (docs/qualifications.md, "Tomorrow's coverage"): for each function of a
cartography, how many people are qualified for it today and at +30, +60 and +90 days, against its
minimum.

Who is qualified is qualifications.coverage's rule (the qualifications covering the function, each
person by their holds on them), applied to the days ahead: a person qualified today still counts on a
day D when one of their valid holds on a covering qualification lasts until D at least (its last valid
day is D or later, or it is permanent). Of the people qualified today who no longer are on D, those
**being requalified** have a requalification path not graded yet on one of those holds (its limiting
module's, module_hold.requalification_path_id): they may be back by then, but are not counted.

A day is **under the minimum** when fewer people than the function's minimum are valid on it (a
minimum of 0: never). A function **falls** on the first day within the forecast (90 days) on which it is
under its minimum while it is not today; managers are warned of a fall within 60 days
(notifications.coverage: the bell and an e-mail). Its **outlook**, what the plan colours:
`nobody` (a minimum above 0 and nobody qualified today), `under` (under its minimum today), `falling`
(not today, but within the 90 days), `enough` (not within the 90 days).

This module computes from what the caller has read (the functions, the covering qualifications, the
holds: qualifications.dashboards.forecasts reads them), and reads nothing itself."""

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from spot.qualifications import coverage, validity
from spot.qualifications.forecast_schemas import Outlook
from spot.querylang.text import fold

# The days ahead the forecast counts, today first.
HORIZONS = (0, 30, 60, 90)
# Managers are warned of a fall within this many days.
WARN_DAYS = 60


OUTLOOK_ORDER = {outlook: rank for rank, outlook in enumerate(Outlook)}


@dataclass(frozen=True)
class Point:
    """One day of the forecast: `days` after today."""

    days: int
    day: date
    valid: int
    # Of the people qualified today and no longer on that day, those with a requalification path in
    # progress (not counted in `valid`).
    requalifying: int
    under_minimum: bool


@dataclass(frozen=True)
class Forecast:
    function: coverage.SeenFunction
    points: tuple[Point, ...]
    # The first day within the forecast on which the function is under its minimum, when it is not
    # today; None otherwise.
    falls_on: date | None
    # How many are valid on that day (fewer than the minimum); None when it does not fall.
    falls_to: int | None
    outlook: Outlook

    def falls_within(self, today: date, days: int = WARN_DAYS) -> bool:
        """Whether it falls under its minimum within `days` days of today."""
        return self.falls_on is not None and self.falls_on <= today + timedelta(days=days)


# Per qualification, its holders valid today: (user id, last valid day, being requalified), the last
# day date.max for a permanent hold. Read once from the holds, then merged per function.
_Valid = dict[int, list[tuple[int, date, bool]]]


def _valid(qualifications: Iterable[int], holds: coverage.Holds) -> _Valid:
    found: _Valid = {}
    for q in qualifications:
        found[q] = [
            (
                user_id,
                date.max if hold.valid_until is None else hold.valid_until,
                hold.requalification_path_id is not None,
            )
            for user_id, _name, hold in holds.get(q, ())
            if validity.obtained(hold.remaining_days)
        ]
    return found


def _people(qualifications: Iterable[int], valid: _Valid) -> tuple[list[date], list[date]]:
    """The people qualified today for a function covered by `qualifications`, each once: their last
    qualified days (the latest of their valid holds), in order; and those of the people one of whose
    holds is being requalified, in order."""
    last: dict[int, date] = {}
    requalifying: set[int] = set()
    for q in qualifications:
        for user_id, until, in_progress in valid[q]:
            current = last.get(user_id)
            if current is None or until > current:
                last[user_id] = until
            if in_progress:
                requalifying.add(user_id)
    return sorted(last.values()), sorted(last[u] for u in requalifying)


def _falls_on(lasts: list[date], minimum: int, horizon: date) -> date | None:
    """The first day up to `horizon` on which fewer than `minimum` people are valid, when enough are
    today: with n people valid today and their last days in order l1 ≤ … ≤ ln, fewer than m are valid
    on D once D is after l(n-m+1)."""
    count = len(lasts)
    if minimum == 0 or count < minimum:
        return None
    last = lasts[count - minimum]
    if last >= horizon:
        return None
    return last + timedelta(days=1)


def _forecast(
    function: coverage.SeenFunction, qualifications: Iterable[int], valid: _Valid, today: date
) -> Forecast:
    lasts, requalified = _people(qualifications, valid)
    count = len(lasts)
    points = []
    for days in HORIZONS:
        day = today + timedelta(days=days)
        # Valid on `day`: a last day on it or later; dropped out, being requalified: a last day before it.
        still = count - bisect_left(lasts, day)
        points.append(
            Point(
                days,
                day,
                still,
                bisect_left(requalified, day),
                coverage.under_minimum(still, function.minimum),
            )
        )
    falls_on = _falls_on(lasts, function.minimum, today + timedelta(days=HORIZONS[-1]))
    falls_to = None if falls_on is None else count - bisect_left(lasts, falls_on)
    if points[0].under_minimum:
        outlook = Outlook.nobody if points[0].valid == 0 else Outlook.under
    else:
        outlook = Outlook.falling if falls_on is not None else Outlook.enough
    return Forecast(function, tuple(points), falls_on, falls_to, outlook)


def of_function(
    function: coverage.SeenFunction, qualifications: Iterable[int], holds: coverage.Holds, today: date
) -> Forecast:
    """The forecast of one function covered by `qualifications`, from the holds on them."""
    qualifications = list(qualifications)
    return _forecast(function, qualifications, _valid(qualifications, holds), today)


def forecast(
    functions: Sequence[coverage.SeenFunction],
    covering: dict[int, set[int]],
    holds: coverage.Holds,
    today: date,
) -> list[Forecast]:
    """The forecast of each of `functions` (coverage.seen_functions), from the qualifications covering
    them (coverage.covering) and the holds on those (per qualification, every person it concerns):
    the gaps first (nobody, under, falling, enough), the soonest fall first, then by name."""
    valid = _valid(coverage.covering_ids(covering), holds)
    found = [_forecast(f, sorted(covering.get(f.id, ())), valid, today) for f in functions]
    found.sort(key=_order)
    return found


def _order(f: Forecast) -> tuple[int, date, str, int]:
    return (OUTLOOK_ORDER[f.outlook], f.falls_on or date.max, fold(f.function.name), f.function.id)


def as_json(f: Forecast) -> dict[str, Any]:
    """The forecast as the API answers it (forecast_schemas.FunctionForecast)."""
    return {
        "function": {"id": f.function.id, "name": f.function.name},
        "cartographyId": f.function.cartography_id,
        "minimum": f.function.minimum,
        "outlook": f.outlook.value,
        "fallsOn": f.falls_on,
        "points": [
            {
                "days": p.days,
                "date": p.day,
                "valid": p.valid,
                "requalifying": p.requalifying,
                "underMinimum": p.under_minimum,
            }
            for p in f.points
        ],
    }
