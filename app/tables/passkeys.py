"""The WebAuthn ceremonies of profiles, checked by the ``webauthn`` package (py_webauthn):
the origin, the RP id's hash, the challenge, user presence and verification, the
signature, and the signature counter (a passkey whose counter goes back is refused).

:class:`RelyingParty` is who we are to an authenticator: the RP id (the host of
``FIVEUP_PUBLIC_URL``, or of the request) and the one origin accepted. Passkeys are
discoverable (resident keys, user verification required): a sign-in names no user, the
authenticator offers the profiles it holds for this RP id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.db.profile_rows import NewPasskey, Passkey
from app.tables.errors import TableError

RP_NAME = "Five Up"


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """The RP id and the accepted origin of one request.

    >>> RelyingParty.of("https://fiveup.example/", "http", "127.0.0.1:8000")
    RelyingParty(rp_id='fiveup.example', origin='https://fiveup.example')
    >>> RelyingParty.of("", "http", "localhost:8000")
    RelyingParty(rp_id='localhost', origin='http://localhost:8000')
    """

    rp_id: str
    origin: str

    @classmethod
    def of(cls, public_url: str, scheme: str, host: str) -> RelyingParty:
        """From ``FIVEUP_PUBLIC_URL`` if set, else from the request's scheme and Host."""
        if public_url:
            parts = urlsplit(public_url.rstrip("/"))
            return cls(parts.hostname or "", f"{parts.scheme}://{parts.netloc}")
        parts = urlsplit(f"{scheme}://{host}")
        return cls(parts.hostname or "", f"{scheme}://{host}")


def _refused(exc: Exception) -> TableError:
    return TableError("passkey_refused", f"the passkey was not accepted: {exc}", 401)


def registration_options(
    rp: RelyingParty, user_handle: bytes, handle: str, display_name: str, timeout_ms: int
) -> tuple[bytes, dict[str, Any]]:
    """A registration's challenge and the options for ``navigator.credentials.create``."""
    options = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=RP_NAME,
        user_id=user_handle,
        user_name=handle,
        user_display_name=display_name,
        timeout=timeout_ms,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
    )
    return options.challenge, options_to_json_dict(options)


def verify_registration(
    rp: RelyingParty, credential: dict[str, Any], challenge: bytes
) -> NewPasskey:
    """The new passkey if the authenticator's answer passes every check, else
    ``401 passkey_refused``."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise _refused(exc) from exc
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )


def authentication_options(rp: RelyingParty, timeout_ms: int) -> tuple[bytes, dict[str, Any]]:
    """A sign-in's challenge and the options for ``navigator.credentials.get`` (no
    credentials listed: the passkey is discoverable)."""
    options = generate_authentication_options(
        rp_id=rp.rp_id,
        timeout=timeout_ms,
        user_verification=UserVerificationRequirement.REQUIRED,
        allow_credentials=[],
    )
    return options.challenge, options_to_json_dict(options)


def verify_authentication(
    rp: RelyingParty, credential: dict[str, Any], challenge: bytes, key: Passkey
) -> int:
    """The passkey's new signature counter if the assertion passes, else ``401
    passkey_refused`` (a counter that did not move forward included)."""
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
            credential_public_key=base64url_to_bytes(key.public_key),
            credential_current_sign_count=key.sign_count,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise _refused(exc) from exc
    return verified.new_sign_count
