import ginrummy.Card;
import ginrummy.GinRummyGame;
import ginrummy.GinRummyPlayer;
import ginrummy.SimpleGinRummyPlayer;

import java.util.ArrayList;

/**
 * Times the EAAI framework's own harness for simgin's benchmarks (bench_programs.py): its
 * GinRummyGame plays SimpleGinRummyPlayer against itself for the given number of games; a
 * wrapper counts the hands (one startGame per hand). Prints "HANDS SECONDS".
 */
public class EaaiHarnessSpeed {
    /** Passes every call on, counting hands. */
    static final class Counting implements GinRummyPlayer {
        private final GinRummyPlayer inner;
        long hands;

        Counting(GinRummyPlayer inner) {
            this.inner = inner;
        }

        public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
            hands++;
            inner.startGame(playerNum, startingPlayerNum, cards);
        }

        public boolean willDrawFaceUpCard(Card card) {
            return inner.willDrawFaceUpCard(card);
        }

        public void reportDraw(int playerNum, Card drawnCard) {
            inner.reportDraw(playerNum, drawnCard);
        }

        public Card getDiscard() {
            return inner.getDiscard();
        }

        public void reportDiscard(int playerNum, Card discardedCard) {
            inner.reportDiscard(playerNum, discardedCard);
        }

        public ArrayList<ArrayList<Card>> getFinalMelds() {
            return inner.getFinalMelds();
        }

        public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
            inner.reportFinalMelds(playerNum, melds);
        }

        public void reportScores(int[] scores) {
            inner.reportScores(scores);
        }

        public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
            inner.reportLayoff(playerNum, layoffCard, opponentMeld);
        }

        public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
            inner.reportFinalHand(playerNum, hand);
        }
    }

    public static void main(String[] args) {
        int games = Integer.parseInt(args[0]);
        Counting first = new Counting(new SimpleGinRummyPlayer());
        GinRummyGame game = new GinRummyGame(first, new Counting(new SimpleGinRummyPlayer()));
        long start = System.nanoTime();
        for (int i = 0; i < games; i++)
            game.play();
        System.out.println(first.hands + " " + (System.nanoTime() - start) / 1e9);
    }
}
