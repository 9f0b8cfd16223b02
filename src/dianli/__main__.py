"""``python -m dianli``: the command line, as the ``dianli`` script."""

from dianli.cli import main

main()
