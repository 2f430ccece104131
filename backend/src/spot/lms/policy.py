"""Who may do what on the learning platform: pure functions of the Principal and what is asked."""

from collections.abc import Callable

from spot.core.principal import Principal
from spot.lms.schemas import CourseCan
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


# Importing a course (or a new version of one) and removing one: training managers. The routes require
# it before reading a package, so that a refused upload is not stored.
COURSE_MANAGERS = Permission.TrainingManagement


def can_manage_courses(user: Principal) -> bool:
    return user.may(COURSE_MANAGERS)


def can_waive(user: Principal) -> bool:
    """Waiving a unit for a learner (cmi5 §9.3.7), who is then dispensed from it: training managers."""
    return user.may(Permission.TrainingManagement)


def can_read_statement_log(user: Principal) -> bool:
    """The statements learners' units sent (the statement log): training managers, who import and run
    the courses."""
    return user.may(Permission.TrainingManagement)


def course_can(user: Principal) -> CourseCan:
    """What the user may do with any course of the catalogue (the same for each)."""
    return CourseCan(
        remove=can_manage_courses(user), waive=can_waive(user), read_statements=can_read_statement_log(user)
    )
