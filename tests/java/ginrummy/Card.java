package ginrummy;

/**
 * A stand-in for the EAAI framework's ginrummy.Card, written for simgin's tests: the same
 * public signatures that the adapter and the test players use, nothing of the framework's code.
 * A card has a rank 0-12 (A..K) and a suit 0-3 in the order C, H, S, D; its id is suit * 13 + rank.
 * There is one object per card, so cards compare with ==.
 */
public class Card {
    public static final String[] rankNames = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    public static final String[] suitNames = {"C", "H", "S", "D"};
    public static final int NUM_RANKS = 13;
    public static final int NUM_SUITS = 4;
    public static final int NUM_CARDS = NUM_RANKS * NUM_SUITS;
    public static final Card[] allCards = new Card[NUM_CARDS];

    static {
        for (int id = 0; id < NUM_CARDS; id++)
            allCards[id] = new Card(id % NUM_RANKS, id / NUM_RANKS);
    }

    public final int rank;
    public final int suit;

    public Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    public static Card getCard(int id) {
        return allCards[id];
    }

    public static Card getCard(int rank, int suit) {
        return allCards[getId(rank, suit)];
    }

    public static int getId(int rank, int suit) {
        return suit * NUM_RANKS + rank;
    }

    public int getRank() {
        return rank;
    }

    public int getSuit() {
        return suit;
    }

    public int getId() {
        return getId(rank, suit);
    }

    public boolean isRed() {
        return suit == 1 || suit == 3;
    }

    @Override
    public String toString() {
        return rankNames[rank] + suitNames[suit];
    }
}
