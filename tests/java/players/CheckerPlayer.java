import ginrummy.Card;

import java.util.ArrayList;
import java.util.HashSet;

/**
 * TwinPlayer's policy, with every interface call logged to System.out (which simgin's adapter
 * sends to stderr) as one line, cards by their EAAI names, and the interface's promises checked:
 * a violation throws, and simgin stops the run with the message.
 */
public class CheckerPlayer extends TwinPlayer {
    private Card discarded;

    private static String show(Iterable<Card> cards) {
        StringBuilder text = new StringBuilder();
        for (Card card : cards)
            text.append(' ').append(card == null ? "null" : card.toString());
        return text.toString();
    }

    private static void log(String line) {
        System.out.println(line);
    }

    private static void check(boolean condition, String what) {
        if (!condition)
            throw new IllegalStateException(what);
    }

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        check(cards.length == 10, "startGame with " + cards.length + " cards");
        HashSet<Card> distinct = new HashSet<Card>();
        for (Card card : cards) {
            check(card == Card.getCard(card.getId()), "startGame card " + card + " is not the framework's object");
            distinct.add(card);
        }
        check(distinct.size() == 10, "startGame with a repeated card");
        ArrayList<Card> list = new ArrayList<Card>();
        for (Card card : cards)
            list.add(card);
        log("startGame " + playerNum + " " + startingPlayerNum + show(list));
        super.startGame(playerNum, startingPlayerNum, cards);
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        check(card != null && card == Card.getCard(card.getId()), "willDrawFaceUpCard(" + card + ")");
        boolean take = super.willDrawFaceUpCard(card);
        log("willDrawFaceUpCard " + card + " " + take);
        return take;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        check(playerNum != me || drawnCard != null, "reportDraw of my own card as null");
        check(drawnCard == null || drawnCard == Card.getCard(drawnCard.getId()), "reportDraw card not the framework's");
        log("reportDraw " + playerNum + " " + drawnCard);
        super.reportDraw(playerNum, drawnCard);
    }

    @Override
    public Card getDiscard() {
        discarded = super.getDiscard();
        log("getDiscard " + discarded);
        return discarded;
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == me) {
            check(discardedCard == discarded, "reportDiscard of " + discardedCard + ", not my discard " + discarded);
            check(hand.contains(discardedCard), "reportDiscard of a card I do not hold: " + discardedCard);
            discarded = null;
        }
        log("reportDiscard " + playerNum + " " + discardedCard);
        super.reportDiscard(playerNum, discardedCard);
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        check(hand.size() == 10, "getFinalMelds holding " + hand.size() + " cards");
        ArrayList<ArrayList<Card>> melds = super.getFinalMelds();
        log("getFinalMelds " + (melds == null ? "null" : melds.size() + " melds"));
        return melds;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        StringBuilder text = new StringBuilder();
        for (ArrayList<Card> meld : melds)
            text.append(" [").append(show(meld).trim()).append(']');
        log("reportFinalMelds " + playerNum + text);
        super.reportFinalMelds(playerNum, melds);
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        log("reportLayoff " + playerNum + " " + layoffCard + " [" + show(opponentMeld).trim() + "]");
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> finalHand) {
        if (playerNum == me)
            check(new HashSet<Card>(finalHand).equals(new HashSet<Card>(hand)), "reportFinalHand: not my hand " + hand);
        log("reportFinalHand " + playerNum + show(finalHand));
    }

    @Override
    public void reportScores(int[] scores) {
        check(scores.length == 2, "reportScores with " + scores.length + " scores");
        log("reportScores " + scores[0] + " " + scores[1]);
    }
}
