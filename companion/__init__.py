"""Summoner's Isle Companion: rules engine, saved games and the Flet app."""
