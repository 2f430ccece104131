"""Reading the recorded statements: the xAPI statements resource's queries (xAPI 1.0.3 §7.2.3), which a
launched unit asks about its own learner, and the administrators' statement log of a learner and a
unit (docs/learning-platform.md)."""

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, forbidden, not_found
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.schemas import CamelModel, UserName
from spot.lms import policy, service
from spot.lms.models import LmsCourse, LmsItem, LmsLaunch, LmsStatement
from spot.lms.runtime import bad, parse_json
from spot.users.models import User

MAX_LIMIT = 500
DEFAULT_LIMIT = 100
LOG_PAGE_SIZE = 50
# Parameters of the xAPI query Spot reads; `format`, `attachments`, `related_activities` and
# `related_agents` are accepted and answered as their defaults (exact, no attachments, the object and
# actor only).
_FILTERS = {"registration", "activity", "agent", "verb", "since", "until", "limit", "ascending", "cursor"}
_ACCEPTED = _FILTERS | {"format", "attachments", "related_activities", "related_agents"}


def output(content: str, stored_at: datetime) -> dict[str, Any]:
    """A statement as the LRS gives it back: as received, with the time it was stored (xAPI `stored`)."""
    statement: dict[str, Any] = json.loads(content)
    statement.setdefault("stored", stored_at.isoformat().replace("+00:00", "Z"))
    return statement


def _time(value: str, name: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as exc:
        raise bad(f"{name}: an ISO 8601 time stamp is expected") from exc
    if parsed.tzinfo is None:
        raise bad(f"{name}: a time stamp with its time zone is expected")
    return parsed


def _boolean(value: str, name: str) -> bool:
    if value not in ("true", "false"):
        raise bad(f"{name}: true or false is expected")
    return value == "true"


def _integer(value: str, name: str) -> int:
    if not value.isdigit() or len(value) > 9:
        raise bad(f"{name}: a non-negative integer is expected")
    return int(value)


def _agent_user(agent: Any) -> int | None:
    """The Spot user an xAPI agent names (the actor Spot gives: an account of SPOT_PUBLIC_URL named by
    the user's id), or None."""
    if not isinstance(agent, dict) or agent.get("objectType", "Agent") != "Agent":
        return None
    account = agent.get("account")
    expected = service.actor(0)["account"]
    if not isinstance(account, dict) or account.get("homePage") != expected["homePage"]:  # type: ignore[index]
        return None
    name = account.get("name")
    return int(name) if isinstance(name, str) and name.isdigit() and len(name) < 10 else None


def query(db: Session, *, learner_id: int | None, params: Mapping[str, str]) -> dict[str, Any]:
    """The statements matching the xAPI filters (a learner's only, unless `learner_id` is None), newest
    first unless `ascending`, `limit` at a time (0: the most Spot gives, 500), and `more`, the address of
    the next ones."""
    unknown = sorted(set(params) - _ACCEPTED)
    if unknown:
        raise bad(f"{unknown[0]}: not a parameter of the statements resource")
    rows = select(LmsStatement.id, LmsStatement.content, LmsStatement.stored_at)
    if learner_id is not None:
        rows = rows.where(LmsStatement.user_id == learner_id)
    if "agent" in params:
        agent_id = _agent_user(parse_json(params["agent"].encode(), "agent"))
        if agent_id is None or learner_id not in (None, agent_id):
            return {"statements": [], "more": ""}
        rows = rows.where(LmsStatement.user_id == agent_id)
    if "registration" in params:
        rows = rows.where(LmsStatement.registration == params["registration"].lower())
    if "activity" in params:
        rows = rows.where(LmsStatement.object_id == params["activity"])
    if "verb" in params:
        rows = rows.where(LmsStatement.verb == params["verb"])
    if "since" in params:
        rows = rows.where(LmsStatement.stored_at > _time(params["since"], "since"))
    if "until" in params:
        rows = rows.where(LmsStatement.stored_at <= _time(params["until"], "until"))
    ascending = _boolean(params.get("ascending", "false"), "ascending")
    limit = _integer(params.get("limit", str(DEFAULT_LIMIT)), "limit")
    limit = MAX_LIMIT if limit == 0 else min(limit, MAX_LIMIT)
    if "cursor" in params:
        after = _integer(params["cursor"], "cursor")
        rows = rows.where(LmsStatement.id > after if ascending else LmsStatement.id < after)
    rows = rows.order_by(LmsStatement.id if ascending else LmsStatement.id.desc()).limit(limit + 1)
    found = db.execute(rows).all()
    more = ""
    if len(found) > limit:
        found = found[:limit]
        following = {key: value for key, value in params.items() if key != "cursor"}
        following["cursor"] = str(found[-1].id)
        more = f"{API_PREFIX}/lms/xapi/statements?{urlencode(following)}"
    return {"statements": [output(row.content, row.stored_at) for row in found], "more": more}


def read_as_manager(db: Session, *, user: Principal, params: Mapping[str, str]) -> dict[str, Any]:
    """The statements resource read with a training manager's Spot token (`Authorization: Bearer`), as
    cmi5 §4.2 wants an LMS account able to read every learner's statements: one by `statementId`, or
    the query's (every learner's)."""
    if not policy.can_read_statement_log(user):
        raise forbidden()
    if "statementId" in params:
        row = db.execute(
            select(LmsStatement.content, LmsStatement.stored_at).where(
                LmsStatement.statement_id == params["statementId"].lower()
            )
        ).first()
        if row is None:
            raise ApiError(404, f"statement {params['statementId']}: not found")
        return output(row.content, row.stored_at)
    return query(db, learner_id=None, params=params)


# The administrators' statement log --------------------------------------------------------------------


class StatementRow(CamelModel):
    """A recorded statement, with what the log shows of it: who, which unit, the verb's last word, its
    result, and the statement as the unit sent it."""

    id: str
    stored: datetime
    timestamp: str | None
    learner_id: int
    learner_name: str
    item_id: int
    item_name: str
    course_id: int
    course_title: str
    verb: str
    verb_name: str
    object_id: str
    defined: bool
    session_id: str | None
    launch_mode: str | None
    success: bool | None
    completion: bool | None
    scaled: float | None
    duration: str | None
    statement: dict[str, Any]


class StatementLog(CamelModel):
    items: list[StatementRow]
    page: int
    page_size: int
    total: int


def _result(statement: dict[str, Any]) -> dict[str, Any]:
    result = statement.get("result")
    return result if isinstance(result, dict) else {}


def _row(row: LmsStatement, learner: str, item: LmsItem, course: LmsCourse, mode: str | None) -> StatementRow:
    statement = json.loads(row.content)
    result = _result(statement)
    score = result.get("score")
    scaled = score.get("scaled") if isinstance(score, dict) else None
    context = statement.get("context")
    extensions = context.get("extensions") if isinstance(context, dict) else None
    session = extensions.get(service.SESSION_ID) if isinstance(extensions, dict) else None
    timestamp = statement.get("timestamp")

    def flag(name: str) -> bool | None:
        value = result.get(name)
        return value if isinstance(value, bool) else None

    return StatementRow(
        id=row.statement_id,
        stored=row.stored_at,
        timestamp=timestamp if isinstance(timestamp, str) else None,
        learner_id=row.user_id,
        learner_name=learner,
        item_id=item.id,
        item_name=item.name,
        course_id=course.id,
        course_title=course.title,
        verb=row.verb,
        verb_name=row.verb.rstrip("/").rsplit("/", 1)[-1],
        object_id=row.object_id,
        defined=row.defined,
        session_id=session if isinstance(session, str) else None,
        launch_mode=mode,
        success=flag("success"),
        completion=flag("completion"),
        scaled=float(scaled) if isinstance(scaled, int | float) and not isinstance(scaled, bool) else None,
        duration=result.get("duration") if isinstance(result.get("duration"), str) else None,
        statement=statement,
    )


_LogRow = Select[LmsStatement, str, LmsItem, LmsCourse, str]


def _log_rows(learner_id: int | None, item_id: int | None) -> _LogRow:
    rows = (
        select(LmsStatement, User.display_name, LmsItem, LmsCourse, LmsLaunch.launch_mode)
        .join(User, User.id == LmsStatement.user_id)
        .join(LmsItem, LmsItem.id == LmsStatement.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .outerjoin(LmsLaunch, LmsLaunch.id == LmsStatement.launch_id)
    )
    if learner_id is not None:
        rows = rows.where(LmsStatement.user_id == learner_id)
    if item_id is not None:
        rows = rows.where(LmsStatement.item_id == item_id)
    return rows


def log(
    db: Session, *, user: Principal, learner_id: int | None, item_id: int | None, page: int
) -> StatementLog:
    """The statements recorded for a learner, a unit, or a learner in a unit, newest first, a page of
    50 at a time (a page past the end is empty)."""
    if not policy.can_read_statement_log(user):
        raise forbidden()
    counted = _log_rows(learner_id, item_id).with_only_columns(LmsStatement.id).subquery()
    total = db.scalar(select(func.count()).select_from(counted))
    rows = db.execute(
        _log_rows(learner_id, item_id)
        .order_by(LmsStatement.id.desc())
        .offset((page - 1) * LOG_PAGE_SIZE)
        .limit(LOG_PAGE_SIZE)
    ).tuples()
    return StatementLog(
        items=[_row(row, learner, item, course, mode) for row, learner, item, course, mode in rows],
        page=page,
        page_size=LOG_PAGE_SIZE,
        total=total or 0,
    )


def learners(db: Session, *, user: Principal, item_id: int) -> list[UserName]:
    """The learners who have statements in a unit, by name: whom the log can show for it."""
    if not policy.can_read_statement_log(user):
        raise forbidden()
    if db.get(LmsItem, item_id) is None:
        raise not_found("lmsElementNotFound")
    rows = db.execute(
        select(User.id, User.display_name)
        .where(User.id.in_(select(LmsStatement.user_id).where(LmsStatement.item_id == item_id)))
        .order_by(User.display_name, User.id)
    ).tuples()
    return [UserName(id=user_id, name=name) for user_id, name in rows]
