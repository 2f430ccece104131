"""The bell's training-path kinds (DESIGN §10): what a path awaits from the signed-in user.

- trainingPathToAccept: the learner, of a path not accepted yet whose stop date is not past;
- trainingPathToSign: the learner, of a closed (validated) path, which their signature archives;
- trainingModuleToStart: a referent of the module, in a started path, of a module not started;
- trainingModuleToGrade: a referent of the module, in a started path, of a finished module;
- trainingModuleToSign: the learner, of a graded (validated) module, in a path not canceled;
- trainingPathToClose: the creator, of a finished path (every module closed), which closing validates;
  the administrators (perm_TrainingPathAdmin), of a finished path Spot opened (it has no creator).

The learner, the creator and the referents of a path's modules always read it (`service.readable`),
so these conditions need no visibility test of their own. Each kind is one statement built once
(parameters: the user, today, the limit), starting from the user's paths as learner
(`ix_training_path_learner_id`) or creator (`ix_training_path_creator_id`), or the user's modules as
referent (`ix_training_path_referent_user_id`), counting with
`count(*) OVER ()` before the limit. Dated by when the awaited step came: the path's status change for
the path kinds and for a module to start (the path's start), the module's status change otherwise."""

from functools import partial
from typing import Any

from sqlalchemy import Date, Integer, Select, bindparam, func, null, or_, select
from sqlalchemy.orm import Session

from spot.alerts import service as bell
from spot.alerts.schemas import Alert, AlertKind, AlertTarget
from spot.core.principal import Principal
from spot.core.time import today
from spot.training.modules.models import TrainingModule
from spot.training.paths import policy
from spot.training.paths.models import ModuleStatus, PathStatus, TrainingPath, TrainingPathModule
from spot.training.paths.models import TrainingPathReferent as Referent

_USER = bindparam("user_id", type_=Integer)
_TODAY = bindparam("today", type_=Date)

_p, _m = TrainingPath, TrainingPathModule
# A path alert names no module.
_NO_MODULE: Any = null().label("module")


def _of_path(*conditions: Any, who: Any = _p.learner_id) -> Select[Any]:
    """The user's paths (as learner, or as `who` says) meeting the conditions, newest status change
    first, with the count."""
    return (
        select(_p.id, _p.title, _NO_MODULE, _p.status_changed_at, func.count().over())
        .where(who == _USER, *conditions)
        .order_by(_p.status_changed_at.desc(), _p.id.desc())
        .limit(bindparam("limit"))
    )


def _of_module(*conditions: Any, as_referent: bool, since: Any) -> Select[Any]:
    """Assigned modules meeting the conditions, of the user as referent or as learner; one alert per
    module (a referent is one row per module), newest first, with the count."""
    statement = select(_p.id, _p.title, TrainingModule.name, since, func.count().over())
    if as_referent:
        statement = (
            statement.select_from(Referent)
            .join(_m, _m.id == Referent.path_module_id)
            .join(_p, _p.id == _m.path_id)
            .where(Referent.user_id == _USER)
        )
    else:
        statement = statement.select_from(_p).join(_m, _m.path_id == _p.id).where(_p.learner_id == _USER)
    return (
        statement.join(TrainingModule, TrainingModule.id == _m.module_id)
        .where(*conditions)
        .order_by(since.desc(), _p.id.desc(), _m.position)
        .limit(bindparam("limit"))
    )


_BELL: dict[AlertKind, Select[Any]] = {
    AlertKind.trainingPathToAccept: _of_path(
        _p.status == PathStatus.notAccepted.value, _p.stop_date >= _TODAY
    ),
    AlertKind.trainingPathToSign: _of_path(_p.status == PathStatus.validated.value),
    AlertKind.trainingModuleToStart: _of_module(
        _p.status == PathStatus.started.value,
        _m.status == ModuleStatus.notStarted.value,
        as_referent=True,
        since=_p.status_changed_at,
    ),
    AlertKind.trainingModuleToGrade: _of_module(
        _p.status == PathStatus.started.value,
        _m.status == ModuleStatus.finished.value,
        as_referent=True,
        since=_m.status_changed_at,
    ),
    AlertKind.trainingModuleToSign: _of_module(
        _p.status != PathStatus.canceled.value,
        _m.status == ModuleStatus.validated.value,
        as_referent=False,
        since=_m.status_changed_at,
    ),
    AlertKind.trainingPathToClose: _of_path(_p.status == PathStatus.finished.value, who=_p.creator_id),
}
# A path Spot opened has no creator: the administrators, who close any path (policy.creator_or_admin),
# are told of it beside their own.
_TO_CLOSE_AS_ADMIN = (
    select(_p.id, _p.title, _NO_MODULE, _p.status_changed_at, func.count().over())
    .where(_p.status == PathStatus.finished.value, or_(_p.creator_id == _USER, _p.opened_by_spot.is_(True)))
    .order_by(_p.status_changed_at.desc(), _p.id.desc())
    .limit(bindparam("limit"))
)


def alerts(db: Session, *, user: Principal, kind: AlertKind, limit: int) -> tuple[list[Alert], int]:
    """The bell's alerts of one kind (at most `limit`, newest first) and how many there are."""
    params = {"user_id": user.id, "today": today(), "limit": limit}
    statement = _BELL[kind]
    if kind is AlertKind.trainingPathToClose and policy.is_admin(user):
        statement = _TO_CLOSE_AS_ADMIN
    rows = db.execute(statement, params).all()
    found = [
        Alert(
            kind=kind,
            args={"title": title} if module is None else {"title": title, "module": module},
            date=since,
            target=AlertTarget(type="trainingPath", id=path_id),
        )
        for path_id, title, module, since, _count in rows
    ]
    return found, rows[0][4] if rows else 0


for _kind in _BELL:
    bell.register(_kind, partial(alerts, kind=_kind))
