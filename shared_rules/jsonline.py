# One request line of the rules protocol, read and checked before json.loads sees it
# (docs/rules-protocol.md, "Limits of a line"). MicroPython's json accepts much that is not
# JSON (missing commas, trailing commas, `{1: 2}`), CPython's accepts NaN, recurses on deep
# nesting and has its own number limits, and both print floats and non-ASCII characters
# differently in a reason. So every line passes one strict check here first, the same on
# both interpreters: what it lets through parses to the same value everywhere, and what it
# refuses gets the same reason everywhere. The check walks the bytes once, keeps its state
# in small ints (the open containers are a bit set) and allocates nothing until it refuses.
import json

try:
    from micropython import const
except ImportError:  # CPython: the names stay plain module constants
    def const(__expr):  # positional only (the __ prefix), as micropython.const is
        return __expr

MAX_LINE = 65536  # bytes in one request line, its newline not counted
MAX_DEPTH = 16  # arrays and objects inside each other; the open ones are bits of one int
MAX_DIGITS = 9  # a number's digits: every number in the protocol is a small whole number
CHUNK = 1024  # a line is read in pieces of this size; an over-long one is dropped piece by piece

NOT_JSON = "not a JSON line"
NOT_UTF8 = "the line is not UTF-8 text"
NOT_FINITE = "NaN and Infinity are not JSON numbers"
NOT_WHOLE = "numbers in a request are whole numbers, without fraction or exponent"
NOT_ASCII = "strings in a request are ASCII text (every name in the protocol is)"
OUT_OF_MEMORY = "out of memory reading this request"

_QUOTE = const(0x22)
_BACKSLASH = const(0x5C)
_MINUS = const(0x2D)
_ZERO = const(0x30)
_NINE = const(0x39)
_DOT = const(0x2E)
_COMMA = const(0x2C)
_COLON = const(0x3A)
_OPEN_ARRAY = const(0x5B)
_CLOSE_ARRAY = const(0x5D)
_OPEN_OBJECT = const(0x7B)
_CLOSE_OBJECT = const(0x7D)
_NEWLINE = const(0x0A)
_RETURN = const(0x0D)
_LOWER_U = const(0x75)
_FIRST_PRINTABLE = const(0x20)
_FIRST_NON_ASCII = const(0x80)
_FIRST_CONTINUATION = const(0x80)  # UTF-8 bytes after the first of a character
_LAST_CONTINUATION = const(0xBF)
_SIMPLE_ESCAPES = b'"\\/bfnrt'
_EXPONENT = b"eE"
_WHITESPACE = b" \t\n\r"

# what the check expects next
_VALUE = const(0)
_VALUE_OR_CLOSE = const(1)  # just after [
_KEY_OR_CLOSE = const(2)  # just after {
_KEY = const(3)  # after a comma in an object
_COMMA_OR_CLOSE = const(5)
_END = const(6)  # the top value is complete: only whitespace may follow


def too_long(limit=MAX_LINE):
    return "the line is longer than %d bytes; a request is one line of at most that" % limit


def too_deep():
    return "the request nests arrays and objects deeper than %d levels" % MAX_DEPTH


def too_big():
    return "numbers in a request have at most %d digits" % MAX_DIGITS


def _at(reason, i):
    return "%s (at column %d)" % (reason, i + 1)


def _hex(c):
    if _ZERO <= c <= _NINE:
        return c - _ZERO
    c |= 0x20  # lower case
    if 0x61 <= c <= 0x66:
        return c - 0x61 + 10
    return -1


def _string_end(b, i, n, plain):
    """The index after the string whose opening quote is at i, or -1 - the index of what is
    wrong in it (-1 - n when it never ends); _string_error says what. plain: the line holds
    no backslash, no control character and nothing beyond ASCII, so the next quote ends it."""
    if plain:
        j = b.find(b'"', i + 1)
        return j + 1 if j >= 0 else -1 - n
    i += 1
    while i < n:
        c = b[i]
        if c == _QUOTE:
            return i + 1
        if c == _BACKSLASH:
            i += 1
            if i >= n:
                break
            e = b[i]
            if e == _LOWER_U:
                if i + 4 >= n:
                    return -1 - i
                v = 0
                for k in range(1, 5):
                    h = _hex(b[i + k])
                    if h < 0:
                        return -1 - i
                    v = v * 16 + h
                if v >= _FIRST_NON_ASCII:
                    return -1 - i
                i += 5
            elif e in _SIMPLE_ESCAPES:
                i += 1
            else:
                return -1 - i
        elif c < _FIRST_PRINTABLE or c >= _FIRST_NON_ASCII:
            return -1 - i
        else:
            i += 1
    return -1 - n


def _string_error(b, k, n):
    """The reason a string failed at index k (see _string_end)."""
    if k < n and b[k] >= _FIRST_NON_ASCII:
        return _at(NOT_ASCII, k)
    if k + 4 < n and b[k] == _LOWER_U and _hex(b[k + 1]) >= 0 and _hex(b[k + 2]) >= 0 and \
            _hex(b[k + 3]) >= 0 and _hex(b[k + 4]) >= 0:
        return _at(NOT_ASCII, k - 1)  # a \u escape of a character beyond ASCII
    return _at(NOT_JSON, k)


def _is_word(b, i, n, word):
    m = len(word)
    if i + m > n:
        return False
    for k in range(m):
        if b[i + k] != word[k]:
            return False
    return True


def _well_formed_utf8(b):
    """Whether b is well-formed UTF-8 (The Unicode Standard, table 3-7)."""
    n = len(b)
    i = 0
    while i < n:
        c = b[i]
        if c < _FIRST_NON_ASCII:
            i += 1
            continue
        lo = _FIRST_CONTINUATION
        hi = _LAST_CONTINUATION
        if 0xC2 <= c <= 0xDF:
            more = 1
        elif 0xE0 <= c <= 0xEF:
            more = 2
            if c == 0xE0:
                lo = 0xA0  # shorter forms are overlong
            elif c == 0xED:
                hi = 0x9F  # beyond are the surrogates
        elif 0xF0 <= c <= 0xF4:
            more = 3
            if c == 0xF0:
                lo = 0x90  # shorter forms are overlong
            elif c == 0xF4:
                hi = 0x8F  # beyond is past U+10FFFF
        else:
            return False
        if i + more >= n or not lo <= b[i + 1] <= hi:
            return False
        for k in range(2, more + 1):
            if not _FIRST_CONTINUATION <= b[i + k] <= _LAST_CONTINUATION:
                return False
        i += more + 1
    return True


def _plain(b, n):
    # a line of printable ASCII without backslashes (the common case) lets strings be skipped
    # by a search in C instead of byte by byte; a trailing newline does not count
    while n and (b[n - 1] == _NEWLINE or b[n - 1] == _RETURN):
        n -= 1
    if n == 0 or b.find(b"\\") >= 0:
        return False
    part = memoryview(b)[:n]
    return min(part) >= _FIRST_PRINTABLE and max(part) < _FIRST_NON_ASCII


def _scalar_end(b, i, n, plain):
    """The index after the string, number, true, false or null that starts at i, or the
    reason it is refused (a str)."""
    c = b[i]
    if c == _QUOTE:
        j = _string_end(b, i, n, plain)
        return _string_error(b, -1 - j, n) if j < 0 else j
    if c == _MINUS or _ZERO <= c <= _NINE:
        return _number_end(b, i, n)
    if _is_word(b, i, n, b"true") or _is_word(b, i, n, b"null"):
        return i + 4
    if _is_word(b, i, n, b"false"):
        return i + 5
    if _is_word(b, i, n, b"NaN") or _is_word(b, i, n, b"Infinity"):
        return _at(NOT_FINITE, i)
    return _at(NOT_JSON, i)


def _member_key_end(b, i, n, plain):
    """The index after the key string at i and the colon that follows it, or the reason it is
    refused."""
    j = _string_end(b, i, n, plain)
    if j < 0:
        return _string_error(b, -1 - j, n)
    while j < n and b[j] in _WHITESPACE:
        j += 1
    if j >= n or b[j] != _COLON:
        return _at(NOT_JSON, j)
    return j + 1


def _number_end(b, i, n):
    """The index after the whole number that starts at i, or the reason it is refused."""
    start = i
    if b[i] == _MINUS:
        i += 1
        if _is_word(b, i, n, b"Infinity"):
            return _at(NOT_FINITE, start)
    first_digit = i
    if i < n and b[i] == _ZERO:
        i += 1
    elif i < n and _ZERO <= b[i] <= _NINE:
        while i < n and _ZERO <= b[i] <= _NINE:
            i += 1
    else:
        return _at(NOT_JSON, i)
    if i < n and (b[i] == _DOT or b[i] in _EXPONENT):
        return _at(NOT_WHOLE, start)
    if i - first_digit > MAX_DIGITS:
        return _at(too_big(), start)
    return i


def check(b):
    """None when the bytes b are one JSON value this protocol accepts, else the reason."""
    n = len(b)
    plain = _plain(b, n)
    i = depth = 0
    state = _VALUE
    objects = 0  # bit k set: the container open at depth k + 1 is an object
    while True:
        while i < n and b[i] in _WHITESPACE:
            i += 1
        if i >= n:
            return None if state == _END else _at(NOT_JSON, i)
        c = b[i]
        if state == _VALUE or state == _VALUE_OR_CLOSE:
            if c == _OPEN_ARRAY or c == _OPEN_OBJECT:
                if depth == MAX_DEPTH:
                    return _at(too_deep(), i)
                objects = (objects << 1) | (1 if c == _OPEN_OBJECT else 0)
                depth += 1
                state = _KEY_OR_CLOSE if objects & 1 else _VALUE_OR_CLOSE
                i += 1
                continue
            if c == _CLOSE_ARRAY and state == _VALUE_OR_CLOSE:
                objects >>= 1
                depth -= 1
                i += 1
            else:
                j = _scalar_end(b, i, n, plain)
                if isinstance(j, str):  # a reason: the helpers answer an index or why not
                    return j
                i = j
        elif state == _KEY_OR_CLOSE or state == _KEY:
            if c == _CLOSE_OBJECT and state == _KEY_OR_CLOSE:
                objects >>= 1
                depth -= 1
                i += 1
            elif c == _QUOTE:
                j = _member_key_end(b, i, n, plain)
                if isinstance(j, str):  # a reason: the helpers answer an index or why not
                    return j
                i = j
                state = _VALUE
                continue
            else:
                return _at(NOT_JSON, i)
        elif state == _COMMA_OR_CLOSE:
            in_object = objects & 1
            if c == _COMMA:
                i += 1
                state = _KEY if in_object else _VALUE
                continue
            if c != (_CLOSE_OBJECT if in_object else _CLOSE_ARRAY):
                return _at(NOT_JSON, i)
            objects >>= 1
            depth -= 1
            i += 1
        else:
            return _at(NOT_JSON, i)
        # a value is complete (a scalar, or a container just closed)
        state = _COMMA_OR_CLOSE if depth else _END


def parse(line):
    """(the request, None) from one line (bytes or str), or (None, the reason it is
    refused)."""
    if type(line) is str:
        text = line
        try:
            raw = line.encode("utf-8")
        except UnicodeError:  # a str holding lone surrogates (CPython)
            return None, NOT_UTF8
    else:
        raw = line
        text = None
    n = len(raw)
    if n > MAX_LINE + 1 or n > MAX_LINE and raw[n - 1] != _NEWLINE:
        return None, too_long()
    if text is None:
        try:
            text = str(raw, "utf-8")
        except UnicodeError:
            return None, NOT_UTF8
        # MicroPython's decoder lets some ill-formed sequences through (encoded surrogates,
        # overlong forms); a line with non-ASCII bytes is checked strictly here instead
        if len(text) != n and not _well_formed_utf8(raw):
            return None, NOT_UTF8
    reason = check(raw)
    if reason is not None:
        return None, reason
    try:
        return json.loads(text), None
    except ValueError:  # the check above should make this unreachable
        return None, NOT_JSON
    except MemoryError:
        return None, OUT_OF_MEMORY


def _skip_rest(inp, part):
    # drops the rest of a line whose part `part` was read last, piece by piece
    while part and part[-1] != _NEWLINE:
        part = inp.readline(CHUNK)


def read_line(inp, limit=MAX_LINE):
    """(the next line of the binary stream inp, None); (None, the reason) after consuming a
    line that is refused unread (longer than limit bytes, or no memory to hold it); (None,
    None) at the end of input. Reads CHUNK bytes at a time: MicroPython's readline(n) sets
    aside n bytes before it reads, so n stays small."""
    part = inp.readline(CHUNK)
    if not part or part[-1] == _NEWLINE:
        return (part or None), None
    parts = [part]
    size = len(part)
    try:
        while part and part[-1] != _NEWLINE:
            part = inp.readline(CHUNK)
            size += len(part)
            if size - (1 if part and part[-1] == _NEWLINE else 0) > limit:
                parts = None
                _skip_rest(inp, part)
                return None, too_long(limit)
            parts.append(part)
        return b"".join(parts), None
    except MemoryError:
        parts = None
        _skip_rest(inp, part)
        return None, OUT_OF_MEMORY
