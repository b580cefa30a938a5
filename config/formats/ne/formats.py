"""Nepali: Django has no formats for ``ne``. Western digits (docs/glossary-ne.md says why),
day before month as Nepal writes it, and lakh grouping (1,00,000) when numbers are grouped."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "g:i A"
DATETIME_FORMAT = "j F Y, g:i A"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d-m-Y"
SHORT_DATETIME_FORMAT = "d-m-Y H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday: the Nepali week starts on आइतबार
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)  # 1,00,000
