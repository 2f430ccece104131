"""Who may do what with a mediation (spec 1 §6): pure functions of the
signed-in Principal and the mediation's facts (service.facts reads them), and `can` built from them.

Roles: creator, mediator, participant. Reading: those three, the persons it is visible to and the
members of the groups it is visible to. The status transitions are one table (TRANSITIONS, on
core.transitions), whose `can` answers come from the same table."""

from dataclasses import dataclass
from typing import Literal

from spot.core.principal import Principal
from spot.core.transitions import Machine, Transition
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


def can_edit_report(user: Principal, m: Facts) -> bool:
    return is_mediator(user, m) and m.status == S.stopped and bool(m.participant_ids)


def report_needs(user: Principal, m: Facts) -> list[Literal["participants"]]:
    """What keeps the mediator from writing the report once the mediation stops, while it may still be
    given: a mediation started at once ('Create and start') has no participant yet."""
    if is_mediator(user, m) and m.status in (S.started, S.paused, S.stopped) and not m.participant_ids:
        return ["participants"]
    return []


def can_sign(user: Principal, m: Facts) -> bool:
    return m.status == S.validated and is_participant(user, m) and user.id not in m.live_signer_ids


# The statuses in which the mediation has its attendance sheet: validated, and archived after that.
ATTENDANCE_SHEET_STATUSES = frozenset({S.validated, S.archived})


def can_get_attendance_sheet(_user: Principal, m: Facts) -> bool:
    """The attendance sheet (participants' signatures, the mediator's validation) exists once the
    mediation is validated; whoever may read the mediation may have it."""
    return m.status in ATTENDANCE_SHEET_STATUSES


def _creator_or_mediator(user: Principal, m: Facts) -> bool:
    return is_creator(user, m) or is_mediator(user, m)


def _report_ready(_user: Principal, m: Facts) -> bool:
    return m.has_report and bool(m.participant_ids)


# The status transitions of spec 1 §4: (action, current status) → the transition. Anything else is
# illegal (409 with the current status); service.change_status applies them, `can` shows them.
TRANSITIONS: Machine[Facts, Transition[Facts]] = Machine(
    state=lambda m: m.status,
    table={
        ("start", S.created): Transition(S.started, is_mediator),
        ("pause", S.started): Transition(S.paused, is_mediator),
        ("resume", S.paused): Transition(S.started, is_mediator),
        ("stop", S.started): Transition(S.stopped, is_mediator),
        ("stop", S.paused): Transition(S.stopped, is_mediator),
        ("validate", S.stopped): Transition(S.validated, is_mediator, _report_ready),
        ("invalidate", S.validated): Transition(S.stopped, is_mediator),
        ("cancel", S.created): Transition(S.canceled, _creator_or_mediator),
        **{
            ("cancel", status): Transition(S.canceled, is_mediator)
            for status in (S.started, S.paused, S.stopped, S.validated)
        },
    },
)


def can(user: Principal, m: Facts) -> MediationCan:
    fields = editable_fields(user, m) if can_edit(user, m) else frozenset()
    actions = TRANSITIONS.can(user, m)
    return MediationCan(
        edit=can_edit(user, m),
        start=actions["start"],
        pause=actions["pause"],
        resume=actions["resume"],
        stop=actions["stop"],
        edit_report=can_edit_report(user, m),
        validate=actions["validate"],
        invalidate=actions["invalidate"],
        sign=can_sign(user, m),
        cancel=actions["cancel"],
        attendance_sheet=can_get_attendance_sheet(user, m),
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
