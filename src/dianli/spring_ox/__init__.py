"""土牛芒神: the spring ox and the Mang god of a year, by rule sets held as data (profiles)."""
