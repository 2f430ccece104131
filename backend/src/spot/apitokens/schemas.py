from datetime import datetime
from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel, Text

Scope = Literal["scim"]


class ApiTokenOut(CamelModel):
    id: int
    name: str
    scope: Scope
    created_at: datetime
    created_by: str | None = Field(description="Who created it; null when made on the command line")
    last_used_at: datetime | None
    revoked_at: datetime | None


class ApiTokenCreate(CamelModel):
    name: Text = Field(max_length=200)
    scope: Scope


class ApiTokenCreated(CamelModel):
    token: str = Field(description="The token itself, shown this once: only its hash is kept")
    record: ApiTokenOut
