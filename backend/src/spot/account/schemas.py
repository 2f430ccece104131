from pydantic import Field

from spot.core.schemas import CamelModel, Secret, Str
from spot.users.schemas import UserWithPermissions


class Credentials(CamelModel):
    username: Str = Field(max_length=200)
    password: str = Field(max_length=200)
    return_url: str | None = Field(default=None, max_length=2000)


class Reauthentication(CamelModel):
    password: Secret = Field(max_length=200)


class LoginResult(CamelModel):
    token: str
    redirect_url: str
    failed_attempts: int = Field(
        description="Wrong passwords given for this login (sign-in or re-authentication, from any address) "
        "since its previous sign-in with a password; the client tells the user when there were some"
    )


class TokenOut(CamelModel):
    token: str


class LogoutOut(CamelModel):
    end_session_url: str | None = Field(
        description="Where the browser goes to end the identity provider's session too (the session was "
        "opened through a provider offering it); null: on to the login page"
    )


class IdentityProviderOut(CamelModel):
    name: str
    login_url: str
    icon_url: str


class SessionCan(CamelModel):
    """What the signed-in user may do, as the server's policies decide it: the client shows its entries,
    pages and buttons from these answers rather than from a copy of the rules."""

    report_on_paths: bool = Field(description="May open the path report page and produce its reports")
    import_courses: bool = Field(description="May import a course (or a new version of one)")
    download_audit_packs: bool = Field(description="May download anyone's audit pack")
    create_qualifications: bool = Field(description="May create a qualification (the new qualification page)")
    edit_requalification: bool = Field(
        description="May set the functions a qualification opens, its requalification window and its default "
        "referents, also when creating one"
    )
    see_qualification_dashboards: bool = Field(
        description="May see anyone's qualification status, and the qualification dashboards by cartography, "
        "group or qualification"
    )


class WhoAmI(UserWithPermissions):
    can: SessionCan
