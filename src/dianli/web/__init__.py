"""The web app: every page of dianli served locally (FastAPI, Jinja2; no CDN)."""

import dianli.api  # noqa: F401  (import order: the facade first)
