"""The player aid: the rules at a glance, made from the rules table and the engine's odds.

`content.aid_sections` builds it as data (sections of messages and tables), `page.aid_page`
as a printable HTML page; the command line (`python -m companion aid`), the web server
(`/aid`) and the app show the same content (docs/aid.md).
"""
