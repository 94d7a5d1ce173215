"""Looking into a screen built without a browser: every control below a view or a row."""

from __future__ import annotations

import flet as ft


def every_control(control: ft.Control) -> list[ft.Control]:
    """`control` and every control below it (contents, rows, columns), depth first."""
    found = [control]
    for name in ("controls", "content"):
        below = getattr(control, name, None)
        for child in below if isinstance(below, list) else [below]:
            if isinstance(child, ft.Control):
                found.extend(every_control(child))
    return found
