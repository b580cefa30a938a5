"""Date and number formats per language where Django's own are missing or not ours.

Django looks here first (FORMAT_MODULE_PATH) and falls back to its own locale formats
for anything not set. German uses Django's ``de`` formats unchanged. The choices (digits,
grouping) are explained in docs/glossary-ne.md and docs/glossary-hi.md.
"""
