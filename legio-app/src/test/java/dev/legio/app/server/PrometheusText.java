package dev.legio.app.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of Prometheus's text exposition format 0.0.4, for tests: every line is a {@code #
 * HELP}, a {@code # TYPE} or a sample of a family typed before it, with well-formed labels and a
 * number; anything else fails with the line. Samples are keyed {@code name{a="x",b="y"}}, labels in
 * name order.
 */
final class PrometheusText {
  private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
  private static final Pattern TYPE =
      Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
  private static final Pattern SAMPLE =
      Pattern.compile(
          "("
              + NAME
              + ")(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\"\\\\n])*\",?)*)})?"
              + " ([-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|Inf|NaN))(?: -?[0-9]+)?");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\"\\\\n])*)\"");
  private static final List<String> SUFFIXES =
      List.of("", "_total", "_bucket", "_count", "_sum", "_created");

  /** Each family's type, by its {@code # TYPE} name. */
  final Map<String, String> types = new LinkedHashMap<>();

  /** Each sample's value. */
  final Map<String, Double> samples = new LinkedHashMap<>();

  static PrometheusText parse(String text) {
    PrometheusText out = new PrometheusText();
    for (String line : text.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      Matcher m;
      if ((m = TYPE.matcher(line)).matches()) {
        if (out.types.put(m.group(1), m.group(2)) != null) {
          throw new AssertionError("family typed twice: " + line);
        }
      } else if (HELP.matcher(line).matches()) {
        continue;
      } else if ((m = SAMPLE.matcher(line)).matches()) {
        String name = m.group(1);
        if (SUFFIXES.stream()
            .noneMatch(
                s ->
                    name.endsWith(s)
                        && out.types.containsKey(name.substring(0, name.length() - s.length())))) {
          throw new AssertionError("a sample of no family typed before it: " + line);
        }
        String key = key(name, m.group(2));
        if (out.samples.put(key, Double.parseDouble(m.group(3).replace("Inf", "Infinity")))
            != null) {
          throw new AssertionError("sample given twice: " + line);
        }
      } else {
        throw new AssertionError("not Prometheus text exposition: '" + line + "'");
      }
    }
    return out;
  }

  private static String key(String name, String labels) {
    if (labels == null || labels.isEmpty()) {
      return name;
    }
    Map<String, String> sorted = new TreeMap<>();
    Matcher l = LABEL.matcher(labels);
    while (l.find()) {
      sorted.put(l.group(1), l.group(2));
    }
    StringBuilder b = new StringBuilder(name).append('{');
    sorted.forEach((k, v) -> b.append(k).append("=\"").append(v).append("\","));
    b.setLength(b.length() - 1);
    return b.append('}').toString();
  }

  /** The sample {@code key} ({@code name{a="x"}}, labels in name order); fails when absent. */
  double value(String key) {
    Double v = samples.get(key);
    if (v == null) {
      throw new AssertionError(
          "no sample "
              + key
              + "; samples of that name: "
              + samples.keySet().stream()
                  .filter(
                      k ->
                          k.startsWith(
                              key.contains("{") ? key.substring(0, key.indexOf('{')) : key))
                  .toList());
    }
    return v;
  }
}
