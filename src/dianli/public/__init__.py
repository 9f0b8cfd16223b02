"""The public Python API of dianli, as ``import dianli`` exposes it (see ``dianli/__init__.pyi``): a dozen
entry points returning objects with methods, tables with stable keys that turn into pandas DataFrames."""
