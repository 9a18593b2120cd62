"""The stand-alone stage commands ``render``, ``uv``, ``impose``, ``emboss`` and ``dice``: each runs
one stage of the build for quick iteration and writes straight into its output folder (see README
"Commands"). Thin: parse, call the stage, print, exit 0/1/2.
"""

from __future__ import annotations

from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer

from engine.findings import Finding
from pipeline.cli.common import (Format, back_offset_or_exit, exit_on, fail, finish_with_findings, load_or_exit, out, out_option,
                                 target_option)

GAME_DIR = Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")]


class EmbossFileFormat(str, Enum):
    """Embosser file formats to write."""

    brf = "brf"
    pef = "pef"
    both = "both"


class EmbossLayout(str, Enum):
    """One card per embosser page, or several cards per sheet to cut apart."""

    card = "card"
    sheet = "sheet"


def emboss(
    game_dir: GAME_DIR,
    profile: Annotated[str, typer.Option(help="Embosser profile id (templates/embossers/<id>.yaml), e.g. card-3x5, index-everest-d.")] = "card-3x5",
    format: Annotated[EmbossFileFormat, typer.Option("--format", help="brf, pef or both.")] = EmbossFileFormat.both,
    layout: Annotated[EmbossLayout, typer.Option(help="card: one card per page; sheet: several cards per page, cut apart.")] = EmbossLayout.card,
    out_dir: Annotated[Optional[Path], out_option("Output folder (default output/<game>/emboss).")] = None,
    copies: Annotated[bool, typer.Option(help="Emboss every printed copy on sheets too (the card layout always does, unless --unique).")] = False,
    unique: Annotated[bool, typer.Option("--unique", help="One page per unique card, not one per physical card.")] = False,
    interpoint: Annotated[bool, typer.Option(help="Both sides of the paper (sheet layout, profiles that offer it).")] = False,
) -> None:
    """Write BRF (with its JSON sidecar) and PEF embosser files of a game's card braille.

    Example: [bold]deckpress emboss carddata/apprentice --profile index-everest-d --layout sheet[/bold]
    """
    from pipeline.braille.layout import layout_deck
    from pipeline.common.files import OutputError
    from pipeline.emboss.profiles import EmbossError
    from pipeline.emboss.write import FORMATS, write_embosser_files

    deck = load_or_exit(game_dir, Format.text)
    blocks, braille_findings = layout_deck(deck)  # the game's profile; BR005 when unknown
    formats = FORMATS if format is EmbossFileFormat.both else (format.value,)
    target = out_dir or Path("output") / deck.game.id / "emboss"
    expand = False if unique else (True if copies else None)  # None: the layout's default
    with exit_on(EmbossError, OutputError):
        result = write_embosser_files(deck, blocks, target, profile, layout.value, formats, copies=expand, interpoint=interpoint)
    for path in result.paths:
        out.print(f"wrote {path}", markup=False)
    finish_with_findings(deck, list(braille_findings) + list(result.findings))


def dice(
    game_dir: GAME_DIR,
    out_dir: Annotated[Optional[Path], out_option("Output folder (default output/<game>/dice).")] = None,
) -> None:
    """Write one die face sheet PDF per die of a game: faces at actual size, numeral, braille dots, orientation bar, key.

    Example: [bold]deckpress dice carddata/apprentice --out output/apprentice/dice[/bold]
    """
    from pipeline.common.files import OutputError
    from pipeline.dice.sheet import render_dice

    deck = load_or_exit(game_dir, Format.text)
    folder = out_dir or Path("output") / deck.game.id / "dice"
    with exit_on(OutputError), _drafts(deck, folder) as drafts:
        sheets = render_dice(deck, folder)
        drafts += [s.path for s in sheets]
    for sheet in sheets:
        out.print(f"wrote {sheet.path}", markup=False)
    finish_with_findings(deck, [f for s in sheets for f in s.findings])


def render(
    game_dir: GAME_DIR,
    out_dir: Annotated[Optional[Path], out_option("Output folder (default output/<game>/print).")] = None,
    verify_qr: Annotated[bool, typer.Option("--verify-qr", help="Render every QR at 300 dpi and decode it (a few ms per card).")] = False,
    target: Annotated[str, target_option()] = "fogra39",
) -> None:
    """Write the print PDFs of a game: one front per unique card, one page per card back (PDF/X-1a:2003, CMYK, 3×5 in + bleed).

    Example: [bold]deckpress render carddata/apprentice --out output/apprentice/print --verify-qr[/bold]
    """
    from pipeline.common.files import OutputError
    from pipeline.common.layout import load_layout
    from pipeline.qr.codes import verify_qr as decode_qr  # not the --verify-qr flag's name
    from pipeline.render.deck_pdf import UnknownClassError, render_backs, render_fronts, unknown_class_findings
    from pipeline.render.pdfx import PdfxError
    from pipeline.render.style import LayoutError

    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    folder = out_dir or Path("output") / deck.game.id / "print"
    with exit_on(LayoutError, PdfxError, OutputError), exit_on(UnknownClassError, code=1), _drafts(deck, folder) as drafts:
        fronts = render_fronts(deck, folder / f"{deck.game.id}-fronts.pdf", target=target)
        backs = render_backs(deck, folder / f"{deck.game.id}-backs.pdf", target=target)
        drafts += [fronts.path, backs.path]
    findings = list(fronts.findings) + list(backs.findings)
    if verify_qr:
        layout = load_layout()
        box = layout.qr.to_pdf(layout.trim.height, layout.bleed)
        findings += decode_qr(fronts.path, [(c.id, deck.game.archive.url_for(c)) for c in deck.cards], box)
    out.print(f"wrote {fronts.path} ({len(fronts.pages)} fronts) and {backs.path} ({len(backs.pages)} backs)", markup=False)
    finish_with_findings(deck, findings)


@contextmanager
def _drafts(deck, folder: Path) -> Iterator[list[Path]]:
    """Stamp the PDFs a stand-alone command writes in this block as drafts (Title and Subject), as a
    build without ``--release`` does: only ``deckpress build --release`` makes press files.

    :func:`pipeline.render.pdfx.finish` writes every PDF under ``folder`` with the draft info at once
    (:func:`pipeline.render.docinfo.press_info`); the paths the block adds to the yielded list are
    stamped after it (:func:`~pipeline.render.docinfo.set_document_info` only reads those finish wrote).
    """
    from pipeline.build.release import document_info, draft_counts
    from pipeline.render.docinfo import press_info, set_document_info

    info = document_info(deck, "box", False, draft_counts(deck))
    written: list[Path] = []
    with press_info(info, [folder]):
        yield written
    for path in written:
        if Path(path).suffix == ".pdf":
            set_document_info(path, info)


def _front_pages_or_exit(fronts: Path, cards: int, game_dir: Path) -> None:
    """Read the fronts PDF given to ``uv --fronts`` before anything is written; exit 2 when it
    does not read or its page count is not the game's number of unique cards."""
    from pipeline.render.formpages import CardPages, CardPdfError

    with exit_on(CardPdfError):
        front_pages = len(CardPages(fronts, "fronts").pages)
    if front_pages != cards:
        fail(f"the fronts PDF {fronts} has {front_pages} pages, the game {cards} unique cards; "
             f"render it again (deckpress render {game_dir})")


def uv(
    game_dir: GAME_DIR,
    out_dir: Annotated[Optional[Path], out_option("Output folder (default output/<game>/uv).")] = None,
    spot: Annotated[str, typer.Option(help="Spot colour name of the UV plate: Braille, RDG_GLOSS (Roland), 'Spot 1' (Arizona) …")] = "Braille",
    fronts: Annotated[Optional[Path], typer.Option(help="Print PDF of the fronts to merge the braille plate into (writes <game>-fronts+braille.pdf).")] = None,
    uv_printer: Annotated[str, typer.Option(help="UV printer profile (templates/uv-printers/): flat-plate, roland-versaworks, arizona, mimaki-rasterlink, height-map, generic-separations.")] = "flat-plate",
    layer_thickness: Annotated[Optional[str], typer.Option(help="One layer of clear ink with its unit (e.g. 0.015mm), instead of the profile's.")] = None,
    underbase: Annotated[bool, typer.Option(help="Also write the white underbase plate (clear or dark stock only; transparent braille needs none).")] = False,
    paper: Annotated[Optional[list[str]], typer.Option(help="Press sheet sizes the job ticket counts sheets for (default letter).")] = None,
    target: Annotated[str, target_option()] = "fogra39",
) -> None:
    """Write the UV braille package for a UV printer profile: flat plate, layered plates, K=100 mask,
    height maps, dot map JSON and job ticket (README "UV braille").

    Example: [bold]deckpress uv carddata/apprentice --uv-printer roland-versaworks --fronts output/apprentice/print/apprentice-fronts.pdf[/bold]
    """
    from engine.units import parse_length, pt_to_mm
    from pipeline.braille.layout import layout_deck
    from pipeline.common.files import OutputError
    from pipeline.render.deck_pdf import unknown_class_findings
    from pipeline.render.formpages import CardPdfError
    from pipeline.render.sheets import ImpositionError
    from pipeline.render.pdfx import PdfxError
    from pipeline.render.tactile import TactileError, clearance_findings, merge_spot_plate
    from pipeline.render.targets import output_condition
    from pipeline.render.uv.package import printer_for, write_uv_package
    from pipeline.render.uv.printers import UvPrinterError
    from pipeline.render.uv.sheets import write_composite_cards

    with exit_on(UvPrinterError, ValueError):
        thickness = pt_to_mm(parse_length(layer_thickness)) if layer_thickness is not None else None
        printer = printer_for(uv_printer, thickness)
        printer.clear_spot_for(spot)
    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    if fronts is not None:
        _front_pages_or_exit(fronts, len(deck.cards), game_dir)
    blocks, findings = layout_deck(deck)  # the game's profile; BR005 when unknown
    folder = out_dir or Path("output") / deck.game.id / "uv"
    with exit_on(TactileError, UvPrinterError, CardPdfError, ImpositionError, OutputError, PdfxError), _drafts(deck, folder) as drafts:
        package = write_uv_package(deck, blocks, [c.id for c in deck.cards], folder, printer, spot=spot,
                                   papers=tuple(paper or ["letter"]), underbase=underbase, condition=output_condition(target))
        written = list(package.paths)
        if fronts is not None:
            written.append(merge_spot_plate(fronts, package.layer, folder / f"{deck.game.id}-fronts+braille.pdf",
                                            condition=output_condition(target)))
            composite = write_composite_cards(fronts, written[-1], blocks, [c.id for c in deck.cards], printer, package.spot,
                                              folder, deck.game.id, output_condition(target))
            written += [composite] if composite != written[-1] else []
        drafts += written
    for path in written:
        out.print(f"wrote {path}", markup=False)
    finish_with_findings(deck, list(findings) + list(package.findings) + clearance_findings(blocks, deck=deck))


def impose(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml (for the copies of each card).")],
    sheet: Annotated[Optional[list[str]], typer.Option("--sheet", help="Press sheet preset: letter, a4, tabloid, 12x18, sra3; repeatable.")] = None,
    fronts: Annotated[Optional[Path], typer.Option(help="Fronts print PDF (default output/<game>/print/<game>-fronts.pdf).")] = None,
    backs: Annotated[Optional[Path], typer.Option(help="Backs print PDF (default output/<game>/print/<game>-backs.pdf when present).")] = None,
    braille: Annotated[Optional[Path], typer.Option(help="UV braille layer PDF (default output/<game>/uv/<game>-braille.pdf when present).")] = None,
    back_offset: Annotated[str, typer.Option(help="Shift of the back side as 'dx,dy' with units, e.g. '0.5mm,-1mm' (x right, y up as the back is seen).")] = "0mm,0mm",
    out_dir: Annotated[Optional[Path], out_option("Output folder (default output/<game>/sheets).")] = None,
    uv_printer: Annotated[str, typer.Option(help="UV printer profile whose plates (uv/<game>-plates-<profile>.pdf) and composite cards (uv/<game>-fronts+layers.pdf, else fronts+braille) are imposed too, when present.")] = "flat-plate",
    target: Annotated[str, target_option()] = "fogra39",
) -> None:
    """Impose a game's print PDFs and braille layer onto press sheets with crop marks, duplex backs and a calibration sheet,
    and the UV printer profile's layered plates and composite sheet when the uv folder holds them.

    Example: [bold]deckpress impose carddata/apprentice --sheet letter --sheet 12x18 --back-offset 0.5mm,0mm[/bold]
    """
    from engine.units import parse_length
    from pipeline.common.files import OutputError
    from pipeline.render.deck_pdf import UnknownClassError, unknown_class_findings
    from pipeline.render.formpages import CardPdfError
    from engine.backs import deck_faces
    from pipeline.build.release import slug_note
    from engine.findings import Location
    from pipeline.render.backoffset import off_card
    from pipeline.render.impose import deck_copies, impose as impose_sheets
    from pipeline.render.sheets import ImpositionError, get_sheet
    from pipeline.render.uv.printers import UvPrinterError, load_uv_printer
    from pipeline.render.uv.sheets import impose_uv_sheets, uv_sources
    from pipeline.render.targets import output_condition

    with exit_on(UvPrinterError):
        printer = load_uv_printer(uv_printer)
    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    gid = deck.game.id
    base = Path("output") / gid
    fronts = fronts or base / "print" / f"{gid}-fronts.pdf"
    default_backs, default_braille = base / "print" / f"{gid}-backs.pdf", base / "uv" / f"{gid}-braille.pdf"
    backs = backs or (default_backs if default_backs.exists() else None)
    braille = braille or (default_braille if default_braille.exists() else None)
    dx, dy = (parse_length(v) for v in back_offset_or_exit(back_offset))
    if stop := off_card(dx, dy, deck.game.card.width, deck.game.card.height, Location("--back-offset")):
        finish_with_findings(deck, [stop])  # IM006 before any sheet is written over (exit 1), as a build stops on it
    card_ids, back_ids = [c.id for c in deck.cards], list(deck_faces(deck))
    with exit_on(UnknownClassError, code=1):
        copies = deck_copies(deck, card_ids, back_ids)
    findings: list[Finding] = []
    with exit_on(ImpositionError, CardPdfError, OutputError), _drafts(deck, out_dir or base / "sheets") as drafts:
        plates, composite = uv_sources(braille.parent if braille is not None else base / "uv", gid, printer)
        for name in sheet or ["letter"]:
            # the PDFs' page labels must be the data's card and class ids: a stale PDF is refused (exit 2)
            result = impose_sheets(fronts, backs, braille, get_sheet(name).with_back_offset(dx, dy), copies, out_dir or base / "sheets", gid,
                                   front_ids=card_ids, back_ids=back_ids, note=slug_note("box", False),
                                   condition=output_condition(target))
            uv = impose_uv_sheets(result, card_ids, plates, composite, printer, out_dir or base / "sheets", gid, slug_note("box", False),
                                  condition=output_condition(target))
            drafts += result.paths + uv.paths
            out.print(f"{name}: {result.cols}×{result.rows} {result.orientation}, {result.faces} cards on {result.sheets} sheet(s)", markup=False)
            for path in result.paths + uv.paths:
                out.print(f"wrote {path}", markup=False)
            findings += list(result.findings) + list(uv.findings)
    finish_with_findings(deck, findings)


COMMANDS = {"emboss": emboss, "dice": dice, "render": render, "uv": uv, "impose": impose}
"""Command name → function, registered on the app by :mod:`pipeline.cli.commands`."""
