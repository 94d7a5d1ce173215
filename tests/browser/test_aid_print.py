"""The player aid the server serves at /aid prints on two sides in Chromium, in each
language, on A4 and on Letter, asking nothing of another host (conftest.py)."""

from __future__ import annotations

import re

import pytest

from companion.boards import shipped_board_ids

# A PDF's page objects ("/Type /Pages" is the tree that holds them).
PAGE_OBJECT = re.compile(rb"/Type\s*/Page\b(?!s)")
MOST_SIDES = 2


def sides(pdf: bytes) -> int:
    """How many pages a PDF Chromium printed has."""
    return len(PAGE_OBJECT.findall(pdf))


def test_a_pdf_of_three_pages_counts_three(browser):
    page = browser.new_page()
    page.set_content("<p>1</p>" + "".join('<p style="break-before: page">n</p>' for _ in "ab"))
    assert sides(page.pdf(format="A4")) == 3


@pytest.mark.parametrize("code", ["en", "fr"])
def test_the_aid_prints_on_two_sides_for_every_shipped_board(server, browser, artifacts, code):
    page = browser.new_page()
    for board in shipped_board_ids():
        answer = page.goto(f"{server.url}/aid?lang={code}&board={board}")
        assert answer is not None and answer.status == 200
        assert page.locator("html").get_attribute("lang") == code
        assert page.locator("section").count() == 11
        for paper in ("A4", "Letter"):
            printed = page.pdf(format=paper)
            assert 1 <= sides(printed) <= MOST_SIDES, (board, paper)
    (artifacts / f"aid-{code}.pdf").write_bytes(page.pdf(format="A4"))
