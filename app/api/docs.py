"""``/docs``: Swagger UI from packaged files, never from a CDN.

FastAPI's default ``/docs`` page loads Swagger UI from a CDN without integrity and
starts it with an inline script, which the Content-Security-Policy of
``app/api/headers.py`` forbids. Here the page is plain HTML; Swagger UI's
``swagger-ui-bundle.js`` and ``swagger-ui.css`` come from the ``fastapi-offline``
package (a dependency that ships Swagger UI's dist files), and the start-up script is a
file of its own (``/docs/assets/init.js``). ``FIVEUP_DOCS=false`` turns the page off
(``/openapi.json`` stays). The app must be built with ``docs_url=None, redoc_url=None``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response

router = APIRouter(include_in_schema=False)

#: Swagger UI's dist files as packaged by fastapi-offline
ASSETS = Path(str(files("fastapi_offline") / "static"))
_SERVED = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon.png": "image/png",
}

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Five Up Online - API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/docs/assets/favicon.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
"""

_INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""


@router.get("/docs")
async def docs_page() -> HTMLResponse:
    return HTMLResponse(_PAGE)


@router.get("/docs/assets/init.js")
async def docs_init() -> Response:
    return Response(_INIT, media_type="text/javascript")


@router.get("/docs/assets/{name}")
async def docs_asset(name: str) -> FileResponse:
    media_type = _SERVED.get(name)
    if media_type is None:
        raise HTTPException(404, detail={"code": "not_found", "message": "no such file"})
    return FileResponse(ASSETS / name, media_type=media_type)
