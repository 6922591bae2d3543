# Five Up Online server image. Used by docker-compose.yml (with PostgreSQL); also
# runs alone on a SQLite file in the /data volume:
#   docker build -t fiveup . && docker run -p 8000:8000 fiveup

# The wheel, its move path compiled by mypyc (setup.py), built where a C compiler is.
FROM python:3.11 AS wheel
COPY . /src
RUN pip wheel --no-deps --wheel-dir /wheels /src \
    && python -c "import glob, zipfile; names = zipfile.ZipFile(glob.glob('/wheels/*.whl')[0]).namelist(); assert any(n.endswith('.so') for n in names), 'built without its compiled modules'"

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/fiveup

# Dependencies first (their own layer, rebuilt only when pyproject.toml changes).
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The application, installed as a package (not in place): the wheel carries the
# migrations and the browser client inside `app` (pyproject.toml; found at run time by
# app/core/resources.py), so the source tree is not kept in the image.
COPY --from=wheel /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl \
    && rm -rf /tmp/wheels \
    && useradd --system --uid 10001 --home-dir /srv/fiveup fiveup \
    && mkdir -p /data && chown fiveup /data

USER fiveup
VOLUME ["/data"]
EXPOSE 8000
# Default: a SQLite file in the volume. docker-compose.yml points it at PostgreSQL.
ENV DATABASE_URL=sqlite:////data/fiveup.db

HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]

# `fiveup serve` runs the migrations (alembic upgrade head), then uvicorn.
CMD ["fiveup", "serve", "--host", "0.0.0.0", "--port", "8000"]
