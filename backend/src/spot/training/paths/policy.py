"""Who may do what with a training path (spec 2 §4 'Rules seen for path actions', §6 contextual roles;
docs/training-paths.md 'Who is who' and 'The two state machines'): pure functions of the signed-in
Principal and the path's facts (records.facts reads them).

Roles: the learner, the path's creator, an administrator (perm_TrainingPathAdmin, on every path), a
referent of one of its modules (of THIS module for module actions). The status transitions are the
tables of transitions.py, whose role and readiness tests are the functions here; the rules that are
not transitions (read, see grading, edit and which fields, delete, open elements, manage mediations)
are here alone."""

from dataclasses import dataclass
from datetime import date

from spot.core.principal import Principal
from spot.permissions.names import Permission
from spot.training.paths.models import ModuleStatus as M
from spot.training.paths.models import PathStatus as P


@dataclass(frozen=True)
class ModuleFacts:
    """What the rules look at of one assigned module."""

    id: int
    index: int
    status: str
    referent_ids: frozenset[int]
    # The learner has a live (not revoked) acknowledgement of this module.
    signed_by_learner: bool


@dataclass(frozen=True)
class Facts:
    """What the rules look at of one path."""

    status: str
    learner_id: int | None
    creator_id: int | None
    stop_date: date
    visible_person_ids: frozenset[int]
    visible_group_ids: frozenset[int]
    modules: tuple[ModuleFacts, ...]

    @property
    def referent_ids(self) -> frozenset[int]:
        return frozenset(i for m in self.modules for i in m.referent_ids)


def is_admin(user: Principal) -> bool:
    return user.may(Permission.TrainingPathAdmin)


def is_learner(user: Principal, p: Facts) -> bool:
    return p.learner_id is not None and p.learner_id == user.id


def is_creator(user: Principal, p: Facts) -> bool:
    return p.creator_id is not None and p.creator_id == user.id


def is_referent(user: Principal, p: Facts) -> bool:
    """A referent of one of the path's modules."""
    return user.id in p.referent_ids


def is_module_referent(user: Principal, m: ModuleFacts) -> bool:
    return user.id in m.referent_ids


def creator_or_admin(user: Principal, p: Facts) -> bool:
    return is_creator(user, p) or is_admin(user)


def starter(user: Principal, p: Facts) -> bool:
    """Who starts an accepted path: its creator, an administrator or one of its referents."""
    return creator_or_admin(user, p) or is_referent(user, p)


def module_referent_or_admin(user: Principal, _p: Facts, m: ModuleFacts) -> bool:
    return is_module_referent(user, m) or is_admin(user)


def module_admin(user: Principal, _p: Facts, _m: ModuleFacts) -> bool:
    return is_admin(user)


def module_learner(user: Principal, p: Facts, _m: ModuleFacts) -> bool:
    return is_learner(user, p)


def sees_every_grading(user: Principal) -> bool:
    """Administrators, and the dashboards holders (perm_TableauBord), who follow every path's results in
    the dashboards, the path reports and the audit packs: the one rule for grades shown whatever the
    path, on its page as in the reports."""
    return is_admin(user) or user.may(Permission.TableauBord)


def sees_grading(user: Principal, p: Facts) -> bool:
    """Grades, gradings and the average grade: learner, creator, referents, and those who see every
    grading; the other persons and groups it is visible to read the path without them."""
    return sees_every_grading(user) or is_learner(user, p) or is_creator(user, p) or is_referent(user, p)


def can_edit(user: Principal, p: Facts) -> bool:
    return creator_or_admin(user, p) and p.status not in (P.archived, P.canceled)


# The fields of the form, by their JSON names (PathSave; `referents`: those of each assigned module), in
# the order errors name them.
FIELDS = (
    "title",
    "reference",
    "startDate",
    "stopDate",
    "passThreshold",
    "assignedModules",
    "referents",
    "visibleByPersons",
    "visibleByGroups",
)
# What the learner accepted: the title, reference, dates, threshold and which modules (in which order,
# with which dates) change only while notAccepted; referents and visibility as long as it is editable.
_FROZEN_ONCE_ACCEPTED = frozenset(
    {"title", "reference", "startDate", "stopDate", "passThreshold", "assignedModules"}
)


def editable_fields(user: Principal, p: Facts) -> frozenset[str]:
    """The form's fields (JSON names) the user may change in this status."""
    if not can_edit(user, p):
        return frozenset()
    if p.status == P.notAccepted:
        return frozenset(FIELDS)
    return frozenset(FIELDS) - _FROZEN_ONCE_ACCEPTED


def can_delete(user: Principal, p: Facts) -> bool:
    """Only a path never accepted (notAccepted: every other status was accepted once)."""
    return creator_or_admin(user, p) and p.status == P.notAccepted


def can_create_from(user: Principal) -> bool:
    return user.may(Permission.TrainingManagement)


def accept_ready(p: Facts, today: date) -> bool:
    return p.stop_date >= today


def sign_ready(p: Facts) -> bool:
    """The learner signs the closed path once every module that is not disabled is archived."""
    return all(m.status in (M.archived, M.disabled) for m in p.modules)


def disable_ready(user: Principal, p: Facts, m: ModuleFacts) -> bool:
    """An administrator disables any module of an accepted, started or finished path; a referent only
    if the path is started and the module not archived, or the path accepted and the module not
    started."""
    if is_admin(user):
        return True
    return (p.status == P.started and m.status != M.archived) or (
        p.status == P.accepted and m.status == M.notStarted
    )


def can_open_elements(user: Principal, p: Facts, m: ModuleFacts) -> bool:
    """Url and spot elements are active for the learner while the path and the module are under way."""
    return is_learner(user, p) and p.status == P.started and m.status in (M.started, M.finished)


def can_manage_mediations(user: Principal, p: Facts, m: ModuleFacts) -> bool:
    """Attach and detach mediations: a referent of the module or an administrator, path started,
    module started or finished."""
    return (
        module_referent_or_admin(user, p, m) and p.status == P.started and m.status in (M.started, M.finished)
    )
