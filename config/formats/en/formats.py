"""English numbers with a comma between thousands ("1,000"); Django's own "en" formats keep the rest."""

THOUSAND_SEPARATOR = ","
DECIMAL_SEPARATOR = "."
NUMBER_GROUPING = 3
