"""Text set in the app's font: a title is set as large as fits its room."""

from companion.play.text_width import fitting_size, text_width


def test_a_title_is_set_as_large_as_fits() -> None:
    room = text_width("◈ Round 6/7", 18, bold=False)
    assert fitting_size("◈ Round 6/7", room, 20, 16) == 18
    assert fitting_size("◈ Round 6/7", room + 100, 20, 16) == 20
    # Nothing fits: the smallest size, never a smaller one.
    assert fitting_size("◈ Round 6/7", 10, 20, 16) == 16


def test_the_game_bar_title_fits_a_360_px_phone_in_english_and_french() -> None:
    import flet as ft

    from companion.app.game_panels import SMALLEST_TITLE, TITLE_SIZE, GameBar
    from companion.language import Message
    from companion.language.render import language

    for code in ("en", "fr"):
        words = language(code)
        title = words.render(Message("game.bar.round", round=6, final=7))
        bar = GameBar(lambda _: None, "g", print, print, words, ft.IconButton(), 360)
        size = fitting_size(title, bar.room, TITLE_SIZE, SMALLEST_TITLE)
        assert text_width(title, size, bold=False) <= bar.room


def test_the_sideways_rail_says_the_round_in_words_where_they_fit_else_its_rune() -> None:
    import flet as ft

    from companion.app.screens.board_side import SideRail
    from companion.boards import shipped_board
    from companion.engine import Game
    from companion.language.render import language
    from companion.play.board_frame import side_width
    from models.setup import GameSetup

    board = shipped_board("gathering-isle")
    players = [{"id": "red"}, {"id": "blue"}, {"id": "green"}]
    setup = GameSetup(players=players, board=board.id, mode="digital")
    state = Game(setup, board).new_initial_state()
    rail = SideRail(print, "g", (print, print, print), language("fr"), ft.IconButton())
    shown = {}
    for width, height in ((740, 360), (844, 390)):
        rail.room = side_width(board, width, height)
        rail.show(state, None, None)
        shown[width] = (rail.title.value, rail.title.semantics_label)
    # On the smallest phone on its side, the rune and numbers, the words kept as its label.
    assert shown[740] == ("◈ 1/6", "◈ Manche 1/6")
    assert shown[844] == ("◈ Manche 1/6", None)
