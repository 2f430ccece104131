from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


@cache
def _dummy_hash() -> str:
    """Verified against when the login is unknown, so that both failure paths cost the same. Made on
    first need, not when a process starts (an argon2 hash each time)."""
    return _hasher.hash("spot-dummy-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False
