"""Who is qualified for a function of a cartography (docs/qualifications.md, "The functions a
qualification opens"): the rule, written once, that the cartography's qualification dashboard, the
Dashboard manager, the skills matrix and the coverage forecast read.

A qualification Q **covers** a function F of a cartography C when Q names C and

- Q names F among the functions it opens (`qualification_function`), or
- Q names no function of its cartographies, and one of Q's modules has a spot element on F or on a
  subject of F (the rule from before functions could be named; a qualification naming some functions
  covers those only).

The people **qualified** for F are the people concerned by a covering Q (the members of its qualifiable
groups) whose hold on Q is 0 days or more, each once, by their best Q (the longest hold). The **level**
of F: `none` (nobody), `single` (exactly one person: no backup), `covered` (two or more); and F is
**under its minimum** when fewer people than `function.minimum_qualified` are qualified (0: never).

The holds themselves come from the caller (qualifications.dashboards builds them from module_hold for
the people concerned): this module states which qualifications count for which function and how a
person's holds on them make one answer. The minimum is changed here too (`set_minimum`)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import Select, and_, exists, select, union
from sqlalchemy.orm import Session, aliased

from spot.core.errors import bad_request, ensure
from spot.core.principal import Principal
from spot.db import plain
from spot.mapping import service as mapping
from spot.mapping.models import Function, Subject
from spot.mapping.policy import sees_function
from spot.qualifications import policy, validity
from spot.qualifications.models import QualificationCartography, QualificationFunction, QualificationModule
from spot.qualifications.validity import ModuleValidity
from spot.training.modules.models import ItemKind, SpotItemType, TrainingModuleItem

# A function's minimum of qualified people: the default (fewer than three is "at risk" on a matrice de
# polyvalence) and the range an administrator may give.
DEFAULT_MINIMUM = 3
MINIMUM_RANGE = (0, 1000)
LEVELS = ("none", "single", "covered")
LEVEL_ORDER = {name: rank for rank, name in enumerate(LEVELS)}

# (user id, name, hold): a person concerned by a qualification and their hold on it.
Row = tuple[int, str, ModuleValidity]
# Per qualification, every person it concerns with their hold on it.
Holds = dict[int, list[Row]]


class Best(NamedTuple):
    """A person's best hold among the qualifications that cover a function, and which one it is (a
    tuple: a matrix makes tens of thousands)."""

    hold: ModuleValidity
    qualification_id: int
    name: str


def covering(db: Session, cartography_ids: Sequence[int]) -> dict[int, set[int]]:
    """Per function of the cartographies, the qualifications covering it (the rule above); functions
    that none covers are absent."""
    QC, QF, QM, item = (
        QualificationCartography,
        QualificationFunction,
        QualificationModule,
        TrainingModuleItem,
    )
    in_cartographies = QC.cartography_id.in_(cartography_ids)
    named = (
        select(QC.qualification_id, QF.function_id)
        .join(QF, QF.qualification_id == QC.qualification_id)
        .join(Function, and_(Function.id == QF.function_id, Function.cartography_id == QC.cartography_id))
        .where(in_cartographies)
    )
    # Names no function of its cartographies (a function of a cartography it no longer names opens
    # nothing and leaves the rule of its modules on).
    QC2, named_function = aliased(QualificationCartography), aliased(Function)
    names_none = ~exists().where(
        QF.qualification_id == QC.qualification_id,
        named_function.id == QF.function_id,
        QC2.qualification_id == QF.qualification_id,
        QC2.cartography_id == named_function.cartography_id,
    )
    spot = (in_cartographies, names_none, item.kind == ItemKind.spot.value)
    on_function = (
        select(QC.qualification_id, Function.id)
        .join(QM, QM.qualification_id == QC.qualification_id)
        .join(item, item.module_id == QM.module_id)
        .join(Function, and_(Function.id == item.spot_item_id, Function.cartography_id == QC.cartography_id))
        .where(*spot, item.spot_item_type == SpotItemType.function.value)
    )
    on_subject = (
        select(QC.qualification_id, Subject.function_id)
        .join(QM, QM.qualification_id == QC.qualification_id)
        .join(item, item.module_id == QM.module_id)
        .join(Subject, and_(Subject.id == item.spot_item_id, Subject.cartography_id == QC.cartography_id))
        .where(*spot, item.spot_item_type == SpotItemType.subject.value)
    )
    found: dict[int, set[int]] = {}
    for qualification_id, function_id in plain(db).execute(union(named, on_function, on_subject)):
        found.setdefault(function_id, set()).add(qualification_id)
    return found


def covering_ids(found: dict[int, set[int]]) -> list[int]:
    """Every qualification that covers one of the functions, by id."""
    return sorted({q for qs in found.values() for q in qs})


# A hold's rank as one number (compared tens of thousands of times in a matrix): valid holds above
# those being requalified, above the others; within each, by remaining days (-10000 to 10000).
_VALID_RANK, _REQUALIFYING_RANK = 40_000, 20_000


def _rank(hold: ModuleValidity) -> int:
    """Which of two holds is better: a valid one (0 days or more), the longer first; else one being
    requalified (a path in progress), then the later expiry."""
    days = hold.remaining_days
    if days >= 0:
        return days + _VALID_RANK
    if hold.requalification_path_id is not None:
        return days + _REQUALIFYING_RANK
    return days


def _best(qualifications: Iterable[int], holds: Holds) -> tuple[dict[int, ModuleValidity], dict[int, int]]:
    """Each person's best hold among `qualifications` and which qualification it is (ties: the smallest
    id)."""
    ordered = sorted(qualifications)
    if len(ordered) == 1:
        q = ordered[0]
        found = {u: hold for u, _name, hold in holds.get(q, ())}
        return found, dict.fromkeys(found, q)
    hold_of: dict[int, ModuleValidity] = {}
    rank_of: dict[int, int] = {}
    from_q: dict[int, int] = {}
    for q in ordered:
        for u, _name, hold in holds.get(q, ()):
            rank = _rank(hold)
            if rank > rank_of.get(u, -_VALID_RANK):
                hold_of[u], rank_of[u], from_q[u] = hold, rank, q
    return hold_of, from_q


def best_holds(qualifications: Iterable[int], holds: Holds) -> dict[int, ModuleValidity]:
    """Every person concerned by one of `qualifications`, with their best hold among them: `best`
    without the qualification and the name (the skills matrix asks it for each of its columns)."""
    return _best(qualifications, holds)[0]


def best(qualifications: Iterable[int], holds: Holds) -> dict[int, Best]:
    """Every person concerned by one of `qualifications`, with their best hold among them (ties: the
    smallest qualification id)."""
    hold_of, from_q = _best(qualifications, holds)
    names = {u: name for q in set(from_q.values()) for u, name, _hold in holds.get(q, ())}
    return {u: Best(hold, from_q[u], names[u]) for u, hold in hold_of.items()}


def holders(found: dict[int, set[int]], holds: Holds) -> Holds:
    """Each covering qualification's holders (valid today at least), found once for all the functions."""
    return {
        q: [h for h in holds.get(q, ()) if validity.obtained(h[2].remaining_days)]
        for q in covering_ids(found)
    }


def qualified(qualifications: Iterable[int], valid_holds: Holds) -> dict[int, Best]:
    """The people qualified for a function covered by `qualifications`, each once by their best hold,
    from `holders`' answer (only valid holds)."""
    return best(qualifications, valid_holds)


def level(count: int) -> str:
    """none (nobody), single (exactly one person: no backup), covered (two or more)."""
    return LEVELS[min(count, 2)]


def under_minimum(count: int, minimum: int) -> bool:
    return count < minimum


@dataclass(frozen=True)
class SeenFunction:
    id: int
    name: str
    code: str
    cartography_id: int
    minimum: int


def seen_functions(db: Session, user: Principal, cartography_ids: Sequence[int]) -> list[SeenFunction]:
    """The functions of the cartographies that the user sees, in the cartographies' order of functions."""
    return [SeenFunction(*row) for row in plain(db).execute(_seen(user, cartography_ids))]


def _seen(user: Principal, cartography_ids: Sequence[int]) -> Select[int, str, str, int, int]:
    return (
        select(Function.id, Function.name, Function.code, Function.cartography_id, Function.minimum_qualified)
        .where(
            Function.cartography_id.in_(cartography_ids),
            sees_function(user, Function.id, Function.cartography_id),
        )
        .order_by(Function.cartography_id, Function.ordering, Function.id)
    )


# The minimum ---------------------------------------------------------------------------------------------


def set_minimum(db: Session, *, user: Principal, function_id: int, minimum: int) -> Function:
    """Gives the function its minimum of qualified people. 403 without perm_QualificationAdmin; 404
    functionNotFound, 403 when hidden from the user (mapping.policy); 400 valueMustBeBetween outside
    0..1000."""
    ensure(policy.can_edit_minimum(user))
    function = mapping.get_function(db, user=user, function_id=function_id)
    low, high = MINIMUM_RANGE
    if not low <= minimum <= high:
        raise bad_request("valueMustBeBetween", field="minimum")
    function.minimum_qualified = minimum
    db.flush()
    return function
