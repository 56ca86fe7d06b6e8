"""The inline mathematics of the catalog's texts, rendered as the docs render math.

The catalog's statements, citations, assumptions and methods (and the descriptions of
``laocheck.bounds``' formulas) are transcriptions of the papers in plain
Unicode (``E_t[‖x̃_t‖²₂] = (d + k − 1)/k·‖x_t‖²₂ <= 2d/k``): the registry keeps them as text,
and they are not rewritten here. When the pages are written, each text is cut into prose and
mathematics (:func:`segments`: the concatenation of the pieces is the text, character for
character), and each piece of mathematics becomes a ``{math}`` role of the LaTeX it reads as
(:func:`to_latex`), which the site's one math renderer (MathML written at build time by
latex2mathml, ``laocheck_docs._visit_math``) turns into ``<math>``, like every other inline
formula of the docs. Nothing is fetched at view time.

The notation read is the catalog's own: ``_x`` / ``_{...}`` and ``^x`` / ``^{...}``, Unicode
sub- and superscripts (``x²``, ``m₁``, ``wᵀ``), accents (``x̃``, ``ḡ``, ``ŷ``), ``√(...)``,
``‖...‖``, ``⟨·,·⟩``, ``Σ``, ``<=`` and ``>=``, ``w*``, and the functions ``log``, ``ln``,
``exp``, ``max``, ``min``, ``sup``, ``sqrt`` and a few more; and the ASCII transcriptions'
``w-bar``, ``y^_t``, ``g~``, ``||x||`` and Greek letters written out (``delta``, ``eps``).
Words (``unbiased``), check ids (``HK12.Lemma3.3``), code in backticks and names in snake_case
stay prose. This is a reading of one project's notation, not a parser of mathematics: the
tests (tests/docs/test_catalog_math.py) hold it to every registered text.
"""
import re

#: functions written upright; the value is their LaTeX
FUNCTIONS = {
    "log": r"\log", "ln": r"\ln", "exp": r"\exp", "max": r"\max", "min": r"\min",
    "sup": r"\sup", "inf": r"\inf", "sum": r"\sum", "erf": r"\operatorname{erf}",
    "clip": r"\operatorname{clip}", "sign": r"\operatorname{sign}", "Var": r"\operatorname{Var}",
    "argmin": r"\operatorname{argmin}", "argmax": r"\operatorname{argmax}",
    "diag": r"\operatorname{diag}", "tr": r"\operatorname{tr}", "grad": r"\nabla",
}

#: Greek letters written out in the ASCII transcriptions (``eta = sqrt(k/(2dm))``)
GREEK_NAMES = {name: "\\" + name + " " for name in (
    "alpha", "beta", "gamma", "delta", "eta", "theta", "kappa", "lambda", "mu", "nu", "pi", "rho",
    "sigma", "tau", "phi", "psi", "omega", "Omega", "Delta", "Gamma", "Phi", "Sigma", "Theta",
    "Lambda")} | {"eps": r"\varepsilon "}

SYMBOLS = {
    "‖": r"\Vert ", "−": "-", "·": r"\cdot ", "∝": r"\propto ", "∞": r"\infty ", "∇": r"\nabla ",
    "±": r"\pm ", "∈": r"\in ", "∫": r"\int ", "≠": r"\ne ", "≤": r"\le ", "≥": r"\ge ",
    "…": r"\ldots ", "⌊": r"\lfloor ", "⌋": r"\rfloor ", "⌈": r"\lceil ", "⌉": r"\rceil ",
    "→": r"\to ", "←": r"\leftarrow ", "∃": r"\exists ", "≫": r"\gg ", "≪": r"\ll ",
    "≈": r"\approx ", "∘": r"\circ ", "⟨": r"\langle ", "⟩": r"\rangle ", "Σ": r"\sum ",
    "Π": r"\prod ", "′": "'", "{": r"\{", "}": r"\}", "#": r"\#", "%": r"\%", "&": r"\&",
    "$": r"\$", "~": r"\sim ", "\\": r"\backslash ",
    # bars as identifiers, not operators: |y| and ‖x‖ tight (latex2mathml spaces an <mo>|),
    # and no "|" in the LaTeX, which a Markdown table would read as a cell's end
    "|": r"\vert ",
}
TWO = {"<=": r"\le ", ">=": r"\ge ", "->": r"\to ", "!=": r"\ne ", "||": r"\Vert "}

SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹ⁿⁱᵀ⁺⁻", "0123456789niT+-"))
SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋ᵢⱼₜ", "0123456789+-ijt"))
ACCENTS = {"\u0303": "tilde", "\u0304": "bar", "\u0302": "hat", "\u0305": "bar"}
PRECOMPOSED = {"ḡ": ("bar", "g"), "ŷ": ("hat", "y"), "Ĝ": ("hat", "G"), "Ā": ("bar", "A"),
               "ŵ": ("hat", "w"), "Ê": ("hat", "E"), "ȳ": ("bar", "y"), "ỹ": ("tilde", "y"),
               "x̄": ("bar", "x"), "ẑ": ("hat", "z"), "ĝ": ("hat", "g"), "ā": ("bar", "a"),
               "ū": ("bar", "u"), "ṽ": ("tilde", "v"), "ẽ": ("tilde", "e"), "ũ": ("tilde", "u")}

#: a character that makes a token mathematics
_MATH_CHARS = set("=<>+−·/^_*|‖√Σ∑Π∝∞⟨⟩∇±∈∫≠≤≥…⌊⌋⌈⌉→←∃≫≪≈∘′[(") | set(SUPERSCRIPTS) \
    | set(SUBSCRIPTS) | set(ACCENTS) | set(PRECOMPOSED) | set("½")
_GREEK = set("αβγδεζηθικλμνξοπρσςτυφχψωΓΔΘΛΞΠΣΦΨΩℓ")
_OPEN, _CLOSE = "([", ")]"
#: functions that are mathematics standing alone ("max (a − y)²"); "sign patterns" is prose
_STANDALONE = {"log", "ln", "exp", "max", "min", "sup", "sqrt"}
#: quotation marks and sentence punctuation stay with the prose around a formula
_EDGE_PROSE = "“”\"'‘’,;:."


def _latin_word(core):
    return len(core) >= 2 and core.isalpha() and all(ord(c) < 0x250 for c in core)


def _kind(token):
    """'prose', 'math' or 'neutral' (a number, which joins the mathematics around it)."""
    if "`" in token or "='" in token or '="' in token or "==" in token \
            or token == "/":                # code: `q`, kind='improved', a == b; "regret / ..."
        return "prose"
    core = token.strip("([{“\"'‘").rstrip(",;:.)]}”\"'’")
    core = re.sub(r"['’]s$", "", core)
    if not core:
        return "math" if any(c in _MATH_CHARS for c in token) else "prose"
    if re.fullmatch(r"[\d.,]+(?:e[-+−]?\d+)?", core):
        return "prose" if re.search(r"['’]s[,;:.)]*$", token) else "neutral"   # Thm 3.1's
    if core in FUNCTIONS and (core in _STANDALONE or core != token) or core in GREEK_NAMES:
        return "math"
    if _latin_word(core) or re.fullmatch(r"[A-Za-z]{3,}\d+", core) \
            or re.fullmatch(r"[A-Z]{2,}\d*[a-z]*", core):
        return "prose"
    # check ids, module paths, abbreviations (HK12.Lemma3.3, laocheck.stats, w.p., B.7)
    # (with an underscore only when a part is a word: HK12.AELR.data_point, not E_t.x)
    if re.fullmatch(r"[A-Za-z][\w]*(?:\.[\w′'-]+)+\.?", core) and (
            not re.search(r"[_^]", core) or re.search(r"[A-Za-z]{2,}\.", core)):
        return "prose"
    # snake_case names (a private one too: _reference_fit) and hyphenated words (kd_edge,
    # k-subset, w-bar)
    if re.fullmatch(r"_?[A-Za-z][A-Za-z0-9]+(?:_[A-Za-z0-9]+)+", core) \
            and core.split("_")[0] not in FUNCTIONS \
            or "-" in core and all(w.isalpha() for w in core.split("-")):    # the ε-term
        return "prose"
    if token in ("a", "I"):
        return "prose"
    if any(c in _MATH_CHARS for c in token) or len(core) == 1 and (core.isalpha()) \
            or any(c in _GREEK for c in core) or re.search(r"\d[A-Za-z]|[A-Za-z]\d", core):
        return "math"
    return "prose"


def _trim(span):
    """(before, math, after): sentence punctuation, quotes and unmatched brackets at the edges
    of a run of mathematical tokens go back to the prose."""
    before, after = "", ""
    changed = True
    while changed and span:
        changed = False
        if span[-1] in _EDGE_PROSE and not span.endswith("…"):
            after, span, changed = span[-1] + after, span[:-1], True
            continue
        if span[0] in "“\"'‘":
            before, span, changed = before + span[0], span[1:], True
            continue
        for o, c in zip(_OPEN, _CLOSE):
            if span and span[0] == o and span.count(o) > span.count(c):
                before, span, changed = before + o, span[1:], True
            elif span and span[-1] == c and span.count(c) > span.count(o):
                after, span, changed = c + after, span[:-1], True
    return before, span, after


def _unmatched_open(span):
    """The index of the first ``(`` of ``span`` after a space that no ``)`` closes, or None."""
    stack = []
    for k, c in enumerate(span):
        if c == "(":
            stack.append(k)
        elif c == ")" and stack:
            stack.pop()
    return next((k for k in stack if k and span[k - 1] == " "), None)


def segments(text):
    """The text as [(kind, piece)], kind 'text' or 'math'; ``"".join(pieces) == text``."""
    parts = re.split(r"(\s+)", text)
    kinds = [None if p.isspace() or not p else _kind(p) for p in parts]
    for n, part in enumerate(parts):
        # "a = b = B", "a + b": a variable, not the article
        if part in ("a", "I") and n + 2 < len(parts) and parts[n + 2][:1] in "=<>≤≥+−·∝":
            kinds[n] = "math"
        # "max entrywise deviation": a word before a word; "max (a − y)²" is mathematics
        if part in _STANDALONE and n + 2 < len(parts) and kinds[n + 2] == "prose":
            kinds[n] = "prose"
    out = []

    def emit(kind, piece):
        if not piece:
            return
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + piece)
        else:
            out.append((kind, piece))

    i = 0
    while i < len(parts):
        if kinds[i] in (None, "prose"):
            emit("text", parts[i])
            i += 1
            continue
        # a run of mathematical tokens and numbers (through whitespace): mathematics when it
        # holds a mathematical token, prose when it is numbers alone ("Lemma 4", "at most 2")
        j, last = i, i
        while j < len(parts) and kinds[j] != "prose":
            if kinds[j] is not None:
                last = j
                if parts[j][-1] in ";:”":          # a clause ends: "... ≤ B”; k even"
                    break
            j += 1
        span = "".join(parts[i:last + 1])
        if "math" not in kinds[i:last + 1]:
            emit("text", span)
            i = last + 1
            continue
        before, math, after = _trim(span)
        emit("text", before)
        # an opening bracket that closes in the prose after ("1 − δ (c unspecified)") is
        # prose: the mathematics on either side of it is cut there
        k = _unmatched_open(math)
        while k is not None:
            head = math[:k].rstrip()
            emit("math", head)
            emit("text", math[len(head):k + 1])
            math = math[k + 1:]
            k = _unmatched_open(math)
        if math and any(c.isalnum() or c in _MATH_CHARS for c in math):
            emit("math", math)
        else:
            emit("text", math)
        emit("text", after)
        i = last + 1
    return out


def _group(s, i, open_, close):
    """The index after the bracket matching s[i] == open_ (None when unmatched)."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_:
            depth += 1
        elif s[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return None


def _atom(s, i):
    """(latex, next index) of one letter with its accents, or a run of digits, at s[i]."""
    c = s[i]
    if c in PRECOMPOSED:
        accent, base = PRECOMPOSED[c]
        return rf"\{accent}{{{base}}}", i + 1
    if c.isdigit():
        m = re.match(r"\d+(?:\.\d+)?", s[i:])
        return m.group(0), i + len(m.group(0))
    if i + 1 < len(s) and s[i + 1] in ACCENTS:
        inner, k = c, i + 1
        while k < len(s) and s[k] in ACCENTS:
            inner = rf"\{ACCENTS[s[k]]}{{{inner}}}"
            k += 1
        return inner, k
    return c, i + 1


def _script(s, i):
    """(latex, next index) of what follows ``_`` or ``^`` at s[i]: a braced group, a word of
    three letters or more (``L_max``), or one character (``x_i``)."""
    if i >= len(s):
        return "{}", i
    if s[i] == "{":
        end = _group(s, i, "{", "}")
        if end is not None:
            return "{" + to_latex(s[i + 1:end - 1]) + "}", end
    m = re.match(r"[A-Za-z]{3,}", s[i:])
    if m:
        word = m.group(0)
        return "{" + rf"\mathrm{{{word}}}" + "}", i + len(word)      # a label: upright
    if s[i] == "*":
        return "{*}", i + 1
    atom, j = _atom(s, i)
    return "{" + atom + "}", j


def to_latex(span):
    """The LaTeX a piece of the catalog's mathematics reads as (see the module docstring)."""
    out, i, n = [], 0, len(span)
    while i < n:
        c = span[i]
        two = span[i:i + 2]
        if two in TWO:
            out.append(TWO[two])
            i += 2
        elif c.isspace():
            # a space between two terms ("(9) E", "ln m") stays a thin space; around an
            # operator the renderer spaces it
            j = i
            while j < n and span[j].isspace():
                j += 1
            before, after = span[i - 1] if i else "", span[j] if j < n else ""
            term_end = before.isalnum() or before in ")]}" or before in SUPERSCRIPTS \
                or before in SUBSCRIPTS or before in ACCENTS or before in _GREEK
            term_start = after.isalnum() or after in "([‖√Σ" or after in PRECOMPOSED \
                or after in _GREEK
            out.append(r"\, " if term_end and term_start else " ")
            i = j
        elif c == "^" and out and re.fullmatch(r"[A-Za-z]", out[-1]) and (
                i + 1 == n or not (span[i + 1].isalnum() or span[i + 1] in "{*(")):
            out[-1] = r"\hat{" + out[-1] + "}"             # ASCII w^ (and y^_t): ŵ, ŷ_t
            i += 1
        elif c in "_^":
            latex, i = _script(span, i + 1)
            if not out or out[-1] == " ":
                out.append("{}")
            out.append(c + latex)
        elif c in SUPERSCRIPTS or c in SUBSCRIPTS:
            table, mark = (SUPERSCRIPTS, "^") if c in SUPERSCRIPTS else (SUBSCRIPTS, "_")
            j = i
            while j < n and span[j] in table:
                j += 1
            body = "".join(table[x] for x in span[i:j])
            if out and out[-1].startswith(mark + "{") and out[-1].endswith("}"):
                out[-1] = out[-1][:-1] + body + "}"         # w*ᵀ: one superscript *T
            else:
                if not out or out[-1] == " ":
                    out.append("{}")
                out.append(mark + "{" + body + "}")
            i = j
        elif c == "√" or span.startswith("sqrt", i) and not span[i + 4:i + 5].isalpha():
            j = i + (1 if c == "√" else 4)
            while j < n and span[j] == " ":
                j += 1
            if j < n and span[j] == "(" and _group(span, j, "(", ")"):
                end = _group(span, j, "(", ")")
                out.append(r"\sqrt{" + to_latex(span[j + 1:end - 1]) + "}")
                i = end
            elif j < n and (span[j].isalnum() or span[j] in PRECOMPOSED):
                atom, k = _atom(span, j)
                # its sub- and superscripts belong under the root (√m₂, √Ĝ²)
                while k < n and (span[k] in SUPERSCRIPTS or span[k] in SUBSCRIPTS):
                    k += 1
                out.append(r"\sqrt{" + to_latex(span[j:k]) + "}")
                i = k
            else:
                out.append(r"\surd ")
                i += 1 if c == "√" else 4
        elif c == "*":
            # w*, (w*)_i: a star after a letter or bracket; else a product
            prev = span[i - 1] if i else " "
            out.append("^{*}" if prev.isalnum() or prev in ")]‖|" or prev in ACCENTS
                       else r"\ast ")
            i += 1
        elif c.isascii() and c.isalpha() and re.match(r"[A-Za-z]-bar\b", span[i:]):
            out.append(r"\bar{" + c + "}")                  # ASCII w-bar: w̄
            i += 5
        elif c.isascii() and c.isalpha():
            m = re.match(r"[A-Za-z]+", span[i:])
            word = m.group(0)
            snake = re.match(r"[A-Z]+\d+(?:\.\w+)+|[A-Za-z][A-Za-z0-9]+(?:_[A-Za-z0-9]{2,})+",
                             span[i:])           # a check id or a name in snake_case
            if snake:
                out.append(r"\mathrm{" + snake.group(0).replace("_", r"\_") + "}")
                i += len(snake.group(0))
            elif word in GREEK_NAMES:
                out.append(GREEK_NAMES[word])
                i += len(word)
            elif word in FUNCTIONS and not (i + len(word) < n and span[i + len(word)] in
                                            ACCENTS):
                out.append(FUNCTIONS[word] + " ")
                i += len(word)
            elif len(word) >= 3:
                out.append(r"\mathrm{" + word + "}")
                i += len(word)
            else:
                atom, i = _atom(span, i)
                out.append(atom)
        elif c in PRECOMPOSED or c.isdigit() or (c.isalpha() and i + 1 < n
                                                 and span[i + 1] in ACCENTS):
            atom, i = _atom(span, i)
            out.append(atom)
        elif c == "~" and out and (re.fullmatch(r"[A-Za-z]", out[-1])
                                   or out[-1] in GREEK_NAMES.values()):
            out[-1] = r"\tilde{" + out[-1].strip() + "}"   # ASCII g~, phi~: g̃, φ̃
            i += 1
        elif c in SYMBOLS:
            out.append(SYMBOLS[c])
            i += 1
        elif c in "“”‘’":
            out.append(r"\text{" + c + "}")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def to_markdown(text, escape):
    """The text as MyST Markdown: prose through ``escape`` (no markup interpreted), each piece
    of mathematics a ``{math}`` role."""
    text = " ".join(str(text).split())
    return "".join(escape(piece) if kind == "text" else "{math}`" + to_latex(piece) + "`"
                   for kind, piece in segments(text))
