"""The player aid: the rules at a glance, made from the rules table and the engine's odds.

`content.aid_sections` builds it as data (sections of messages and tables), `page.aid_page`
as a printable HTML page, which the command line (`python -m companion aid`) prints and the
web server answers at `/aid` (docs/aid.md).
"""
