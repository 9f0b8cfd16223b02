"""The ritual calendar: reign years, 干支, lunar months, solar terms, 時辰/刻, and the date rules of the rites."""
