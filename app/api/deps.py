"""FastAPI dependencies: the service from app state, the bearer token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from app.tables.errors import TableError
from app.tables.moderation import Moderation
from app.tables.service import TableService


def get_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def get_moderation(request: Request) -> Moderation:
    moderation: Moderation = request.app.state.moderation
    return moderation


def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The seat token from ``Authorization: Bearer <token>`` (None if absent)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 256:
        raise TableError("unauthorized", "use 'Authorization: Bearer <seat token>'", 401)
    return token.strip()


ServiceDep = Annotated[TableService, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(bearer_token)]
ModerationDep = Annotated[Moderation, Depends(get_moderation)]
