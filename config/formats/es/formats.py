"""Spanish numbers as Spanish poker rooms write chips: a point between thousands ("1.000",
"12.500"), also for four-digit amounts; Django's own "es" formats keep the rest."""

THOUSAND_SEPARATOR = "."
DECIMAL_SEPARATOR = ","
NUMBER_GROUPING = 3
