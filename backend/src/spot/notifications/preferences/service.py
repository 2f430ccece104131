"""The rules of preferences: a person reads and changes only their own; a kind set to its default keeps
no row, so it follows the default."""

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError
from spot.core.principal import Principal
from spot.notifications.kinds import KINDS, Mode, default
from spot.notifications.models import NotificationPreference
from spot.notifications.preferences.schemas import PreferenceIn, PreferenceOut, Preferences
from spot.users.models import User

UNKNOWN_KIND = "unknownNotificationKind"
UNKNOWN_MODE = "unknownNotificationMode"


def mode(db: Session, *, user_id: int, kind: str) -> Mode | None:
    """How `user_id` receives `kind`: their choice, else the kind's default; None for a kind people do
    not choose for (always sent)."""
    kind_default = default(kind)
    if kind_default is None:
        return None
    chosen = db.get(NotificationPreference, (user_id, kind))
    return Mode(chosen.mode) if chosen is not None else kind_default


def get(db: Session, *, user: Principal) -> Preferences:
    chosen = dict(
        db.execute(
            select(NotificationPreference.kind, NotificationPreference.mode).where(
                NotificationPreference.user_id == user.id
            )
        ).all()
    )
    return Preferences(
        address=db.scalar(select(User.email).where(User.id == user.id)),
        preferences=[
            PreferenceOut(
                kind=kind, group=group, mode=Mode(chosen.get(kind, kind_default)), default=kind_default
            )
            for kind, (group, kind_default) in KINDS.items()
        ],
    )


def update(db: Session, *, user: Principal, changes: list[PreferenceIn]) -> Preferences:
    """Applies every change, or none: 400 naming each refused one (`preferences.<i>.kind`
    unknownNotificationKind, `preferences.<i>.mode` unknownNotificationMode)."""
    errors = []
    for index, change in enumerate(changes):
        if change.kind not in KINDS:
            errors.append(FieldError(field=f"preferences.{index}.kind", code=UNKNOWN_KIND))
        if change.mode not in Mode.__members__:
            errors.append(FieldError(field=f"preferences.{index}.mode", code=UNKNOWN_MODE))
    if errors:
        raise ApiError(400, errors[0].code, errors)
    for change in changes:
        db.execute(
            delete(NotificationPreference).where(
                NotificationPreference.user_id == user.id, NotificationPreference.kind == change.kind
            )
        )
        if change.mode != default(change.kind):
            db.add(NotificationPreference(user_id=user.id, kind=change.kind, mode=change.mode))
        db.flush()
    return get(db, user=user)
