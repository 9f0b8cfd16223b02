"""Places over time: the administrative units (省, 府, 直隸州, 廳, 縣) with their periods, parents, seats and
sources; :mod:`dianli.places.map` draws a year's units, :mod:`dianli.places.governs` the governing witness."""
