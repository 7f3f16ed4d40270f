import ginrummy.Card;

import java.util.ArrayList;

/** EAAI test players that break a rule at a chosen point, each a small change of TwinPlayer. */
public class BadPlayers {
    /** Discards a card it does not hold on its third discard. */
    public static class NotHeld extends TwinPlayer {
        private int discards;

        @Override
        public Card getDiscard() {
            Card card = super.getDiscard();
            if (++discards < 3)
                return card;
            for (Card other : Card.allCards)
                if (!hand.contains(other))
                    return other;
            return card;
        }
    }

    /** Knocks with a "meld" that is not one: its first three cards. */
    public static class FakeMelds extends TwinPlayer {
        @Override
        public ArrayList<ArrayList<Card>> getFinalMelds() {
            ArrayList<ArrayList<Card>> melds = super.getFinalMelds();
            if (melds == null || opponentKnocked)
                return melds;
            ArrayList<Card> fake = new ArrayList<Card>(hand.subList(0, 3));
            ArrayList<ArrayList<Card>> bad = new ArrayList<ArrayList<Card>>();
            bad.add(fake);
            return bad;
        }
    }

    /** Knocks after every discard, with its best melds, whatever its deadwood. */
    public static class AlwaysKnocks extends TwinPlayer {
        @Override
        public ArrayList<ArrayList<Card>> getFinalMelds() {
            opponentKnocked = true; // so TwinPlayer returns its melds
            return super.getFinalMelds();
        }
    }

    /** Knocks with no melds declared, so its declared deadwood is its whole hand. */
    public static class DeclaresNothing extends TwinPlayer {
        @Override
        public ArrayList<ArrayList<Card>> getFinalMelds() {
            ArrayList<ArrayList<Card>> melds = super.getFinalMelds();
            return melds == null || opponentKnocked ? melds : new ArrayList<ArrayList<Card>>();
        }
    }

    /** Returns null when asked for its melds after the opponent knocked. */
    public static class SilentDefender extends TwinPlayer {
        @Override
        public ArrayList<ArrayList<Card>> getFinalMelds() {
            return opponentKnocked ? null : super.getFinalMelds();
        }
    }

    /** Throws on its fifth discard. */
    public static class Thrower extends TwinPlayer {
        private int discards;

        @Override
        public Card getDiscard() {
            if (++discards == 5)
                throw new IllegalStateException("boom on discard 5");
            return super.getDiscard();
        }
    }

    /** Never answers its fourth draw question. */
    public static class Sleeper extends TwinPlayer {
        private int questions;

        @Override
        public boolean willDrawFaceUpCard(Card card) {
            if (++questions == 4) {
                try {
                    Thread.sleep(600_000);
                } catch (InterruptedException error) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.willDrawFaceUpCard(card);
        }
    }

    /** Prints to System.out while playing (simgin's adapter must keep it off the protocol). */
    public static class Chatty extends TwinPlayer {
        @Override
        public boolean willDrawFaceUpCard(Card card) {
            System.out.println("thinking about " + card);
            return super.willDrawFaceUpCard(card);
        }
    }

    /** Not a player at all. */
    public static class NotAPlayer {
    }
}
