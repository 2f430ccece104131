"""Who may do what with a subject (spec 1 §6). Reading is decided by cartography visibility
(spot.mapping.policy); these rules apply to subjects the user can already see."""

from collections.abc import Collection

from spot.core.principal import Principal
from spot.mapping.models import Function, NodeStatus, Subject
from spot.permissions.names import Permission
from spot.subjects.schemas import FunctionCan, SubjectCan


def can_create(user: Principal) -> bool:
    return Permission.EditPdv in user.permission_names


def can_edit(user: Principal, subject: Subject) -> bool:
    return Permission.EditPdv in user.permission_names


def can_duplicate(user: Principal, subject: Subject) -> bool:
    return Permission.EditPdv in user.permission_names


def can_delete(user: Principal, subject: Subject) -> bool:
    return Permission.RemPdv in user.permission_names


def can_standardize(user: Principal, subject: Subject) -> bool:
    return Permission.ValidNotHaute in user.permission_names


def can_edit_mind_map(user: Principal, subject: Subject) -> bool:
    """Add, edit, move and delete nodes, and change their status (but to or from validated)."""
    return Permission.EditNotHaute in user.permission_names


def can_validate_mind_map(user: Principal, subject: Subject) -> bool:
    """Set a node validated, or take a validated node back: on top of can_edit_mind_map."""
    return Permission.ValidNotHaute in user.permission_names


def can_change_node(user: Principal, subject: Subject, status: str) -> bool:
    """Rename, rewrite or delete a node: a validated one's content was validated, and changes only
    with the right to validate (docs/mind-map.md)."""
    validated = status == NodeStatus.validated.value
    return can_edit_mind_map(user, subject) and (not validated or can_validate_mind_map(user, subject))


def can_rename_node(user: Principal, subject: Subject, status: str, *, main: bool) -> bool:
    """Change a node's name: the main node's name is the subject's, renamed by who may edit subjects."""
    return can_change_node(user, subject, status) and (not main or can_edit(user, subject))


def can_delete_node(user: Principal, subject: Subject, subtree_statuses: Collection[str]) -> bool:
    """Delete a node with its subtree: every node that goes must be one the user may change. (The main
    node is never deleted: a rule of the tree, not of the user; mindmap.remove.)"""
    return can_edit_mind_map(user, subject) and all(
        can_change_node(user, subject, status) for status in subtree_statuses
    )


def can_set_node_status(user: Principal, subject: Subject, old: str, new: str) -> bool:
    validating = NodeStatus.validated.value in (old, new)
    return can_edit_mind_map(user, subject) and (not validating or can_validate_mind_map(user, subject))


def can_edit_diagram(user: Principal, subject: Subject) -> bool:
    return Permission.EditNotBasse in user.permission_names


def can_mark(user: Principal, subject: Subject) -> bool:
    """Follow, resolve and rate: any signed-in user who sees the subject."""
    return True


def can(user: Principal, subject: Subject) -> SubjectCan:
    mark = can_mark(user, subject)
    return SubjectCan(
        edit=can_edit(user, subject),
        delete=can_delete(user, subject),
        duplicate=can_duplicate(user, subject),
        standardize=can_standardize(user, subject),
        follow=mark,
        resolve=mark,
        rate=mark,
        edit_mind_map=can_edit_mind_map(user, subject),
        validate_mind_map=can_validate_mind_map(user, subject),
        edit_diagram=can_edit_diagram(user, subject),
    )


def can_on_function(user: Principal, function: Function) -> FunctionCan:
    """The function's page offers to add subjects to it to those who may create subjects."""
    return FunctionCan(create=can_create(user))
