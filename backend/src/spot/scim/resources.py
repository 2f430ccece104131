"""What Spot keeps of its people and groups by SCIM (RFC 7643), and how a row becomes a resource.

The schemas Spot publishes (GET /Schemas) name only what it keeps, so that a client learns what will
round-trip; they are built from the small models here, which also read requests and shape every
answer. Identity providers send more (displayName, title, the enterprise extension...): the service
reads requests under a policy that ignores what no model declares."""

from typing import Annotated, Any

from pydantic import Field
from scim2_models import (
    URN,
    ComplexAttribute,
    Meta,
    Mutability,
    Reference,
    Required,
    Resource,
    ResourceType,
    Returned,
    Schema,
    Uniqueness,
)

from spot.config import get_settings
from spot.core.routing import API_PREFIX
from spot.users.models import Group as SpotGroupRow
from spot.users.models import User as SpotUserRow

PREFIX = "/scim/v2"
USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"
GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group"


class _Name(ComplexAttribute):
    given_name: str | None = None
    family_name: str | None = None


class _Email(ComplexAttribute):
    value: str | None = None


class _EmailIn(_Email):
    """An e-mail as providers send it: Entra ID addresses it as emails[type eq "work"].value."""

    type: str | None = None
    primary: bool | None = None
    display: str | None = None


class _Membership(ComplexAttribute):
    value: Annotated[str | None, Mutability.read_only] = None
    ref: Annotated[Reference[Any] | None, Mutability.read_only] = Field(
        None, serialization_alias="$ref", validation_alias="$ref"
    )
    display: Annotated[str | None, Mutability.read_only] = None


class _Member(ComplexAttribute):
    value: Annotated[str | None, Mutability.immutable] = None
    ref: Annotated[Reference[Any] | None, Mutability.immutable] = Field(
        None, serialization_alias="$ref", validation_alias="$ref"
    )


class _User(Resource[Any]):
    __schema__ = URN(USER_SCHEMA)

    user_name: Annotated[str | None, Uniqueness.server, Required.true] = None
    name: _Name | None = None
    # Spot always knows whether a person is active: published as required, so that no client removes it;
    # a request that leaves it out creates an active person (_UserIn).
    active: Annotated[bool | None, Required.true] = None
    emails: list[_Email] | None = None
    groups: Annotated[list[_Membership] | None, Mutability.read_only, Returned.default] = None


class _UserIn(_User):
    """A person as requests describe them, and what a PATCH is applied to."""

    active: bool | None = None
    emails: list[_EmailIn] | None = None  # type: ignore[assignment]


class _Group(Resource[Any]):
    __schema__ = URN(GROUP_SCHEMA)

    display_name: Annotated[str | None, Required.true, Uniqueness.server] = None
    members: list[_Member] | None = None


def _published(model: type[Resource[Any]], name: str, description: str, refers_to: str) -> Schema:
    """The model's schema, under the standard name, its references naming the resource they point to."""
    schema = model.to_schema()
    schema.name = name
    schema.description = description
    for attribute in schema.attributes or []:
        for sub in attribute.sub_attributes or []:
            if sub.name == "$ref":
                sub.reference_types = [refers_to]
    return schema


SCHEMAS = [
    _published(
        _User, "User", "A person of Spot: login, names, e-mail, whether active, their groups", "Group"
    ),
    _published(_Group, "Group", "A group of Spot, whose members share its permissions", "User"),
]
RESOURCE_TYPES = [
    ResourceType(id="User", name="User", endpoint="/Users", schema_=USER_SCHEMA, description="People"),
    ResourceType(id="Group", name="Group", endpoint="/Groups", schema_=GROUP_SCHEMA, description="Groups"),
]


def base_url() -> str:
    return get_settings().public_url.rstrip("/") + API_PREFIX + PREFIX


def user_location(user_id: int) -> str:
    return f"{base_url()}/Users/{user_id}"


def group_location(group_id: int) -> str:
    return f"{base_url()}/Groups/{group_id}"


def user_resource(user: SpotUserRow) -> _User:
    return _User(
        id=str(user.id),
        external_id=user.external_id,
        user_name=user.login,
        name=_Name(given_name=user.first_name or None, family_name=user.last_name or None)
        if user.first_name or user.last_name
        else None,
        active=user.active,
        emails=[_Email(value=user.email)] if user.email else None,
        groups=[
            _Membership(value=str(group.id), ref=group_location(group.id), display=group.name)
            for group in user.groups
        ]
        or None,
        meta=Meta(resource_type="User", created=user.created_at, location=user_location(user.id)),
    )


def group_resource(group: SpotGroupRow, member_ids: list[int] | None) -> _Group:
    """`member_ids` None: the members were not asked for (excludedAttributes=members)."""
    members = None
    if member_ids:
        members = [_Member(value=str(user_id), ref=user_location(user_id)) for user_id in member_ids]
    return _Group(
        id=str(group.id),
        external_id=group.external_id,
        display_name=group.name,
        members=members,
        meta=Meta(resource_type="Group", location=group_location(group.id)),
    )


def patchable_user(user: SpotUserRow) -> _UserIn:
    """A stored person as a PATCH sees them: their one e-mail is the primary, work one."""
    shown = user_resource(user)
    return _UserIn(
        id=shown.id,
        external_id=shown.external_id,
        user_name=shown.user_name,
        name=shown.name,
        active=shown.active,
        emails=[_EmailIn(value=user.email, type="work", primary=True)] if user.email else None,
        groups=shown.groups,
        meta=shown.meta,
    )
