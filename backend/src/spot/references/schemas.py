from pydantic import Field, StrictInt

from spot.core.schemas import CamelModel, MultilineText, Text


class ReferenceSummary(CamelModel):
    """A reference as other entities show it (a module's or a path's reference)."""

    code: str
    label: str
    description: str


class ReferenceCard(ReferenceSummary):
    """A reference of the list and of the autocomplete."""

    disabled: bool


class ReferenceCan(CamelModel):
    """What the signed-in user may do with this reference, from spot.references.policy."""

    edit: bool
    delete: bool


class ReferenceOut(ReferenceCard):
    version: int
    usage: int = Field(description="How many modules (module references) or paths (path references) use it")
    can: ReferenceCan


class ReferenceSave(CamelModel):
    """Create or save (spec 2 §7): without `version` (the spec's payload) it creates the reference, or
    saves the one of that code when it exists; `version` 0 only creates (409 alreadyExists on `code`
    when the code is taken: Spot's dialog, which must not overwrite another reference); another version
    saves the reference of that code read at that version (409 staleVersion). The code never changes."""

    code: Text = Field(max_length=100)
    label: Text = Field(max_length=300)
    description: MultilineText = Field(default="", max_length=5000)
    disabled: bool = False
    version: StrictInt | None = Field(
        default=None,
        ge=0,
        le=2**31 - 1,
        description="Absent: create or save; 0: create only; else the version read (a stale one answers 409)",
    )


class ReferenceUsage(CamelModel):
    usage: int
