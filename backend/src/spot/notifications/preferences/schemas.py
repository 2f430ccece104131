from pydantic import Field

from spot.core.schemas import CamelModel, Str
from spot.notifications.kinds import KindGroup, Mode


class PreferenceOut(CamelModel):
    kind: str = Field(description="A kind of the bell, or mediationInvitation")
    group: KindGroup = Field(description="How the page gathers the kinds")
    mode: Mode = Field(description="How the person receives it: the chosen mode, else the default")
    default: Mode = Field(description="The kind's mode until the person chooses")


class Preferences(CamelModel):
    """Every kind a person chooses for, in the order the page lists them, and where messages go."""

    preferences: list[PreferenceOut]
    address: str | None = Field(description="The person's e-mail address; none: Spot sends them nothing")


class PreferenceIn(CamelModel):
    # Checked by the service, which answers unknownNotificationKind or unknownNotificationMode.
    kind: Str = Field(max_length=60)
    mode: Str = Field(max_length=10)


class PreferencesIn(CamelModel):
    """The kinds to change (the others stay as they are); a kind set to its default follows the
    default from then on."""

    preferences: list[PreferenceIn] = Field(max_length=100)
