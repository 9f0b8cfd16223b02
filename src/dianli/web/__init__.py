"""The web app: every page of dianli served locally (FastAPI, Jinja2; no CDN)."""
