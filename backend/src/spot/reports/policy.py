"""Who may produce path reports, and of which paths (spec 2 §2 'Path report page', docs/reports.md
'Permissions')."""

from sqlalchemy import ColumnElement, true

from spot.core.principal import Principal
from spot.permissions.names import Permission
from spot.training.paths.service import readable

# The page and every report call; the audit pack needs perm_TableauBord alone.
REPORT_PERMISSIONS = (Permission.TableauBord, Permission.TrainingManagement)
# A person's audit pack (GET /reports/auditPack/{userId}): dashboard holders, who see anyone's status.
AUDIT_PACK_READERS = Permission.TableauBord


def may_report(user: Principal) -> bool:
    return any(user.may(permission) for permission in REPORT_PERMISSIONS)


def may_download_audit_packs(user: Principal) -> bool:
    return user.may(AUDIT_PACK_READERS)


def sees_every_path(user: Principal) -> bool:
    """Dashboard holders and path administrators report on every path, as the path dashboards show
    them all."""
    return user.may(Permission.TableauBord) or user.may(Permission.TrainingPathAdmin)


def paths_visible(user: Principal) -> ColumnElement[bool]:
    """The paths a report of `user` may show, as SQL on TrainingPath: every path for those who see every
    path, else the paths they may read."""
    return true() if sees_every_path(user) else readable(user)
