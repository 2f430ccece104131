from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel, Email, OptionalText, Text

Outcome = Literal["created", "updated", "unchanged", "deactivated", "refused"]


class RowError(CamelModel):
    column: str = Field(description="The file's column (login, email…), or 'file' for the row as a whole")
    code: str = Field(
        description="A message key: emptyFieldError, invalidEmail, unknownGroup, duplicateInFile…"
    )


class RowOutcome(CamelModel):
    line: int | None = Field(
        description="The file's line (the header is 1); null for a person missing from it"
    )
    login: str
    name: str = Field(description="The person's printed name after the import")
    outcome: Outcome
    errors: list[RowError]


class ImportReport(CamelModel):
    applied: bool = Field(description="False for a dry run, or when any row is refused (nothing is changed)")
    created: int
    updated: int
    unchanged: int
    deactivated: int
    refused: int
    rows: list[RowOutcome] = Field(description="The file's rows in order, then the people missing from it")


class ImportedPerson(CamelModel):
    """A row's values, checked by the rules of the users screen."""

    login: Text = Field(max_length=200)
    first_name: OptionalText = Field(default="", max_length=200)
    last_name: OptionalText = Field(default="", max_length=200)
    external_id: OptionalText = Field(default="", max_length=200)
    email: Email = None
