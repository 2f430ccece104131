"""Who may do what with a mediation (spec 1 §6): pure functions of the
signed-in Principal and the mediation's facts (service.facts reads them), and `can` built from them.

Roles: creator, mediator, participant. Reading: those three, the persons it is visible to and the
members of the groups it is visible to."""

from dataclasses import dataclass
from typing import Literal

from spot.core.principal import Principal
from spot.mediations.models import MediationStatus as S
from spot.mediations.schemas import FieldsCan, MediationCan

# The fields of the form, by their JSON names (MediationSave), in the order errors name them.
FIELDS = (
    "title",
    "description",
    "schedulingDate",
    "mediator",
    "participants",
    "visibleByGroups",
    "visibleByPersons",
)
_VISIBILITY = frozenset({"visibleByGroups", "visibleByPersons"})
# Per status: (fields the creator may change, fields the mediator may change).
_EDITABLE: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    S.created: (frozenset(FIELDS), frozenset({"title", "description"})),
    S.started: (_VISIBILITY, frozenset({"title", "description", "participants"})),
    S.paused: (_VISIBILITY, frozenset({"title", "description", "participants"})),
    S.stopped: (_VISIBILITY, frozenset({"title", "description", "participants"})),
    S.validated: (_VISIBILITY, frozenset()),
    S.archived: (_VISIBILITY, frozenset()),
    S.canceled: (frozenset(), frozenset()),
}


@dataclass(frozen=True)
class Facts:
    """What the rules look at of one mediation."""

    status: str
    creator_id: int | None
    mediator_id: int | None
    participant_ids: frozenset[int]
    visible_person_ids: frozenset[int]
    visible_group_ids: frozenset[int]
    has_report: bool
    # Participants with a signature that is not revoked.
    live_signer_ids: frozenset[int]


def is_creator(user: Principal, m: Facts) -> bool:
    return m.creator_id is not None and m.creator_id == user.id


def is_mediator(user: Principal, m: Facts) -> bool:
    return m.mediator_id is not None and m.mediator_id == user.id


def is_participant(user: Principal, m: Facts) -> bool:
    return user.id in m.participant_ids


def can_edit(user: Principal, m: Facts) -> bool:
    if m.status == S.canceled:
        return False
    return is_creator(user, m) or (is_mediator(user, m) and m.status not in (S.validated, S.archived))


def editable_fields(user: Principal, m: Facts) -> frozenset[str]:
    """The form's fields (JSON names) the user may change in this status."""
    by_creator, by_mediator = _EDITABLE.get(m.status, (frozenset(), frozenset()))
    fields: frozenset[str] = frozenset()
    if is_creator(user, m):
        fields |= by_creator
    if is_mediator(user, m):
        fields |= by_mediator
    return fields


def can_start(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status == S.created


def can_pause(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status == S.started


def can_resume(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status == S.paused


def can_stop(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status in (S.started, S.paused)


def can_edit_report(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status == S.stopped and bool(m.participant_ids)


def report_needs(user: Principal, m: Facts) -> list[Literal["participants"]]:
    """What keeps the mediator from writing the report once the mediation stops, while it may still be
    given: a mediation started at once ('Create and start') has no participant yet."""
    if is_mediator(user, m) and m.status in (S.started, S.paused, S.stopped) and not m.participant_ids:
        return ["participants"]
    return []


def can_validate(user: Principal, m: Facts) -> bool:
    return can_edit_report(user, m) and m.has_report


def can_invalidate(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status == S.validated


def can_sign(user: Principal, m: Facts) -> bool:
    return m.status == S.validated and is_participant(user, m) and user.id not in m.live_signer_ids


def can_cancel(user: Principal, m: Facts) -> bool:
    if m.status == S.canceled:
        return False
    return (is_creator(user, m) and m.status == S.created) or (
        is_mediator(user, m) and m.status != S.archived
    )


def can(user: Principal, m: Facts) -> MediationCan:
    fields = editable_fields(user, m) if can_edit(user, m) else frozenset()
    return MediationCan(
        edit=can_edit(user, m),
        start=can_start(user, m),
        pause=can_pause(user, m),
        resume=can_resume(user, m),
        stop=can_stop(user, m),
        edit_report=can_edit_report(user, m),
        validate=can_validate(user, m),
        invalidate=can_invalidate(user, m),
        sign=can_sign(user, m),
        cancel=can_cancel(user, m),
        report_needs=report_needs(user, m),
        fields=FieldsCan(
            title="title" in fields,
            description="description" in fields,
            scheduling_date="schedulingDate" in fields,
            mediator="mediator" in fields,
            participants="participants" in fields,
            visible_by_groups="visibleByGroups" in fields,
            visible_by_persons="visibleByPersons" in fields,
        ),
    )
