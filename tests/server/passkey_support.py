"""A software passkey for the server tests: an ES256 key pair that answers WebAuthn
ceremonies as an authenticator does — ``none`` attestation, user present and verified,
a signature counter — so the server's checks (py_webauthn) run on real signatures."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftPasskey:
    """One discoverable credential held for one RP id."""

    origin: str
    rp_id: str = ""
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    counter: int = 0
    user_handle: bytes = b""

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {
                "type": kind,
                "challenge": challenge,
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()

    def _auth_data(self, rp_id: str, flags: int, attested: bytes = b"") -> bytes:
        self.counter += 1
        return (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([flags])
            + struct.pack(">I", self.counter)
            + attested
        )

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)``."""
        self.rp_id = options["rp"]["id"]
        self.user_handle = unb64url(options["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = (
            bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + cose
        )
        auth = self._auth_data(self.rp_id, 0x01 | 0x04 | 0x40, attested)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        cid = b64url(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(
                    self._client_data("webauthn.create", options["challenge"], origin)
                ),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self, options: dict[str, Any], *, origin: str | None = None, counter: int | None = None
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)`` (``counter``: force the
        signature counter, as a cloned authenticator would show)."""
        if counter is not None:
            self.counter = counter - 1
        auth = self._auth_data(options.get("rpId", self.rp_id), 0x01 | 0x04)
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        cid = b64url(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client),
                "authenticatorData": b64url(auth),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle),
            },
            "clientExtensionResults": {},
        }
