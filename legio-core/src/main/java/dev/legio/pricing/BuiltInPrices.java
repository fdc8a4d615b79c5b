package dev.legio.pricing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prices Legio knows without configuration, in USD per million tokens (input, output, cache
 * read, cache write), as the vendors publish them: the Claude 4.x models (and the 3.x ones still
 * served), and OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series models. Anthropic's cache write is the
 * five-minute cache's (1.25 × input), its cache read 0.1 × input; OpenAI charges cached input at
 * its discounted rate and cache writes as plain input. {@code [pricing."MODEL"]} in {@code
 * legio.toml} overrides or adds entries.
 */
final class BuiltInPrices {
  private BuiltInPrices() {}

  static Map<String, ModelPrice> all() {
    Map<String, ModelPrice> p = new LinkedHashMap<>();
    // Anthropic: Opus 4.5 and later at $5/$25; Opus 4 and 4.1 at $15/$75.
    ModelPrice opusNew = ModelPrice.of("5", "25", "0.50", "6.25");
    ModelPrice opusOld = ModelPrice.of("15", "75", "1.50", "18.75");
    ModelPrice sonnet = ModelPrice.of("3", "15", "0.30", "3.75");
    p.put("claude-opus-4-6", opusNew);
    p.put("claude-opus-4-5", opusNew);
    p.put("claude-opus-4-1", opusOld);
    p.put("claude-opus-4-0", opusOld);
    p.put("claude-opus-4", opusOld);
    p.put("claude-sonnet-4-6", sonnet);
    p.put("claude-sonnet-4-5", sonnet);
    p.put("claude-sonnet-4-0", sonnet);
    p.put("claude-sonnet-4", sonnet);
    p.put("claude-3-7-sonnet", sonnet);
    p.put("claude-haiku-4-5", ModelPrice.of("1", "5", "0.10", "1.25"));
    p.put("claude-3-5-haiku", ModelPrice.of("0.80", "4", "0.08", "1"));
    // OpenAI: cache write = input (no surcharge).
    p.put("gpt-4o", ModelPrice.of("2.50", "10", "1.25", "2.50"));
    p.put("gpt-4o-mini", ModelPrice.of("0.15", "0.60", "0.075", "0.15"));
    p.put("gpt-4.1", ModelPrice.of("2", "8", "0.50", "2"));
    p.put("gpt-4.1-mini", ModelPrice.of("0.40", "1.60", "0.10", "0.40"));
    p.put("gpt-4.1-nano", ModelPrice.of("0.10", "0.40", "0.025", "0.10"));
    p.put("gpt-5", ModelPrice.of("1.25", "10", "0.125", "1.25"));
    p.put("gpt-5-mini", ModelPrice.of("0.25", "2", "0.025", "0.25"));
    p.put("gpt-5-nano", ModelPrice.of("0.05", "0.40", "0.005", "0.05"));
    p.put("o1", ModelPrice.of("15", "60", "7.50", "15"));
    p.put("o1-mini", ModelPrice.of("1.10", "4.40", "0.55", "1.10"));
    p.put("o3", ModelPrice.of("2", "8", "0.50", "2"));
    p.put("o3-mini", ModelPrice.of("1.10", "4.40", "0.55", "1.10"));
    p.put("o4-mini", ModelPrice.of("1.10", "4.40", "0.275", "1.10"));
    return p;
  }
}
