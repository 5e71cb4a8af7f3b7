# Why a move is illegal, for a person. Loaded only when a move is refused: its text would
# otherwise sit in a device's heap for a whole game in which nobody plays an illegal move.
from shared_rules import movegen
from shared_rules.cards import SWAP


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
