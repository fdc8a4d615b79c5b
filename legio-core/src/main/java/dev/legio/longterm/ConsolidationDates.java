package dev.legio.longterm;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns relative dates in a fact's text into absolute ones, given the day the fact was extracted
 * (its {@code ### Session memories — YYYY-MM-DD} heading). Deterministic: the same text and day
 * always give the same result.
 *
 * <p>What it understands (case ignored, whole words only):
 *
 * <ul>
 *   <li>{@code today}, {@code tonight}, {@code this morning/afternoon/evening}: the day; {@code
 *       yesterday}, {@code last night}, {@code tomorrow}, {@code the day before yesterday}, {@code
 *       the day after tomorrow}: the day shifted; written as {@code 2026-11-21}.
 *   <li>{@code N days/weeks/months/years ago} and {@code in N days/...} (N in digits, {@code a},
 *       {@code an} or one to twelve in words): written as {@code on 2026-11-18}.
 *   <li>{@code last/this/next week}: {@code the week of 2026-11-16} (its Monday); {@code
 *       last/this/next month}: {@code 2026-10}; {@code last/this/next year}: {@code 2025}.
 *   <li>{@code last <weekday>}: the latest such day before the day; {@code next <weekday>}: the
 *       first one after it; {@code this <weekday>}: the day itself or the first one after it;
 *       written as {@code Friday 2026-11-27}.
 * </ul>
 *
 * Anything else is left as it is.
 */
public final class ConsolidationDates {
  private static final Map<String, Integer> NUMBERS =
      Map.ofEntries(
          Map.entry("a", 1),
          Map.entry("an", 1),
          Map.entry("one", 1),
          Map.entry("two", 2),
          Map.entry("three", 3),
          Map.entry("four", 4),
          Map.entry("five", 5),
          Map.entry("six", 6),
          Map.entry("seven", 7),
          Map.entry("eight", 8),
          Map.entry("nine", 9),
          Map.entry("ten", 10),
          Map.entry("eleven", 11),
          Map.entry("twelve", 12));

  private static final String NUMBER =
      "(\\d{1,4}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
  private static final String UNIT = "(day|week|month|year)s?";
  private static final String WEEKDAY =
      "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";

  private record Rule(Pattern pattern, BiFunction<Matcher, LocalDate, String> replace) {}

  private static Rule rule(String regex, BiFunction<Matcher, LocalDate, String> replace) {
    return new Rule(
        Pattern.compile("\\b(?:" + regex + ")\\b", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE),
        replace);
  }

  // Longer phrases first, so "the day before yesterday" is not read as "yesterday".
  private static final List<Rule> RULES =
      List.of(
          rule("(?:the )?day before yesterday", (m, d) -> iso(d.minusDays(2))),
          rule("(?:the )?day after tomorrow", (m, d) -> iso(d.plusDays(2))),
          rule(NUMBER + " " + UNIT + " ago", (m, d) -> "on " + iso(shift(m, d, -1))),
          rule("in " + NUMBER + " " + UNIT, (m, d) -> "on " + iso(shift(m, d, 1))),
          rule("last night", (m, d) -> iso(d.minusDays(1))),
          rule("yesterday", (m, d) -> iso(d.minusDays(1))),
          rule("tomorrow", (m, d) -> iso(d.plusDays(1))),
          rule("today|tonight|this (?:morning|afternoon|evening)", (m, d) -> iso(d)),
          rule("(last|this|next) week", (m, d) -> "the week of " + iso(monday(d, m.group(1)))),
          rule("(last|this|next) month", (m, d) -> month(d, m.group(1))),
          rule("(last|this|next) year", (m, d) -> year(d, m.group(1))),
          rule("(last|this|next) " + WEEKDAY, ConsolidationDates::weekday));

  private ConsolidationDates() {}

  /**
   * {@code text} with its relative dates made absolute against {@code day}; unchanged when {@code
   * day} is null (a fact without a dated heading).
   */
  public static String absolute(String text, LocalDate day) {
    if (day == null || text == null || text.isEmpty()) {
      return text;
    }
    String out = text;
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(out);
      StringBuilder sb = new StringBuilder();
      boolean found = false;
      while (m.find()) {
        found = true;
        m.appendReplacement(sb, Matcher.quoteReplacement(rule.replace().apply(m, day)));
      }
      if (found) {
        m.appendTail(sb);
        out = sb.toString();
      }
    }
    return out;
  }

  private static String iso(LocalDate d) {
    return d.toString();
  }

  private static LocalDate shift(Matcher m, LocalDate d, int sign) {
    String n = m.group(1).toLowerCase(Locale.ROOT);
    long count = NUMBERS.containsKey(n) ? NUMBERS.get(n) : Long.parseLong(n);
    count *= sign;
    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "day" -> d.plusDays(count);
      case "week" -> d.plusWeeks(count);
      case "month" -> d.plusMonths(count);
      default -> d.plusYears(count);
    };
  }

  private static int offset(String which) {
    return switch (which.toLowerCase(Locale.ROOT)) {
      case "last" -> -1;
      case "next" -> 1;
      default -> 0;
    };
  }

  private static LocalDate monday(LocalDate d, String which) {
    return d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(offset(which));
  }

  private static String month(LocalDate d, String which) {
    return YearMonth.from(d).plusMonths(offset(which)).toString();
  }

  private static String year(LocalDate d, String which) {
    return Integer.toString(d.getYear() + offset(which));
  }

  private static String weekday(Matcher m, LocalDate d) {
    DayOfWeek day = DayOfWeek.valueOf(m.group(2).toUpperCase(Locale.ROOT));
    LocalDate date =
        switch (m.group(1).toLowerCase(Locale.ROOT)) {
          case "last" -> d.with(TemporalAdjusters.previous(day));
          case "next" -> d.with(TemporalAdjusters.next(day));
          default -> d.with(TemporalAdjusters.nextOrSame(day));
        };
    String name = day.name().charAt(0) + day.name().substring(1).toLowerCase(Locale.ROOT);
    return name + " " + iso(date);
  }
}
