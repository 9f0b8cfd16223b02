"""Open data: the whole model as a Frictionless data package (``dianli export``)."""
