package dev.legio.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * How full a transcript's conversation was at its last answer, as its assistant entries tell: the
 * {@code message.usage} that Claude Code (and Legio's {@link TranscriptRecorder}) write in each,
 * counting what the request read (uncached input, cache reads, cache writes) and what it wrote.
 *
 * <p>Only the end of the transcript is looked at (the last {@value #LOOKBACK} entries), so a
 * listing parses at most a few lines per session. Claude Code's {@code <synthetic>} answers (errors
 * it wrote itself, with zero usage) are passed over. A compaction after the last figure (a {@code
 * summary} entry, or Claude Code's {@code compact_boundary}) makes it stale: then there is none.
 *
 * @param model the {@code message.model} of that entry; null when it names none
 * @param tokens input + cache reads + cache writes + output tokens of that entry's usage
 */
public record TranscriptContext(String model, long tokens) {
  /** How many entries from the end are looked at. */
  static final int LOOKBACK = 16;

  /** The figure of the newest assistant entry with a usage, or null when there is none. */
  public static TranscriptContext of(List<TranscriptEntry> entries) {
    int stop = Math.max(0, entries.size() - LOOKBACK);
    for (int i = entries.size() - 1; i >= stop; i--) {
      TranscriptEntry e = entries.get(i);
      if (e.isSummary()) {
        return null;
      }
      try {
        if (e.type().equals("system")) {
          if (e.json().path("subtype").asText("").equals("compact_boundary")) {
            return null;
          }
          continue;
        }
        if (!e.type().equals("assistant")) {
          continue;
        }
        JsonNode message = e.message();
        JsonNode usage = message.path("usage");
        String model = message.path("model").isTextual() ? message.path("model").asText() : null;
        if (!usage.isObject() || "<synthetic>".equals(model)) {
          continue;
        }
        long tokens =
            usage.path("input_tokens").asLong(0)
                + usage.path("cache_read_input_tokens").asLong(0)
                + usage.path("cache_creation_input_tokens").asLong(0)
                + usage.path("output_tokens").asLong(0);
        return new TranscriptContext(model, Math.max(0, tokens));
      } catch (TranscriptException malformed) {
        // A line whose body is not valid JSON tells nothing; look further back.
      }
    }
    return null;
  }
}
