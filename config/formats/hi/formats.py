"""Hindi: Django's ``hi`` formats with a full date-time and lakh grouping (1,00,000)
when numbers are grouped (docs/glossary-hi.md)."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "g:i A"
DATETIME_FORMAT = "j F Y, g:i A"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d-m-Y"
SHORT_DATETIME_FORMAT = "d-m-Y H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday, as Indian calendars print the week
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)  # 1,00,000
