"""The player aid: the rules at a glance, made from the rules table and the engine's odds.

`content.aid_sections` builds it as data: sections of messages and small tables, to be
rendered in any language (docs/aid.md).
"""
