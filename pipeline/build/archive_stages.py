"""The card archive's two stages (:data:`pipeline.build.stages.STAGES`): ``archive`` and ``faces``.

``archive`` writes everything of the archive but the face images (:func:`pipeline.archive.site.write_pages`)
and checks the QR links; it needs only the braille layout, so it runs while the print stage does
(:class:`pipeline.build.workers.ChainPool`, with the other chains that need nothing of it). Its card
pages show the faces planned from the card layout (:func:`pipeline.archive.faces.planned_faces`).
``faces`` renders the face images from the soft-proofed fronts once they exist and checks that they
are the faces the pages show (the same links and pixel sizes), so the two stages write the archive
the one-stage archive wrote, byte for byte, in two processes at once (issue 22: the archive chain had
decided the end of a one-game build). ``--only`` runs both (:data:`pipeline.build.stages.ALONG`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.findings import Finding

if TYPE_CHECKING:
    from pipeline.build.job import Job

#: The key of :attr:`Job.prepared <pipeline.build.job.Job.prepared>` where the emboss stage, run before the archive
#: in the same process (the chains that need nothing of print run in one worker, in table order), leaves the folder
#: it wrote the companion volumes into, without ``--rulebook`` (the archive's downloads are laid out without it).
VOLUMES = "emboss volumes"
#: The card keys' stage of the faces (:mod:`pipeline.build.cardkeys`): reported as the archive's, as before.
FACES_KEYS = "archive.faces"


def stage_archive(job: Job) -> list[Finding]:
    """The static card archive the QR codes open (index, card pages, braille downloads, quickstart,
    style sheet; the face images are the ``faces`` stage's), then a check that every QR URL has its page.
    A rebuild keeps each card page whose card key is unchanged (:mod:`pipeline.build.cardkeys`); the braille
    downloads are copied from the emboss stage's volumes when it has just written them (:data:`VOLUMES`)."""
    from pipeline.archive.faces import planned_faces
    from pipeline.archive.site import FACE_DPI, check_qr_links, write_pages

    folder = job.folder("archive")
    keep = job.reuse.keeper("archive", "archive") if job.reuse is not None else None
    write_pages(job.deck, job.braille_for("archive").blocks, folder, planned_faces(job.deck, FACE_DPI), keep=keep,
                volumes=job.prepared.get(VOLUMES))
    if job.reuse is not None:
        job.reuse.save("archive")
    return check_qr_links(job.deck, folder)


def stage_faces(job: Job) -> list[Finding]:
    """The archive's card face images (``archive/images/<card id>.png``) from the soft-proofed fronts.
    A rebuild keeps each face whose card key is unchanged. Raises ArchiveError when a deck card has
    no fronts page or a face is not the one its card page shows (:func:`pipeline.archive.faces.unplanned`)."""
    from pipeline.archive.faces import planned_faces, unplanned, write_faces
    from pipeline.archive.site import FACE_DPI, ArchiveError

    printed = job.print_for("faces")
    fronts = printed.fronts
    keep = job.reuse.keeper(FACES_KEYS, "archive", fronts.name_sizes) if job.reuse is not None else None
    faces = write_faces(job.deck, fronts.path, list(fronts.pages), job.folder("archive"), FACE_DPI, job.settings.target,
                        printed.soft_fronts, keep)
    if job.reuse is not None:
        job.reuse.save(FACES_KEYS)
    wrong = unplanned(faces, planned_faces(job.deck, FACE_DPI))
    if wrong:
        raise ArchiveError(f"{fronts.path}: the archive's faces are not those its card pages show: {'; '.join(wrong[:5])}")
    return []
