package dev.legio.backend;

/**
 * Legio's one estimate of a token count, for when no tokenizer is at hand and the back-end reported
 * nothing: one token per four characters, rounded up, plus {@link #MESSAGE_FRAMING} tokens for each
 * chat message (the role markers and separators every chat format adds).
 *
 * <p>Every estimate Legio makes goes through here (conversation sizes, usage a server did not
 * report, the offline model, the dispatch benchmark), so they all agree.
 */
public final class TokenEstimator {
  /** Characters per token in the estimate. */
  public static final int CHARS_PER_TOKEN = 4;

  /** Tokens of framing each chat message adds. */
  public static final int MESSAGE_FRAMING = 4;

  private TokenEstimator() {}

  /** The tokens of {@code chars} characters of text: {@code ceil(chars / 4)}. */
  public static long ofChars(long chars) {
    return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  }

  /** The tokens of {@code text}. */
  public static long of(CharSequence text) {
    return ofChars(text.length());
  }

  /** The tokens of {@code messages} chat messages holding {@code chars} characters in all. */
  public static long ofMessages(long chars, long messages) {
    return ofChars(chars) + MESSAGE_FRAMING * messages;
  }
}
