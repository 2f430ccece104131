"""The demo organisation: each area adds what it needs, and every step is idempotent."""

from sqlalchemy.orm import Session

from spot.demo import (
    alerts,
    coverage,
    coverage_warnings,
    discussions,
    documents,
    lms,
    mapping,
    mediations,
    mindmap_extras,
    modules,
    notifications,
    paths,
    people,
    qualifications,
    references,
    reminders,
    reports,
    requalification,
    resources,
    usage,
    validation_history,
)

# The demo's scheduled mediations invite their people by e-mail, and what the bell shows them is told by
# e-mail, as the app's are: the listeners are registered by importing their modules (as spot.main's
# routes do), the outbox page then has them.
from spot.notifications import bell, invitations  # noqa: F401

DEMO_PASSWORD = people.DEMO_PASSWORD


def seed(db: Session) -> list[people.DemoLogin]:
    logins = people.seed(db)
    db.flush()
    # Before anything that e-mails people: what they chose applies to it.
    notifications.seed(db)
    mapping.seed(db)
    alerts.seed(db)
    resources.seed(db)
    usage.seed(db)
    mediations.seed(db)
    discussions.seed(db)
    lms.seed(db)
    references.seed(db)
    modules.seed(db)
    paths.seed(db)
    qualifications.seed(db)
    coverage.seed(db)
    validation_history.seed(db)
    people.deactivate_leavers(db)
    people.seed_api_tokens(db)
    reports.seed(db)
    reports.seed_job(db)
    mindmap_extras.seed(db)
    documents.seed(db)
    # As the daily scan: the requalification paths Spot opens, then the reminders of the day, to the
    # people as they are now (those who left are told nothing).
    requalification.seed(db)
    reminders.seed(db)
    coverage_warnings.seed(db)
    return logins
