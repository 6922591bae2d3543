"""Display and table names: what a visible, honest name is, and when two names look alike.

Owns two checks:

* ``visible_name(raw)`` — a name shows something: what cannot be seen is dropped
  (invisible fillers such as U+3164 HANGUL FILLER and U+2800 BRAILLE PATTERN BLANK,
  zero-width, format and control characters), other spaces become U+0020, combining
  marks are limited to ``MAX_MARKS`` per base character (no "Zalgo" towers; counted on
  the NFD form, so Vietnamese "ệ" is e + 2) and none starts a name — and at least one
  letter or digit must remain (:class:`NothingVisible` otherwise: the table service then
  uses a default name — "Player 2" — rather than refusing, so every string the API
  schema allows is taken, and every stored name shows a letter or digit).
  ``app.core.security.clean_name`` calls it for every display and table name.
* ``confusable_key(name)`` — a folding key for impersonation checks: two names with the
  same key look alike (``"Bob"``, ``"ВОВ"`` in Cyrillic, ``"B o b"``, ``"𝐁𝐨𝐛"``).
  Neither PyPI library near this (``confusable-homoglyphs``, ``confusables``) computes
  UTS #39 skeletons, so this is a documented approximation of the skeleton algorithm:
  NFKC, casefold, strip combining marks, keep only letters and digits, then map the
  Latin/Cyrillic/Greek homoglyphs of ``HOMOGLYPHS`` (plus ``0→o``, ``1/i/ı→l``,
  ``rn→m``, ``vv→w``, ``cl→d``) onto one Latin letter. It errs on the side of calling
  names alike (``"Ann."`` and ``"ann"`` collide), which only costs a newcomer a retry.

How the service uses the key (wired by the table service when a player takes or changes
a seat): compute ``confusable_key`` of the new name and refuse it with a 409-style
``name_taken`` error when ``names_collide(new, other)`` holds for the name of any other
occupied seat at the table (``any(names_collide(new, n) for n in others)``). The table
name is not compared.

>>> visible_name("Zoë"), visible_name("A\\u200dnn")
('Zoë', 'Ann')
>>> confusable_key("Bob") == confusable_key("ВОВ") == confusable_key("𝐁𝐨𝐛")
True
>>> names_collide("Paypal", "PayPa1"), names_collide("Ann", "Anna")
(True, False)
"""

from __future__ import annotations

import unicodedata

#: combining marks (Mn, Me) allowed on one base character, counted on the NFD form
MAX_MARKS = 2

#: characters that render as nothing (or as blank space) although Unicode calls some of
#: them letters or symbols; refused anywhere in a name
INVISIBLE: frozenset[str] = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (category Lo)
    "\u2800"  # BRAILLE PATTERN BLANK (So)
    "\u034f"  # COMBINING GRAPHEME JOINER
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b\u180c\u180d\u180e\u180f"  # Mongolian free variation selectors, vowel separator
    "\u200b\u200c\u200d\u2060\ufeff"  # zero-width space/joiners, word joiner, BOM
    "\u2061\u2062\u2063\u2064"  # invisible operators
    "\u3000"  # IDEOGRAPHIC SPACE
    + "".join(chr(c) for c in (0x1D159, *range(0x1D173, 0x1D17B)))  # musical formatting
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))  # variation selectors supplement
    + "".join(chr(c) for c in range(0xE0000, 0xE0080))  # tag characters
)

_MARKS = ("Mn", "Me")

#: one Latin letter for each Cyrillic/Greek (and a few Latin) look-alikes, after casefold;
#: from the Latin targets of Unicode's confusables.txt for these scripts
HOMOGLYPHS: dict[str, str] = {
    # Cyrillic
    "а": "a", "б": "6", "в": "b", "г": "r", "д": "a", "е": "e", "ж": "x", "з": "3",
    "и": "u", "к": "k", "л": "n", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ц": "u", "ч": "4", "ш": "w", "щ": "w",
    "ъ": "b", "ь": "b", "ы": "bl", "э": "e", "ю": "io", "я": "r", "ѕ": "s", "і": "l",
    "ї": "l", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y",
    "ҫ": "c", "ѵ": "v", "ѡ": "w", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "ζ": "z", "η": "n", "θ": "o",
    "ι": "l", "κ": "k", "λ": "n", "μ": "m", "ν": "v", "ξ": "e", "ο": "o", "π": "n",
    "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u", "φ": "o", "χ": "x", "ψ": "w",
    "ω": "w", "ϲ": "c", "ϳ": "j",
    # Latin and digits (UTS #39 maps these onto the same prototype)
    "0": "o", "1": "l", "i": "l", "ı": "l", "ĸ": "k", "ƿ": "p", "ɑ": "a", "ʏ": "y",
    "ß": "ss",
}  # fmt: skip

#: multi-letter look-alikes, applied after the single-letter map
_DIGRAPHS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


#: categories dropped from names: controls, format characters (zero-width and the like),
#: surrogates, private use, unassigned, line and paragraph separators
_DROPPED = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


class NothingVisible(ValueError):
    """A name with no visible letter or digit."""


def visible_name(raw: str) -> str:
    """``raw`` cleaned up to what a name may show, or ValueError if nothing visible is left.

    Invisible characters (fillers, zero-width, format and control characters) are dropped;
    other spaces become U+0020 and runs of them one; a combining mark that starts the name
    or stacks above ``MAX_MARKS`` on a letter is dropped; the result is NFC and stripped.

    >>> visible_name("  A\u200bnn\u00a0\u00a0Lee ")
    'Ann Lee'
    >>> visible_name("e" + "\u0301" * 5) == unicodedata.normalize("NFC", "e\u0301\u0301")
    True
    >>> visible_name("\u3164 \u2800")
    Traceback (most recent call last):
    ...
    app.core.names.NothingVisible: name must contain a visible letter or digit
    """
    name = visible_text(raw)
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise NothingVisible("name must contain a visible letter or digit")
    return name


def visible_text(raw: str) -> str:
    """``raw`` cleaned up as :func:`visible_name` does (chat text too), without asking
    for a letter or digit: ``""`` when nothing visible is left.

    >>> visible_text("\\u200b 👍\\u0007 ok\\n"), visible_text("\\u3164\\u200d")
    ('👍 ok', '')
    """
    out: list[str] = []
    marks = 0
    for c in unicodedata.normalize("NFD", raw):
        category = unicodedata.category(c)
        if c not in INVISIBLE and (category.startswith("Z") or c.isspace()):
            if out and out[-1] != " ":
                out.append(" ")  # any visible space (tab, no-break, ...) is a plain one
            marks = 0
            continue
        if c in INVISIBLE or category in _DROPPED:
            continue
        if category in _MARKS:
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(c)
    return unicodedata.normalize("NFC", "".join(out)).strip()


def confusable_key(name: str) -> str:
    """The folding key of ``name``: equal keys mean the names look alike.

    >>> confusable_key("  Ĵosé_1 ")
    'josel'
    >>> confusable_key("ＲＯＢ"), confusable_key("rn"), confusable_key("Ρаураl")
    ('rob', 'm', 'paypal')
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    text = unicodedata.normalize("NFD", text)
    kept = (c for c in text if unicodedata.category(c)[0] in "LN")
    folded = "".join(HOMOGLYPHS.get(c, c) for c in kept)
    for pair, single in _DIGRAPHS:
        folded = folded.replace(pair, single)
    return unicodedata.normalize("NFKC", folded)


def names_collide(a: str, b: str) -> bool:
    """Whether two names look alike (same ``confusable_key``)."""
    return confusable_key(a) == confusable_key(b)
