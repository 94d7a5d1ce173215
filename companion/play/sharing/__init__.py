"""Sharing a table on the local network: codes, the limit on wrong tries, seats, who may record.

Nothing here imports Flet: the app's screens use these, and the tests check them without a
browser.
"""
