"""The `user` entity type of the query language and its list call, POST /user/query."""

from sqlalchemy import exists, select

from spot.core.auth import require
from spot.core.routing import api_router
from spot.permissions.names import Permission
from spot.querylang.fields import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec, list_route
from spot.querylang.tree import SortKey
from spot.users.models import User, user_group
from spot.users.schemas import UserOut


def _in_groups(group_ids: tuple[int, ...]):
    return exists().where(user_group.c.user_id == User.id, user_group.c.group_id.in_(group_ids))


USER = register(
    EntityType(
        name="user",
        primary_key=User.id,
        fields=[
            Field("login", FieldType.STRING, column=User.login, sortable=True),
            Field("first_name", FieldType.STRING, column=User.first_name, sortable=True),
            Field("last_name", FieldType.STRING, column=User.last_name, sortable=True),
            Field("external_id", FieldType.STRING, column=User.external_id, sortable=True),
            Field("email", FieldType.STRING, column=User.email, sortable=True),
            Field("active", FieldType.BOOLEAN, column=User.active, sortable=True),
            Field("group", FieldType.ID, matches=_in_groups),
            Field("created_date", FieldType.DATE, column=User.created_at, sortable=True),
        ],
        default_sort=[SortKey("last_name"), SortKey("first_name")],
    )
)

router = api_router(prefix="/user", tags=["users"])


USERS = ListSpec(
    entity=USER,
    card=UserOut,
    visible=lambda _db, _user: select(User),
    cards=lambda _db, _user, rows: [UserOut.model_validate(u) for u in rows],
)
list_route(
    router,
    "/query",
    USERS,
    name="query_users",
    description="A page of the users. Needs perm_UserManagement: it shows and filters their logins.",
    dependencies=[require(Permission.UserManagement)],
)
