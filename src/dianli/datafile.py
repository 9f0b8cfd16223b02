"""Package data files: read a YAML file shipped with a dianli package and validate it with a model.

A broken file is a :class:`DataError` naming the file (``dianli/<package>/<path>``) and the field.
"""

from __future__ import annotations

from importlib import resources
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from dianli.errors import DataError

M = TypeVar("M", bound=BaseModel)


def load_model(package: str, path: str, model: type[M]) -> M:
    """Load ``path`` (relative to the package ``dianli.<package>``) as an instance of ``model``."""
    where = f"dianli/{package}/{path}"
    text = resources.files(f"dianli.{package}").joinpath(path).read_text(encoding="utf-8")
    try:
        return model.model_validate(yaml.safe_load(text))
    except yaml.YAMLError as exc:
        raise DataError(f"{where}: not valid YAML: {exc}") from exc
    except ValidationError as exc:
        raise DataError(f"{where}: {exc}") from exc
