"""State machines as one table per entity (DESIGN §4): (action, current state) → the transition, its new
state and who may make it. `Machine.check` is the rule an action obeys (409 illegalTransition with the
state in the way, 403 for a role that may not), and `Machine.permitted` the same rule asked without
raising, from which an entity's `can` answers whether each action's button shows.

    MACHINE = Machine(
        state=lambda facts: facts.status,
        table={
            ("start", "created"): Transition("started", who=policy.is_mediator),
            ("cancel", "created"): Transition("canceled", who=policy.is_creator),
        },
    )
    transition = MACHINE.check(user, facts, "start")  # then write transition.target

The facts are what the policy's functions look at (a frozen dataclass of the area's policy.py); a
table may carry a subclass of Transition with what the area's service does on it (a history event)."""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from spot.core.errors import ensure, illegal_transition
from spot.core.principal import Principal

F = TypeVar("F")
T = TypeVar("T", bound="Transition[Any]")


def always(*_args: object) -> bool:
    return True


def nothing(*_args: object) -> str | None:
    return None


@dataclass(frozen=True)
class Transition(Generic[F]):
    """One allowed transition: the state it leads to and the policy's tests of it."""

    target: str
    # Whether the user's role allows it (else 403).
    who: Callable[[Principal, F], bool]
    # Whether the entity is ready for it (else 409 with its current state).
    ready: Callable[[Principal, F], bool] = always
    # The state of something else that must allow it first (the path's, for a module's transition):
    # its value when it stands in the way (409 with it, before the role is asked), else None.
    blocked_by: Callable[[F], str | None] = nothing


class Machine(Generic[F, T]):
    """The allowed transitions of one entity, by (action, current state); anything else is illegal."""

    def __init__(self, *, state: Callable[[F], str], table: Mapping[tuple[str, str], T]) -> None:
        self.state = state
        self.table = dict(table)
        self.actions = tuple(dict.fromkeys(action for action, _current in self.table))

    def find(self, facts: F, action: str) -> T | None:
        """The transition `action` from the entity's current state, if the table has one."""
        return self.table.get((action, self.state(facts)))

    def leading_to(self, facts: F, target: str) -> str | None:
        """The action that leads from the current state to `target`, if the table has one."""
        current = self.state(facts)
        return next(
            (
                action
                for (action, state), transition in self.table.items()
                if state == current and transition.target == target
            ),
            None,
        )

    def check(self, user: Principal, facts: F, action: str | None) -> T:
        """The transition `action` (None: none) if the user may make it now: 409 illegalTransition with
        the current state when the table has none from it, with the state in the way when another
        blocks it, 403 when the user's role does not allow it, 409 when the entity is not ready."""
        current = self.state(facts)
        transition = None if action is None else self.table.get((action, current))
        if transition is None:
            raise illegal_transition(current)
        blocking = transition.blocked_by(facts)
        if blocking is not None:
            raise illegal_transition(blocking)
        ensure(transition.who(user, facts))
        if not transition.ready(user, facts):
            raise illegal_transition(current)
        return transition

    def permitted(self, user: Principal, facts: F, action: str) -> bool:
        """Whether `check` would let the user make `action` now."""
        transition = self.find(facts, action)
        return (
            transition is not None
            and transition.blocked_by(facts) is None
            and transition.who(user, facts)
            and transition.ready(user, facts)
        )

    def can(self, user: Principal, facts: F, actions: Iterable[str] | None = None) -> dict[str, bool]:
        """Whether the user may make each action now (every action of the table, or `actions`)."""
        return {action: self.permitted(user, facts, action) for action in actions or self.actions}
