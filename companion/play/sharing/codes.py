"""Table codes: random, easy to read aloud and type, read loosely when typed, not logged."""

from __future__ import annotations

import secrets

# 32 symbols, so each carries 5 bits; no 0 or O, no 1 or I, which read alike.
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 8  # 8 x 5 = 40 bits
BITS = LENGTH * 5
# What people type between groups, or by habit: ignored when a code is read.
_SEPARATORS = str.maketrans("", "", " -_.")
# The key that opens the host's own screens: longer, it is only ever opened as a link.
HOST_KEY_BYTES = 16


def new_code() -> str:
    """A fresh table code: LENGTH symbols of ALPHABET from the system's secure source."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def new_host_key() -> str:
    """A fresh key for the host's own link (128 bits, URL-safe)."""
    return secrets.token_urlsafe(HOST_KEY_BYTES)


def normalise(text: str) -> str:
    """A typed code as it is compared: upper case, spaces and dashes dropped."""
    return text.translate(_SEPARATORS).upper()


def grouped(code: str) -> str:
    """A code in two groups of four, as shown and read aloud: 'AB2C-D3EF'."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def masked(text: str) -> str:
    """What a log may say of a code someone typed: its first symbol and its length, no more."""
    shown = "".join(ch for ch in text[:1] if ch.isprintable())
    return f"{shown}… ({len(text)} characters)"
