"""The learners' numpydoc entries shared by substitution (laocheck.learners._docstrings): each
rendered class docstring still documents every parameter of the class, holds no placeholder,
and an unknown placeholder is refused rather than rendered as text."""
import inspect
import re

import pytest

from laocheck import learners
from laocheck.learners._docstrings import SHARED_DOCS, shared_docstring

CLASSES = [getattr(learners, name) for name in learners.__all__
           if inspect.isclass(getattr(learners, name))]


def _section(doc, title):
    """The lines of the numpydoc section ``title`` (up to the next underlined title)."""
    lines = inspect.cleandoc(doc).splitlines()
    start = lines.index(title) + 2
    end = next((i - 1 for i in range(start + 1, len(lines))
                if set(lines[i]) == {"-"} and lines[i - 1].strip()), len(lines))
    return lines[start:end]


@pytest.mark.parametrize("cls", CLASSES, ids=[c.__name__ for c in CLASSES])
def test_every_parameter_is_documented_in_the_rendered_docstring(cls):
    doc = cls.__doc__
    assert "%(" not in doc
    documented = {m.group(1) for line in _section(doc, "Parameters")
                  if (m := re.match(r"^(\w+) : ", line))}
    params = {name for name in inspect.signature(cls.__init__).parameters if name != "self"}
    assert params <= documented, sorted(params - documented)


def test_every_shared_entry_is_used_by_several_classes():
    sources = [inspect.getsource(cls) for cls in CLASSES]
    for name in SHARED_DOCS:
        users = sum(f"%({name})s" in src for src in sources)
        assert users >= 2, (name, users)


def test_the_substitution_keeps_the_placeholder_indentation():
    @shared_docstring
    class Toy:
        """A toy.

        Parameters
        ----------
        %(random_state)s
        """
    lines = Toy.__doc__.splitlines()
    i = next(i for i, line in enumerate(lines) if line.strip().startswith("random_state : "))
    assert lines[i].startswith("        random_state : ")
    assert lines[i + 1].startswith("            The source")


def test_an_unknown_placeholder_is_refused():
    with pytest.raises(KeyError, match="no_such_entry"):
        @shared_docstring
        class Toy:
            """%(no_such_entry)s"""
