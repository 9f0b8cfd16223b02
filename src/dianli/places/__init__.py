"""Places of the rites: 省城, 府, 直隸州, 縣, 廳 of Fujian and Taiwan, with coordinates and governing witness."""
