# DOG (Schmidt Spiele's new base game, from the DOG Royal box): the track game with the 4 that
# also goes backward, the 1-7, the magnet and the swap of an own piece with another colour's.
# What it adds to the shared mechanics is nothing but its cards and boards: a seat moves only
# its own pieces (a finished player the teammate's), and knocking out an own or a teammate's
# piece costs nothing. 2 to 4 players play on the 4-seat board, 5 and 6 on the 6-seat one;
# with 4 and 6 players the seats facing each other play together.
from shared_rules.variant import Variant


class Dog(Variant):
    name = "dog"
    title = "DOG"
    cards_name = "dog-cards"
    layouts = {2: "dog-4", 3: "dog-4", 4: "dog-4", 5: "dog-6", 6: "dog-6"}
