package simgin;

import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

/**
 * simgin's host for an EAAI Gin Rummy player: any class implementing {@code ginrummy.GinRummyPlayer}.
 *
 * <p>Usage: {@code java -cp HOST_CLASSES:CLASSPATH simgin.EaaiHost PLAYER_CLASS}. It reads simgin's
 * line protocol (docs/PROTOCOL.md) on stdin and makes, for each line, the interface call the
 * player would get at that point of an EAAI game; answers go to stdout, one line per question.
 * Whatever the player prints goes to stderr. simgin's Python side (simgin/players/eaai.py) checks the
 * answers and declines what the interface cannot express.
 *
 * <p>Cards: simgin numbers a card suit * 13 + rank with the suits C, D, H, S; an EAAI card has
 * rank 0-12 (A..K) and suit 0-3 in the order C, H, S, D. The player always gets the framework's
 * own Card objects ({@code Card.getCard(rank, suit)}), so it may compare them with ==.
 *
 * <p>Two exchanges go beyond the generic protocol, because the interface bundles decisions:
 * <ul>
 *   <li>{@code ask discard}: getDiscard(), then at once reportDiscard for it and getFinalMelds()
 *   (as the EAAI game does after a discard); the answer is {@code CARD} or, when the player
 *   knocks, {@code CARD knock MELD ...}. The later {@code discard} event for it is not reported twice.</li>
 *   <li>{@code ask melds}, sent to the knocker's opponent after the knocker's melds: getFinalMelds(),
 *   answered {@code MELD ...} (an empty line for none) or {@code none} for null.</li>
 * </ul>
 * A MELD is its cards' simgin numbers joined by commas.
 */
public final class EaaiHost {

    /** EAAI suit of each simgin suit (C, D, H, S -> C=0, D=3, H=1, S=2). */
    private static final int[] TO_EAAI_SUIT = {0, 3, 1, 2};
    /** simgin suit of each EAAI suit (C, H, S, D -> C=0, H=2, S=3, D=1). */
    private static final int[] TO_SIMGIN_SUIT = {0, 2, 3, 1};
    private static final int RANKS = 13;

    private final GinRummyPlayer player;
    private final String playerName;
    private final OutputStream out;
    private int seat;
    private final int[] scores = new int[2];
    private final ArrayList<Card> hand = new ArrayList<Card>();
    private final int[] pile = new int[64];
    private int pileSize;
    private int discardReported = -1;
    private boolean handsShown;
    private String eventError;

    private EaaiHost(GinRummyPlayer player, String playerName, OutputStream out) {
        this.player = player;
        this.playerName = playerName;
        this.out = out;
    }

    /** The framework's card for a simgin card number. */
    static Card toCard(int id) {
        return Card.getCard(id % RANKS, TO_EAAI_SUIT[id / RANKS]);
    }

    /** The simgin card number of a framework card. */
    static int toId(Card card) {
        return TO_SIMGIN_SUIT[card.getSuit()] * RANKS + card.getRank();
    }

    private static ArrayList<Card> cards(String[] words, int from) {
        ArrayList<Card> list = new ArrayList<Card>();
        for (int i = from; i < words.length; i++)
            if (!words[i].isEmpty())
                list.add(toCard(Integer.parseInt(words[i])));
        return list;
    }

    private static ArrayList<Card> meld(String text) {
        ArrayList<Card> list = new ArrayList<Card>();
        for (String id : text.split(","))
            list.add(toCard(Integer.parseInt(id)));
        return list;
    }

    private static ArrayList<ArrayList<Card>> melds(String[] words, int from) {
        ArrayList<ArrayList<Card>> list = new ArrayList<ArrayList<Card>>();
        for (int i = from; i < words.length; i++)
            if (!words[i].isEmpty())
                list.add(meld(words[i]));
        return list;
    }

    private static String show(ArrayList<ArrayList<Card>> melds) {
        StringBuilder text = new StringBuilder();
        for (ArrayList<Card> meld : melds) {
            text.append(' ');
            for (int i = 0; i < meld.size(); i++) {
                if (i > 0)
                    text.append(',');
                Card card = meld.get(i);
                text.append(card == null ? "null" : Integer.toString(toId(card)));
            }
        }
        return text.toString();
    }

    private void answer(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String describe(Throwable error, String call) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        System.err.print(trace);
        System.err.flush();
        String message = error.getMessage();
        return error.getClass().getName() + (message == null ? "" : ": " + message.replace('\n', ' ')) + " in " + call;
    }

    /** One line in; returns false after quit. */
    private boolean handle(String line) throws IOException {
        String[] words = line.split(" ");
        String kind = words[0];
        if (kind.equals("ask")) {
            if (eventError != null) {
                answer("error " + eventError);
                eventError = null;
                return true;
            }
            String call = words[1];
            try {
                answer(ask(words));
            } catch (RuntimeException | Error error) {
                answer("error " + describe(error, call));
            }
            return true;
        }
        if (kind.equals("quit"))
            return false;
        if (kind.equals("simgin")) {
            answer("simgin 1 " + playerName);
            return true;
        }
        try {
            event(kind, words);
        } catch (RuntimeException | Error error) {
            if (eventError == null)
                eventError = describe(error, kind + " event");
        }
        return true;
    }

    private String ask(String[] words) {
        String decision = words[1];
        switch (decision) {
            case "take_up_card":
            case "draw_from_pile":
                return player.willDrawFaceUpCard(toCard(pile[pileSize - 1])) ? "yes" : "no";
            case "discard": {
                Card card = player.getDiscard();
                if (card == null)
                    return "error getDiscard returned null";
                int id = toId(card);
                player.reportDiscard(seat, card);
                discardReported = id;
                ArrayList<ArrayList<Card>> melds = player.getFinalMelds();
                return melds == null ? Integer.toString(id) : id + " knock" + show(melds);
            }
            case "melds": {
                ArrayList<ArrayList<Card>> melds = player.getFinalMelds();
                return melds == null ? "none" : show(melds).trim();
            }
            default:
                return "error the EAAI host is not asked '" + decision + "'";
        }
    }

    private void event(String kind, String[] words) {
        switch (kind) {
            case "hand": { // hand SEAT DEALER RNG KNOCK_LIMIT UP_CARD STOCK_COUNT SCORE0 SCORE1 CARD...
                seat = Integer.parseInt(words[1]);
                int dealer = Integer.parseInt(words[2]);
                int upCard = Integer.parseInt(words[5]);
                scores[0] = Integer.parseInt(words[7]);
                scores[1] = Integer.parseInt(words[8]);
                pileSize = 0;
                if (upCard >= 0)
                    pile[pileSize++] = upCard;
                hand.clear();
                hand.addAll(cards(words, 9));
                discardReported = -1;
                handsShown = false;
                player.startGame(seat, 1 - dealer, hand.toArray(new Card[0]));
                break;
            }
            case "draw": { // draw SEAT CARD, -1 when unseen
                int who = Integer.parseInt(words[1]);
                int id = Integer.parseInt(words[2]);
                Card card = id < 0 ? null : toCard(id);
                if (who == seat)
                    hand.add(card);
                player.reportDraw(who, card);
                break;
            }
            case "take": { // take SEAT CARD, the pile's top card
                int who = Integer.parseInt(words[1]);
                Card card = toCard(Integer.parseInt(words[2]));
                pileSize--;
                if (who == seat)
                    hand.add(card);
                player.reportDraw(who, card);
                break;
            }
            case "discard": { // discard SEAT CARD
                int who = Integer.parseInt(words[1]);
                int id = Integer.parseInt(words[2]);
                pile[pileSize++] = id;
                if (who == seat) {
                    hand.remove(toCard(id));
                    if (id == discardReported) {
                        discardReported = -1;
                        break;
                    }
                }
                player.reportDiscard(who, toCard(id));
                break;
            }
            case "melds": // melds SEAT DEADWOOD MELD...
                player.reportFinalMelds(Integer.parseInt(words[1]), melds(words, 3));
                break;
            case "layoff": // layoff SEAT CARD MELD
                player.reportLayoff(Integer.parseInt(words[1]), toCard(Integer.parseInt(words[2])), meld(words[3]));
                break;
            case "shown": // shown SEAT CARD...: both hands are face up after a knock
                player.reportFinalHand(Integer.parseInt(words[1]), cards(words, 2));
                handsShown = true;
                break;
            case "end": { // end KIND WINNER POINTS
                if (!handsShown) { // a dead hand: nothing is shown, the player sees its own hand only
                    ArrayList<Card> own = new ArrayList<Card>(hand);
                    own.sort((a, b) -> toId(a) - toId(b)); // ascending, as the shown hands come
                    player.reportFinalHand(seat, own);
                }
                int winner = Integer.parseInt(words[2]);
                if (winner >= 0)
                    scores[winner] += Integer.parseInt(words[3]);
                player.reportScores(scores.clone());
                break;
            }
            default: // rules, pass: the interface has no call for them
                break;
        }
    }

    public static void main(String[] args) throws IOException {
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err); // the player's prints must not mix with the protocol
        BufferedReader in = new BufferedReader(
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.US_ASCII), 1 << 16);
        GinRummyPlayer player = null;
        String failure = null;
        if (args.length != 1) {
            failure = "usage: java simgin.EaaiHost PLAYER_CLASS";
        } else {
            try {
                Object made = Class.forName(args[0]).getDeclaredConstructor().newInstance();
                if (made instanceof GinRummyPlayer)
                    player = (GinRummyPlayer) made;
                else
                    failure = "class " + args[0] + " does not implement ginrummy.GinRummyPlayer";
            } catch (ClassNotFoundException error) {
                failure = "class " + args[0] + " not found on the classpath";
            } catch (ReflectiveOperationException | RuntimeException | LinkageError error) {
                failure = "cannot make a " + args[0] + " with its no-argument constructor: " + describe(error, "new");
            }
        }
        EaaiHost host = new EaaiHost(player, args.length > 0 ? args[0] : "?", out);
        String line;
        while ((line = in.readLine()) != null) {
            if (failure != null) {
                if (line.startsWith("simgin") || line.startsWith("ask"))
                    host.answer("error " + failure);
                continue;
            }
            if (!host.handle(line))
                break;
        }
        out.flush();
    }
}
