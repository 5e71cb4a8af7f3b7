# Why a move is illegal, for a person. Loaded only when a move is refused: its text would
# otherwise sit in a device's heap for a whole game in which nobody plays an illegal move.
from shared_rules import movegen
from shared_rules.cards import SWAP, SWAP_OWN
from shared_rules.errors import shown

# reasons more than one place gives (apply checks a move, notation parses one)
NOTHING_TO_COPY = "copy: no card has been played yet this round, so there is nothing to copy"
PARTNER_PIECES = ("partner: you may move only your own, your teammate's and undercover pieces "
                  "(all colours once your or your teammate's four are home)")


def explain_swap(st, act):
    if act == SWAP:
        return "swap: both pieces must be undercover (on holes), and two different ones"
    return ("swap: one of your pieces on the track changes places with a piece of another "
            "colour on the track; pieces on their own start space or in a home cannot be "
            "swapped")


def explain(st, e, colour, mv):
    """A reason for a person why piece mv.a may not go to mv.b with card kind e."""
    game = st.game
    cards = game.cards
    lay = st.lay
    name = cards.names[e]
    p = mv.a
    dest = movegen.dest_of(mv.b)
    frm = st.pos[p]
    if frm >= lay.nboard:
        if not cards.enter[e]:
            return "%s cannot bring a piece into play; only 1/11 and 13 can" % name
        if p // lay.ppc != colour:
            return "you can only bring a piece of the colour you play (%s) into play" % (
                lay.colours[colour])
        if dest != lay.start[colour]:
            return "a piece comes into play on its own start space %d" % lay.start[colour]
        return "your own piece on start space %d: you cannot enter another there" % dest
    if not game.fill_movable(st, colour)[p]:
        return game.why_not_movable(st, colour, p)
    why = game.explain(st, e, colour, mv)
    if why:
        return why
    if lay.is_home(dest) and lay.home_colour(dest) != colour:
        return "a piece may only go into the home of the colour you play"
    return ("%s moves a piece exactly %s steps forward; %s to %s is not one of them (a piece on "
            "its own start space or in a home cannot be passed or knocked out; home is entered "
            "through the own start space, not from it)"
            % (name, " or ".join([str(n) for n in cards.steps[e]]), lay.loc_json(frm),
               lay.loc_json(dest)))


def partner_blocked(lay, loc):
    """A Partner 4 step apply refuses: the piece on loc cannot step on."""
    return ("partner: %s cannot step on (a piece on its own start space or in a home cannot be "
            "passed; home only through the own start space, not from it)" % lay.loc_json(loc))


def no_field(st, key, act):
    """Why a move of card action act (notation_parse.PASS, below 0: a pass) cannot carry the field
    key."""
    game = st.game
    if act < 0:
        return "a pass is {\"pass\": true} alone; it names no %s" % shown(key)
    if key == "jump":
        if not max(game.jumps):
            return "%s has no jumps: only a DOG Royal citizen jumps on from a special space" % (
                game.title)
        return ("'jump': only a citizen on the board jumps on, after a counted move that ends "
                "on a special space")
    if key == "rank":
        if not game.ranked:
            return "%s pieces have no rank: 'rank' is DOG Royal's" % game.title
        return ("'rank' names the piece that comes into play; a piece on the board is named "
                "by where it stands")
    if key == "meet":
        return ("'meet' orders the meeting points when one move fires several; this move "
                "fires at most one")
    if key == "swap":
        return "'swap' belongs to the swap card; this card moves along a 'path'"
    if key == "path" and (act == SWAP or act == SWAP_OWN):
        return "a swap names its two pieces in 'swap' and has no 'path'"
    return "a move of %s has no field %s (its fields: card, path or swap, rank, jump, meet; " \
           "or pass alone)" % (game.title, shown(key))
