"""The web server's cycle collector settings (docs/hosting.md, "Pauses of the cycle collector")."""

import gc

from companion.app.collector import FULL, MIDDLE, YOUNG, tune_for_serving


def test_serving_freezes_what_is_loaded_and_makes_collections_rarer() -> None:
    before = gc.get_threshold()
    try:
        tune_for_serving()
        assert gc.get_threshold() == (YOUNG, MIDDLE, FULL)
        assert before[0] < YOUNG and before[2] < FULL
        # What was loaded before the first page is out of every later collection's walk.
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
