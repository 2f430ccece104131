"""The two state machines of a training path (spec 2 §4 and docs/training-paths.md 'The two state
machines'), each one table on core.transitions: the path's, and the assigned module's, whose
transitions also need the path in some statuses. `path_can` and `module_can` answer from the same
tables and policy.py. The automatic promotions (a started module finished once every element is done,
the started path finished once every module is closed) are elements.refresh's."""

from collections.abc import Callable
from dataclasses import dataclass, field

from spot.core.principal import Principal
from spot.core.time import today
from spot.core.transitions import Machine, Transition
from spot.training.paths import policy
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import PathEvent
from spot.training.paths.models import PathStatus as P
from spot.training.paths.schemas import ModuleCan, PathCan, PathFieldsCan


@dataclass(frozen=True)
class PathTransition(Transition[policy.Facts]):
    # The path's history entry of it.
    event: PathEvent = field(kw_only=True)


def _accept_ready(_user: Principal, f: policy.Facts) -> bool:
    return policy.accept_ready(f, today())


def _sign_ready(_user: Principal, f: policy.Facts) -> bool:
    return policy.sign_ready(f)


# (action, current status) → the transition; anything else is illegal (409).
PATH: Machine[policy.Facts, PathTransition] = Machine(
    state=lambda f: f.status,
    table={
        ("accept", P.notAccepted): PathTransition(
            P.accepted, policy.is_learner, _accept_ready, event=PathEvent.accepted
        ),
        ("start", P.accepted): PathTransition(P.started, policy.starter, event=PathEvent.started),
        ("validate", P.finished): PathTransition(
            P.validated, policy.creator_or_admin, event=PathEvent.validated
        ),
        ("sign", P.validated): PathTransition(
            P.archived, policy.is_learner, _sign_ready, event=PathEvent.signed
        ),
        **{
            ("cancel", status): PathTransition(P.canceled, policy.creator_or_admin, event=PathEvent.canceled)
            for status in (P.accepted, P.started, P.finished, P.validated)
        },
    },
)


@dataclass(frozen=True)
class OnModule:
    """What a module's transition looks at: the path's facts and the module's."""

    path: policy.Facts
    module: policy.ModuleFacts


@dataclass(frozen=True)
class ModuleTransition(Transition[OnModule]):
    event: PathEvent = field(kw_only=True)


def _module_rule(
    rule: Callable[[Principal, policy.Facts, policy.ModuleFacts], bool],
) -> Callable[[Principal, OnModule], bool]:
    """A policy rule of (user, path, module) as a test of the module table."""
    return lambda user, on: rule(user, on.path, on.module)


def _path_in(*statuses: str) -> Callable[[OnModule], str | None]:
    """The path's status when it is not one of these (409 with it), else None."""
    allowed = frozenset(statuses)
    return lambda on: None if on.path.status in allowed else on.path.status


_REFERENT_OR_ADMIN = _module_rule(policy.module_referent_or_admin)
_PATH_STARTED = _path_in(P.started)
_GRADE = ModuleTransition(
    M.validated, _REFERENT_OR_ADMIN, blocked_by=_PATH_STARTED, event=PathEvent.moduleGraded
)
_DISABLE = ModuleTransition(
    M.disabled,
    _REFERENT_OR_ADMIN,
    _module_rule(policy.disable_ready),
    blocked_by=_path_in(P.accepted, P.started, P.finished),
    event=PathEvent.moduleDisabled,
)

# (action, current module status) → the transition; anything else is illegal (409).
MODULE: Machine[OnModule, ModuleTransition] = Machine(
    state=lambda on: on.module.status,
    table={
        ("startNow", M.notStarted): ModuleTransition(
            M.started, _REFERENT_OR_ADMIN, blocked_by=_PATH_STARTED, event=PathEvent.moduleStarted
        ),
        ("grade", M.started): _GRADE,
        ("grade", M.finished): _GRADE,
        ("grade", M.validated): ModuleTransition(
            M.validated, _REFERENT_OR_ADMIN, blocked_by=_PATH_STARTED, event=PathEvent.moduleGradeChanged
        ),
        ("grade", M.archived): ModuleTransition(
            M.validated,
            _module_rule(policy.module_admin),
            blocked_by=_path_in(P.started, P.finished),
            event=PathEvent.moduleGradeChanged,
        ),
        **{("disable", status): _DISABLE for status in M if status != M.disabled},
        ("sign", M.validated): ModuleTransition(
            M.archived,
            _module_rule(policy.module_learner),
            blocked_by=_path_in(*(status for status in P if status != P.canceled)),
            event=PathEvent.moduleSigned,
        ),
    },
)


def path_can(user: Principal, f: policy.Facts) -> PathCan:
    actions = PATH.can(user, f)
    fields = policy.editable_fields(user, f)
    return PathCan(
        edit=policy.can_edit(user, f),
        create_from=policy.can_create_from(user),
        delete=policy.can_delete(user, f),
        accept=actions["accept"],
        start=actions["start"],
        validate_=actions["validate"],
        sign=actions["sign"],
        cancel=actions["cancel"],
        see_grading=policy.sees_grading(user, f),
        fields=PathFieldsCan(
            title="title" in fields,
            reference="reference" in fields,
            start_date="startDate" in fields,
            stop_date="stopDate" in fields,
            pass_threshold="passThreshold" in fields,
            assigned_modules="assignedModules" in fields,
            referents="referents" in fields,
            visible_by_persons="visibleByPersons" in fields,
            visible_by_groups="visibleByGroups" in fields,
        ),
    )


def module_can(user: Principal, f: policy.Facts, m: policy.ModuleFacts) -> ModuleCan:
    actions = MODULE.can(user, OnModule(f, m))
    return ModuleCan(
        start=actions["startNow"],
        disable=actions["disable"],
        grade=actions["grade"],
        sign=actions["sign"],
        manage_mediations=policy.can_manage_mediations(user, f, m),
        open_elements=policy.can_open_elements(user, f, m),
    )
