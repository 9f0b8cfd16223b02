"""cli/rich_fix: the fix reaches rich's Text when rich loads after it is installed, and installing it loads
neither rich nor importlib's resources."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from dianli.cli import rich_fix
rich_fix.install()
before = sorted(m for m in sys.modules if m.startswith(("rich", "importlib.resources", "importlib.abc")))
import rich.text
from rich.text import Text
line = Text("典禮 a ")
line.rstrip_end(5)  # five cells: the space beyond them goes (measured in characters it would stay)
print(before, getattr(Text.rstrip_end, "_dianli_cells", False), repr(line.plain),
      any(type(f).__name__ == "_Finder" for f in sys.meta_path))
"""


def test_the_fix_applies_when_rich_loads_later() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]", "True", "'典禮", "a'", "False"]
