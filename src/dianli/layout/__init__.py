"""Layouts as SVG: altar plans (陳設圖), tables of offerings, tablet plans (神主位次) and seating plans.

Pure functions from resolved rite data to an SVG string (every text escaped, each with a legend); the
program and the web app only call them. The drawing rules are data (``data/layout.yaml``).
"""
