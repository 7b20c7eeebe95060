# The companion for a club's small box (a Raspberry Pi with a 64-bit system, a NAS, a home
# server): docs/running.md, "In a container". Every dependency is pure Python or has a wheel for
# linux/amd64 and linux/arm64, so the image builds with no compiler on both:
#   docker buildx build --platform linux/amd64,linux/arm64 .
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Installed as a wheel, built from the checkout (the pages, their files and the catalogues ride
# inside the package), then the sources are dropped.
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY companion ./companion
COPY templates ./templates
COPY static ./static
RUN pip install . && rm -rf /src

# Not root: a user of its own, whose data folder (the store and the key that signs the phones'
# cookies) is the volume, so a new image keeps every match.
RUN useradd --system --create-home --uid 10001 scopa \
    && mkdir /data && chown scopa:scopa /data
ENV SCOPA_DATA=/data
VOLUME /data
USER scopa
WORKDIR /home/scopa

EXPOSE 8000

# No curl in a slim image: Python asks /healthz on the companion's port, SCOPA_PORT's (set to
# nothing, as unset: 8000). The one health check: compose.yaml sets none of its own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('SCOPA_PORT') or '8000'), timeout=4)"]

# Every interface of the container; the addresses phones open (the box's) come in SCOPA_URL,
# which compose.yaml passes from .env.
ENTRYPOINT ["scopa-companion", "--host", "0.0.0.0"]
