from datetime import datetime
from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel, Email, Id, OptionalText, Secret, Text

Language = Literal["fr", "en"]


class GroupRef(CamelModel):
    id: int
    name: str


class GroupOut(CamelModel):
    id: int
    name: str
    permissions: list[str] = Field(validation_alias="permission_names")


class UserOut(CamelModel):
    id: int
    # Null but for those who manage users (perm_UserManagement) and for the user themself.
    login: str | None
    first_name: str
    last_name: str
    external_id: str | None
    # Null but for those who manage users and for the user themself, as the login.
    email: str | None
    display_name: str
    groups: list[GroupRef]
    active: bool = Field(description="False once the person is deactivated (left the organisation)")
    deactivated_at: datetime | None
    language: Language = Field(description="What the server writes for the person is in this language")


class UserWithPermissions(UserOut):
    permissions: list[str] = Field(validation_alias="permission_names")


class UserCreate(CamelModel):
    login: Text = Field(max_length=200)
    password: Secret = Field(min_length=8, max_length=200)
    first_name: OptionalText = Field(default="", max_length=200)
    last_name: OptionalText = Field(default="", max_length=200)
    external_id: OptionalText | None = Field(default=None, max_length=200)
    email: Email = None
    language: Language = "fr"
    group_ids: list[Id] = Field(default=[], max_length=1000)


class UserUpdate(CamelModel):
    login: Text = Field(max_length=200)
    first_name: OptionalText = Field(default="", max_length=200)
    last_name: OptionalText = Field(default="", max_length=200)
    external_id: OptionalText | None = Field(default=None, max_length=200)
    email: Email = None
    language: Language | None = Field(default=None, description="Unchanged when absent")
    group_ids: list[Id] | None = Field(default=None, max_length=1000)


class PasswordChange(CamelModel):
    password: Secret = Field(min_length=8, max_length=200)


class GroupSave(CamelModel):
    name: Text = Field(max_length=200)


class UserGroups(CamelModel):
    group_ids: list[Id] = Field(max_length=1000)


class LanguageChoice(CamelModel):
    language: Language
