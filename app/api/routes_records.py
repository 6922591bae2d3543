"""``POST /api/records/check``: a match record checked against the rules by the engine
(docs/record.md, "Checking a record"), for the record-check page (``/check``) and for
anyone's client. The body is the record itself, text form or JSON form (told apart by a
leading ``{``, as ``fiveup record check`` does), at most :data:`RECORD_MAX_BYTES` (a
long three-player match is about 80 KB as text and 350 KB as JSON). The verdict is the one the command prints; with it comes the record in its JSON
form whenever it could be read, so a browser can check each round's deal from its
revealed seed itself (docs/fairness.md)."""

from __future__ import annotations

import asyncio

from fastapi import Request
from pydantic import ValidationError

from app.api.quota_deps import RecordCheckQuota, quota_router
from app.records import to_data
from app.records.check import check
from app.records.cli import load
from app.records.text import RecordSyntaxError
from app.schemas import ErrorResponse, MatchRecord, RecordVerdict
from app.tables.errors import TableError

#: the largest record body this route reads (the server's other bodies: 64 KiB)
RECORD_MAX_BYTES = 1024 * 1024
CHECK_PATH = "/api/records/check"

router = quota_router(
    "/api/records",
    "records",
    {
        413: {"model": ErrorResponse, "description": "the body is over 1 MiB"},
        422: {
            "model": ErrorResponse,
            "description": "no body, or a JSON body that is not an object (invalid_request)",
        },
    },
)

_BODY = {
    "content": {
        "text/plain": {"schema": {"type": "string", "minLength": 1}},
        "application/json": {
            "schema": {"type": "object", "description": "the JSON form (MatchRecord)"}
        },
    },
    "required": True,
    "description": "a match record, text form or JSON form (docs/record.md)",
}


def verdict_of(text: str) -> RecordVerdict:
    """The verdict on a record's text (either form); never raises for bad input."""
    try:
        record = load(text)
    except RecordSyntaxError as exc:
        return RecordVerdict(valid=False, line=exc.line, problem=exc.problem, record=None)
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        return RecordVerdict(valid=False, line=1, problem=f"not a record: {exc}", record=None)
    try:
        result = check(record)
    except RecursionError:
        return RecordVerdict(valid=False, line=1, problem="not a record", record=None)
    try:
        data: MatchRecord | None = MatchRecord.model_validate(to_data(record))
    except ValidationError:  # read, but not in the shape a record's JSON form has
        data = None
    return RecordVerdict(valid=result.ok, line=result.line, problem=result.problem, record=data)


@router.post(
    "/check",
    response_model=RecordVerdict,
    response_model_exclude_unset=True,  # the record as its JSON form has it (docs/record.md)
    dependencies=[RecordCheckQuota],
    openapi_extra={"requestBody": _BODY},
)
async def check_record(request: Request) -> RecordVerdict:
    """Check a record (text or JSON form) through the rules engine: ``valid``, or the
    first problem with its line in the text form (``line`` 0 when valid). A body that is
    not a record is a verdict too (``valid: false``); only a missing body, or a JSON body
    that is not an object, is ``422 invalid_request``."""
    body = await request.body()
    text = body.decode("utf-8", errors="replace")
    if not text.strip():
        raise TableError("invalid_request", "the body is the record to check", 422)
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media == "application/json" and not text.lstrip().startswith("{"):
        raise TableError("invalid_request", "a JSON body is the record's JSON form, an object", 422)
    # The replay is CPU work of a few milliseconds: off the event loop all the same.
    return await asyncio.to_thread(verdict_of, text)
