"""dianli (典禮): the Qing state ritual code of Fujian and Taiwan as executable, cited software."""

__version__ = "0.1.0"
