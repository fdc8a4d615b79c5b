package dev.legio.longterm;

import dev.legio.transcript.TranscriptEntry;
import dev.legio.transcript.TranscriptException;
import dev.legio.transcript.TranscriptInfo;
import dev.legio.transcript.TranscriptStore;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * What of an agent's recently changed sessions the model reads when it consolidates.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Sessions in the order given (the store lists the newest first), while the budget of {@value
 *       #TOTAL_CHARS} characters in all lasts.
 *   <li>Of each transcript only the user's and the assistant's turns and summaries with text, one
 *       line each: {@code [2026-11-21] user: text} (no date when the entry has none).
 *   <li>Of each transcript its end, the most recent part: at most {@value #EACH_CHARS} characters,
 *       and never more than the budget left.
 *   <li>A transcript that cannot be read is skipped with a warning; one with nothing to show is
 *       left out and costs nothing.
 * </ul>
 */
public final class TranscriptExcerpts {
  /** The most characters of transcripts one run gives the model. */
  public static final int TOTAL_CHARS = 40_000;

  /** The most characters of one transcript (its end, the most recent part). */
  public static final int EACH_CHARS = 12_000;

  private final TranscriptStore transcripts;

  public TranscriptExcerpts(TranscriptStore transcripts) {
    this.transcripts = transcripts;
  }

  /** The excerpts of {@code changed}; adds a warning for each transcript it cannot read. */
  public List<ConsolidationModel.Excerpt> of(List<TranscriptInfo> changed, List<String> warnings) {
    List<ConsolidationModel.Excerpt> out = new ArrayList<>();
    int budget = TOTAL_CHARS;
    for (TranscriptInfo info : changed) {
      if (budget <= 0) {
        break;
      }
      StringBuilder text = new StringBuilder();
      try {
        for (TranscriptEntry e : transcripts.load(info.sessionId()).entries()) {
          String role = e.role();
          if (!role.equals("user") && !role.equals("assistant") && !role.equals("summary")) {
            continue;
          }
          String body = e.text();
          if (body.isBlank()) {
            continue;
          }
          Instant at = e.timestamp();
          text.append(at == null ? "" : "[" + at.atZone(ZoneOffset.UTC).toLocalDate() + "] ")
              .append(role)
              .append(": ")
              .append(body.strip())
              .append('\n');
        }
      } catch (TranscriptException e) {
        warnings.add("transcript " + info.sessionId() + " skipped: " + e.getMessage());
        continue;
      }
      int cap = Math.min(budget, EACH_CHARS);
      String excerpt = text.length() > cap ? text.substring(text.length() - cap) : text.toString();
      if (!excerpt.isBlank()) {
        out.add(new ConsolidationModel.Excerpt(info.sessionId(), excerpt));
        budget -= excerpt.length();
      }
    }
    return out;
  }
}
