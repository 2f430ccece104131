"""Who may do what with qualifications (spec 2 §2 Qualifications and Dashboards, §6;
docs/qualifications.md 'Permissions'): pure functions of the signed-in Principal, and `can` built from them.

Reading a qualification (list, view, gallery, discussion) is open to every signed-in user: people must
know what they must hold. Creating needs perm_TableauBord or perm_QualificationAdmin; editing and
deleting perm_QualificationAdmin. Dashboards need perm_TableauBord, except one's own (the user
dashboard of oneself, one's own status records)."""

from spot.core.principal import Principal
from spot.permissions.names import Permission
from spot.qualifications.schemas import QualificationCan


def can_read(user: Principal) -> bool:
    return True


def can_create(user: Principal) -> bool:
    return user.may(Permission.TableauBord) or user.may(Permission.QualificationAdmin)


def can_edit(user: Principal) -> bool:
    return user.may(Permission.QualificationAdmin)


def can_delete(user: Principal) -> bool:
    return user.may(Permission.QualificationAdmin)


def can_edit_minimum(user: Principal) -> bool:
    """A function's minimum of qualified people (qualifications.coverage)."""
    return user.may(Permission.QualificationAdmin)


def can_edit_requalification(user: Principal) -> bool:
    """The functions a qualification opens, its requalification window and its default referents: the
    qualification administrators, also when creating one (a perm_TableauBord creator leaves them as
    they come)."""
    return user.may(Permission.QualificationAdmin)


def can_see_dashboards(user: Principal) -> bool:
    """Qualification dashboards of anyone: by cartography, group, qualification, another user."""
    return user.may(Permission.TableauBord)


def can_see_user(user: Principal, user_id: int) -> bool:
    """A person's qualification status: their own, or anyone's with dashboards."""
    return user.id == user_id or can_see_dashboards(user)


def can(user: Principal) -> QualificationCan:
    return QualificationCan(
        edit=can_edit(user), delete=can_delete(user), see_dashboard=can_see_dashboards(user)
    )
