package dev.legio.pricing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How a model name, as a back-end or {@code prompt.md} gives it, finds its entry in the price
 * table.
 *
 * <p>Rule: the name is trimmed and lower-cased; then the names tried, in order, are
 *
 * <ol>
 *   <li>the name itself ({@code claude-sonnet-4-5-20250929} if the table has that exact entry);
 *   <li>the name without a date suffix, {@code -YYYYMMDD} (Anthropic: {@code
 *       claude-sonnet-4-5-20250929} → {@code claude-sonnet-4-5}) or {@code -YYYY-MM-DD} (OpenAI:
 *       {@code gpt-4o-2024-08-06} → {@code gpt-4o});
 *   <li>the name without a {@code -latest} suffix ({@code claude-3-7-sonnet-latest}).
 * </ol>
 *
 * Nothing else: no prefixes ({@code gpt-4o} never prices {@code gpt-4o-mini}), no aliases ({@code
 * sonnet} names whatever the CLI takes it to mean, so it has no price of its own). A name no rule
 * finds has an unknown price.
 */
public final class ModelNames {
  private static final Pattern DATED = Pattern.compile("-(\\d{8}|\\d{4}-\\d{2}-\\d{2})$");
  private static final String LATEST = "-latest";

  private ModelNames() {}

  /** The keys to look {@code model} up by, in order (see the class comment); empty for blank. */
  public static List<String> candidates(String model) {
    List<String> names = new ArrayList<>(2);
    if (model == null || model.isBlank()) {
      return names;
    }
    String name = normalise(model);
    names.add(name);
    String undated = DATED.matcher(name).replaceFirst("");
    if (!undated.equals(name)) {
      names.add(undated);
    } else if (name.endsWith(LATEST) && name.length() > LATEST.length()) {
      names.add(name.substring(0, name.length() - LATEST.length()));
    }
    return names;
  }

  /** A name as the table keys it: trimmed, lower case. */
  public static String normalise(String model) {
    return model.strip().toLowerCase(Locale.ROOT);
  }
}
