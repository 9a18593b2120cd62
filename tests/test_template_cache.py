"""pipeline/archive/templatecache.py: the archive templates' compiled code cached by jinja2's own
bytecode cache. Reference: jinja2 renders the same text with and without the cache; a second
environment takes the code from the cache (its compiler is never called)."""

from __future__ import annotations

import jinja2
import pytest
from jinja2.bccache import bc_magic

from pipeline.archive.site import ARCHIVE_TEMPLATES
from pipeline.archive.templatecache import TemplateCodeCache

SOURCE = {"page.html.j2": "{% for c in cards %}<li>{{ c }}</li>{% endfor %}"}


def _env(cache) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.DictLoader(SOURCE), autoescape=True, bytecode_cache=cache)


def test_a_second_environment_loads_the_compiled_code_and_renders_the_same(tmp_path, monkeypatch):
    first = _env(TemplateCodeCache(str(tmp_path))).get_template("page.html.j2").render(cards=["a<b", "c"])
    assert first == "<li>a&lt;b</li><li>c</li>" and len(list(tmp_path.iterdir())) == 1
    second = _env(TemplateCodeCache(str(tmp_path)))
    monkeypatch.setattr(second, "compile", lambda *a, **k: pytest.fail("compiled again"))
    assert second.get_template("page.html.j2").render(cards=["a<b", "c"]) == first


def test_a_damaged_cache_file_or_an_unwritable_folder_is_a_miss(tmp_path):
    cache = TemplateCodeCache(str(tmp_path))
    expected = _env(None).get_template("page.html.j2").render(cards=["x"])
    assert _env(cache).get_template("page.html.j2").render(cards=["x"]) == expected
    (cached,) = tmp_path.iterdir()
    cached.write_bytes(cached.read_bytes()[: len(bc_magic) + 3])  # the magic header, then a truncated checksum
    with pytest.raises(Exception):  # jinja2's own cache raises on it (an UnpicklingError)
        _env(jinja2.FileSystemBytecodeCache(str(tmp_path))).get_template("page.html.j2")
    assert _env(TemplateCodeCache(str(tmp_path))).get_template("page.html.j2").render(cards=["x"]) == expected
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    assert _env(TemplateCodeCache(str(blocked))).get_template("page.html.j2").render(cards=["x"]) == expected


def test_the_archive_environment_caches_its_templates():
    from pipeline.archive.site import environment

    env = environment()
    assert isinstance(env.bytecode_cache, TemplateCodeCache)
    assert sorted(env.list_templates()) == sorted(p.name for p in ARCHIVE_TEMPLATES.iterdir() if p.is_file())
