"""The stand-alone stage commands: ``render``, ``uv``, ``impose``, ``emboss``, ``dice``, ``braille``,
``proof`` and ``watch``. Each runs one stage of the build for quick iteration and writes straight
into its output folder (see README "Commands"). Thin, like :mod:`pipeline.cli.app`: parse, call the
stage, print, exit 0/1/2.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.findings import Finding
from pipeline.cli.app import Format, app, err, finish_with_findings, load_game, load_or_exit, out, out_dir_or_exit, print_findings

class EmbossFileFormat(str, Enum):
    """Embosser file formats to write."""

    brf = "brf"
    pef = "pef"
    both = "both"


class EmbossLayout(str, Enum):
    """One card per embosser page, or several cards per sheet to cut apart."""

    card = "card"
    sheet = "sheet"


@app.command()
def emboss(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    profile: Annotated[str, typer.Option(help="Embosser profile id (templates/embossers/<id>.yaml), e.g. card-3x5, index-everest-d.")] = "card-3x5",
    format: Annotated[EmbossFileFormat, typer.Option("--format", help="brf, pef or both.")] = EmbossFileFormat.both,
    layout: Annotated[EmbossLayout, typer.Option(help="card: one card per page; sheet: several cards per page, cut apart.")] = EmbossLayout.card,
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output folder (default output/<game>/emboss).")] = None,
    copies: Annotated[bool, typer.Option(help="Emboss every printed copy on sheets too (the card layout always does, unless --unique).")] = False,
    unique: Annotated[bool, typer.Option("--unique", help="One page per unique card, not one per physical card.")] = False,
    interpoint: Annotated[bool, typer.Option(help="Both sides of the paper (sheet layout, profiles that offer it).")] = False,
) -> None:
    """Write BRF (with its JSON sidecar) and PEF embosser files of a game's card braille.

    Example: [bold]deckpress emboss carddata/apprentice --profile index-everest-d --layout sheet[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from pipeline.braille.layout import layout_deck
    from pipeline.emboss.profiles import EmbossError
    from pipeline.emboss.write import FORMATS, write_embosser_files
    from pipeline.common.files import OutputError

    deck = load_or_exit(game_dir, Format.text)
    blocks, braille_findings = layout_deck(deck)  # the game's profile; BR005 when unknown
    formats = FORMATS if format is EmbossFileFormat.both else (format.value,)
    target = out_dir or Path("output") / deck.game.id / "emboss"
    try:
        expand = False if unique else (True if copies else None)  # None: the layout's default
        result = write_embosser_files(deck, blocks, target, profile, layout.value, formats, copies=expand, interpoint=interpoint)
    except (EmbossError, OutputError) as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    for path in result.paths:
        out.print(f"wrote {path}", markup=False)
    finish_with_findings(deck, list(braille_findings) + list(result.findings))


@app.command("braille")
def braille_cmd(
    text: Annotated[str, typer.Argument(help="Print text to translate.")],
    game: Annotated[Optional[Path], typer.Option("--game", help="Game folder whose braille settings (grade) apply.")] = None,
    grade: Annotated[Optional[int], typer.Option("--grade", min=1, max=2, help="UEB grade 1 or 2 (default: the game's, else 2).")] = None,
    name: Annotated[bool, typer.Option("--name", help="Translate as a card name (the game's name_grade when set).")] = False,
) -> None:
    """Translate text to UEB braille: prints Unicode braille cells, then Braille ASCII (BRF).

    Example: [bold]deckpress braille "Forest Apprentice" --game carddata/apprentice[/bold]
    """
    from pipeline.braille.cells import to_brf
    from pipeline.braille.translate import UntranslatableCharacter, translate

    settings = load_or_exit(game, Format.text).game.braille if game else None
    chosen = grade or (settings and name and settings.name_grade) or (settings and settings.grade) or 2
    try:
        cells = translate(text, chosen)
    except UntranslatableCharacter as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    out.print(cells, markup=False)
    out.print(to_brf(cells), markup=False)


@app.command("dice")
def dice_cmd(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output folder (default output/<game>/dice).")] = None,
) -> None:
    """Write one die face sheet PDF per die of a game: faces at actual size, numeral, braille dots, orientation bar, key.

    Example: [bold]deckpress dice carddata/apprentice --out output/apprentice/dice[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from pipeline.dice.sheet import render_dice
    from pipeline.common.files import OutputError

    deck = load_or_exit(game_dir, Format.text)
    try:
        sheets = render_dice(deck, out_dir or Path("output") / deck.game.id / "dice")
    except OutputError as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    for sheet in sheets:
        out.print(f"wrote {sheet.path}", markup=False)
    finish_with_findings(deck, [f for s in sheets for f in s.findings])


@app.command("render")
def render_cmd(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output folder (default output/<game>/print).")] = None,
    verify_qr: Annotated[bool, typer.Option("--verify-qr", help="Render every QR at 300 dpi and decode it (a few ms per card).")] = False,
) -> None:
    """Write the print PDFs of a game: one front per unique card, one back per class (PDF/X-1a:2003, CMYK, 3×5 in + bleed).

    Example: [bold]deckpress render carddata/apprentice --out output/apprentice/print --verify-qr[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from pipeline.common.files import OutputError
    from pipeline.common.layout import load_layout
    from pipeline.qr.codes import verify_qr
    from pipeline.render.deck_pdf import UnknownClassError, render_backs, render_fronts, unknown_class_findings
    from pipeline.render.pdfx import PdfxError
    from pipeline.render.style import LayoutError

    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    folder = out_dir or Path("output") / deck.game.id / "print"
    try:
        fronts = render_fronts(deck, folder / f"{deck.game.id}-fronts.pdf")
        backs = render_backs(deck, folder / f"{deck.game.id}-backs.pdf")
    except UnknownClassError as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(1) from None
    except (LayoutError, PdfxError, OutputError) as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    findings = list(fronts.findings) + list(backs.findings)
    if verify_qr:
        layout = load_layout()
        box = layout.qr.to_pdf(layout.trim.height, layout.bleed)
        findings += verify_qr(fronts.path, [(c.id, deck.game.archive.url_for(c)) for c in deck.cards], box)
    out.print(f"wrote {fronts.path} ({len(fronts.pages)} fronts) and {backs.path} ({len(backs.pages)} backs)", markup=False)
    finish_with_findings(deck, findings)


def _proof_folder(game_dir: Path, out_dir: Path | None) -> Path:
    """``--out`` or ``output/<game id>/proofs`` (the game folder's name when game.yaml does not load)."""
    from engine.load import DataError

    if out_dir is not None:
        return out_dir
    try:
        return Path("output") / load_game(game_dir).game.id / "proofs"
    except DataError:
        return Path("output") / game_dir.name / "proofs"


@app.command("proof")
def proof_cmd(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    card: Annotated[Optional[list[str]], typer.Option("--card", help="Proof only this card id (repeatable). Default: every card, the backs and the contact sheet.")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output folder (default: output/<game id>/proofs, where the build puts them).")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=36, max=600, help="Resolution of the PNG proofs.")] = 150,
) -> None:
    """PNG proofs of card fronts (braille drawn as a dot overlay, provisional cards and placeholder art stamped) and a contact sheet.

    Example: [bold]deckpress proof carddata/apprentice --card ember-apprentice[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from pipeline.common.files import OutputError
    from pipeline.build.preflight import deck_findings
    from pipeline.proofs.proof import ProofError, proof_cards
    from pipeline.common.raster import RasterError
    from pipeline.render.deck_pdf import UnknownClassError, unknown_class_findings
    from pipeline.render.style import LayoutError

    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck, card or None):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    folder = out_dir or Path("output") / deck.game.id / "proofs"
    try:
        run = proof_cards(deck, card or None, folder, dpi, checks=deck_findings(deck))
    except KeyError as exc:
        err.print(f"deckpress: {exc.args[0]}", markup=False)
        raise typer.Exit(2) from None
    except UnknownClassError as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(1) from None
    except (LayoutError, OutputError, RasterError, ProofError) as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    shown = run.paths if card else [p for p in run.paths if p.suffix == ".html"]
    out.print(f"wrote {len(run.paths)} proof file(s) in {folder}" + "".join(f"\n  {p}" for p in shown), markup=False)
    finish_with_findings(deck, list(run.findings))


@app.command("watch")
def watch_cmd(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Proof folder (default: output/<game id>/proofs).")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=36, max=600, help="Resolution of the PNG proofs.")] = 150,
) -> None:
    """Proof every card, then re-proof the cards whose data, art or templates change, printing new findings as they appear. Ctrl-C stops.

    Example: [bold]deckpress watch carddata/apprentice[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from pipeline.common.files import OutputError
    from pipeline.build.watch import watch

    folder = _proof_folder(game_dir, out_dir)

    def show(report) -> None:
        if report.error:
            out.print(f"{game_dir}: the data does not load; fix it and save again", markup=False)
        elif report.rebuilt or report.removed:
            names = ", ".join(report.rebuilt[:8]) + (" …" if len(report.rebuilt) > 8 else "")
            out.print(f"re-proofed {len(report.rebuilt)} card(s){': ' + names if names else ''}"
                      + (f"; removed {', '.join(report.removed)}" if report.removed else "") + f" → {folder}", markup=False)
        else:
            return
        print_findings(list(report.new_findings), Format.text)
        err.print(f"{len(report.findings)} finding(s) in all; watching {game_dir} (Ctrl-C stops)", markup=False)

    try:
        watch(game_dir, folder, show, dpi=dpi)
    except KeyboardInterrupt:
        raise typer.Exit(0) from None
    except OutputError as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None


@app.command("uv")
def uv_cmd(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output folder (default output/<game>/uv).")] = None,
    spot: Annotated[str, typer.Option(help="Spot colour name of the UV plate: Braille, RDG_GLOSS (Roland), 'Spot 1' (Arizona) …")] = "Braille",
    fronts: Annotated[Optional[Path], typer.Option(help="Print PDF of the fronts to merge the braille plate into (writes <game>-fronts+braille.pdf).")] = None,
) -> None:
    """Write the UV braille layer PDF (one page per card front, spot colour, overprint) and its dot map JSON.

    Example: [bold]deckpress uv carddata/apprentice --spot RDG_GLOSS --fronts output/apprentice/print/apprentice-fronts.pdf[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from pipeline.braille.layout import layout_deck
    from pipeline.common.files import OutputError
    from pipeline.render.formpages import CardPages, CardPdfError
    from pipeline.render.deck_pdf import unknown_class_findings
    from pipeline.render.tactile import TactileError, clearance_findings, merge_spot_plate, render_braille_layer, write_dot_map

    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    if fronts is not None:  # read the fronts PDF before anything is written
        try:
            front_pages = len(CardPages(fronts, "fronts").pages)
        except CardPdfError as exc:
            err.print(f"deckpress: {exc}", markup=False)
            raise typer.Exit(2) from None
        if front_pages != len(deck.cards):
            err.print(f"deckpress: the fronts PDF {fronts} has {front_pages} pages, the game {len(deck.cards)} unique cards; "
                      f"render it again (deckpress render {game_dir})", markup=False)
            raise typer.Exit(2)
    blocks, findings = layout_deck(deck)  # the game's profile; BR005 when unknown
    folder = out_dir or Path("output") / deck.game.id / "uv"
    gid = deck.game.id
    try:
        written = [render_braille_layer(blocks, [c.id for c in deck.cards], folder / f"{gid}-braille.pdf", spot_name=spot),
                   write_dot_map(blocks, folder / f"{gid}-dots.json", spot_name=spot)]
        if fronts is not None:
            written.append(merge_spot_plate(fronts, written[0], folder / f"{gid}-fronts+braille.pdf"))
    except (TactileError, CardPdfError, OutputError) as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    for path in written:
        out.print(f"wrote {path}", markup=False)
    finish_with_findings(deck, list(findings) + clearance_findings(blocks, deck=deck))


@app.command("impose")
def impose_cmd(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml (for the copies of each card).")],
    sheet: Annotated[Optional[list[str]], typer.Option("--sheet", help="Press sheet preset: letter, a4, tabloid, 12x18, sra3; repeatable.")] = None,
    fronts: Annotated[Optional[Path], typer.Option(help="Fronts print PDF (default output/<game>/print/<game>-fronts.pdf).")] = None,
    backs: Annotated[Optional[Path], typer.Option(help="Backs print PDF (default output/<game>/print/<game>-backs.pdf when present).")] = None,
    braille: Annotated[Optional[Path], typer.Option(help="UV braille layer PDF (default output/<game>/uv/<game>-braille.pdf when present).")] = None,
    back_offset: Annotated[str, typer.Option(help="Shift of the back side as 'dx,dy' with units, e.g. '0.5mm,-1mm' (x right, y up as the back is seen).")] = "0mm,0mm",
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Output folder (default output/<game>/sheets).")] = None,
) -> None:
    """Impose a game's print PDFs and braille layer onto press sheets with crop marks, duplex backs and a calibration sheet.

    Example: [bold]deckpress impose carddata/apprentice --sheet letter --sheet 12x18 --back-offset 0.5mm,0mm[/bold]
    """
    out_dir = out_dir_or_exit(out_dir)
    from engine.units import parse_length
    from pipeline.common.files import OutputError
    from pipeline.render.deck_pdf import UnknownClassError, unknown_class_findings
    from pipeline.render.formpages import CardPdfError
    from pipeline.render.impose import deck_copies, impose
    from pipeline.render.sheets import ImpositionError, get_sheet

    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    gid = deck.game.id
    base = Path("output") / gid
    fronts = fronts or base / "print" / f"{gid}-fronts.pdf"
    default_backs, default_braille = base / "print" / f"{gid}-backs.pdf", base / "uv" / f"{gid}-braille.pdf"
    backs = backs or (default_backs if default_backs.exists() else None)
    braille = braille or (default_braille if default_braille.exists() else None)
    try:
        dx, dy = (parse_length(v) for v in back_offset.split(","))
    except ValueError:
        err.print(f"deckpress: --back-offset expects 'dx,dy' with units such as '0.5mm,-1mm', got {back_offset!r}", markup=False)
        raise typer.Exit(2) from None
    card_ids, class_ids = [c.id for c in deck.cards], [c.id for c in deck.game.classes]
    try:
        copies = deck_copies(deck, card_ids, class_ids)
    except UnknownClassError as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(1) from None
    findings: list[Finding] = []
    try:
        for name in sheet or ["letter"]:
            # the PDFs' page labels must be the data's card and class ids: a stale PDF is refused (exit 2)
            result = impose(fronts, backs, braille, get_sheet(name).with_back_offset(dx, dy), copies, out_dir or base / "sheets", gid,
                            front_ids=card_ids, back_ids=class_ids)
            out.print(f"{name}: {result.cols}×{result.rows} {result.orientation}, {result.faces} cards on {result.sheets} sheet(s)", markup=False)
            for path in result.paths:
                out.print(f"wrote {path}", markup=False)
            findings += result.findings
    except (ImpositionError, CardPdfError, OutputError) as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    finish_with_findings(deck, findings)
