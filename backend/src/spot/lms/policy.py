"""Who may do what on the learning platform: pure functions of the Principal and what is asked."""

from collections.abc import Callable

from spot.core.principal import Principal
from spot.permissions.names import Permission


def can_read_attempts(user: Principal, learner_id: int, *, refers_learner: Callable[[], bool]) -> bool:
    """A learner's quiz attempts: the learner, training managers, path administrators, and the referents
    of a module of one of the learner's training paths (they grade the module, and its quiz results name
    these attempts). `refers_learner()` answers the last, from the database: asked only when the rest
    does not decide."""
    return (
        user.id == learner_id
        or user.may(Permission.TrainingManagement)
        or user.may(Permission.TrainingPathAdmin)
        or refers_learner()
    )


def can_read_statement_log(user: Principal) -> bool:
    """The statements learners' units sent (the statement log): training managers, who import and run
    the courses."""
    return user.may(Permission.TrainingManagement)
