"""``hexslinger print`` and ``print-posse``: the PDFs read back with pypdf -- page counts, a hex measured in
points (72 to the inch), the cards' rulebook texts, the tokens' size -- and every wrong argument a clear
message with exit status 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pypdf import PdfReader
from pypdf.generic import ContentStream

from game import cli
from game.posses import DATA_ENV, load_posse, save_posse
from game.resources import shipped_map
from game.tiledmap import load_tiled_map
from game.ui.print_map import OVERLAP, hex_pitch, plan_pages, write_map_pdf
from game.ui.print_pdf import INCH, PAPERS
from tests.maps_factory import standard_map

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No saved posse of the person running the tests takes part."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))


# -- reading the PDF back ---------------------------------------------------------------------------------


def _operations(reader: PdfReader, index: int) -> list[tuple[list[object], bytes]]:
    page = reader.pages[index]
    return list(ContentStream(page.get_contents(), reader).operations)


def _polygons(reader: PdfReader, index: int) -> list[list[tuple[float, float]]]:
    """Every closed outline drawn with moveto/lineto on the page (the hex grid), in points."""
    out: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    for operands, op in _operations(reader, index):
        if op == b"m":
            current = [(float(operands[0]), float(operands[1]))]  # type: ignore[arg-type]
        elif op == b"l":
            current.append((float(operands[0]), float(operands[1])))  # type: ignore[arg-type]
        elif op in (b"S", b"s") and len(current) == 6:
            out.append(current)
            current = []
    return out


def _images(reader: PdfReader, index: int) -> list[tuple[float, float, int, int]]:
    """Each picture placed on the page: (width pt, height pt, width px, height px)."""
    page = reader.pages[index]
    xobjects = page["/Resources"]["/XObject"]  # type: ignore[index]
    out = []
    matrix: list[float] = []
    for operands, op in _operations(reader, index):
        if op == b"cm":
            matrix = [float(v) for v in operands]  # type: ignore[arg-type]
        elif op == b"Do":
            image = xobjects[operands[0]].get_object()  # type: ignore[index, union-attr]
            out.append((matrix[0], matrix[3], int(image["/Width"]), int(image["/Height"])))
    return out


# -- the map at 1 hex = 1 inch ----------------------------------------------------------------------------


def test_a_pointy_hex_measures_one_inch_across_its_flats_on_every_sheet(tmp_path: Path) -> None:
    path = shipped_map("ranch_duel")
    assert path is not None
    out = tmp_path / "ranch.pdf"
    write_map_pdf(path, out, PAPERS["a4"], grid=True)
    reader = PdfReader(out)
    measured = 0
    for index in range(1, len(reader.pages)):  # page 0 is the page map
        hexes = _polygons(reader, index)
        assert hexes, f"sheet {index} has no grid"
        for points in hexes:
            xs = [x for x, _ in points]
            ys = [y for _, y in points]
            assert max(xs) - min(xs) == pytest.approx(INCH, abs=0.01)  # the flats, 72 pt
            assert max(ys) - min(ys) == pytest.approx(74 * INCH / 64, abs=0.01)  # point to point
            measured += 1
        # the art under the grid is scaled the same: 64 px of hex width to 72 pt
        art = [i for i in _images(reader, index) if i[2] > 64]
        assert art
        for width_pt, height_pt, width_px, height_px in art:
            assert width_pt / width_px * 64 == pytest.approx(INCH, abs=1e-3)
            assert height_pt / height_px * 64 == pytest.approx(INCH, abs=1e-3)
    assert measured > 300  # 20 x 16 hexes, some on two sheets


def test_a_flat_topped_hex_measures_one_inch_from_flat_to_flat(tmp_path: Path) -> None:
    path = standard_map(tmp_path, 6, 5, stagger_axis="x")  # 74 x 64 px tiles: the flats 64 px apart
    out = tmp_path / "flat.pdf"
    result = write_map_pdf(path, out, PAPERS["letter"], grid=True)
    assert result.hex_points == pytest.approx(INCH)
    geometry = load_tiled_map(path).geometry
    assert (geometry.tile_width, geometry.tile_height) == (73, 64)
    reader = PdfReader(out)
    assert len(reader.pages) == 2  # 6 x 5 hexes fit one sheet
    hexes = _polygons(reader, 1)
    assert len(hexes) == 30
    for points in hexes:
        ys = [y for _, y in points]
        xs = [x for x, _ in points]
        assert max(ys) - min(ys) == pytest.approx(INCH, abs=0.01)
        # corner to corner: Tiled's hex (an odd side of 37 px makes it 73 px wide), at 72/64 pt a pixel
        assert max(xs) - min(xs) == pytest.approx(geometry.tile_width * INCH / 64, abs=0.01)


def test_hex_pitch_is_the_distance_between_neighbours_across_a_flat() -> None:
    path = shipped_map("canyon_railyard")  # flat-topped, 74 x 64 px
    assert path is not None
    assert hex_pitch(load_tiled_map(path).geometry) == 64
    town = shipped_map("frontier_town")  # pointy, 64 x 74 px
    assert town is not None
    assert hex_pitch(load_tiled_map(town).geometry) == 64


@pytest.mark.parametrize(
    ("paper", "pages", "landscape"),
    [
        # frontier_town: 40 x 30 pointy hexes = 2592 x 1669 px = 2916 x 1877.6 pt at 72/64 pt a pixel.
        # A4 landscape: a 769.9 x 497.3 pt map area, 733.9 x 461.3 pt apart: 4 columns x 4 rows = 16
        # (portrait would be 6 x 3 = 18); the page map makes 17.
        ("a4", 17, True),
        # Letter portrait: 540 x 694 pt, 504 x 658 apart: 6 x 3 = 18 (landscape 5 x 4 = 20); 19 in all.
        ("letter", 19, False),
    ],
)
def test_page_count_for_each_paper(tmp_path: Path, paper: str, pages: int, landscape: bool) -> None:
    path = shipped_map("frontier_town")
    assert path is not None
    out = tmp_path / f"town-{paper}.pdf"
    result = write_map_pdf(path, out, PAPERS[paper])
    reader = PdfReader(out)
    assert len(reader.pages) == pages == result.pages
    assert result.plan.landscape is landscape
    width, height = PAPERS[paper].size(landscape)
    for page in reader.pages[1:]:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((width, height), abs=0.01)


def test_neighbouring_sheets_overlap_half_an_inch_and_together_cover_the_map() -> None:
    for paper in PAPERS.values():
        plan = plan_pages((2916.0, 1877.6), paper)
        first = plan.region(0, 0)
        last = plan.region(plan.rows - 1, plan.cols - 1)
        assert first[0] <= 0 and first[1] <= 0
        assert last[0] + last[2] >= 2916.0 and last[1] + last[3] >= 1877.6
        if plan.cols > 1:
            right = plan.region(0, 1)
            assert first[0] + first[2] - right[0] == pytest.approx(OVERLAP)
        if plan.rows > 1:
            below = plan.region(1, 0)
            assert first[1] + first[3] - below[1] == pytest.approx(OVERLAP)
    assert OVERLAP == INCH / 2


def test_the_page_map_names_every_sheet_and_the_sheets_their_neighbours(tmp_path: Path) -> None:
    path = shipped_map("ranch_duel")
    assert path is not None
    out = tmp_path / "ranch.pdf"
    result = write_map_pdf(path, out, PAPERS["letter"], coords=True)
    assert (result.plan.rows, result.plan.cols) == (2, 3)
    reader = PdfReader(out)
    overview = reader.pages[0].extract_text()
    assert "page map" in overview and "100%" in overview
    for label in ("A1", "A2", "A3", "B1", "B2", "B3"):
        assert label in overview
    a2 = reader.pages[2].extract_text()  # row A, column 2: neighbours A1, A3 and B2
    for neighbour in ("A1", "A3", "B2"):
        assert neighbour in a2
    assert "this bar is 1 inch" in a2
    everything = " ".join(p.extract_text() for p in reader.pages[1:])
    assert "0,0" in everything and "19,15" in everything  # --coords: the corner hexes


# -- the command ----------------------------------------------------------------------------------------


def test_print_writes_the_pdf_and_says_how_to_print_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ranch.pdf"
    assert cli.main(["print", "ranch_duel", "--out", str(out), "--paper", "letter", "--grid"]) == 0
    said = capsys.readouterr().out
    assert "7 pages" in said and "1 hex = 72 pt = 1 inch" in said and "100%" in said
    assert len(PdfReader(out).pages) == 7


def test_the_papers_of_the_command_line_are_the_printed_ones() -> None:
    assert set(cli.PAPERS) == set(PAPERS)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("missing/out.pdf", "does not exist; make it first"),
        ("afile/out.pdf", "which is a file, not a folder"),
        ("out.png", "does not end in .pdf"),
        ("folder.pdf", "is a folder"),
    ],
)
def test_an_out_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, expected: str
) -> None:
    (tmp_path / "afile").write_text("x")
    (tmp_path / "folder.pdf").mkdir()
    for command in (["print", "ranch_duel"], ["print-posse", "Sheriff's Posse"]):
        assert cli.main([*command, "--out", str(tmp_path / where)]) == 2
        err = capsys.readouterr().err
        assert expected in err and "Traceback" not in err
    assert not (tmp_path / "missing").exists()


def test_an_unknown_map_is_a_usage_error_naming_the_shipped_maps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["print", "atlantis", "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "unknown map 'atlantis'" in err and "ranch_duel" in err
    assert not (tmp_path / "x.pdf").exists()


def test_a_broken_map_lists_its_problems_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map><layer>")
    assert cli.main(["print", str(broken), "--out", str(tmp_path / "x.pdf")]) == 1
    err = capsys.readouterr().err
    assert f"cannot print {broken}" in err and "  - " in err


@pytest.mark.parametrize("command", [["print", "ranch_duel"], ["print-posse", "Rifter Crew"]])
def test_a_wrong_paper_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main([*command, "--out", str(tmp_path / "x.pdf"), "--paper", "a3"])
    assert stop.value.code == 2
    assert "invalid choice: 'a3' (choose from 'a4', 'letter')" in capsys.readouterr().err


# -- the posse: cards and tokens --------------------------------------------------------------------------


def _book(name: str) -> str | None:
    """The rulebook's words (whitespace made single), or None where the rulebooks are not beside the
    checkout (a fresh clone): the card's texts are still checked, their match with the book is not."""
    path = SEEDS / name
    return " ".join(path.read_text(encoding="utf-8").split()) if path.is_file() else None


def test_frontier_cards_carry_the_rulebooks_ability_texts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "law.pdf"
    assert cli.main(["print-posse", "Sheriff's Posse", "--out", str(out)]) == 0
    assert "4 unit cards and 8 tokens" in capsys.readouterr().out
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(out).pages)
    book = _book("001_619ae413cf833f14.txt")
    # "(Recharge 2) Follow Me! - The Sheriff can choose up to 2 other units within 4" of him. Units
    # chosen this way gain 1 additional AP each in the next Action Phase."
    sentence = (
        'The Sheriff can choose up to 2 other units within 4" of him. Units chosen this way gain 1 '
        "additional AP each in the next Action Phase."
    )
    assert book is None or sentence in book
    assert "Follow Me! (Recharge 2)" in text and sentence in text
    # "The Dog can disengage from Close Combat with an Enemy Unit for free if it has made an attack
    # against that Unit this turn." (in the book its words run over the rows of the Dog's stat table)
    dog = (
        "The Dog can disengage from Close Combat with an Enemy Unit for free if it has made an attack "
        "against that Unit this turn."
    )
    assert "Canine Agility (Passive)" in text and dog in text
    for stat in ("Move", "Ballistics", "Melee", "Toughness", "Wounds", "Leadership", "Cool"):
        assert stat in text
    assert 'Range 8"/16"' in text  # the Revolver, with its ranges


def test_a_rifters_card_has_its_attitudes_actions_and_traits_in_the_books_words(tmp_path: Path) -> None:
    out = tmp_path / "crew.pdf"
    assert cli.main(["print-posse", "Rifter Crew", "--ruleset", "rift", "--out", str(out)]) == 0
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(out).pages)
    book = _book("003_a4dcacdc099b9a82.txt")
    # Deliberate, level 1: "Down the Sights" and "Firearm Mastery"
    for sentence in (
        "The next shot you make that hits inflicts 4x as much stress.",
        "When firing your weapon, you may roll one additional die and drop the lowest result.",
    ):
        assert book is None or sentence in book
        assert sentence in text
    assert "Down the Sights [2AP]" in text
    assert "range 8t" in text  # the Model 13 rifle's 8 tiles


def test_golden_cards_give_each_weapons_range(tmp_path: Path) -> None:
    out = tmp_path / "marshal.pdf"
    assert cli.main(["print-posse", "Marshal's Posse", "--out", str(out), "--paper", "letter"]) == 0
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(out).pages)
    assert 'Ranged: 1d8 to 12", ammo 6' in text  # the Revolver
    assert 'Ranged: 2d8 to 2", 1d8 to 5", 1d6 to 8"' in text  # the Shotgun's three bands


def test_tokens_are_one_inch_across_one_and_its_out_of_action_face_per_unit(tmp_path: Path) -> None:
    from game.ui.print_posse import TOKEN_PX, write_posse_pdf

    draft = load_posse("rift", "Outlaw Gang")
    out = tmp_path / "gang.pdf"
    result = write_posse_pdf(draft, "Through the Rift", out, PAPERS["a4"])
    assert result.cards == len(draft.units) == 6
    assert result.tokens == 12
    reader = PdfReader(out)
    assert len(reader.pages) == result.pages
    token_page = len(reader.pages) - 1
    assert "tokens" in reader.pages[token_page].extract_text()
    placed = _images(reader, token_page)
    assert len(placed) == 12
    for width_pt, _h, width_px, _hp in placed:
        # the picture is wider than the base (its shadow; an out-of-action face is turned askew), and its
        # base is TOKEN_PX pixels: measured, those pixels are 72 pt
        assert width_pt / width_px * TOKEN_PX == pytest.approx(INCH, abs=1e-3)


def test_an_unknown_posse_lists_the_posses_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["print-posse", "The Dalton Boys", "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "there is no posse called 'The Dalton Boys'" in err
    assert "'Sheriff's Posse'" in err and "'Rifter Crew'" in err and "'Black Hat Gang'" in err
    assert (
        cli.main(["print-posse", "Rifter Crew", "--ruleset", "frontier", "--out", str(tmp_path / "x.pdf")])
        == 2
    )
    err = capsys.readouterr().err
    assert "there is no posse called 'Rifter Crew'" in err and "'Rifter Crew'" not in err.split("--", 1)[1]
    assert not (tmp_path / "x.pdf").exists()


def test_a_name_two_rulesets_share_needs_the_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for ruleset, source in (("frontier", "Sheriff's Posse"), ("golden", "Marshal's Posse")):
        save_posse(load_posse(ruleset, source), "Home Guard")
    assert cli.main(["print-posse", "Home Guard", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "in several rulesets (frontier, golden); name one with --ruleset" in capsys.readouterr().err
    out = tmp_path / "guard.pdf"
    assert cli.main(["print-posse", "home guard", "--ruleset", "golden", "--out", str(out)]) == 0
    assert "Home Guard (Golden Frontiers)" in capsys.readouterr().out
    assert "Marshal Haines" in PdfReader(out).pages[0].extract_text()


def test_a_posse_file_can_be_printed_and_a_damaged_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = save_posse(load_posse("frontier", "Blackwater Gang"), "Gang")
    out = tmp_path / "gang.pdf"
    assert cli.main(["print-posse", str(saved), "--out", str(out)]) == 0
    assert "Gang (Frontier)" in capsys.readouterr().out
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"format": "hexslinger-posse", "ruleset": "frontier", "units": [')
    assert cli.main(["print-posse", str(damaged), "--out", str(tmp_path / "y.pdf")]) == 2
    err = capsys.readouterr().err
    assert "damaged.json" in err and "Traceback" not in err


def test_a_card_too_long_for_one_goes_on_over_a_second_and_loses_no_text(tmp_path: Path) -> None:
    from game.rules.rift.builder import RiftUnit
    from game.rules.rift.character import Character
    from game.rules.rift.data import load_data
    from game.ui.print_posse import write_posse_pdf

    draft = load_posse("rift", "Rifter Crew")
    ch = Character(
        name="Maximilian Thunderbolt-Smythe",
        level=7,
        attitude="calculated",
        second_attitude="cunning",
        talents=("pugilist", "polyglot", "animal_friend"),
    )
    draft.replace_units([RiftUnit("rifter", ch.name, character=ch), *draft.units[1:]])
    out = tmp_path / "crew.pdf"
    result = write_posse_pdf(draft, "Through the Rift", out, PAPERS["a4"])
    assert result.cards == len(draft.units) + 1
    assert result.tokens == 2 * (len(draft.units) + 1)  # and Animal Friend's dog
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(out).pages)
    assert "Maximilian Thunderbolt-Smythe (contin" in text
    data = load_data()
    for trait in ("custom_blend", "bring_the_fireworks", "to_the_teeth", "battlefield_commander"):
        assert data.traits[trait].text in text
    for talent in ("pugilist", "polyglot", "animal_friend"):
        assert data.talents[talent].text in text


def _crosshairs(reader: PdfReader, index: int) -> set[tuple[float, float]]:
    """The centres of the crosshairs on a page (each a 20 pt horizontal stroke), in page points from the
    top-left as the sheets are laid out."""
    height = float(reader.pages[index].mediabox.height)
    out = set()
    start: tuple[float, float] | None = None
    for operands, op in _operations(reader, index):
        if op == b"m":
            start = (float(operands[0]), float(operands[1]))  # type: ignore[arg-type]
        elif op == b"l" and start is not None:
            end = (float(operands[0]), float(operands[1]))  # type: ignore[arg-type]
            if end[1] == start[1] and end[0] - start[0] == pytest.approx(20, abs=0.01):
                out.add((round(start[0] + 10, 1), round(height - start[1], 1)))
            start = None
    return out


def test_the_alignment_marks_of_a_shared_strip_are_the_same_map_points_on_both_sheets(
    tmp_path: Path,
) -> None:
    path = shipped_map("ranch_duel")
    assert path is not None
    out = tmp_path / "ranch.pdf"
    plan = write_map_pdf(path, out, PAPERS["a4"]).plan
    assert (plan.rows, plan.cols) == (2, 3)
    reader = PdfReader(out)
    ax, ay = plan.area[0], plan.area[1]

    def on_map(index: int, row: int, col: int) -> set[tuple[float, float]]:
        rx, ry, _, _ = plan.region(row, col)
        return {(round(x - ax + rx, 1), round(y - ay + ry, 1)) for x, y in _crosshairs(reader, index)}

    a1, a2, b1 = on_map(1, 0, 0), on_map(2, 0, 1), on_map(4, 1, 0)  # pages: the page map, A1 A2 A3, B1...
    strip_x = plan.region(0, 1)[0] + OVERLAP / 2  # the middle of the strip A1 and A2 share
    shared_a = {p for p in a1 if p[0] == pytest.approx(strip_x, abs=0.1)}
    assert len(shared_a) == 3
    assert shared_a <= a2
    strip_y = plan.region(1, 0)[1] + OVERLAP / 2  # the strip A1 and B1 share
    shared_b = {p for p in a1 if p[1] == pytest.approx(strip_y, abs=0.1)}
    assert len(shared_b) == 3
    assert shared_b <= b1
    assert not shared_b <= a2  # A2 is not below A1: it has other marks along its bottom
