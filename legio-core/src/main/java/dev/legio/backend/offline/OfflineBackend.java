package dev.legio.backend.offline;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.TurnResult;
import dev.legio.backend.Usage;
import dev.legio.log.InvalidMessageException;
import dev.legio.log.PraetoriumXml;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The built-in model, used when no other back-end is configured: deterministic, no network. Its
 * reply describes what it received (how many history entries, whether a context notice and a status
 * block came with the request, and the request itself), which makes Legio's context handling
 * visible and testable. It keeps its conversations in memory only, so it cannot resume one after a
 * restart. Token usage is estimated as a real API would report it: every turn reads the whole
 * conversation so far. Its context use after a turn is the same kind of estimate (one token per
 * four characters of everything the session has received and answered, system prompt included)
 * against the window it was given ({@link ContextWindows#DEFAULT} unless configured).
 */
public final class OfflineBackend implements ModelBackend {
  public static final String KIND = "offline";
  public static final String LABEL = "(offline model)";

  private final long window;

  /** The offline model with the default window ({@link ContextWindows#DEFAULT} tokens). */
  public OfflineBackend() {
    this(ContextWindows.DEFAULT);
  }

  /** The offline model, stating a context window of {@code window} tokens. */
  public OfflineBackend(long window) {
    if (window <= 0) {
      throw new IllegalArgumentException("a context window must be positive, not " + window);
    }
    this.window = window;
  }

  /** The context window this model states, in tokens. */
  public long window() {
    return window;
  }

  private static final Pattern PRAETORIUM =
      Pattern.compile("<praetorium\\b[^>]*>.*?</praetorium>", Pattern.DOTALL);
  private static final Pattern BLOCK =
      Pattern.compile(
          "<(praetorium|context_notice|centurio_status)\\b[^>]*>.*?</\\1>", Pattern.DOTALL);

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String displayName() {
    return "offline model";
  }

  @Override
  public boolean canResume() {
    return false;
  }

  /**
   * False: it only describes what it received, so it has no facts to extract nor anything to
   * consolidate; memory extraction and consolidation skip its sessions rather than write made-up
   * memories.
   */
  @Override
  public boolean canComplete() {
    return false;
  }

  @Override
  public BackendSession open(SessionSpec spec) {
    return new Session(spec, window);
  }

  /** What the offline model made of one user message. */
  record Reading(int historyEntries, boolean contextNotice, boolean statusBlock, String request) {}

  static Reading read(String message) {
    int entries = 0;
    Matcher praetorium = PRAETORIUM.matcher(message);
    if (praetorium.find()) {
      try {
        entries = PraetoriumXml.parse(praetorium.group()).entries().size();
      } catch (InvalidMessageException e) {
        entries = -1;
      }
    }
    boolean notice = message.contains("<context_notice>");
    boolean status = message.contains("<centurio_status>");
    String request = BLOCK.matcher(message).replaceAll("").strip();
    return new Reading(entries, notice, status, request);
  }

  private static final class Session implements BackendSession {
    private final SessionSpec spec;
    private final long window;
    private long conversationChars;
    private int turns;

    Session(SessionSpec spec, long window) {
      this.spec = spec;
      this.window = window;
      this.conversationChars = spec.systemPrompt().length();
    }

    @Override
    public String backendSessionId() {
      return null;
    }

    @Override
    public boolean resumed() {
      return false;
    }

    @Override
    public synchronized TurnResult send(String userMessage, Consumer<BackendEvent> events) {
      events.accept(new BackendEvent.Status("⏳ Thinking..."));
      turns++;
      Reading reading = read(userMessage);
      String reply = reply(reading);
      conversationChars += userMessage.length();
      long input = TokenEstimator.ofChars(conversationChars);
      conversationChars += reply.length();
      events.accept(new BackendEvent.Text(reply));
      return new TurnResult(
          reply,
          new Usage(input, TokenEstimator.of(reply), 0, 0, true),
          ContextUse.of(TokenEstimator.ofChars(conversationChars), window));
    }

    private String reply(Reading r) {
      StringBuilder out = new StringBuilder(LABEL).append(' ');
      out.append(spec.owner()).append(" received: \"").append(preview(r.request())).append("\". ");
      out.append("Turn ").append(turns).append(" of this session; ");
      if (r.historyEntries() < 0) {
        out.append("the history block could not be read");
      } else if (r.historyEntries() == 0) {
        out.append("no history entries");
      } else {
        out.append(r.historyEntries())
            .append(r.historyEntries() == 1 ? " history entry" : " history entries");
      }
      out.append(r.contextNotice() ? "; context restored from the praetorium" : "");
      out.append(r.statusBlock() ? "; agent status attached" : "");
      out.append(". Configure a model back-end under [backend] in legio.toml for real answers.");
      return out.toString();
    }

    private static String preview(String request) {
      String flat = request.replaceAll("\\s+", " ");
      return flat.length() <= 200 ? flat : flat.substring(0, 200) + "…";
    }

    @Override
    public void close() {}
  }
}
