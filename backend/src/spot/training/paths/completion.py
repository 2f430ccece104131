"""A completion and its colour (spec 2 §9), computed here and sent with every completion, so that no
client decides the bands: round(done / total × 100), half up; -1 (not quantifiable) when there is
nothing to count. Colours: error under ACCENT_FROM, the accent under SUCCESS_FROM, success from it; none
at -1."""

from typing import Literal

from pydantic import Field, computed_field

from spot.core.schemas import CamelModel

CompletionColour = Literal["error", "accent", "success"]
ACCENT_FROM = 33
SUCCESS_FROM = 66


def completion(done: int, total: int) -> int:
    """round(done / total × 100), half up; -1 when there is nothing to count."""
    if total <= 0:
        return -1
    return (done * 200 + total) // (total * 2)


def colour(value: int) -> CompletionColour | None:
    if value < 0:
        return None
    if value < ACCENT_FROM:
        return "error"
    if value < SUCCESS_FROM:
        return "accent"
    return "success"


class WithCompletion(CamelModel):
    """A record with a completion, sent with its colour."""

    completion: int = Field(description="round(done / total × 100); -1 when there is nothing to count")

    @computed_field(  # type: ignore[prop-decorator]
        description=f"The completion's colour (spec 2 §9): under {ACCENT_FROM} error, {ACCENT_FROM} to "
        f"{SUCCESS_FROM - 1} accent, {SUCCESS_FROM} and above success; null when the completion is -1"
    )
    @property
    def completion_colour(self) -> CompletionColour | None:
        return colour(self.completion)
