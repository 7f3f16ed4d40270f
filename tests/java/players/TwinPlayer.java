import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic EAAI test player; its Python twin is tests/test_eaai.py's Twin, which must play
 * the same hands.
 *
 * Draw: take the offered card when it would sit in a set or run of the hand plus it. Discard: the
 * card leaving the least deadwood, never the card just taken from the pile; ties go to the highest
 * rank, then the highest suit in the EAAI order C, H, S, D (so a wrong card mapping shows).
 * getFinalMelds: the best melds when their deadwood is 10 or less, or after the opponent knocked.
 */
public class TwinPlayer implements GinRummyPlayer {
    protected int me;
    protected final ArrayList<Card> hand = new ArrayList<Card>();
    protected Card faceUp;
    protected Card drawn;
    protected boolean opponentKnocked;

    static int value(Card card) {
        return Math.min(card.getRank() + 1, 10);
    }

    /** Every set (3 or 4 of a rank, and the threes inside a four) and run (3 or more of a suit) in cards. */
    static List<List<Card>> melds(List<Card> cards) {
        List<List<Card>> found = new ArrayList<List<Card>>();
        for (int rank = 0; rank < 13; rank++) {
            List<Card> same = new ArrayList<Card>();
            for (Card card : cards)
                if (card.getRank() == rank)
                    same.add(card);
            if (same.size() >= 3)
                found.add(same);
            if (same.size() == 4)
                for (Card left : same) {
                    List<Card> three = new ArrayList<Card>(same);
                    three.remove(left);
                    found.add(three);
                }
        }
        for (int suit = 0; suit < 4; suit++) {
            Card[] bySuit = new Card[13];
            for (Card card : cards)
                if (card.getSuit() == suit)
                    bySuit[card.getRank()] = card;
            for (int low = 0; low < 13; low++)
                for (int high = low + 2; high < 13; high++) {
                    boolean whole = true;
                    for (int rank = low; rank <= high; rank++)
                        whole &= bySuit[rank] != null;
                    if (!whole)
                        break;
                    List<Card> run = new ArrayList<Card>();
                    for (int rank = low; rank <= high; rank++)
                        run.add(bySuit[rank]);
                    found.add(run);
                }
        }
        return found;
    }

    /** The most value that disjoint melds from index on can hold, given the cards used; best gets the melds. */
    static int pack(List<List<Card>> melds, int index, List<Card> used, List<List<Card>> chosen, List<List<Card>> best, int[] bestValue, int value) {
        if (value > bestValue[0]) {
            bestValue[0] = value;
            best.clear();
            best.addAll(chosen);
        }
        for (int i = index; i < melds.size(); i++) {
            List<Card> meld = melds.get(i);
            boolean free = true;
            for (Card card : meld)
                free &= !used.contains(card);
            if (!free)
                continue;
            int meldValue = 0;
            for (Card card : meld)
                meldValue += value(card);
            used.addAll(meld);
            chosen.add(meld);
            pack(melds, i + 1, used, chosen, best, bestValue, value + meldValue);
            chosen.remove(chosen.size() - 1);
            used.removeAll(meld);
        }
        return bestValue[0];
    }

    static List<List<Card>> bestMelds(List<Card> cards) {
        List<List<Card>> best = new ArrayList<List<Card>>();
        pack(melds(cards), 0, new ArrayList<Card>(), new ArrayList<List<Card>>(), best, new int[] {0}, 0);
        return best;
    }

    static int deadwood(List<Card> cards) {
        int total = 0;
        for (Card card : cards)
            total += value(card);
        for (List<Card> meld : bestMelds(cards))
            for (Card card : meld)
                total -= value(card);
        return total;
    }

    static boolean inSomeMeld(List<Card> cards, Card card) {
        List<Card> with = new ArrayList<Card>(cards);
        with.add(card);
        for (List<Card> meld : melds(with))
            if (meld.contains(card))
                return true;
        return false;
    }

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        me = playerNum;
        hand.clear();
        for (Card card : cards)
            hand.add(card);
        faceUp = drawn = null;
        opponentKnocked = false;
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        faceUp = card;
        return inSomeMeld(hand, card);
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        if (playerNum == me) {
            hand.add(drawnCard);
            drawn = drawnCard;
        }
    }

    @Override
    public Card getDiscard() {
        Card choice = null;
        int least = Integer.MAX_VALUE;
        for (Card card : hand) {
            if (card == drawn && drawn == faceUp)
                continue; // R10: not the card just taken from the pile
            List<Card> rest = new ArrayList<Card>(hand);
            rest.remove(card);
            int left = deadwood(rest);
            boolean better = left < least || (left == least && (card.getRank() > choice.getRank()
                    || (card.getRank() == choice.getRank() && card.getSuit() > choice.getSuit())));
            if (better) {
                least = left;
                choice = card;
            }
        }
        return choice;
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == me)
            hand.remove(discardedCard);
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        if (!opponentKnocked && deadwood(hand) > 10)
            return null;
        ArrayList<ArrayList<Card>> melds = new ArrayList<ArrayList<Card>>();
        for (List<Card> meld : bestMelds(hand))
            melds.add(new ArrayList<Card>(meld));
        return melds;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        if (playerNum != me)
            opponentKnocked = true;
    }

    @Override
    public void reportScores(int[] scores) {
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
    }
}
