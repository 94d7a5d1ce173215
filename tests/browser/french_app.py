"""A test-only app server whose every device shows the game screens in French.

Until the device's language setting (Home) is on main, the browser tests of the game
screens in French start the app through this script: it is `companion app --web` with
`App.words` set to French as each device's App is made. Not a product feature: the app
itself has no switch here; the setting replaces this once it lands.
"""

from __future__ import annotations

import sys
from typing import Any

from companion.app import main
from companion.language.render import language

_made = main.App.__init__


def _french(self: main.App, *args: Any, **kwargs: Any) -> None:
    _made(self, *args, **kwargs)
    self.words = language("fr")


main.App.__init__ = _french  # type: ignore[method-assign]

if __name__ == "__main__":
    port, db = int(sys.argv[1]), sys.argv[2]
    main.serve(port=port, db=db, web=True)
