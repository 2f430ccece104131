"""db.plain: statements over plain columns run on the session's connection, after the session's
pending changes, as the ORM would run them."""

from sqlalchemy import func, select

from spot import db as database
from spot.users.models import User


def test_a_plain_statement_sees_the_sessions_pending_changes(app):
    with database.session_factory()() as session:
        session.add(User(login="pending"))
        counted = database.plain(session).scalar(
            select(func.count()).select_from(User).where(User.login == "pending")
        )
        assert counted == 1
        session.rollback()
