package dev.legio.app.gateway.slack;

/**
 * Text for Slack's {@code mrkdwn}: Slack reads {@code <...>} as links and mentions ({@code
 * <!channel>}, {@code <@U123>}) and {@code &} as the start of an entity, so the three are sent as
 * {@code &amp;}, {@code &lt;} and {@code &gt;}, as its "Formatting text" guide asks. Rule: any
 * text, however hostile, arrives as that text: it cannot ping a channel or forge a link.
 */
public final class SlackText {
  private SlackText() {}

  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** Text as Slack sends it in events (with the three escaped) back to what the user typed. */
  public static String unescape(String text) {
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
  }

  /**
   * The text of a message to the app without the app's own mention at its start ({@code <@U0BOT>
   * what is new?} reads {@code what is new?}).
   */
  public static String withoutLeadingMention(String text, String botUserId) {
    String stripped = text.strip();
    if (botUserId != null) {
      String mention = "<@" + botUserId + ">";
      while (stripped.startsWith(mention)) {
        stripped = stripped.substring(mention.length()).strip();
      }
    }
    return stripped;
  }
}
